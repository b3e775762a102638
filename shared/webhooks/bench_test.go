package webhooks_test

import (
	"slices"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// BenchmarkDeliveryThroughput: events appended to the outbox, fanned out by
// the dispatcher and POSTed by the Local queue's workers to a local
// receiver, as `brandlens serve` runs them (embedded store in memory).
// Reports deliveries/s end to end.
func BenchmarkDeliveryThroughput(b *testing.B) {
	h := newHarness(b, nil, webhooks.Options{Guard: loopback})
	rc := newReceiver(b, secret, nil)
	h.subscribe(b, 1, rc.url, secret, webhooks.AllEvents)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		emit(b, h.tbl, 1, outbox.OpportunityCreated, outbox.OpportunityCreatedData{OpportunityID: "o"})
	}
	rc.waitPosts(b, b.N, time.Minute)
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}

// BenchmarkHealthyDelay measures the time from appending an event to its
// arrival at a healthy endpoint, with and without a second subscription
// whose endpoint hangs on every delivery (until the 10 s timeout). Reports
// p50 and p99 in ms; compare the two.
func BenchmarkHealthyDelay(b *testing.B) {
	for _, withHang := range []bool{false, true} {
		name := "baseline"
		if withHang {
			name = "one-endpoint-hanging"
		}
		b.Run(name, func(b *testing.B) {
			h := newHarness(b, nil, webhooks.Options{Guard: loopback, Timeout: webhooks.DefaultTimeout})
			fast := newReceiver(b, secret, nil)
			if withHang {
				slow := newReceiver(b, secret, hang)
				h.subscribe(b, 1, slow.url, secret, webhooks.AllEvents)
			}
			h.subscribe(b, 1, fast.url, secret, webhooks.AllEvents)
			delays := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				emit(b, h.tbl, 1, outbox.GapDetected, outbox.GapDetectedData{GapID: "g"})
				got := fast.waitPosts(b, i+1, time.Minute)
				delays = append(delays, got[i].at.Sub(start))
			}
			b.StopTimer()
			slices.Sort(delays)
			pct := func(p float64) float64 {
				return float64(delays[min(len(delays)-1, int(p*float64(len(delays))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}
