package content

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// bodyPolicy admits the elements of an article body and nothing else: no
// document elements (html, head, body), no script or style (their content
// is dropped too), no attributes but a link's href, and only http, https
// and mailto URLs — so event handlers and javascript: URLs cannot pass. It
// is built once and only read afterwards (bluemonday policies are safe for
// concurrent use once built).
var bodyPolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "strong", "em", "b", "i",
		"blockquote", "code", "pre", "table", "thead", "tbody", "tr", "th", "td", "br", "hr")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnFullyQualifiedLinks(false)
	return p
}()

// Sanitize returns the HTML fragment with everything but the body policy's
// elements and attributes removed.
func Sanitize(fragment string) string {
	return strings.TrimSpace(bodyPolicy.Sanitize(fragment))
}

// humanRule rewrites one phrase of machine-sounding prose.
type humanRule struct {
	re   *regexp.Regexp
	with string
}

// HumanizeRules are the documented rewrites applied to the article's text
// (never inside code or pre): filler openers are dropped, inflated words
// get their plain form, em dashes between words become commas, and curly
// quotes become straight ones. Matching ignores case; a rewrite keeps the
// capital of a sentence start.
var HumanizeRules = []struct{ Phrase, Replacement string }{
	{`it(?:'s| is) (?:important|worth) (?:to note|noting) that `, ""},
	{`it should be noted that `, ""},
	{`in today's (?:fast-paced|digital|ever-changing) (?:world|landscape), `, ""},
	{`in (?:conclusion|summary), `, ""},
	{`when it comes to `, "for "},
	{`delve into`, "look at"},
	{`delves into`, "looks at"},
	{`a testament to`, "proof of"},
	{`in the realm of`, "in"},
	{`navigate the complexities of`, "handle"},
	{`leverag(?:e|ing)`, "use"},
	{`utiliz(?:e|ing)`, "use"},
	{`seamlessly`, "smoothly"},
	{`seamless`, "smooth"},
	{`game[- ]changer`, "big step"},
	{`cutting-edge`, "modern"},
	{`robust`, "solid"},
	{`unlock the (?:full )?potential of`, "get more from"},
	{`elevate`, "improve"},
	{`\s*—\s*`, ", "},
	{`[“”]`, `"`},
	{`[‘’]`, `'`},
}

var humanRules = func() []humanRule {
	out := make([]humanRule, 0, len(HumanizeRules))
	for _, r := range HumanizeRules {
		pat := `(?i)` + r.Phrase
		if r.Replacement == "" {
			// A dropped opener hands its capital to the word after it.
			pat += `(\pL)`
		}
		out = append(out, humanRule{re: regexp.MustCompile(pat), with: r.Replacement})
	}
	return out
}()

var spaces = regexp.MustCompile(`[ \t]{2,}|[ \t]+([,.;:!?])`)

// Humanize applies HumanizeRules to one run of text.
func Humanize(s string) string {
	for _, r := range humanRules {
		s = r.re.ReplaceAllStringFunc(s, func(m string) string {
			if r.with != "" {
				return keepCase(m, r.with)
			}
			next, n := utf8.DecodeLastRuneInString(m)
			first, _ := utf8.DecodeRuneInString(m)
			if unicode.IsUpper(first) {
				return string(unicode.ToUpper(next))
			}
			return m[len(m)-n:]
		})
	}
	return spaces.ReplaceAllStringFunc(s, func(m string) string {
		if t := strings.TrimLeft(m, " \t"); t != "" {
			return t // no space before punctuation
		}
		return " "
	})
}

// keepCase gives with the capital of m's first letter.
func keepCase(m, with string) string {
	r, _ := utf8.DecodeRuneInString(m)
	if !unicode.IsUpper(r) {
		return with
	}
	w, n := utf8.DecodeRuneInString(with)
	return string(unicode.ToUpper(w)) + with[n:]
}

// rewrite parses a generated fragment, turns h1 into h2 (the title is
// separate from the body), humanizes its text outside code and pre, and
// renders it again.
func rewrite(fragment string) (string, error) {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), ctx)
	if err != nil {
		return "", err
	}
	var walk func(n *html.Node, code bool)
	walk = func(n *html.Node, code bool) {
		switch n.Type {
		case html.TextNode:
			if !code {
				n.Data = Humanize(n.Data)
			}
		case html.ElementNode:
			if n.DataAtom == atom.H1 {
				n.DataAtom, n.Data = atom.H2, "h2"
			}
			code = code || n.DataAtom == atom.Code || n.DataAtom == atom.Pre
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, code)
		}
	}
	var buf bytes.Buffer
	for _, n := range nodes {
		walk(n, false)
		if err := html.Render(&buf, n); err != nil {
			return "", err
		}
	}
	return buf.String(), nil
}

// Section is a heading of a body and the text under it (up to the next
// heading).
type Section struct {
	Level   int
	Heading string
	Text    string
}

// outline reads a body's headings (h2 to h6, in order) with the text under
// each, and the body's whole text.
func outline(fragment string) (sections []Section, text string) {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), ctx)
	if err != nil {
		return nil, ""
	}
	var all strings.Builder
	under := func(s string) { // text under the current heading, if any
		all.WriteString(s)
		if n := len(sections); n > 0 {
			sections[n-1].Text += s
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if lvl := headingLevel(n.DataAtom); lvl > 0 {
				h := collapse(textOf(n))
				sections = append(sections, Section{Level: lvl, Heading: h})
				all.WriteString(h + "\n")
				return
			}
		}
		if n.Type == html.TextNode {
			under(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && (n.DataAtom == atom.P || n.DataAtom == atom.Li || n.DataAtom == atom.Td) {
			under(" ") // block ends separate words
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	for i := range sections {
		sections[i].Text = collapse(sections[i].Text)
	}
	return sections, collapse(all.String())
}

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// wordCount counts the words of text.
func wordCount(text string) int { return len(strings.Fields(text)) }
