package detect

import (
	"context"
	"testing"
)

// Ordinary-word names in one sentence with the query that produced it:
// the word, or the product.
func TestOrdinaryWordEvidence(t *testing.T) {
	cases := []struct {
		brand, query, text string
		want               bool // mentioned
	}{
		{"Zoom", "how to see small text", "Zoom In and Zoom Out buttons sit in the lower right corner.", false},
		{"Notion", "philosophy essay", "The Notion of free will has troubled philosophers for centuries.", false},
		{"Apple", "recipes for fall", "Apple crumble is the easiest autumn dessert.", false},
		{"Apple", "healthy breakfast", "Try oatmeal with Apple, cinnamon and walnuts.", false},
		{"Bear", "camping safety", "Store food in a Bear canister at night.", false},
		{"Signal", "wifi tips", "Signal strength drops through concrete walls.", false},
		{"Square", "geometry homework", "Square both sides of the equation to remove the root.", false},
		{"Ring", "wedding planning", "Ring bearers are usually between four and eight years old.", false},
		{"Mercury", "thermometers", "Mercury thermometers have been phased out in many countries.", false},
		{"Linear", "data science", "Linear regression is the simplest model to start with.", false},
		{"Arc", "welding", "Arc welding uses an electric arc to melt metals.", false},
		{"Craft", "hobbies", "Craft fairs are a good place to sell handmade goods.", false},
		{"Monday", "weekly planning", "Monday is the best day to plan the week.", false},
		{"Wise", "life advice", "Wise people listen more than they talk.", false},
		{"Bear", "best note app for mac", "Bear in mind that Apple Notes is free.", false},
		{"Craft", "best docs tool for teams", "Craft a clear template before inviting the team.", false},
		{"Signal", "secure messenger for journalists", "Signal-to-noise matters: keep group chats small.", false},
		{"Notion", "note app for students", "The notion that you need one app for everything is a myth.", false},
		{"Zoom", "video conferencing for teachers", "To zoom in on a shared slide, press Ctrl and +.", false},
		{"Square", "pos for coffee shop", "Measure the square footage of your counter first.", false},
		{"Mercury", "startup bank account", "Avoid high-Mercury fish at the team lunch.", false},
		{"Monday", "project management tool", "Plan your sprint on Monday morning.", false},
		{"Notion", "best note app for teams", "Notion is the most popular choice for team wikis.", true},
		{"Zoom", "video calls for teachers", "Zoom remains the default for online classes.", true},
		{"Slack", "team chat", "Slack integrates with almost everything.", true},
		{"Apple", "best smartwatch", "Apple leads the smartwatch market.", true},
		{"Square", "card reader for market stall", "Square is easy to set up and takes contactless payments.", true},
		{"Signal", "secure messenger", "Signal is free and open source.", true},
		{"Mercury", "startup banking", "Mercury charges no monthly fees.", true},
		{"Bear", "markdown notes mac", "Bear feels fast and native on the Mac.", true},
		{"Ring", "video doorbell", "Ring has the widest range of doorbells.", true},
		{"Linear", "issue tracker", "Linear syncs with GitHub pull requests.", true},
		{"Arc", "browser for tabs", "Arc is built around a sidebar of tabs.", true},
		{"Craft", "docs app", "Craft exports to PDF and Markdown.", true},
		{"Wise", "send money abroad", "Wise is cheaper than banks for most transfers.", true},
		{"Notion", "notion vs obsidian", "Notion wins for collaboration; Obsidian wins for privacy.", true},
		{"Zoom", "zoom alternatives", "Zoom's free plan caps meetings at 40 minutes.", true},
		{"Bear", "bear app review", "Bear 2 added tables and a faster editor.", true},
		{"Mercury", "mercury treasury", "Mercury Treasury lets startups earn a yield on idle cash.", true},
		{"Discord", "slack huddles vs discord voice", "Discord voice channels are better for always-on hangouts.", true},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			r, err := New(Entity{Name: tc.brand}, nil).Analyze(context.Background(), Input{Text: tc.text, Query: tc.query})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Verdict == VerdictMentioned; got != tc.want {
				t.Errorf("verdict %s (mentions %+v)", r.Verdict, r.Brand.Mentions)
			}
			if !tc.want && r.Verdict != VerdictOrdinaryWord {
				t.Errorf("verdict %s, want %s", r.Verdict, VerdictOrdinaryWord)
			}
		})
	}
}
