package detect

import "testing"

// Praise without a polar word, harms named as the product's work, and
// caveats kept minor (praise.go; issue 11, s8b). Each class has controls
// that must keep their reading.
func TestPraiseClasses(t *testing.T) {
	pellow := Entity{Name: "Pellow"}
	cases := []struct {
		name, query, text string
		want              Sentiment
	}{
		// ranks, roles and verdicts that praise without an adjective
		{"a no-brainer", "is pellow worth it", "If you travel monthly, the Pellow pass is a no-brainer.", Positive},
		{"a close second", "pellow vs dormo", "Dormo leads the field. Pellow is a close second.", Positive},
		{"the default for a kind of user", "pellow review", "Pellow is the default for most light sleepers.", Positive},
		{"default settings are no praise", "how to set up pellow", "Pellow keeps the default settings until you change them in the app.", Neutral},
		{"far ahead", "pellow vs dormo", "On sound design, Pellow is far ahead.", Positive},
		{"ahead of time is a schedule", "pellow shipping", "Pellow ships orders ahead of the holidays.", Neutral},
		{"it pays off", "pellow subscription", "The Pellow subscription pays off within a month.", Positive},
		{"a loan paid off is no praise", "pellow company history", "Pellow paid off its loans in 2021.", Neutral},
		{"the one to get", "pellow review", "For a first sleep tracker, Pellow is the one to get.", Positive},
		{"the value pick", "pellow review", "Pellow is the value pick of the group.", Positive},
		{"looks more expensive than it is", "pellow pillow review", "The Pellow pillow looks more expensive than it is.", Positive},
		{"feels expensive stays a price", "pellow pillow review", "The Pellow pillow feels expensive for what it is.", Negative},
		// idioms of praise no polar word carries
		{"punches above its weight", "pellow review", "For a free app, Pellow punches above its weight.", Positive},
		{"second to none", "pellow review", "Pellow's sound library is second to none.", Positive},
		{"ticks every box", "pellow review", "Pellow ticks every box for a light sleeper.", Positive},
		{"gets the job done", "pellow review", "Pellow is plain, but it gets the job done.", Positive},
		{"built like a tank", "pellow lamp review", "The Pellow lamp is built like a tank.", Positive},
		{"fans swear by it", "pellow review", "Fans swear by Pellow's sunrise alarm.", Positive},
		{"does exactly what it promises", "pellow review", "Pellow does exactly what it promises.", Positive},
		{"keeps getting better", "pellow review", "Pellow keeps getting better with each update.", Positive},
		{"edges out a rival", "pellow vs freshbox", "Pellow edges out FreshBox on accuracy.", Positive},
		{"has the edge", "pellow vs freshbox", "On accuracy, Pellow has the edge.", Positive},
		{"the rival has the edge", "pellow vs freshbox", "FreshBox has the edge on accuracy.", Neutral},
		{"a steal", "pellow lamp review", "At $30, the Pellow lamp is a steal.", Positive},
		{"steal as theft stays", "pellow data", "Pellow was accused of letting apps steal user data.", Negative},
		{"no fees", "pellow bank review", "Pellow charges no monthly fees.", Positive},
		{"no hidden fees is a fault denied", "pellow bank review", "Pellow has no hidden fees.", Neutral},
		{"hidden fees stay a fault", "pellow bank review", "Pellow has hidden fees.", Negative},
		{"no fee in a how-to is a fact", "how to cancel pellow", "Open Settings and tap Cancel. There's no cancellation fee.\n\nYour plan ends at the end of the month.\n\nYou can rejoin later.\n\nRefunds are not pro-rated.", Neutral},
		{"few complaints is no criticism", "pellow review", "Pellow has few complaints.", Neutral},
		{"kills background noise", "pellow earbuds review", "Pellow's noise cancelling kills background noise on a train.", Positive},
		{"kills harsh echoes", "pellow earbuds review", "Pellow's call mode kills harsh echoes.", Positive},
		{"killed a feature stays a fault", "pellow app update", "Pellow killed offline mode in the last update.", Negative},
		// comparisons won, verdicts that answer with the brand, ratings
		{"can't go wrong", "pellow review", "You can't go wrong with Pellow.", Positive},
		{"hard to go wrong", "pellow review", "It's hard to go wrong with Pellow.", Positive},
		{"things go wrong is no praise", "pellow problems", "When syncs go wrong, Pellow loses the night's data.", Negative},
		{"beats a rival", "pellow vs dormo", "Pellow beats FreshBox on battery life and price.", Positive},
		{"outperforms the competition", "pellow review", "Pellow outperforms most rivals in lab tests.", Positive},
		{"a verdict line answering with the brand", "pellow vs dormo", "Both track sleep well.\n\n**Verdict:** get Pellow.", Positive},
		{"a verdict line naming the brand first", "pellow vs dormo", "Both track sleep well.\n\n**Bottom line:** Pellow, unless you need a sunrise lamp.", Positive},
		{"a verdict line answering with the rival", "pellow vs dormo", "Both track sleep well.\n\n**Verdict:** get FreshBox.", Neutral},
		{"a high star rating", "pellow review", "Pellow has a 4.8-star average from over 20,000 reviews.", Positive},
		{"a low star rating", "pellow review", "Pellow holds a 1.9/5 score on Trustpilot.", Negative},
		{"a middling rating judges little", "pellow review", "Pellow is rated 3.6 out of 5 on the App Store.", Neutral},
		// a state of affairs is not the product
		{"the picture is complicated", "pellow delivery times", "Pellow orders ship in a week in Europe. In the US the picture is more complicated, and waits vary.", Neutral},
		{"the product is complicated", "pellow review", "Pellow's setup is more complicated than it should be.", Negative},
		// harms named as what the product removes or watches for
		{"a harm removed", "pellow features", "Pellow's Quiet Mode blocks annoying alarms and trims harsh echoes.", Positive},
		{"a harm watched for", "what does pellow do", "Pellow scans your recordings for signs of sleep apnea and alerts you when something looks wrong.", Neutral},
		{"information about a harm shown", "pellow flight app", "Pellow shows live delay info for every flight and warns you about a gate change.", Neutral},
		{"a failure shown stays a fault", "pellow review", "Pellow's dashboard shows outdated data.", Negative},
		{"reviewers warning is a complaint", "pellow review", "Reviewers warn about hidden fees in the Pellow app.", Negative},
		{"a harm not removed stays", "pellow review", "Pellow doesn't block sudden noise, so light sleepers still wake up.", Negative},
		{"a noun that looks like a verb", "pellow problems", "Pellow's alerts stop after an update and users report crashes.", Negative},
		// harms a warranty, a guarantee or insurance covers: the cover's terms
		{"a harm a guarantee covers", "pellow returns", "Every Pellow lamp comes with a one-year guarantee covering units that arrive cracked.", Neutral},
		{"a guarantee for a harm", "pellow returns", "Orders include a Pellow guarantee for lost parcels and water damage.", Neutral},
		{"a warranty against a harm", "pellow warranty", "The Pellow warranty runs two years against defects in the motor.", Neutral},
		{"a harm not covered is a term", "pellow warranty", "Scratches from abrasive cleaners are not covered by the Pellow warranty.", Neutral},
		{"a cover that fails stays a fault", "pellow warranty", "The Pellow warranty is useless and claims are often denied.", Negative},
		{"a harm the product causes stays", "pellow review", "Pellow lamps often arrive cracked, and the warranty takes months.", Negative},
		// a caveat kept minor
		{"one caveat for a case", "best business bank", "Pellow is excellent and cheap to run. One caveat: it's a poor fit for a shop that takes cash. For everyone else it is a no-brainer.", Positive},
		{"a poor fit for most stays a verdict", "best business bank", "Pellow is a poor fit for most teams.", Negative},
		{"a caveat, then back to praise", "is pellow worth it", "Pellow is excellent and cheap to run. The main drawback is that it can be awkward to set up. Still, for most sleepers it's a no-brainer.", Positive},
		{"a caveat without a way back stays two-sided", "is pellow worth it", "Pellow is excellent and cheap to run. The main drawback is that it can be awkward to set up.", Mixed},
		{"still without its comma is no turn", "is pellow worth it", "Pellow is excellent. The main drawback is that it can be awkward to set up. Still works with old phones, too.", Mixed},
		// progress and parity
		{"finally added", "pellow features", "Pellow finally added offline mode in 2025.", Positive},
		{"added is a fact", "pellow features", "Pellow added offline mode in 2025.", Neutral},
		{"level with a rival", "pellow sound quality", "Pellow now matches FreshBox on sound quality.", Positive},
		// capability and rank without a polar word
		{"can do almost anything", "pellow review", "Pellow can do almost anything a light sleeper could ask for.", Positive},
		{"anything as an object is nothing", "pellow review", "You can ask Pellow anything about last night's sleep data.", Neutral},
		{"a superlative ranked among rivals", "pellow vs dormo", "Pellow gives the most precise sleep staging of the three.", Positive},
		{"a rank frame a few words on", "pellow vs dormo", "Pellow gives the most precise control over alarm timing of the three.", Positive},
		{"a superlative VADER likes", "pellow review", "Pellow has the gentlest alarm I have tried.", Positive},
		{"by far the largest", "pellow review", "Pellow has by far the largest library of sleep stories.", Positive},
		{"a superlative that ranks a fault", "pellow review", "The gentlest criticism of Pellow is that it is slow.", Negative},
		{"a faulted superlative stays a fault", "pellow review", "Pellow has the slowest sync of the three.", Negative},
		{"the latest is no praise", "pellow update", "Pellow's latest update adds a bedtime reminder.", Neutral},
		// burdens lightened or removed
		{"low-risk", "pellow trial", "The 100-night trial makes trying a Pellow pillow low-risk.", Positive},
		{"hassle-free", "pellow returns", "Pellow returns are hassle-free.", Positive},
		{"high-risk", "pellow investment", "Buying Pellow stock before the audit is high-risk.", Negative},
		{"another compound is nothing", "pellow pillow", "The Pellow pillow has a zip-off cover.", Neutral},
		{"the only catch weighs half", "pellow review", "Pellow works brilliantly. The only catch is that it needs Wi-Fi for setup.", Positive},
		{"the main catch stays two-sided", "pellow review", "Pellow works brilliantly. The main catch is that it needs Wi-Fi for setup.", Mixed},
		{"my one complaint", "pellow review", "Pellow is excellent. My one complaint is the short cable.", Positive},
		{"one drawback of it opens a list", "pellow review", "Pellow is excellent. One drawback of Pellow is that it needs a connection for most things.", Mixed},
		{"not the cheapest, but the most accurate", "pellow review", "Pellow is the best all-rounder. It's not the cheapest, but it's the most accurate.", Positive},
		{"that's about it", "pellow review", "Pellow is excellent. Setup takes a minute longer than it should, but that's about it.", Positive},
		{"a fault without a closer stays", "pellow review", "Pellow is excellent. Setup takes longer than it should and the app is clunky.", Mixed},
		// a break-in is no fault
		{"stiff at first, softens", "pellow strap review", "The Pellow strap is reliable and well made; it is slightly stiff at first but softens within a week.", Positive},
		{"rough out of the box, smooths out", "pellow pan review", "The Pellow pan is a bit rough out of the box; it smooths out with use.", Positive},
		{"a fault that stays", "pellow strap review", "The Pellow strap is flimsy and uncomfortable, even after a month.", Negative},
		// sections headed by what people like
		{"what buyers like beside complaints", "pellow reviews", "Pellow reviews are split.\n\n**What buyers like**\n- Fast, friendly delivery\n- Soft fabric that lasts\n- Free returns\n\n**Common complaints**\n- Sizing is inconsistent\n- Returns can be slow\n- The app is buggy", Mixed},
		// a recommendation asked by place
		{"where to buy is no fact question", "where to buy pillows in bulk",
			"For bulk orders, Pellow is the go-to. Orders ship the same day. Pallets arrive in two days. Invoices come monthly. Returns are free.", Positive},
		// facts that favour the user praise nothing
		{"a price set by what the user does", "pellow air baggage fees", "On Pellow Air, a checked bag costs $35, and the price is lower if you add it before the day of travel.", Neutral},
		{"low prices stay praise", "pellow review", "Pellow's prices are low and its pillows last.", Positive},
		{"the brand's own product asked for a case", "pellow loyalty card for tourists", "Pellow's loyalty card costs nothing: ask at the desk for a number and show it at the till.", Neutral},
		{"a product asked for a case, the brand first", "sleep app for shift workers", "Pellow handles irregular schedules and lets you set sleep windows by shift.", Positive},
		// a set of options announced: the brand first is one of them
		{"several options, the brand listed first", "best sleep tracker that works offline",
			"Several trackers keep recording without a signal:\n- **Pellow** stores nights on the watch and syncs later.\n- **Dormo** keeps data on the phone.", Neutral},
		{"one of several, the brand first", "best sleep tracker for travel", "Pellow is one of several trackers that store nights on the watch.", Neutral},
		{"a best answered with the brand first", "best sleep tracker for travel", "Pellow stores nights on the watch and syncs when you land.", Positive},
		{"options ranked keep the order", "best sleep tracker for travel", "Popular options include Pellow, which stores nights on the watch.", Positive},
		// a judgement left to the reader's case
		{"the right choice depends", "pellow pillow firm or soft", "Pellow makes both, and the right choice depends on how you sleep.", Neutral},
		{"whether it's worth it depends", "is pellow worth it", "Pellow tracks naps as well as nights; whether that's worth it depends on how often you nap.", Neutral},
		{"praise before a split stays", "is pellow worth it", "Pellow is excellent, and the price depends on the plan.", Positive},
		{"a spec sheet with one strong word", "pellow pillow specs",
			"The Pellow pillow measures 50 by 70 cm.\n\nIt weighs 900 g.\n\nThe cover is cotton.\n\nA very fast drying foam fills it.\n\nIt ships vacuum-packed.", Neutral},
		{"a how-to with a real verdict stays read", "how to order pellow pillows",
			"Pick a size on pellow.com.\n\nChoose a cover colour.\n\nThe pillows are excellent and very comfortable.\n\nPay at checkout.", Positive},
		// "you get what you pay for" after a price granted
		{"a high price justified", "best pillow", "**Pellow** gets my vote for the best pillow. It's pricier than most, but you're getting what you pay for.", Positive},
		{"a low price that buys little", "pellow vs corvid pillows", "Pellow pillows are about half the price, but you get what you pay for. The foam flattens within months.", Negative},
		// a guarantee's remedy
		{"a guarantee repairs faults", "best pillow", "Pellow pillows are comfortable, and the lifetime guarantee means they will repair or replace a pillow for damage or defects.", Positive},
		{"repairs as a noun stay a fault", "pellow review", "Pellow pillows are comfortable. Repairs are expensive and slow, though.", Mixed},
		// foreign lexicons
		{"Spanish: cheap and clear", "pellow opiniones", "Pellow suele ser más barato que otras apps y la interfaz es clara.", Positive},
		{"French: low prices", "pellow avis", "Pellow propose des prix particulièrement bas sur ses oreillers.", Positive},
		{"German: conceded price, unmatched range", "bestes kissen", "Pellow ist zwar teurer als die Konkurrenz, das Sortiment ist aber unerreicht.", Positive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkBrandSentiment(t, pellow, tc.query, tc.text, tc.want) })
	}
}
