package content

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Content formats of a brief.
const (
	FormatArticle    = "article"
	FormatFAQ        = "faq"
	FormatComparison = "comparison"
	FormatListicle   = "listicle"
	FormatHowTo      = "how_to"
)

// Formats lists the formats (the API's enum); DefaultFormat applies when
// the request names none.
var Formats = []string{FormatArticle, FormatFAQ, FormatComparison, FormatListicle, FormatHowTo}

// DefaultFormat is the format of a brief request without one.
const DefaultFormat = FormatArticle

// DefaultWordCount is each format's target length when the model proposes
// none within MinWordCount..MaxWordCount.
var DefaultWordCount = map[string]int{
	FormatArticle: 1200, FormatFAQ: 900, FormatComparison: 1400, FormatListicle: 1300, FormatHowTo: 1100,
}

// Bounds of a brief's word count.
const (
	MinWordCount = 300
	MaxWordCount = 4000
)

// ErrInvalidFormat: the content format is not one of Formats.
var ErrInvalidFormat = fmt.Errorf("contentFormat must be one of %s", strings.Join(Formats, ", "))

// Format returns the requested format, DefaultFormat for "".
func Format(s string) (string, error) {
	if s == "" {
		return DefaultFormat, nil
	}
	if !slices.Contains(Formats, s) {
		return "", ErrInvalidFormat
	}
	return s, nil
}

// DefaultPersona writes when the request names no persona.
const DefaultPersona = "an experienced practitioner who has used the leading tools and writes plainly for peers"

// MaxPersona is the longest persona accepted, in characters.
const MaxPersona = 200

// ErrInvalidPersona: empty after trimming, too long, or with control
// characters (it is placed in the prompt).
var ErrInvalidPersona = fmt.Errorf("persona must be 1 to %d characters without line breaks or control characters", MaxPersona)

// Persona returns the cleaned persona, DefaultPersona for nil.
func Persona(p *string) (string, error) {
	if p == nil {
		return DefaultPersona, nil
	}
	s := strings.TrimSpace(*p)
	if s == "" || utf8.RuneCountInString(s) > MaxPersona || !utf8.ValidString(s) ||
		strings.ContainsFunc(s, unicode.IsControl) {
		return "", ErrInvalidPersona
	}
	return s, nil
}

// ErrNoBrief: an article needs the opportunity's brief first.
var ErrNoBrief = errors.New("content: the opportunity has no brief yet")
