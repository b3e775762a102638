package tenants

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/validation"
)

// Limits of the names detection matches a tracked entity by (a brand
// profile's or a competitor's).
const (
	MaxNameLen = 100
	MaxAliases = 20
	MaxDomains = 20
)

// domainProfile turns a host name, Unicode ones included, into its ASCII
// form with the rules of host names (letters, digits, hyphens; labels of
// 1–63 characters).
var domainProfile = idna.New(idna.MapForLookup(), idna.ValidateLabels(true), idna.StrictDomainName(true), idna.VerifyDNSLength(true))

// CheckName trims name and reports, under field, an empty one, one over
// MaxNameLen characters or one with control characters.
func CheckName(ve *validation.Error, field, name string) string {
	name = strings.Join(strings.Fields(name), " ")
	switch {
	case name == "":
		ve.Add(field, "must not be empty")
	case utf8.RuneCountInString(name) > MaxNameLen:
		ve.Add(field, "must be at most %d characters", MaxNameLen)
	case strings.ContainsFunc(name, unicode.IsControl):
		ve.Add(field, "must not contain control characters")
	}
	return name
}

// CheckAliases checks each alias as a name and drops repeats (ignoring
// case and spacing) and aliases equal to name; at most MaxAliases.
func CheckAliases(ve *validation.Error, field, name string, aliases []string) []string {
	out := []string{}
	seen := map[string]bool{store.Fold(name): true}
	if len(aliases) > MaxAliases {
		ve.Add(field, "at most %d aliases", MaxAliases)
		return out
	}
	for _, a := range aliases {
		before := len(ve.Fields)
		a = CheckName(ve, field, a)
		if len(ve.Fields) > before || seen[store.Fold(a)] {
			continue
		}
		seen[store.Fold(a)] = true
		out = append(out, a)
	}
	return out
}

// CheckDomains checks each domain as a host name (acmenotes.com, not a
// URL), lower-cased and in its ASCII form, dropping repeats; at most
// MaxDomains.
func CheckDomains(ve *validation.Error, field string, domains []string) []string {
	out := []string{}
	if len(domains) > MaxDomains {
		ve.Add(field, "at most %d domains", MaxDomains)
		return out
	}
	for _, d := range domains {
		d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
		ascii, err := domainProfile.ToASCII(d)
		if err != nil || !hostName(ascii) || strings.ContainsAny(d, "/:@ ") {
			ve.Add(field, "%q is not a domain name such as acmenotes.com (no scheme, path or port)", d)
			continue
		}
		if !slices.Contains(out, ascii) {
			out = append(out, ascii)
		}
	}
	return out
}

// hostName reports whether s has two or more non-empty labels and a last
// label that is not a number (an IP address is no domain).
func hostName(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 || slices.Contains(labels, "") {
		return false
	}
	return strings.IndexFunc(labels[len(labels)-1], func(r rune) bool { return r < '0' || r > '9' }) >= 0
}
