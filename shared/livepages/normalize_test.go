package livepages_test

import (
	"testing"

	"github.com/brandlens/brandlens/shared/livepages"
)

func TestNormalize(t *testing.T) {
	same := [][]string{
		{"https://blog.example.com/guides/notes", "http://blog.example.com/guides/notes", "HTTPS://Blog.EXAMPLE.com/guides/notes/",
			"https://www.blog.example.com/guides/notes", "https://blog.example.com:443/guides/notes#top",
			"https://blog.example.com/guides/./notes?utm_source=chatgpt.com", "https://blog.example.com//guides/notes?utm_medium=x&gclid=1&srsltid=abc"},
		{"https://example.com", "https://example.com/", "http://EXAMPLE.com:80/", "https://example.com/?fbclid=x"},
		{"https://example.com/p?b=2&a=1", "https://example.com/p?a=1&b=2&utm_campaign=z"},
	}
	for _, group := range same {
		want, ok := livepages.Normalize(group[0])
		if !ok {
			t.Fatalf("%s not normalised", group[0])
		}
		for _, u := range group[1:] {
			if got, ok := livepages.Normalize(u); !ok || got != want {
				t.Errorf("Normalize(%q) = %q, want %q", u, got, want)
			}
		}
	}
	differ := [][2]string{
		{"https://example.com/a", "https://example.com/b"},
		{"https://example.com/p?id=1", "https://example.com/p?id=2"},
		{"https://example.com/p", "https://other.com/p"},
	}
	for _, d := range differ {
		a, _ := livepages.Normalize(d[0])
		b, _ := livepages.Normalize(d[1])
		if a == b {
			t.Errorf("%s and %s normalise alike (%s)", d[0], d[1], a)
		}
	}
	for _, bad := range []string{"", "ftp://example.com/x", "/relative", "mailto:a@b.c", "https://"} {
		if n, ok := livepages.Normalize(bad); ok {
			t.Errorf("Normalize(%q) = %q, accepted", bad, n)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"https://example.com/a?utm_source=x", "http://WWW.x.org:80//a/../b/#f", "https://[::1]:8080/p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := livepages.Normalize(s)
		if !ok {
			return
		}
		// Normalising is idempotent: the form normalises to itself.
		again, ok := livepages.Normalize("https://" + n)
		if !ok || again != n {
			t.Errorf("Normalize(%q) = %q, but that normalises to %q (%v)", s, n, again, ok)
		}
	})
}
