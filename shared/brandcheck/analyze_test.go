package brandcheck

import (
	"testing"

	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/providers"
)

// TestCitedFor: a citation spanning a sentence is the cited page of the
// competitors named in it, except another brand's own site.
func TestCitedFor(t *testing.T) {
	text := "Contoso and Fabrikam are solid alternatives. Tailspin is also good."
	brand := detect.Entity{Name: "Acme", Domains: []string{"acme.com"}}
	comps := []detect.Entity{{Name: "Contoso", Domains: []string{"contoso.com"}}, {Name: "Fabrikam"}, {Name: "Tailspin"}}
	ans := providers.Answer{Text: text, Citations: []providers.Citation{
		{URL: "https://www.contoso.com/", Start: 0, End: 44},
		{URL: "https://review.example.org/tailspin", Start: 45, End: 67},
	}}
	res := detect.New(brand, comps).Detect(text, citationsOf(ans))
	owner := map[string]string{"acme.com": "Acme", "contoso.com": "Contoso"}
	cases := []struct{ name, want string }{
		{"Contoso", "https://www.contoso.com/"},
		{"Fabrikam", ""},
		{"Tailspin", "https://review.example.org/tailspin"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := citedFor(comps[i], res.Competitors[i], ans, owner); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
