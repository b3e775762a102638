package detect

import (
	"slices"
	"strings"
	"unicode"
)

// An ordinary word its owner writes in capitals (round d14): "KIND bars
// are healthier than most candy bars". The brand lists the form "KIND"
// among its names; prose writes the word in capitals only as the name, or
// to shout — and shouting runs over the words beside it or the whole line
// ("BE KIND TO YOURSELF").

// capsStyled: f is one word of at least three capital Latin letters that
// is an ordinary English word in lower case ("KIND", "DASH"), not an
// initialism no word list holds ("IBM").
func capsStyled(f string) bool {
	if len(f) < 3 {
		return false
	}
	for i := 0; i < len(f); i++ {
		if f[i] < 'A' || f[i] > 'Z' {
			return false
		}
	}
	return ordinaryLevel(strings.ToLower(f)) > levelShort
}

// ownCaps: the candidate is written exactly as a capitals form of its
// owner's, in a line that is not all capitals, and neither word beside it
// is written in capitals too: the owner's styling, a cue as "the app" is.
// style is the line's titleStyle, which the caller has read.
func (an *analysis) ownCaps(c *cand, prev, next tok, style int) bool {
	caps := an.d.ents[c.ent].caps
	if len(caps) == 0 || !slices.Contains(caps, an.text[c.start:c.end]) {
		return false
	}
	shout := func(w string) bool {
		return len(w) >= 2 && !strings.ContainsFunc(w, unicode.IsLower) && strings.ContainsFunc(w, unicode.IsLetter)
	}
	return !shout(prev.word) && !shout(next.word) && style != styleTitle
}
