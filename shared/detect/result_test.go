package detect

import (
	"slices"
	"testing"
)

// TestSharedResultSlices: the cited URLs and discovered names share one
// backing array; appending to one must not overwrite the other.
func TestSharedResultSlices(t *testing.T) {
	d := New(Entity{Name: "Acme", Domains: []string{"acme.com"}}, []Entity{{Name: "Zenflow", Domains: []string{"zenflow.io"}}})
	r := d.Detect("Good options are Acme, Trellix and Mondaybase. Zenflow is fine too.",
		[]Citation{{URL: "https://acme.com/a"}, {URL: "https://zenflow.io/b"}, {URL: "https://acme.com/c"}})
	if !slices.Equal(r.Brand.CitedURLs, []string{"https://acme.com/a", "https://acme.com/c"}) ||
		!slices.Equal(r.Competitors[0].CitedURLs, []string{"https://zenflow.io/b"}) {
		t.Fatalf("cited URLs %q, %q", r.Brand.CitedURLs, r.Competitors[0].CitedURLs)
	}
	if len(r.Discovered) == 0 {
		t.Fatalf("nothing discovered")
	}
	disc := slices.Clone(r.Discovered)
	comp := slices.Clone(r.Competitors[0].CitedURLs)
	_ = append(r.Brand.CitedURLs, "x")
	_ = append(r.Competitors[0].CitedURLs, "y")
	if !slices.Equal(r.Discovered, disc) || !slices.Equal(r.Competitors[0].CitedURLs, comp) {
		t.Errorf("an append overwrote a neighbour: %q, %q", r.Discovered, r.Competitors[0].CitedURLs)
	}
}
