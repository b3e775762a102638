package detect

import "testing"

func FuzzDetect(f *testing.F) {
	for _, s := range []string{
		"", "Acme", "Acme's CRM is great, but Betaflow isn't.", "on Monday morning", "you.com vs you",
		"I don't have information about Acme.", "1. **Acme** – x\n2. **HubSpot** – y\n",
		"Cafe\u0301 Zoe\u0308", "日本ではメルカリが人気です。", "🚀Acme🚀", "\xff\xfeAcme\xc3", "acme.com.evil.net",
		"[Acme](https://acme.com)", "Straße ﬁ ß ẞ İ", "Acme\u0301\u0301\u0301",
	} {
		f.Add(s)
	}
	d := New(propEntities[0], propEntities[1:])
	f.Fuzz(func(t *testing.T, text string) {
		r := d.Detect(text, []Citation{{URL: text}})
		checkInvariants(t, text, r)
	})
}
