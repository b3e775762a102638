package detect

import "testing"

// An ordinary word its owner writes in capitals (capsform.go), with
// sentences written for the test.
func TestClassOwnCaps(t *testing.T) {
	bold := Entity{Name: "Bold", Aliases: []string{"BOLD", "BOLD Snacks"}, Domains: []string{"boldsnacks.com"}}
	plain := Entity{Name: "Bold", Domains: []string{"boldsnacks.com"}}
	runVerdictCases(t, []verdictCase{
		{"the owner's capitals at a sentence start", bold, nil, "are bold bars actually healthy",
			"BOLD bars have more protein than most granola bars, though the sugar varies by flavour.", VerdictMentioned},
		{"a line all in capitals shouts", bold, nil, "how to design a poster",
			"## BE BOLD WITH COLOUR\n\nUse two colours at most, one of them for the call to action.", VerdictOrdinaryWord},
		{"no capitals form listed: no cue", plain, nil, "how to design a poster",
			"BOLD type draws the eye first; keep it for the headline.", VerdictOrdinaryWord},
	})
}
