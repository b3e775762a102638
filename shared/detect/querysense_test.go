package detect

import "testing"

// The query's sense of an ordinary word (querysense.go), with sentences
// written for the tests: each table holds the sense the rule reads and the
// product answers it must leave alone.

func TestClassQueryAdjective(t *testing.T) {
	reliable := Entity{Name: "Reliable", Domains: []string{"reliable.io"}}
	portable := Entity{Name: "Portable", Domains: []string{"portable.app"}}
	teachable := Entity{Name: "Teachable", Domains: []string{"teachable.com"}}
	runVerdictCases(t, []verdictCase{
		{"the query's noun after the capital is no cue", reliable, nil, "how to build a reliable backup plan",
			"## What Makes a Backup Plan Reliable\n\nA plan is reliable when you have restored from it at least once.\n\n" +
				"Reliable plans keep three copies on two kinds of media, one of them off site.", VerdictOrdinaryWord},
		{"a sentence start before the query's plural noun", portable, nil, "what should i look for in a portable power station",
			"Weight matters more than peak watts if you carry it far; a unit is only portable when one person can lift it.\n\n" +
				"Portable stations with LiFePO4 cells last for thousands of cycles, and their plans for expansion batteries vary.", VerdictOrdinaryWord},
		{"no determiner: the query names the product", teachable, nil, "is teachable worth it for selling courses",
			"Teachable suits creators who want a hosted school: its plans start at a monthly fee, and it handles checkout and tax.", VerdictMentioned},
		{"the answer never writes the adjective", teachable, nil, "what is a teachable alternative for cohort courses",
			"Teachable plans include drip scheduling, but live cohorts work better on Maven, which is built around them.", VerdictMentioned},
	})
}

func TestClassQueryPlantKind(t *testing.T) {
	juniper := Entity{Name: "Juniper", Domains: []string{"juniper.net"}}
	palmetto := Entity{Name: "Palmetto", Aliases: []string{"Palmetto Solar"}, Domains: []string{"palmetto.com"}}
	runVerdictCases(t, []verdictCase{
		{"a shrub the word qualifies", juniper, nil, "how to prune a juniper shrub",
			"Cut only where green growth remains; bare wood does not sprout again.\n\n" +
				"Juniper growth is slow, and the Juniper Society's guide suggests trimming in early spring.", VerdictOrdinaryWord},
		{"a palm the word qualifies", palmetto, nil, "how to care for a palmetto palm",
			"Water weekly until it is established.\n\nPalmetto growth is slow for years while the trunk forms underground, so give it time.", VerdictOrdinaryWord},
		{"the brand's product query stays a mention", palmetto, nil, "palmetto solar lease review",
			"Palmetto offers its LightReach lease with no upfront cost; the monthly payment escalates each year.", VerdictMentioned},
	})
}

func TestClassMeaningOfProduct(t *testing.T) {
	kong := Entity{Name: "Kong", Domains: []string{"kongcompany.com"}}
	mosaic := Entity{Name: "Mosaic", Domains: []string{"joinmosaic.com"}}
	runVerdictCases(t, []verdictCase{
		{"a toy's colours asked", kong, nil, "kong toy colors meaning",
			"Kong toys come in colours that mark rubber strength: red for average chewers, black for power chewers.", VerdictMentioned},
		{"a loan's term asked", mosaic, nil, "mosaic loan meaning",
			"A Mosaic loan is a solar loan from the lender Mosaic, paid back over 10 to 25 years.", VerdictMentioned},
		{"the word's own meaning stays a word", mosaic, nil, "mosaic meaning in art",
			"A mosaic is a picture made of small pieces of glass or stone. Mosaic floors were common in Roman villas.", VerdictOrdinaryWord},
		{"a phrase of the word with a noun no product is", kong, nil, "king kong syndrome meaning",
			"King Kong syndrome is a slang term for someone who acts dominant to hide insecurity.", VerdictOrdinaryWord},
	})
}

func TestClassKindsPaired(t *testing.T) {
	slate := Entity{Name: "Slate", Domains: []string{"slate.io"}}
	runVerdictCases(t, []verdictCase{
		{"two kinds sharing a head noun", slate, nil, "slate vs cedar roofing",
			"| | Slate | Cedar |\n|---|---|---|\n| Lifespan | 100 years | 30 years |\n\nSlate is the better pick for a house you plan to keep; cedar if the budget is tight.", VerdictOrdinaryWord},
		{"the other side a product of two words", slate, nil, "slate vs paper trail for audit logs",
			"Slate keeps an append-only audit log with per-field history, and Paper Trail is a Ruby gem that versions models.", VerdictMentioned},
		{"the other side never written as a kind", slate, nil, "slate vs cedar roofing",
			"Slate is the better pick for roofing contractors who quote from photos; Cedar Estimator suits larger firms.", VerdictMentioned},
	})
}

func TestClassQueryOwnWord(t *testing.T) {
	ladle := Entity{Name: "Ladle", Domains: []string{"ladle.app"}}
	kraken := Entity{Name: "Kraken", Domains: []string{"kraken.com"}}
	remote := Entity{Name: "Remote", Domains: []string{"remote.com"}}
	runVerdictCases(t, []verdictCase{
		{"set against another utensil", ladle, nil, "ladle vs spoon for soup",
			"A spoon is fine for a single bowl; a ladle is better for serving.\n\n**Ladle**\n- Holds a full portion\n- Pours without dripping", VerdictOrdinaryWord},
		{"set against another utensil, on the right", ladle, nil, "spoon vs ladle for soup",
			"A spoon is fine for a single bowl; a ladle is better for serving.\n\n**Ladle**\n- Holds a full portion\n- Pours without dripping", VerdictOrdinaryWord},
		{"the legend after a determiner", kraken, nil, "where does the kraken legend come from",
			"The Kraken comes from old sailors' stories of a sea beast off the coast of Iceland.\n\n" +
				"**Origins**\n- A bishop described the kraken in a natural history of 1752.", VerdictOrdinaryWord},
		{"a noun the word qualifies after a determiner", remote, nil, "how to write a remote work policy",
			"A remote work policy says who may work away from the office and how often.\n\n## 3. Location\n" +
				"Remote employees must work from the state they live in unless a manager approves otherwise.", VerdictOrdinaryWord},
		{"no determiner: the software the query is in", remote, nil, "how to run payroll in remote",
			"Remote runs payroll from the Payroll tab each month; approve the remote staff's hours first.", VerdictMentioned},
		{"a product's noun after the word", ladle, nil, "how to share a ladle template",
			"Ladle templates are shared from the template page with one link. Give the soup a stir with a ladle before you photograph it.", VerdictMentioned},
		{"the answer never writes the word in lower case", ladle, nil, "ladle vs mealime for meal planning",
			"Ladle offers shared shopping lists, and its plans start at $4 a month.", VerdictMentioned},
	})
}
