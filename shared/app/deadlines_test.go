package app_test

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// Every job type that can be created is swept — a new type without a
// deadline and a settle fails here — but publishing, which waits for a
// human; and the deadlines are the ones README.md documents.
func TestEveryJobTypeHasADeadline(t *testing.T) {
	repos, err := app.NewRepos(embedded.NewMemory(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := queue.NewLocal(queue.LocalOptions{})
	defer q.Close()
	svc, err := app.NewServices(repos, app.Deps{Jobs: q, Deliveries: q, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Secrets: secrets.NewSealer(secrets.NewMemoryKeyring())})
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]time.Duration{
		// All five platforms, one sample: RunPlatforms' 890 s (its items
		// would take 1,034 s) and the other steps' 22 min 30 s.
		jobs.TypeQueryRun: 37*time.Minute + 20*time.Second,
		// Their definitions' TimeoutSeconds (1 h; 4 h for re-scoring, whose
		// batches loop) are below the bound of their states.
		jobs.TypeGapDetection:      time.Hour,
		jobs.TypeBriefGeneration:   time.Hour,
		jobs.TypeContentGeneration: time.Hour,
		jobs.TypeRescore:           4 * time.Hour,
		// Publishing waits up to 7 days for a review (its AwaitApproval
		// task), then 10 minutes of steps and retries: past that its
		// workflow cannot be running; before it, a restarted local runtime
		// starts it again and the approval step registers anew.
		jobs.TypePublish: 168*time.Hour + 10*time.Minute,
	}
	for _, typ := range jobs.Types {
		d, ok := svc.Sweeper.Deadline(jobs.Job{Type: typ, Platforms: platforms.All, Samples: 1})
		switch {
		case !ok:
			t.Errorf("%s jobs are not swept: no deadline, no settle", typ)
		case d != documented[typ]:
			t.Errorf("%s: deadline %s, README.md documents %s", typ, d, documented[typ])
		}
	}
	// 25 items are asked at once, in the same step: the same deadline.
	if d, _ := svc.Sweeper.Deadline(jobs.Job{Type: jobs.TypeQueryRun, Platforms: platforms.All, Samples: 5}); d != 37*time.Minute+20*time.Second {
		t.Errorf("5 × 5 run: %s", d)
	}
}
