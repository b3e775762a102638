package detect

import "testing"

// A disclaimer of one aspect, then what the writer knows (disclaim.go),
// with sentences written for the test.
func TestClassDisclaimThenState(t *testing.T) {
	osprey := Entity{Name: "Osprey", Domains: []string{"osprey.com"}}
	lumen := Entity{Name: "Lumen", Domains: []string{"lumen.io"}}
	runVerdictCases(t, []verdictCase{
		{"the clause after the turn states a fact", osprey, nil, "osprey atmos 65 sizes 2026",
			"I can't confirm Osprey's current size range for the Atmos 65, but Osprey is known for adjustable torso lengths and a lifetime guarantee.", VerdictMentioned},
		{"a verb of what the brand does after a semicolon", lumen, nil, "lumen crm pricing 2026",
			"I can't verify Lumen's current prices; Lumen charges per seat and includes email sync on every plan.", VerdictMentioned},
		{"a pointer after the turn keeps the hedge", osprey, nil, "osprey atmos 65 sizes 2026",
			"I can't confirm Osprey's current size range for the Atmos 65, but Osprey's site should list it — check there.", VerdictUnknownToModel},
		{"a guess after the turn keeps the hedge", lumen, nil, "lumen crm pricing 2026",
			"I don't have reliable information about Lumen, but Lumen may be a small CRM startup.", VerdictUnknownToModel},
	})
}

// What the answer states after disclaiming an aspect, through a pronoun
// (disclaim.go statedAfter), with sentences written for the test.
func TestClassStatedAfterDisclaimer(t *testing.T) {
	lumen := Entity{Name: "Lumen", Domains: []string{"lumen.io"}}
	runVerdictCases(t, []verdictCase{
		{"it and a verb of what the brand does", lumen, nil, "lumen crm pricing 2026",
			"I don't have current pricing for Lumen. It sells contacts, pipelines and email sync as separate modules.", VerdictMentioned},
		{"its noun and a passive", lumen, nil, "lumen crm pricing 2026",
			"Lumen's current prices aren't something I can confirm. Its add-ons are sold separately and quoted by the sales team.", VerdictMentioned},
		{"a pointer through a pronoun states nothing", lumen, nil, "lumen crm pricing 2026",
			"I don't have current pricing for Lumen. Their website should list the plans, so check there.", VerdictUnknownToModel},
		{"a pronoun that hedges states nothing", lumen, nil, "lumen crm pricing 2026",
			"I don't have reliable information about Lumen. It may be a small CRM startup.", VerdictUnknownToModel},
	})
}

// A contact's number disclaimed as a current price is (ignorance.go's
// price class): the speaker lacks an up-to-date figure of the brand's.
func TestClassCurrentNumber(t *testing.T) {
	lumen := Entity{Name: "Lumen", Domains: []string{"lumen.io"}}
	runVerdictCases(t, []verdictCase{
		{"no current number for the brand", lumen, nil, "lumen crm support phone number",
			"I don't have a reliable, current phone number for Lumen support, and I'd rather not guess one. The help page of the app is the safest place to look.", VerdictUnknownToModel},
		{"the brand lists no number: a fact", lumen, nil, "lumen crm support phone number",
			"Lumen doesn't list a phone number for support; it answers by chat inside the app, usually within an hour.", VerdictMentioned},
		{"a number without a currency qualifier", lumen, nil, "lumen crm support phone number",
			"There's no phone number for Lumen support — Lumen handles every ticket by chat and email.", VerdictMentioned},
	})
}
