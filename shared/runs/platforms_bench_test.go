package runs_test

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
)

// BenchmarkRunPlatformsMemory measures the platform step's memory with
// the largest run in flight: 25 items (5 platforms × 5 samples) whose
// answers all arrive at once (each provider waits until all 25 calls
// are in flight), recorded on the embedded store. It reports the peak of
// the Go heap's live and unswept objects and of all the memory the Go
// runtime holds (close to the process's RSS, which Lambda's memory size
// bounds), sampled every 100 µs during the step, and their values before
// it, for answers of the offline providers' size, of 16 KiB and of 64 KiB,
// under the function's soft limit (GOMEMLIMIT=100MiB). Run one size per
// process, since the runtime keeps what an earlier size mapped:
//
//	go test -run '^$' -bench 'RunPlatformsMemory/16KiB' -benchtime 3x ./shared/runs
func BenchmarkRunPlatformsMemory(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"offline-answers", 0}, {"16KiB-answers", 16 << 10}, {"64KiB-answers", 64 << 10}} {
		b.Run(size.name, func(b *testing.B) {
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(100 << 20))
			var peakHeap, peakTotal, baseHeap, baseTotal float64
			for range b.N {
				e := newClockEnvScaled(b, 1)
				var all sync.WaitGroup
				all.Add(25)
				offline, err := providers.FromEnv(func(string) string { return "" }, nil)
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range platforms.All {
					e.provs[p] = &behaving{platform: p, answer: func(ctx context.Context, r providers.Request, _ int) (providers.Answer, error) {
						all.Done()
						all.Wait()
						a, err := offline[r.Platform].Answer(ctx, r)
						if size.bytes > 0 {
							// Prose that names no brand: a long answer, not
							// thousands of mentions.
							a.Text += strings.Repeat(" Teams keep their research notes tidy.", size.bytes/38)
						}
						return a, err
					}}
				}
				j, _ := startedRun(b, e, 1)
				var items []runs.Item
				for _, p := range platforms.All {
					for sample := range 5 {
						items = append(items, runs.Item{JobID: j.ID, TenantID: 1, Platform: p, Sample: sample, QueryID: *j.QueryID})
					}
				}
				runtime.GC()
				if baseHeap == 0 {
					baseHeap, baseTotal = heapNow()
				}
				stop := make(chan struct{})
				sampled := make(chan [2]float64)
				go func() {
					var ph, pt float64
					tick := time.NewTicker(100 * time.Microsecond)
					defer tick.Stop()
					for {
						h, t := heapNow()
						ph, pt = max(ph, h), max(pt, t)
						select {
						case <-stop:
							sampled <- [2]float64{ph, pt}
							return
						case <-tick.C:
						}
					}
				}()
				outs, err := e.svc.Runs.RunPlatforms(context.Background(), runs.PlatformsInput{Items: items})
				close(stop)
				p := <-sampled
				peakHeap, peakTotal = max(peakHeap, p[0]), max(peakTotal, p[1])
				if err != nil {
					b.Fatal(err)
				}
				for _, o := range outs {
					if o.Status != jobs.StatusSucceeded {
						b.Fatalf("%s/%d: %+v", o.Platform, o.Sample, o.Error)
					}
				}
			}
			const mb = 1 << 20
			b.ReportMetric(peakHeap/mb, "peak-heap-MB")
			b.ReportMetric(peakTotal/mb, "peak-runtime-MB")
			b.ReportMetric(baseHeap/mb, "before-heap-MB")
			b.ReportMetric(baseTotal/mb, "before-runtime-MB")
		})
	}
}

// heapNow reads the heap's objects and all the memory the runtime holds.
func heapNow() (heap, total float64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return float64(s[0].Value.Uint64()), float64(s[1].Value.Uint64())
}
