package tenants_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
)

func TestCheckDomains(t *testing.T) {
	cases := []struct {
		in   []string
		want []string
		bad  bool
	}{
		{[]string{"AcmeNotes.com", "acmenotes.com.", " blog.acmenotes.com "}, []string{"acmenotes.com", "blog.acmenotes.com"}, false},
		{[]string{"bücher.de"}, []string{"xn--bcher-kva.de"}, false},
		{[]string{"https://acmenotes.com/"}, nil, true},
		{[]string{"acmenotes.com:443"}, nil, true},
		{[]string{"localhost"}, nil, true},
		{[]string{"user@acmenotes.com"}, nil, true},
		{[]string{"-acme.com"}, nil, true},
		{[]string{""}, nil, true},
		{[]string{"127.0.0.1"}, nil, true},
		{[]string{"0.."}, nil, true},
		{make([]string, tenants.MaxDomains+1), nil, true},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.in, ","), func(t *testing.T) {
			var ve validation.Error
			got := tenants.CheckDomains(&ve, "domains", c.in)
			if (ve.Err() != nil) != c.bad {
				t.Fatalf("CheckDomains(%q): %v", c.in, ve.Err())
			}
			if !c.bad && !slices.Equal(got, c.want) {
				t.Errorf("CheckDomains(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCheckAliases(t *testing.T) {
	var ve validation.Error
	got := tenants.CheckAliases(&ve, "aliases", "Acme Notes", []string{" Acme  Jotter ", "acme jotter", "ACME NOTES", "AcmeNotes"})
	if ve.Err() != nil || !slices.Equal(got, []string{"Acme Jotter", "AcmeNotes"}) {
		t.Errorf("aliases %q, %v", got, ve.Err())
	}
	ve = validation.Error{}
	tenants.CheckAliases(&ve, "aliases", "Acme", []string{"ok", "bad\u0007bell", strings.Repeat("x", tenants.MaxNameLen+1)})
	if len(ve.Fields) != 2 {
		t.Errorf("errors %+v", ve.Fields)
	}
}

var hostName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$`)

// Whatever a client sends as domains, what is kept is a list of ASCII host
// names (never a URL, a port or user information), and bad input is a
// field error, never a panic.
func FuzzCheckDomains(f *testing.F) {
	for _, s := range []string{"acmenotes.com", "https://acmenotes.com/x", "bücher.de", "a..b", "xn--bcher-kva.de", "127.0.0.1", "[::1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var ve validation.Error
		for _, d := range tenants.CheckDomains(&ve, "domains", []string{s}) {
			if !hostName.MatchString(d) {
				t.Fatalf("kept %q from %q", d, s)
			}
		}
		for _, fe := range ve.Fields {
			if fe.Field != "domains" {
				t.Fatalf("error names %q", fe.Field)
			}
		}
	})
}
