package brandcheck

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/validation"
)

// Input is the BrandCheckRequest as received: every member may be absent.
type Input struct {
	BrandName      *string
	WebsiteURL     *string
	RecaptchaToken *string
}

// Request is a validated Input.
type Request struct {
	// BrandName is trimmed, with inner runs of whitespace collapsed.
	BrandName string
	// Website is the parsed URL; Host its lowercase host without "www.".
	Website *url.URL
	Host    string
	Token   string
}

// Limits of the members.
const (
	MaxBrandName = 100
	MaxToken     = 4096
)

// Validate checks every member and names each bad one. The website must be
// an absolute http(s) URL of a public host: the SSRF guard's text rules
// (no loopback, private or special-purpose address in any notation, no
// user@, no localhost) and a host name under a public suffix
// ("intranet", "corp.local" are refused). The website is never fetched.
func Validate(in Input) (Request, error) {
	var fields validation.Error
	bad := fields.Add
	var r Request
	switch {
	case in.BrandName == nil || strings.TrimSpace(*in.BrandName) == "":
		bad("brandName", "is required")
	case !utf8.ValidString(*in.BrandName):
		bad("brandName", "must be valid UTF-8")
	case strings.ContainsFunc(*in.BrandName, isControl):
		bad("brandName", "must not contain control characters")
	default:
		r.BrandName = strings.Join(strings.Fields(*in.BrandName), " ")
		if n := utf8.RuneCountInString(r.BrandName); n > MaxBrandName {
			bad("brandName", "must be at most %d characters (got %d)", MaxBrandName, n)
		}
	}
	if in.WebsiteURL == nil || strings.TrimSpace(*in.WebsiteURL) == "" {
		bad("websiteUrl", "is required")
	} else if u, host, err := publicWebsite(strings.TrimSpace(*in.WebsiteURL)); err != nil {
		bad("websiteUrl", "%s", err.Error())
	} else {
		r.Website, r.Host = u, host
	}
	switch {
	case in.RecaptchaToken == nil || strings.TrimSpace(*in.RecaptchaToken) == "":
		bad("recaptchaToken", "is required")
	case len(*in.RecaptchaToken) > MaxToken:
		bad("recaptchaToken", "must be at most %d characters", MaxToken)
	default:
		r.Token = strings.TrimSpace(*in.RecaptchaToken)
	}
	if err := fields.Err(); err != nil {
		return Request{}, err
	}
	return r, nil
}

func isControl(r rune) bool { return unicode.IsControl(r) && r != ' ' }

// publicWebsite parses raw as the website of a brand.
func publicWebsite(raw string) (*url.URL, string, error) {
	u, err := ssrf.Guard{}.CheckURL(raw)
	if err != nil {
		return nil, "", err
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		// CheckURL already refused special-purpose addresses.
		return u, ip.String(), nil
	}
	for _, label := range strings.Split(host, ".") {
		if !validLabel(label) {
			return nil, "", fmt.Errorf("has an invalid host name")
		}
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	if !icann && !strings.Contains(suffix, ".") {
		return nil, "", fmt.Errorf("must name a public host (%q is not a public domain)", host)
	}
	if _, err := publicsuffix.EffectiveTLDPlusOne(host); err != nil {
		return nil, "", fmt.Errorf("must name a public host, not only a domain suffix")
	}
	return u, strings.TrimPrefix(host, "www."), nil
}

func validLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, r := range l {
		if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
