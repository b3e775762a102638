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

// Opaque cursors come from clients too: any string is refused or decodes
// to an id the validator accepted, which encodes back to the same cursor;
// every id round-trips.
func FuzzDecodeCursor(f *testing.F) {
	f.Add(timeline.EncodeCursor("01m8z3k4q5r6s7t8v9w0x1y2z3"), "01m8z3k4q5r6s7t8v9w0x1y2z3")
	f.Add(timeline.EncodeCursor("dlv_01m8z3k4q5r6s7t8v9w0x1y2z3_01jpb7zq"), "dlv_x")
	f.Add("ZGx2X3g7ZHJvcA", "")
	f.Add("!!", "a")
	f.Add("YQ==", "a")
	valid := func(id string) bool {
		return id != "" && len(id) <= 64 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789_") == ""
	}
	f.Fuzz(func(t *testing.T, cursor, id string) {
		if got, err := timeline.DecodeCursor(cursor, valid); err == nil && (!valid(got) || timeline.EncodeCursor(got) != cursor) {
			t.Errorf("accepted %q as %q", cursor, got)
		}
		if got, err := timeline.DecodeCursor(timeline.EncodeCursor(id), func(string) bool { return true }); err != nil || got != id {
			t.Errorf("%q round-trips as %q, %v", id, got, err)
		}
	})
}
