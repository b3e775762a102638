package runs_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Many runs settling at once: every mention of a competitor is counted
// exactly once, each competitor enters once, and no tally is left, on both
// backends (on DynamoDB Local racing transactions really conflict).
func TestConcurrentSettlesCountEveryMentionOnce(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "discover", "perplexity": "plain"})
		const n = 8
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() { x.run(t, 1) })
		}
		wg.Wait()
		ctx := context.Background()
		comps, err := x.svc.Competitors.List(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		// Each run: chatgpt names Notion (tracked) and discovers Obsidian
		// and Logseq; perplexity names Notion. Discovered brands start with
		// the mentions that detected them and count from then on.
		got := map[string]int32{}
		for _, c := range comps {
			got[c.NameOrEmpty()] = c.TotalMentions
		}
		if got["Notion"] != 2*n || got["Obsidian"] != n || got["Logseq"] != n {
			t.Fatalf("total mentions %v, want Notion %d, Obsidian and Logseq %d", got, 2*n, n)
		}
		if evs := x.events(t); evs[outbox.CompetitorEntered] != 3 {
			t.Fatalf("%d competitor.entered, want 3", evs[outbox.CompetitorEntered])
		}
		left, err := store.All(ctx, x.svc.Table, store.Query{PK: tenants.PK(1), SK: store.SKBeginsWith("COMPTALLY#")})
		if err != nil || len(left) != 0 {
			t.Fatalf("%d tallies left (%v)", len(left), err)
		}
	})
}

// A tally whose fold did not happen (the settle stopped after its
// transaction) is folded by the tenant's next settle.
func TestLeftTallyIsFoldedByTheNextSettle(t *testing.T) {
	x := newExecEnv(t, newClockEnv(t), map[string]string{"chatgpt": "plain", "perplexity": "plain"})
	ctx := context.Background()
	left := store.Item{store.AttrPK: tenants.PK(1), store.AttrSK: "COMPTALLY#01stoppedjob0000000000000",
		store.AttrDoc: `{"jobId":"01stoppedjob0000000000000","queryId":1,"at":"2026-11-22T10:00:00Z","mentions":{"notion":5},"platforms":{"notion":["chatgpt"]}}`}
	if err := x.svc.Table.Put(ctx, left, store.NotExists()); err != nil {
		t.Fatal(err)
	}
	x.run(t, 1)
	comps, err := x.svc.Competitors.List(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range comps {
		if strings.EqualFold(c.NameOrEmpty(), "notion") && c.TotalMentions != 5+2 {
			t.Fatalf("Notion: %d mentions, want the left tally's 5 and the run's 2", c.TotalMentions)
		}
	}
	if _, err := x.svc.Table.Get(ctx, left.Key()); err != store.ErrNotFound {
		t.Fatalf("the left tally is still there: %v", err)
	}
}
