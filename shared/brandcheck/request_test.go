package brandcheck_test

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/validation"
)

func sp(s string) *string { return &s }

func TestValidate(t *testing.T) {
	ok := func(brand, site string) brandcheck.Input {
		return brandcheck.Input{BrandName: sp(brand), WebsiteURL: sp(site), RecaptchaToken: sp("tok")}
	}
	cases := []struct {
		name     string
		in       brandcheck.Input
		fields   []string // invalid members, in order
		host     string
		wantName string
	}{
		{name: "valid", in: ok("  Acme   Notes ", "https://www.Acme-Notes.com/pricing"), host: "acme-notes.com", wantName: "Acme Notes"},
		{name: "valid http with port", in: ok("Acme", "http://acme.io:8080/"), host: "acme.io", wantName: "Acme"},
		{name: "public IPv4 literal", in: ok("Acme", "http://8.8.8.8/"), host: "8.8.8.8", wantName: "Acme"},
		{name: "all missing", in: brandcheck.Input{}, fields: []string{"brandName", "websiteUrl", "recaptchaToken"}},
		{name: "all blank", in: brandcheck.Input{BrandName: sp(" "), WebsiteURL: sp(""), RecaptchaToken: sp("\t")},
			fields: []string{"brandName", "websiteUrl", "recaptchaToken"}},
		{name: "brand of 100 characters", in: ok(strings.Repeat("é", 100), "https://acme.com"), host: "acme.com", wantName: strings.Repeat("é", 100)},
		{name: "brand of 101 characters", in: ok(strings.Repeat("a", 101), "https://acme.com"), fields: []string{"brandName"}},
		{name: "brand with a control character", in: ok("Acme\x00", "https://acme.com"), fields: []string{"brandName"}},
		{name: "brand not UTF-8", in: ok("Acme\xff", "https://acme.com"), fields: []string{"brandName"}},
		{name: "bare domain", in: ok("Acme", "acme.com"), fields: []string{"websiteUrl"}},
		{name: "ftp", in: ok("Acme", "ftp://acme.com/"), fields: []string{"websiteUrl"}},
		{name: "javascript", in: ok("Acme", "javascript:alert(1)"), fields: []string{"websiteUrl"}},
		{name: "localhost", in: ok("Acme", "http://localhost:8080/"), fields: []string{"websiteUrl"}},
		{name: "loopback", in: ok("Acme", "http://127.0.0.1/"), fields: []string{"websiteUrl"}},
		{name: "loopback as a number", in: ok("Acme", "http://2130706433/"), fields: []string{"websiteUrl"}},
		{name: "loopback in hex", in: ok("Acme", "http://0x7f.1/"), fields: []string{"websiteUrl"}},
		{name: "mapped loopback", in: ok("Acme", "http://[::ffff:127.0.0.1]/"), fields: []string{"websiteUrl"}},
		{name: "private", in: ok("Acme", "http://10.1.2.3/"), fields: []string{"websiteUrl"}},
		{name: "metadata service", in: ok("Acme", "http://169.254.169.254/latest/"), fields: []string{"websiteUrl"}},
		{name: "user information", in: ok("Acme", "http://evil@acme.com/"), fields: []string{"websiteUrl"}},
		{name: "single label", in: ok("Acme", "http://intranet/"), fields: []string{"websiteUrl"}},
		{name: "internal suffix", in: ok("Acme", "http://wiki.corp.internal/"), fields: []string{"websiteUrl"}},
		{name: "public suffix only", in: ok("Acme", "https://co.uk/"), fields: []string{"websiteUrl"}},
		{name: "bad label", in: ok("Acme", "https://ac_me.com/"), fields: []string{"websiteUrl"}},
		{name: "token too long", in: brandcheck.Input{BrandName: sp("Acme"), WebsiteURL: sp("https://acme.com"),
			RecaptchaToken: sp(strings.Repeat("t", brandcheck.MaxToken+1))}, fields: []string{"recaptchaToken"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := brandcheck.Validate(tc.in)
			if len(tc.fields) == 0 {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if r.Host != tc.host || r.BrandName != tc.wantName {
					t.Errorf("got host %q brand %q", r.Host, r.BrandName)
				}
				return
			}
			var ve *validation.Error
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want *validation.Error", err)
			}
			var got []string
			for _, f := range ve.Fields {
				got = append(got, f.Field)
				if f.Message == "" {
					t.Errorf("%s has no message", f.Field)
				}
			}
			if !slices.Equal(got, tc.fields) {
				t.Errorf("fields = %v, want %v", got, tc.fields)
			}
		})
	}
}

func TestCategory(t *testing.T) {
	cases := []struct{ brand, host, want string }{
		{"Acme CRM", "acme.com", "CRM"},
		{"Acme", "acme-notes.com", "note-taking"},
		{"Acme", "acmenotes.com", "note-taking"},
		{"AcmeNotes", "acme.com", "note-taking"},
		{"Acme", "app.acme-invoices.co.uk", "invoicing"},
		{"Acme", "acme.ai", "AI"},
		{"Acme", "acme.com", brandcheck.DefaultCategory},
		{"Acme", "8.8.8.8", brandcheck.DefaultCategory},
		{"Zoë Pay", "zoe.de", "payments"},
		{"Mypay", "mypay.com", brandcheck.DefaultCategory}, // "pay" leaves only "my": too short to be a name
		{"Acme", "acmepassword.com", "password manager"},
	}
	for _, tc := range cases {
		t.Run(tc.brand+" "+tc.host, func(t *testing.T) {
			if got := brandcheck.Category(tc.brand, tc.host); got != tc.want {
				t.Errorf("Category = %q, want %q", got, tc.want)
			}
		})
	}
	qs := brandcheck.Questions("Acme Notes", "acmenotes.com")
	want := []string{"best note-taking tools", "Acme Notes alternatives", "what is Acme Notes"}
	var sum float64
	for i, q := range qs {
		if q.Text != want[i] {
			t.Errorf("question %d = %q, want %q", i, q.Text, want[i])
		}
		sum += q.Weight
	}
	if sum != 1 {
		t.Errorf("weights sum to %v", sum)
	}
}

func TestClientAddress(t *testing.T) {
	const secret = "origin-secret-0123456789"
	trusted := brandcheck.ProxyTrust{Secret: secret}
	cases := []struct {
		name    string
		trust   brandcheck.ProxyTrust
		peer    string
		headers map[string]string
		want    string
	}{
		{name: "local: TCP peer", peer: "127.0.0.1:51234", want: "127.0.0.1"},
		{name: "local: viewer header ignored", peer: "127.0.0.1:51234",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "203.0.113.9:4000"}, want: "127.0.0.1"},
		{name: "no secret configured: header ignored even with a secret header", peer: "127.0.0.1:1",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "203.0.113.9:4000", brandcheck.OriginSecretHeader: ""}, want: "127.0.0.1"},
		{name: "wrong secret: peer", trust: trusted, peer: "198.51.100.1:443",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "203.0.113.9:4000", brandcheck.OriginSecretHeader: "guess"}, want: "198.51.100.1"},
		{name: "secret prefix is not the secret", trust: trusted, peer: "198.51.100.1:443",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "203.0.113.9:4000", brandcheck.OriginSecretHeader: secret[:10]}, want: "198.51.100.1"},
		{name: "through CloudFront: viewer", trust: trusted, peer: "198.51.100.1:443",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "203.0.113.9:4000", brandcheck.OriginSecretHeader: secret}, want: "203.0.113.9"},
		{name: "through CloudFront: IPv6 viewer", trust: trusted, peer: "198.51.100.1",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "2001:db8::7:46532", brandcheck.OriginSecretHeader: secret}, want: "2001:db8::7"},
		{name: "through CloudFront: unusable viewer header falls back to peer", trust: trusted, peer: "198.51.100.1",
			headers: map[string]string{brandcheck.ViewerAddressHeader: "nonsense", brandcheck.OriginSecretHeader: secret}, want: "198.51.100.1"},
		{name: "bare peer (API Gateway sourceIp)", peer: "203.0.113.5", want: "203.0.113.5"},
		{name: "IPv6 peer", peer: "[::1]:8080", want: "::1"},
		{name: "mapped peer unmapped", peer: "[::ffff:203.0.113.5]:80", want: "203.0.113.5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.trust.ClientAddress(tc.peer, func(k string) string { return tc.headers[k] })
			if err != nil {
				t.Fatal(err)
			}
			if got != netip.MustParseAddr(tc.want) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := (brandcheck.ProxyTrust{}).ClientAddress("not-an-address", func(string) string { return "" }); err == nil {
		t.Error("an unusable peer was accepted")
	}
}

func TestParseViewerAddress(t *testing.T) {
	cases := []struct{ in, want string }{
		{"198.51.100.10:46532", "198.51.100.10"},
		{"2001:db8:85a3::8a2e:370:7334:46532", "2001:db8:85a3::8a2e:370:7334"},
		{"[2001:db8::1]:443", "2001:db8::1"},
		{"203.0.113.1", "203.0.113.1"},
		{"::ffff:203.0.113.1:80", "203.0.113.1"},
		{"", ""}, {"abc", ""}, {"1.2.3.4:99999", ""}, {"fe80::1%eth0:80", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			a, err := brandcheck.ParseViewerAddress(tc.in)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("accepted as %s", a)
				}
				return
			}
			if err != nil || a != netip.MustParseAddr(tc.want) {
				t.Fatalf("got %s, %v; want %s", a, err, tc.want)
			}
		})
	}
}

func FuzzParseViewerAddress(f *testing.F) {
	for _, s := range []string{"198.51.100.10:46532", "2001:db8::1:443", "[::1]:80", "1.2.3.4", "::ffff:1.2.3.4:5", "%", ":::::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := brandcheck.ParseViewerAddress(s)
		if err != nil {
			return
		}
		if !a.IsValid() || a.Zone() != "" || a.Is4In6() {
			t.Fatalf("%q gave %v", s, a)
		}
	})
}

func FuzzValidate(f *testing.F) {
	f.Add("Acme", "https://acme.com/", "tok")
	f.Add(" ", "http://0x7f.1/", "")
	f.Add("Zoë", "http://[::1]/", strings.Repeat("x", 5000))
	f.Fuzz(func(t *testing.T, brand, site, token string) {
		r, err := brandcheck.Validate(brandcheck.Input{BrandName: &brand, WebsiteURL: &site, RecaptchaToken: &token})
		if err != nil {
			var ve *validation.Error
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if r.BrandName == "" || r.Host == "" || r.Token == "" || r.Website == nil {
			t.Fatalf("accepted an empty member: %+v", r)
		}
		if r.Host == "localhost" || strings.HasPrefix(r.Host, "127.") {
			t.Fatalf("accepted a loopback website %q", site)
		}
	})
}

func TestProxyTrustFromEnv(t *testing.T) {
	tr := brandcheck.ProxyTrustFromEnv(func(k string) string {
		return map[string]string{brandcheck.EnvOriginSecret: " s3cret "}[k]
	})
	got, err := tr.ClientAddress("198.51.100.1:1", func(k string) string {
		return map[string]string{brandcheck.OriginSecretHeader: "s3cret", brandcheck.ViewerAddressHeader: "203.0.113.4:9"}[k]
	})
	if err != nil || got != netip.MustParseAddr("203.0.113.4") {
		t.Fatalf("got %s, %v", got, err)
	}
}

func TestClientKeyFrom(t *testing.T) {
	a, err := brandcheck.ClientKeyFrom([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil || len(a) != 32 {
		t.Fatalf("%x %v", a, err)
	}
	b, _ := brandcheck.ClientKeyFrom([]byte("0123456789abcdef0123456789abcdeF"))
	again, _ := brandcheck.ClientKeyFrom([]byte("0123456789abcdef0123456789abcdef"))
	switch {
	case string(a) == string(b):
		t.Error("two secrets derive the same key")
	case string(a) != string(again):
		t.Error("the derivation is not deterministic")
	case string(a) == "0123456789abcdef0123456789abcdef":
		t.Error("the secret is used as it is")
	}
	if _, err := brandcheck.ClientKeyFrom([]byte("short")); err == nil {
		t.Error("a short secret was accepted")
	}
}
