package brandcheck_test

import (
	"context"
	"fmt"
	"net/netip"
	"testing"

	"github.com/brandlens/brandlens/shared/brandcheck"
)

// BenchmarkCheck: one fresh check — validation, counting, 15 simulated
// answers, detection and competitor discovery, storing — on the embedded
// store. Each iteration is a new client and brand, so nothing is cached.
func BenchmarkCheck(b *testing.B) {
	f := newFixture(b, fixtureOpts{cfg: brandcheck.Config{DailyBudget: 1 << 30}})
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		who := brandcheck.Caller{Addr: netip.AddrFrom4([4]byte{203, 0, byte(i >> 8), byte(i)})}
		brand := fmt.Sprintf("Brand %d Notes", i)
		if _, err := f.svc.Check(ctx, input(brand, fmt.Sprintf("https://brand%d.com", i), "ok"), who); err != nil {
			b.Fatal(err)
		}
	}
}
