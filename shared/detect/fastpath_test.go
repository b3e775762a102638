package detect

import (
	"strings"
	"testing"
)

// The speed-ups of hot helpers must answer exactly as the code they
// replaced: these reference copies are that code, and the fuzz target
// compares the two on any text (its seeds run in every `go test`).

func wordAtAnyReference(s string, pos int) (string, int) {
	st := strings.IndexFunc(s[pos:], isWordRune)
	if st < 0 {
		return "", len(s)
	}
	st += pos
	end := strings.IndexFunc(s[st:], func(r rune) bool { return !isWordRune(r) && r != '\'' })
	if end < 0 {
		return s[st:], len(s)
	}
	return s[st : st+end], st + end
}

func questionReference(s string) bool {
	return strings.HasSuffix(strings.TrimRight(s, " *_)\"”"), "?")
}

func verdictLineReference(t string) bool {
	t = strings.TrimLeft(t, " \t*_#>-")
	for _, l := range verdictLabels {
		if len(t) >= len(l) && strings.EqualFold(t[:len(l)], l) {
			rest := strings.TrimLeft(t[len(l):], "*_")
			return strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, " —") || strings.HasPrefix(rest, ".")
		}
	}
	return false
}

func sameListBlockReference(text string, a, b int) bool {
	if b-a > listWindow {
		return false
	}
	pos := a
	for {
		nl := -1
		for k := pos; k < b; k++ {
			if text[k] == '\n' {
				nl = k
				break
			}
		}
		if nl < 0 {
			return true
		}
		pos = nl + 1
		if pos >= b {
			return true
		}
		end := pos
		for end < len(text) && text[end] != '\n' {
			end++
		}
		line := text[pos:end]
		if trimLeftSpace(line) == "" || line[0] == ' ' || line[0] == '\t' || isListLine(line) {
			continue
		}
		return false
	}
}

func FuzzFastPaths(f *testing.F) {
	for _, s := range []string{
		"", "?", "Is it good?** ", "Why not?”", "Really?\xe2\x80", "a”?”", "\xe2\xe2\x80\x9d?",
		"**Verdict:** get it.", "ﬁnal verdict: no", "\u212aurz gesagt: ja", "Overall, fine", "in short — ok", "TL;DR: skip",
		"Mr. Smith went. Then e.g. this! Is it? Yes.\n\n\nNo", "$19.99 a month. Cheap.", "a...b. c",
		" — ", "\xe2\xe2\x80\x94", "\xf0\xe2\x80\x93x", "a–b", " ( ",
		"don't, can’t — l'été Ünïcödé wörds; x\xffy", "1. Acme\n2. Bolt\n   more\n\nText\n- Dash", "a\n\n\nb",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := question(s), questionReference(s); got != want {
			t.Errorf("question(%q) = %v, want %v", s, got, want)
		}
		if got, want := gapBreaks(s), strings.ContainsAny(s, ",;:—–("); got != want {
			t.Errorf("gapBreaks(%q) = %v, want %v", s, got, want)
		}
		if got, want := verdictLine(s), verdictLineReference(s); got != want {
			t.Errorf("verdictLine(%q) = %v, want %v", s, got, want)
		}
		for pos := 0; pos <= len(s); pos++ {
			w, np := wordAtAny(s, pos)
			rw, rnp := wordAtAnyReference(s, pos)
			if w != rw || np != rnp {
				t.Fatalf("wordAtAny(%q, %d) = %q, %d, want %q, %d", s, pos, w, np, rw, rnp)
			}
		}
		for from := 0; from <= len(s); from++ {
			st, en, ok := sentenceAfter(s, from)
			rs, re, rok := sentenceAfterReference(s, from)
			if st != rs || en != re || ok != rok {
				t.Fatalf("sentenceAfter(%q, %d) = %d, %d, %v, want %d, %d, %v", s, from, st, en, ok, rs, re, rok)
			}
		}
		long := strings.Repeat(s+" ", maxGovernedBytes/max(1, len(s)+1)+2)
		st, en, _ := sentenceAfter(long, 1)
		if rs, re, _ := sentenceAfterReference(long, 1); st != rs || en != re {
			t.Fatalf("sentenceAfter on %d bytes = %d, %d, want %d, %d", len(long), st, en, rs, re)
		}
		for a := 0; a <= len(s) && a < 40; a++ {
			for b := a; b <= len(s) && b < 80; b++ {
				if got, want := sameListBlock(s, a, b), sameListBlockReference(s, a, b); got != want {
					t.Fatalf("sameListBlock(%q, %d, %d) = %v, want %v", s, a, b, got, want)
				}
			}
		}
	})
}

// sentenceAfterReference: the sentence's end as the byte loop found it
// (its start is unchanged code).
func sentenceAfterReference(text string, from int) (s, e int, ok bool) {
	if s, _, ok = sentenceAfter(text, from); !ok {
		return 0, 0, false
	}
	for e = s; e < len(text) && e-s < maxGovernedBytes; e++ {
		c := text[e]
		if c == '\n' {
			break
		}
		if (c == '.' || c == '!' || c == '?') && (e+1 == len(text) || isSpaceByte(text[e+1])) && (c != '.' || isBreakDot(text, e)) {
			return s, e + 1, true
		}
	}
	return s, e, true
}
