package timeline_test

import (
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/timeline"
)

func TestParseCursor(t *testing.T) {
	for in, ok := range map[string]bool{
		"01m8z3k4q5r6s7t8v9w0x1y2z3": true,
		"01M8Z3K4Q5R6S7T8V9W0X1Y2Z3": false, // ids are lowercase
		"01m8z3k4q5r6s7t8v9w0x1y2z":  false,
		"81m8z3k4q5r6s7t8v9w0x1y2z3": false, // overflows the time part
		"01m8z3k4q5r6s7t8v9w0x1y2zu": false, // u is not Crockford base32
		"":                           false,
	} {
		if _, err := timeline.ParseCursor(in); (err == nil) != ok {
			t.Errorf("ParseCursor(%q): %v", in, err)
		}
	}
}

// Cursors come from clients: any string is refused or accepted without a
// panic, and an accepted one is its own canonical form.
func FuzzParseCursor(f *testing.F) {
	f.Add("01m8z3k4q5r6s7t8v9w0x1y2z3")
	f.Add("zzzzzzzzzzzzzzzzzzzzzzzzzz")
	f.Add("01m8z3k4q5r6s7t8v9w0x1y2z\xff")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := timeline.ParseCursor(s)
		if err == nil && (c != s || strings.ToLower(s) != s || len(s) != 26) {
			t.Errorf("accepted %q as %q", s, c)
		}
	})
}
