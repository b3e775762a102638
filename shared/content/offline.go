package content

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"html"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
)

// OfflineModel is the model name the offline generator reports.
const OfflineModel = "brandlens-offline-writer-1"

// Offline is the deterministic generator of `make run` and tests: it reads
// the input block of a brief or article prompt (InputBlock) and writes the
// JSON answer a model would — a brief planned from the evidence, or a
// readable article built from the brief's outline, facts, entities and the
// quoted answers. The same prompt always gets the same answer. A prompt
// without a recognised input block is a KindInvalid error.
type Offline struct{}

// NewOffline returns the offline generator.
func NewOffline() Offline { return Offline{} }

// Generate implements models.Generator.
func (Offline) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return models.Response{}, &models.Error{Vendor: models.VendorOffline, Model: OfflineModel, Kind: models.KindTimeout, Message: err.Error()}
	}
	block, ok := InputBlock(req.Messages)
	var task struct {
		Task string `json:"task"`
	}
	if !ok || json.Unmarshal(block, &task) != nil {
		return models.Response{}, &models.Error{Vendor: models.VendorOffline, Model: OfflineModel, Kind: models.KindInvalid,
			Message: "the offline writer needs a brief or article prompt with a JSON input block"}
	}
	var out any
	switch task.Task {
	case TaskBrief:
		var in BriefInput
		if err := json.Unmarshal(block, &in); err != nil {
			return models.Response{}, offlineInvalid(err)
		}
		out = offlineBrief(in)
	case TaskArticle:
		var in ArticleInput
		if err := json.Unmarshal(block, &in); err != nil {
			return models.Response{}, offlineInvalid(err)
		}
		out = offlineArticle(in)
	default:
		return models.Response{}, offlineInvalid(fmt.Errorf("unknown task %q", task.Task))
	}
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return models.Response{}, offlineInvalid(err)
	}
	in := 0
	for _, m := range req.Messages {
		in += tokens(m.Content)
	}
	resp := models.Response{Text: string(text), Vendor: models.VendorOffline, Model: OfflineModel,
		InputTokens: in, OutputTokens: tokens(string(text)), CostKnown: true, Latency: time.Since(start)}
	if resp.OutputTokens > req.MaxTokens() {
		return models.Response{}, &models.Error{Vendor: models.VendorOffline, Model: OfflineModel, Kind: models.KindTruncated,
			Message: fmt.Sprintf("the answer needs %d tokens; the cap is %d", resp.OutputTokens, req.MaxTokens())}
	}
	return resp, nil
}

func offlineInvalid(err error) error {
	return &models.Error{Vendor: models.VendorOffline, Model: OfflineModel, Kind: models.KindInvalid, Message: err.Error()}
}

// tokens estimates a token count the way vendors' rules of thumb do (about
// four characters a token).
func tokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// subject is the query without a leading "best"/"top": what the page is
// about.
func subject(query string) string {
	words := strings.Fields(query)
	for len(words) > 1 {
		switch strings.ToLower(words[0]) {
		case "best", "top", "good", "the", "a", "an", "which", "what":
			words = words[1:]
			continue
		}
		break
	}
	return strings.TrimRight(strings.Join(words, " "), "?")
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// list joins names as prose: "A", "A and B", "A, B and C".
func list(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// others are the target entities other than the brand.
func others(entities []string, brand string) []string {
	var out []string
	for _, e := range entities {
		if !strings.EqualFold(e, brand) {
			out = append(out, e)
		}
	}
	return out
}

// offlineBrief plans a page of the requested format from the evidence.
func offlineBrief(in BriefInput) BriefOutput {
	brand, subj := in.Brand.Name, subject(in.Query)
	rivals := others(in.TargetEntities, brand)
	top := ""
	if len(in.CompetitorsAhead) > 0 {
		top = in.CompetitorsAhead[0]
	} else if len(rivals) > 0 {
		top = rivals[0]
	}
	questions := []string{fmt.Sprintf("What is the best %s?", subj), fmt.Sprintf("Is %s a good choice for %s?", brand, subj)}
	if top != "" {
		questions = append(questions, fmt.Sprintf("How does %s compare with %s?", brand, top))
	}
	questions = append(questions, fmt.Sprintf("What should you look for in %s?", subj))
	h2 := func(s string) opportunities.Heading { return opportunities.Heading{Level: 2, Text: s} }
	h3 := func(s string) opportunities.Heading { return opportunities.Heading{Level: 3, Text: s} }
	var title string
	var outline []opportunities.Heading
	switch in.ContentFormat {
	case FormatFAQ:
		title = capitalize(subj) + ": your questions answered"
		for _, q := range questions {
			outline = append(outline, h2(q))
		}
	case FormatComparison:
		if top == "" {
			top = "the alternatives"
		}
		title = fmt.Sprintf("%s vs %s: which is right for %s?", brand, top, subj)
		outline = []opportunities.Heading{h2(fmt.Sprintf("%s vs %s at a glance", brand, top)), h2("Features side by side"),
			h3("Ease of use"), h3("Working with a team"), h2("Pricing"), h2("Which should you choose?")}
	case FormatListicle:
		title = "Top picks: " + in.Query
		outline = []opportunities.Heading{h2("How we chose")}
		for i, e := range append([]string{brand}, rivals...) {
			if i == 5 {
				break
			}
			outline = append(outline, h2(fmt.Sprintf("%d. %s", i+1, e)))
		}
		outline = append(outline, h2("The bottom line"))
	case FormatHowTo:
		title = fmt.Sprintf("How to pick the right %s, step by step", subj)
		outline = []opportunities.Heading{h2("What you need before you start"), h2("Step 1: List what it must do"),
			h2("Step 2: Shortlist the options"), h2(fmt.Sprintf("Step 3: Try %s on a real task", brand)),
			h2("Step 4: Decide and roll it out"), h2("Common mistakes to avoid")}
	default:
		title = fmt.Sprintf("%s: what matters and where %s fits", capitalize(subj), brand)
		outline = []opportunities.Heading{h2("What to look for in the right " + subj), h3("The features that matter"),
			h3("How to judge the price"), h2("Where " + brand + " fits")}
		if len(rivals) > 0 {
			outline = append(outline, h2(fmt.Sprintf("%s compared with %s", brand, list(rivals))))
		}
		outline = append(outline, h2("Which to choose"))
	}
	facts := in.CandidateFacts
	if len(facts) > 6 {
		facts = facts[:6]
	}
	return BriefOutput{Title: title, Outline: outline, Questions: questions, Facts: facts, WordCount: in.DefaultWordCount}
}

// pick chooses one of options by a hash of key, so that the same section
// always reads the same and different sections read differently.
func pick(key string, options ...string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return options[int(h.Sum32())%len(options)]
}

// lead is the opening sentence of a section, chosen by what its heading
// is about.
func lead(heading, brand, subj, query string) string {
	h := strings.ToLower(heading)
	switch {
	case strings.HasSuffix(h, "?") && strings.Contains(h, "best"):
		return fmt.Sprintf("There is no single best %s: the right one depends on who will use it, where the work happens and what it has to connect to.", subj)
	case strings.Contains(h, "compare") || strings.Contains(h, " vs "):
		return fmt.Sprintf(`AI assistants asked about "%s" tend to mention the same few names, and the differences between them show up in daily use more than in feature lists.`, query)
	case strings.Contains(h, "price") || strings.Contains(h, "pricing") || strings.Contains(h, "cost"):
		return "Compare prices on the plan you would actually use, per person and per year, and count what is only available on higher tiers."
	case strings.Contains(h, "feature") || strings.Contains(h, "side by side"):
		return "The features worth paying for are the ones you will use every day: fast search, sharing that does not need an admin, and an export you can trust."
	case strings.Contains(h, "look for") || strings.Contains(h, "must do") || strings.Contains(h, "need"):
		return fmt.Sprintf("Start from the job the %s has to do: how many people use it, how they find things later, and what must keep working when the connection drops.", subj)
	case strings.Contains(h, "mistake"):
		return "The most common mistake is choosing on a feature list instead of a real week of use; the second is ignoring how data gets out again."
	case strings.Contains(h, "step") || strings.Contains(h, "try"):
		return "Give each candidate the same real task and the same people, and write down where each one slowed you down."
	case strings.Contains(h, "choose") || strings.Contains(h, "bottom line") || strings.Contains(h, "decide"):
		return "Pick the option that fits how your team already works, then commit to it for long enough to judge it fairly."
	case strings.Contains(h, strings.ToLower(brand)) || strings.Contains(h, "fits") || strings.Contains(h, "good choice"):
		return fmt.Sprintf("%s is built for people who want %s without a long setup.", brand, subj)
	case strings.Contains(h, "how we chose"):
		return fmt.Sprintf(`We looked at the options AI assistants recommend most often for "%s" and checked what each is actually good at.`, query)
	}
	return pick(heading,
		fmt.Sprintf("For %s, the details below matter more than the marketing.", subj),
		"Here is what holds up in practice, based on what the answers people get actually say.",
		fmt.Sprintf("This part covers what most guides to %s skip.", subj))
}

// entitySentence says something neutral about an entity; key varies the
// wording between sections.
func entitySentence(entity, brand, subj, key string) string {
	if strings.EqualFold(entity, brand) {
		return pick(key+entity,
			fmt.Sprintf("%s is worth including in any shortlist for %s.", brand, subj),
			fmt.Sprintf("%s keeps the setup short, which matters more than it seems in the first weeks.", brand),
			fmt.Sprintf("Try %s on the same task as the others before deciding.", brand))
	}
	return pick(key+entity,
		fmt.Sprintf("%s comes up often in recommendations for %s, so it is a fair benchmark.", entity, subj),
		fmt.Sprintf("Many teams also look at %s; judge it on the same task as the others.", entity),
		fmt.Sprintf("%s is a common alternative, and its strengths are well documented.", entity))
}

// offlineArticle writes the page the brief describes: an introduction from
// the evidence, one section per outline heading (each with a lead, a fact
// and a sentence about an entity, so every entity is named), a conclusion
// pointing at the brand's site.
func offlineArticle(in ArticleInput) ArticleOutput {
	b := in.Brief
	brand := in.Brand.Name
	query := in.Brand.Name
	if len(b.TargetQueries) > 0 {
		query = b.TargetQueries[0]
	}
	subj := subject(query)
	rivals := others(b.TargetEntities, brand)
	var body strings.Builder
	p := func(sentences ...string) {
		body.WriteString("<p>" + html.EscapeString(strings.Join(sentences, " ")) + "</p>\n")
	}
	intro := fmt.Sprintf(`Ask an AI assistant about "%s" and you will hear a handful of names again and again.`, query)
	if len(rivals) > 0 {
		intro = fmt.Sprintf(`Ask an AI assistant about "%s" and you will mostly hear about %s.`, query, list(rivals))
	}
	p(intro, fmt.Sprintf("This page sets out what matters when choosing, what %s offers, and how the options compare.", brand))
	for _, quote := range in.AnswerSnippets {
		if _, text, ok := strings.Cut(quote, ": "); ok {
			quote = text
		}
		if quote = strings.TrimSpace(quote); quote != "" {
			body.WriteString("<blockquote>" + html.EscapeString(quote) + "</blockquote>\n")
			break
		}
	}
	facts := b.Facts
	entities := append([]string{brand}, rivals...)
	for i, h := range b.Outline {
		tag := fmt.Sprintf("h%d", h.Level)
		body.WriteString("<" + tag + ">" + html.EscapeString(h.Text) + "</" + tag + ">\n")
		sentences := []string{lead(h.Text, brand, subj, query)}
		if len(facts) > 0 {
			sentences = append(sentences, facts[i%len(facts)])
		}
		sentences = append(sentences, entitySentence(entities[i%len(entities)], brand, subj, h.Text))
		p(sentences...)
		if i == 0 && len(b.Questions) > 1 {
			body.WriteString("<ul>\n")
			for _, q := range b.Questions[1:] {
				body.WriteString("<li>" + html.EscapeString(q) + "</li>\n")
			}
			body.WriteString("</ul>\n")
		}
	}
	// Entities the sections did not reach get their sentence here.
	var rest []string
	for i := len(b.Outline); i < len(entities); i++ {
		rest = append(rest, entitySentence(entities[i], brand, subj, "closing"))
	}
	closing := fmt.Sprintf("If %s is what you need, %s is a good place to start.", subj, brand)
	body.WriteString("<p>" + html.EscapeString(strings.Join(append(rest, closing), " ")))
	if len(in.Brand.Domains) > 0 {
		d := in.Brand.Domains[0]
		body.WriteString(` See <a href="https://` + html.EscapeString(d) + `">` + html.EscapeString(d) + `</a>.`)
	}
	body.WriteString("</p>\n")
	meta := fmt.Sprintf("What matters when choosing %s, what %s offers", subj, brand)
	if len(rivals) > 0 {
		meta += " and how it compares with " + list(rivals)
	}
	return ArticleOutput{Title: b.Title, MetaDescription: meta + ".", BodyHTML: body.String()}
}
