package httpapi

import "testing"

func TestNegotiateReport(t *testing.T) {
	cases := []struct {
		accept []string
		want   string
	}{
		{nil, mediaJSON},
		{[]string{"*/*"}, mediaJSON},
		{[]string{"application/json"}, mediaJSON},
		{[]string{"text/json"}, mediaTextJSON},
		{[]string{"text/plain"}, mediaText},
		{[]string{"text/plain; charset=utf-8"}, mediaText},
		{[]string{"TEXT/PLAIN"}, mediaText},
		{[]string{"text/plain; charset=iso-8859-1"}, mediaJSON}, // the report is UTF-8 only
		{[]string{"text/plain;q=0.5, application/json"}, mediaJSON},
		{[]string{"application/json;q=0.2, text/plain;q=0.9"}, mediaText},
		{[]string{"text/html", "text/plain"}, mediaText}, // several Accept headers are one list
		{[]string{"text/html, application/xhtml+xml"}, mediaJSON},
		{[]string{"image/png"}, mediaJSON},        // none acceptable: the default
		{[]string{"text/plain;q=0"}, mediaJSON},   // refused explicitly
		{[]string{"not a media type"}, mediaJSON}, // unparsable: the default
		{[]string{"text/*"}, mediaTextJSON},
	}
	for _, tc := range cases {
		if got := negotiateReport(tc.accept); got != tc.want {
			t.Errorf("Accept %q: %s, want %s", tc.accept, got, tc.want)
		}
	}
}

// FuzzNegotiateReport: any Accept header picks one of the three media
// types, without panicking.
func FuzzNegotiateReport(f *testing.F) {
	for _, s := range []string{"", "*/*", "text/plain", "text/plain;q=0.5, application/json", "a/b;c=\"d\\\"e\";q=1.000, */*;q=0",
		"text/json;q=0.", ",,,", "text/plain;q=1.0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		switch got := negotiateReport([]string{accept}); got {
		case mediaJSON, mediaTextJSON, mediaText:
		default:
			t.Fatalf("Accept %q: %q", accept, got)
		}
	})
}
