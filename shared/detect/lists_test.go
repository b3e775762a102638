package detect

import "testing"

// Lists introduced by a sentence that ends on a colon, items that name a
// rival in passing, and imperative warnings by a pronoun. Answers written
// for this test, not taken from any batch.
func TestIntroducedLists(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	corvid := Entity{Name: "Corvid"}
	runSentimentCases(t, []sentimentCase{
		{name: "a turn after praise introduces the other side", brand: varnel, query: "is the varnel espresso machine worth it",
			text: "The Varnel espresso machine grinds fresh beans and pulls excellent shots. That said, it has its quirks:\n\n" +
				"- The steam wand takes weeks of practice.\n- Descaling is needed every month.\n- The drip tray fills after four drinks.",
			want: Mixed},
		{name: "complaints introduced mid-line", brand: varnel, query: "varnel sewing machine problems",
			text: "Varnel is a respected name, but its newest machine lets many owners down. The most common complaints:\n" +
				"1. **Tension drifts** after a few hours of sewing.\n2. **Bobbin jams** on thick denim.\n3. **Service** centres are far apart.",
			want: Negative},
		{name: "a rival in passing inside an item", brand: varnel, comps: []Entity{corvid}, query: "¿merece la pena la varnel?",
			text: "La Varnel es excelente y muy rápida.\n\nDicho esto, tiene sus pegas:\n" +
				"- La espuma de leche no queda tan fina como en una Corvid.\n- Hay que limpiarla a diario.\n- El servicio técnico tarda semanas.",
			want: Mixed},
		{name: "skip it", brand: varnel, query: "varnel camp stove worth it",
			text: "The Varnel stove is a clever gadget and fun to show off. It is heavy, slow and needs constant feeding. Skip it unless you want the novelty.",
			want: Negative},
		{name: "spend a little more elsewhere", brand: varnel, comps: []Entity{corvid}, query: "varnel tent in rain",
			text: "Varnel tents are cheap and quick to pitch. In steady rain the seams leak and the poles snap. Spend a little more on a Corvid.",
			want: Negative},
		// controls
		{name: "praise introduces a list of strengths", brand: varnel, query: "is the varnel espresso machine worth it",
			text: "The Varnel espresso machine is excellent, and it gets three things right:\n\n" +
				"- It heats up in under a minute.\n- The grinder has twenty settings.\n- The milk system rinses itself.",
			want: Positive},
		{name: "a rival leading an item opens its section", brand: varnel, comps: []Entity{corvid}, query: "best espresso machine",
			text: "Varnel makes an excellent, reliable machine for most kitchens.\n\n" +
				"- Corvid: slow, fussy and unreliable.\n- Its grinder is loud and the tank leaks.",
			want: Positive},
	})
}

// "proper" after a preposition intensifies the setting ("in proper rain"),
// and a product called a gamble is criticised. Answers written for this
// test.
func TestSettingAndGamble(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	runSentimentCases(t, []sentimentCase{
		{name: "in proper rain", brand: varnel, query: "varnel tent in rain",
			text: "In proper rain, Varnel tents leak at the seams.",
			want: Negative},
		{name: "a gamble", brand: varnel, query: "are varnel e-bikes reliable",
			text: "For daily commuting, Varnel e-bikes are a gamble.",
			want: Negative},
		// controls
		{name: "proper as praise", brand: varnel, query: "varnel jacket review",
			text: "Varnel's jacket is a proper winter coat: warm, tough and excellent in the wind.",
			want: Positive},
	})
}

// Frames that open the other side ("On the other side of the ledger",
// "**The case against:**", "The flip side is …") and a caveat played down
// by a definite "one" ("the one consistent gripe"). Answers written for
// this test.
func TestTwoSidedFrames(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	runSentimentCases(t, []sentimentCase{
		{name: "the other side of the ledger", brand: varnel, query: "varnel bikes worth the money",
			text: "Varnel builds some of the best-riding trail bikes around, and the finish is excellent. On the other side of the ledger, complete builds run $7,000 and up.",
			want: Mixed},
		{name: "the case for and the case against", brand: varnel, query: "are varnel synths worth it",
			text: "**The case for:** Varnel has made analogue synths affordable for beginners.\n\n**The case against:** many musicians object to its cloning of classic designs.",
			want: Mixed},
		{name: "the one consistent gripe", brand: varnel, query: "best backpacking stove",
			text: "The Varnel Flash is the stove to get: it boils half a litre in 100 seconds and is remarkably efficient in wind. The one consistent gripe is the igniter, which tends to quit after a season.",
			want: Positive},
		// controls
		{name: "one drawback opening a sentence is no minimiser", brand: varnel, query: "varnel stove review",
			text: "The Varnel stove is excellent in wind. One drawback is the igniter, which quits after a season, and the pot is flimsy.",
			want: Mixed},
	})
}
