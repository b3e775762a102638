package detect

import "testing"

// Criticism stated as a fact, with no opinion word (factCriticism), and
// the same words in plain facts. Sentences written for this test, not
// taken from any batch.
func TestFactCriticism(t *testing.T) {
	runSentimentCases(t, clauseCases([]clauseCase{
		// service failure and delay
		{"long waits", "Brightwing", "Brightwing passengers describe hour-long waits at check-in.", Negative},
		{"on hold", "Brightwing", "Calling Brightwing means hours on hold.", Negative},
		{"a process that drags on", "Brightwing", "Brightwing rebooking drags on after a cancellation.", Negative},
		{"takes weeks", "Norvale", "Refunds from Norvale take several weeks.", Negative},
		{"still not shipped", "Norvale", "Orders placed with Norvale were still not shipped a week later.", Negative},
		{"unanswered", "Kestrel", "Emails to Kestrel's billing team go unanswered.", Negative},
		{"went silent", "Kestrel", "Kestrel's support went silent once the chargeback was filed.", Negative},
		{"a fight", "Norvale", "Getting a refund from Norvale is a fight.", Negative},
		// scarcity and shrinkage
		{"few flights", "Brightwing", "Brightwing runs few weekend flights out of Denver.", Negative},
		{"stores closed", "Norvale", "Norvale closed forty stores in the Midwest last year.", Negative},
		{"routes cut", "Brightwing", "Brightwing cut routes to six cities in 2025.", Negative},
		// money taken
		{"nickel-and-dimes", "Brightwing", "Brightwing nickel-and-dimes passengers for seats and snacks.", Negative},
		{"is extra", "Brightwing", "On Brightwing a checked bag is extra.", Negative},
		{"surprise fees", "Kestrel", "Kestrel customers report surprise fees on wire transfers.", Negative},
		{"charges for", "Norvale", "Norvale charges for paper statements.", Negative},
		{"bills of hundreds", "Norvale", "Norvale renters have received bills of thousands of dollars for scratches.", Negative},
		// legal and regulatory trouble
		{"fines", "Kestrel", "Kestrel has paid millions in fines over its overdraft practices.", Negative},
		{"settled claims", "Norvale", "Norvale paid $20 million to settle claims from its customers.", Negative},
		{"bankruptcy", "Brightwing", "Brightwing filed for bankruptcy in 2024.", Negative},
		// regressions
		{"an update that broke features", "Norvale", "The 3.0 update to Norvale's app broke reminders and offline sync.", Negative},
		// complaints reported in German
		{"German: klagen über", "Kestrel", "Viele Kunden klagen über die Wartezeiten bei Kestrel.", Negative},
		// service that never came; a denied fault; a ceiling; a decline
		{"don't show up", "Norvale", "Norvale's technicians often don't show up for booked visits.", Negative},
		{"never happened", "Brightwing", "Brightwing promised a callback that never happened.", Negative},
		{"took four calls", "Kestrel", "Getting a refund from Kestrel took four calls.", Negative},
		{"doesn't show ads", "Kestrel", "Kestrel's app doesn't show ads on the home screen.", Neutral},
		{"crashes never happen", "Norvale", "Crashes never happen on Norvale's desktop app.", Positive},
		{"at best", "Norvale", "Norvale's sync is adequate at best.", Negative},
		{"bookings sliding", "Brightwing", "Brightwing's bookings have been sliding since the merger.", Negative},
		{"a quality as the topic", "Norvale", "Reliability is Norvale's weak spot.", Negative},
		{"a quality measured", "Norvale", "Norvale publishes reliability scores for every model.", Neutral},
		{"a loyalty program", "Kestrel", "Kestrel's loyalty program gives 2% back on groceries.", Neutral},
		// faults neither lexicon holds; an excess; faint praise; a reducer
		{"flimsy and finicky", "Norvale", "Norvale's stand is flimsy and the app pairing is finicky.", Negative},
		{"a gimmick", "Norvale", "The Norvale light ring feels like a gimmick.", Negative},
		{"avoids a fault", "Norvale", "Norvale avoids fiddly menus: every setting is one tap away.", Positive},
		{"more than it should", "Kestrel", "Closing a Kestrel account takes more steps than it should.", Negative},
		{"merely average", "Norvale", "Norvale's battery life is merely average.", Negative},
		{"values fallen", "Norvale", "Used Norvale bikes have seen resale values fall, and values have fallen further this year.", Negative},
		{"helps people stuck", "Norvale", "Norvale helps people stuck on a plateau.", Positive},
		{"costs noticeably more", "Norvale", "Norvale is easy to set up, but it costs noticeably more.", Mixed},
		// failures, remedies
		{"stop working", "Norvale", "Owners say Norvale heaters stop working after two winters.", Negative},
		{"lines of an hour", "Norvale", "Guests describe check-in lines of an hour at Norvale hotels.", Negative},
		{"locked out", "Kestrel", "Kestrel customers were locked out of their accounts for three days.", Negative},
		{"it just works", "Norvale", "Corvid's app crashes constantly, while Norvale's just works.", Positive},
		{"a bug fixed", "Norvale", "Norvale fixed the sync bug within a day and support was quick to reply.", Positive},
		{"fixes, but complaints continue", "Norvale", "Norvale has released firmware fixes, but complaints continue.", Negative},
		{"arrive late", "Norvale", "Norvale groceries routinely arrive late.", Negative},
		{"late 2024 is a date", "Norvale", "Norvale opened its Leeds store in late 2024.", Neutral},
		{"gone downhill", "Norvale", "Norvale's delivery has gone downhill.", Negative},
		{"canned replies", "Kestrel", "Kestrel support answers with canned replies.", Negative},
		{"unable to", "Kestrel", "The outage left Kestrel customers unable to pay for three hours.", Negative},
		{"be careful", "Kestrel", "Be careful with Kestrel's currency cards.", Negative},
		{"removed a feature", "Norvale", "Norvale removed offline playback in March.", Negative},
		{"removed the ads", "Norvale", "Norvale removed the ads from its paid plan.", Neutral},
		{"froze", "Kestrel", "Kestrel's trading app froze during the sell-off.", Negative},
		{"froze its prices", "Kestrel", "Kestrel froze its prices for 2026.", Neutral},
		{"paid a settlement", "Kestrel", "Kestrel paid a settlement to affected users.", Negative},
		// praise that is only apparent or past; a remedy shipped
		{"on paper", "Norvale", "Norvale's phones look good on paper. In practice, updates arrive late.", Negative},
		{"can look unbeatable", "Norvale", "Norvale can look unbeatable on the search page.", Neutral},
		{"good reasons to be cautious", "Norvale", "There are good reasons to be cautious with Norvale.", Negative},
		{"the good news ends", "Norvale", "Norvale's fares are low. That's where the good news ends.", Neutral},
		{"was once", "Norvale", "Norvale was once the go-to tax software.", Neutral},
		{"used to be", "Norvale", "Norvale used to be excellent.", Neutral},
		{"a replacement shipped", "Norvale", "When my Norvale router died, they shipped a replacement the next day.", Neutral},
		{"crowded", "Norvale", "Norvale gyms are crowded after six.", Negative},
		{"customers who never came back", "Norvale", "After the redesign, many Norvale customers never came back.", Negative},
		{"harder to recommend", "Norvale", "Norvale is harder to recommend now.", Negative},
		{"routes have been cut", "Norvale", "Several Norvale bus routes have been cut since 2024.", Negative},
		{"soggy", "Norvale", "Norvale's fries often arrive soggy.", Negative},
		{"stood out", "Norvale", "Norvale's customer service stood out in our testing.", Positive},
		// features gated, a short supply
		{"behind a login", "Norvale", "Norvale moved its offline maps behind a paid account.", Negative},
		{"lighter on reporting", "Norvale", "Norvale is lighter on reporting and thin on integrations.", Negative},
		{"behind the app is a team", "Norvale", "The team behind Norvale's app is based in Oslo.", Neutral},
		// advice to shop elsewhere
		{"look elsewhere", "Brightwing", "Brightwing sells the cheapest seats in Ohio. For a checked bag, look elsewhere.", Mixed},
		{"somewhere else", "Norvale", "Norvale stocks the basics; for hiking boots, shop somewhere else.", Negative},
		{"elsewhere as a place", "Norvale", "Norvale ships to Canada and elsewhere in North America.", Neutral},
		// a duration lengthens a fault
		{"frozen for weeks", "Kestrel", "Kestrel froze my account without warning for weeks.", Negative},
		// the same words as plain facts
		{"a few minutes", "Kestrel", "Opening a Kestrel account takes a few minutes.", Neutral},
		{"hold a button", "Norvale", "Press and hold the button on the Norvale remote for five seconds.", Neutral},
		{"fees listed", "Kestrel", "Kestrel lists its fees on the pricing page; a domestic wire is $25.", Neutral},
		{"opening hours", "Norvale", "Norvale stores are closed on public holidays.", Neutral},
		{"a backlog in a planner", "Norvale", "Norvale's planner keeps the backlog on one board.", Neutral},
		{"broke records", "Brightwing", "Brightwing broke records for passenger numbers in 2024.", Neutral},
		{"a button at the bottom", "Norvale", "The Norvale app has a refill button at the bottom of the screen.", Neutral},
		{"a tier named Extra", "Norvale", "| Tier | Price |\n|---|---|\n| Norvale Extra | $12 |\n| Norvale Premium | $18 |", Neutral},
		{"an integration closes issues", "Norvale", "Norvale's GitHub integration closes tickets when a pull request merges.", Neutral},
		// negated: no criticism
		{"no surprise fees", "Kestrel", "Kestrel has no surprise fees on transfers.", Neutral},
	}))
}

// No criticism where there is none: facts and advice with a word that
// reads as criticism or praise in an opinion (plainAdjective, purpose
// clauses, remedies, offer comparisons, names of trims and tiers).
func TestPlainFacts(t *testing.T) {
	runSentimentCases(t, clauseCases([]clauseCase{
		{"a negative balance", "Kestrel", "Any negative balance on a Kestrel card is cleared from your next paycheck.", Neutral},
		{"advice to avoid a fee", "Kestrel", "To avoid a late fee, pay your Kestrel card by the 25th.", Neutral},
		{"it's best to cancel early", "Norvale", "It's best to cancel a Norvale trial a day before it renews.", Neutral},
		{"a guarantee", "Brightwing", "Every Brightwing jacket that fails gets repaired or replaced for free.", Positive},
		{"one plan costs more than another", "Norvale", "Norvale offers monthly and annual billing. The monthly plan costs more.", Neutral},
		{"trims named in a range", "Norvale", "Norvale trims run from Base up to Limited and Platinum.", Neutral},
		{"created is a step", "Norvale", "A workspace can be created from the Norvale desktop app.", Neutral},
		{"one billing cheaper than another", "Norvale", "Annual billing is cheaper than monthly billing on Norvale.", Neutral},
		{"a plan cancelled in the store", "Norvale", "Norvale subscriptions bought on iOS are cancelled in the App Store.", Neutral},
		{"a limited warranty", "Norvale", "Norvale dryers come with a two-year limited warranty.", Neutral},
		{"only worth it if", "Norvale", "Norvale's annual pass is only worth it if you visit twice a month.", Neutral},
		{"a risk level chosen", "Kestrel", "With Kestrel you answer a few questions and choose a risk level between 1 and 10.", Neutral},
		{"a risk profile set", "Kestrel", "Kestrel sets your risk profile from a short questionnaire.", Neutral},
		{"a risk run stays a fault", "Kestrel", "Kestrel's crypto accounts risk a total loss in a crash.", Negative},
		// praise stated as a rival's absence
		{"nothing does more", "Norvale", "Nothing free does more than Norvale's planner.", Positive},
		{"few come close", "Norvale", "Norvale's planner syncs instantly. Few rivals come close.", Positive},
		{"a fault supposed", "Norvale", "If a Norvale parcel arrives damaged, photograph it and they will send a replacement.", Neutral},
		// a rival's clause: its praise and criticism are the rival's
		{"rivals criticised beside the brand", "Norvale", "Corvid is overpriced and Halden is unreliable, while Norvale just works.", Positive},
		{"a relative clause about the rival", "Norvale", "Unlike Corvid, whose refunds drag on for weeks, Norvale is quick and reliable.", Positive},
		{"a rival praised beside the brand criticised", "Norvale", "Norvale is slow, and Corvid is fast.", Negative},
		{"a rival compared with the brand", "Norvale", "Corvid is slower than Norvale.", Positive},
		// the same words as criticism
		{"a fault after the condition", "Norvale", "If you call Norvale, support is slow and unhelpful.", Negative},
		{"advice to avoid the brand", "Norvale", "It's best to avoid Norvale for anything urgent.", Negative},
		{"the brand costs more", "Norvale", "Norvale is easy to set up, but it costs more.", Mixed},
		{"a limit that is a fault", "Norvale", "Norvale's free tier is limited and slow.", Negative},
	}))
}

// clauseCase is an answer about one brand, read without a query.
type clauseCase struct {
	name, brand, text string
	want              Sentiment
}

// clauseCases makes sentiment cases of clause cases, with one rival
// ("Corvid") tracked.
func clauseCases(cs []clauseCase) []sentimentCase {
	out := make([]sentimentCase, len(cs))
	for i, c := range cs {
		out[i] = sentimentCase{name: c.name, brand: Entity{Name: c.brand}, comps: []Entity{{Name: "Corvid"}}, text: c.text, want: c.want}
	}
	return out
}

// Criticism stated as facts in German, French and Spanish answers (delays,
// long waits, weeks of waiting, high costs, falling short, scarcity), and
// the lists of such answers headed "Positiv"/"Negativ", "Lo positivo"/"Las
// pegas". Sentences written for this test, not taken from any batch.
func TestForeignFactCriticism(t *testing.T) {
	runSentimentCases(t, clauseCases([]clauseCase{
		{"Spanish: delays", "Norvale", "Con Norvale los paquetes suelen llegar con retraso.", Negative},
		{"Spanish: long waits", "Kestrel", "El servicio de atención de Kestrel tiene esperas largas.", Negative},
		{"Spanish: takes weeks", "Kestrel", "Los reembolsos de Kestrel tardan varias semanas.", Negative},
		{"Spanish: falls short", "Norvale", "Para una empresa grande, Norvale se queda corto.", Negative},
		{"Spanish: scarce", "Norvale", "La red de tiendas de Norvale es todavía escasa fuera de Madrid.", Negative},
		{"German: delays", "Brightwing", "Bei Brightwing sind Verspätungen im Sommer häufig.", Negative},
		{"German: long waits", "Kestrel", "Kunden von Kestrel berichten von langen Wartezeiten an der Hotline.", Negative},
		{"German: higher costs", "Kestrel", "Die Gebühren für Auslandsüberweisungen sind bei Kestrel deutlich höher.", Negative},
		{"French: higher fees", "Kestrel", "Chez Kestrel, les frais de tenue de compte sont nettement plus élevés.", Negative},
		{"French: takes months", "Norvale", "Chez Norvale, un remboursement prend des mois.", Negative},
		// plain facts
		{"Spanish: no delays", "Norvale", "Con Norvale los pedidos llegan sin retrasos y bien embalados.", Positive},
		{"German: a high building", "Norvale", "Die Zentrale von Norvale ist ein hohes Gebäude in Hamburg.", Neutral},
		{"English: a late-night menu", "Norvale", "Norvale serves a late-night menu on Fridays.", Neutral},
	}))
	lists := []sentimentCase{
		{name: "German lists, two sides", brand: Entity{Name: "Norvale"}, query: "norvale erfahrungen",
			text: "Die Erfahrungen mit Norvale sind gemischt.\n\n**Positiv**\n- Solide Verarbeitung\n- Das Display funktioniert hervorragend\n- Gute Akkulaufzeit\n\n**Negativ**\n- Die App stürzt oft ab\n- Ersatzteile sind teuer\n",
			want: Mixed},
		{name: "Spanish lists the rules barely read", brand: Entity{Name: "Norvale"}, query: "norvale opiniones",
			text: "Norvale es una marca de bicicletas fundada en 2010.\n\n**Lo positivo**\n- Cuadros ligeros de aluminio.\n- Mucho equipamiento de serie.\n- Diseño reconocible.\n\n**Las pegas**\n- Red de talleres todavía escasa.\n- Recambios difíciles de encontrar.\n",
			want: Mixed},
	}
	runSentimentCases(t, lists)
}
