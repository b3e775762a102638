package audit_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/gaps/gapstest"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/timeline"
)

var (
	human = audit.Actor{KeyID: "key_human", Kind: audit.KindHuman, AutonomyLevel: "L0"}
	agent = audit.Actor{KeyID: "key_agent", Kind: audit.KindAgent, AutonomyLevel: "L1"}
)

// The key-range, filter and condition semantics this relies on are the
// store conformance suite's, on both backends; the content and meter tests
// list audit entries on DynamoDB Local too. This one runs embedded only, to
// spare the suite another DynamoDB Local.
func TestAppendOnlyLog(t *testing.T) {
	clock := storetest.NewClock(gapstest.Start)
	tbl := embedded.NewMemory(embedded.WithClock(clock.Now))
	ctx := context.Background()
	log := audit.NewLog(tbl)
	// Seven entries, one a second: alternating actors, two resources.
	var ids []string
	for i := range 7 {
		actor := human
		if i%2 == 1 {
			actor = agent
		}
		e := audit.New(1, actor, "content.generate_brief", audit.Resource("opportunity", fmt.Sprintf("o%d", i%2)), audit.OutcomeAccepted, clock.Now())
		if i == 3 {
			e.Action = "model.generate"
			e = e.WithModelCall(audit.ModelCall{Vendor: "openai", Model: "gpt-5.5",
				Prompt:   []models.Message{{Role: models.RoleSystem, Content: "sys"}, {Role: models.RoleUser, Content: "user"}},
				Response: strings.Repeat("é", audit.MaxResponseBytes), InputTokens: 10, OutputTokens: 20, CostUSD: 0.001, CostKnown: true})
		}
		if err := log.Append(ctx, e); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
		clock.Advance(time.Second)
	}
	// An entry is never overwritten.
	dup := audit.New(1, human, "x", "y", audit.OutcomeFailed, clock.Now())
	dup.ID = ids[0]
	if err := log.Append(ctx, dup); !errors.Is(err, store.ErrConditionFailed) {
		t.Errorf("overwriting an entry: %v", err)
	}
	all, err := log.List(ctx, 1, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Items) != 7 || all.Cursor != "" || all.Items[0].ID != ids[6] || all.Items[6].ID != ids[0] {
		t.Fatalf("list: %d items, cursor %q", len(all.Items), all.Cursor)
	}
	if all.Items[0].Action != "content.generate_brief" || all.Items[6].Actor != human {
		t.Errorf("first entry %+v", all.Items[6])
	}
	mc := all.Items[3].Model
	if mc == nil || mc.Prompt[1].Content != "user" || !mc.ResponseTruncated || len(mc.Response) > audit.MaxResponseBytes {
		t.Errorf("model call %+v", mc)
	}

	cases := []struct {
		name string
		f    audit.Filter
		want []int // indexes into ids, newest first
	}{
		{"actor", audit.Filter{Actor: "key_agent"}, []int{5, 3, 1}},
		{"resource", audit.Filter{Resource: "opportunity:o0"}, []int{6, 4, 2, 0}},
		{"action", audit.Filter{Action: "model.generate"}, []int{3}},
		{"from", audit.Filter{From: gapstest.Start.Add(5 * time.Second)}, []int{6, 5}},
		{"to", audit.Filter{To: gapstest.Start.Add(1 * time.Second)}, []int{1, 0}},
		{"range and actor", audit.Filter{From: gapstest.Start.Add(time.Second), To: gapstest.Start.Add(4 * time.Second), Actor: "key_human"}, []int{4, 2}},
		{"nothing", audit.Filter{Actor: "key_nobody"}, nil},
	}
	for _, tc := range cases {
		p, err := log.List(ctx, 1, tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, e := range p.Items {
			got = append(got, e.ID)
		}
		var want []string
		for _, i := range tc.want {
			want = append(want, ids[i])
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}

	// Paging: 3 + 3 + 1, no entry twice, and filters hold across pages.
	var seen []string
	f := audit.Filter{Limit: 3}
	for pages := 0; ; pages++ {
		p, err := log.List(ctx, 1, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Items {
			seen = append(seen, e.ID)
		}
		if p.Cursor == "" {
			if pages != 2 {
				t.Errorf("%d pages", pages+1)
			}
			break
		}
		f.Cursor = p.Cursor
	}
	if strings.Join(seen, ",") != strings.Join([]string{ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}, ",") {
		t.Errorf("paged %v", seen)
	}
	p, err := log.List(ctx, 1, audit.Filter{Limit: 1, Actor: "key_agent"})
	if err != nil || len(p.Items) != 1 || p.Cursor != ids[5] {
		t.Fatalf("filtered page: %+v %v", p, err)
	}
	if p, _ = log.List(ctx, 1, audit.Filter{Limit: 5, Actor: "key_agent", Cursor: p.Cursor}); len(p.Items) != 2 || p.Cursor != "" {
		t.Errorf("second filtered page %+v", p)
	}
	// Another tenant sees nothing.
	if p, _ := log.List(ctx, 2, audit.Filter{}); len(p.Items) != 0 {
		t.Errorf("tenant 2 sees %d entries", len(p.Items))
	}
	for _, bad := range []audit.Filter{{Cursor: "nope"}, {Cursor: strings.ToUpper(ids[0])}, {Limit: 201}, {Limit: -1}} {
		if _, err := log.List(ctx, 1, bad); !errors.Is(err, timeline.ErrInvalidCursor) && !errors.Is(err, timeline.ErrInvalidLimit) {
			t.Errorf("filter %+v: %v", bad, err)
		}
	}
}

func TestActorOf(t *testing.T) {
	if a := audit.System(); a.Kind != audit.KindSystem || a.KeyID != audit.SystemActorID {
		t.Errorf("system actor %+v", a)
	}
}

func TestProviderCall(t *testing.T) {
	c := audit.ProviderCall("chatgpt", "best team wiki", providers.Answer{Text: "Notion.", Model: "gpt-5.5", InputTokens: 5, OutputTokens: 2, CostUSD: 0.01}, "")
	if c.Vendor != "chatgpt" || len(c.Prompt) != 1 || c.Prompt[0] != (models.Message{Role: models.RoleUser, Content: "best team wiki"}) ||
		c.Response != "Notion." || !c.CostKnown || c.Error != "" {
		t.Errorf("provider call %+v", c)
	}
}

// TestServicePartition: entries of work done for no tenant (the brand
// check) are appended together, never overwritten, listed newest first
// with the filters, and never seen in a tenant's partition.
func TestServicePartition(t *testing.T) {
	clock := storetest.NewClock(gapstest.Start)
	tbl := embedded.NewMemory(embedded.WithClock(clock.Now))
	ctx := context.Background()
	log := audit.NewLog(tbl)
	visitor := audit.Anonymous("0123456789abcdef")
	var batch []audit.Entry
	for _, pf := range []string{"chatgpt", "claude"} {
		e := audit.New(0, visitor, "brand_check.ask", audit.Resource("brand_check", "req1"), audit.OutcomeAccepted, clock.Now())
		batch = append(batch, e.WithModelCall(audit.ModelCall{Vendor: pf,
			Prompt: []models.Message{{Role: models.RoleUser, Content: "what is Acme Notes"}}}))
	}
	if err := log.AppendService(ctx, audit.ScopeBrandCheck, batch...); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	later := audit.New(0, audit.Anonymous("fedcba9876543210"), "brand_check.ask", audit.Resource("brand_check", "req2"), audit.OutcomeAccepted, clock.Now())
	if err := log.AppendService(ctx, audit.ScopeBrandCheck, later); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		f    audit.Filter
		want int
	}{
		{"all, newest first", audit.Filter{}, 3},
		{"by resource", audit.Filter{Resource: "brand_check:req1"}, 2},
		{"by actor", audit.Filter{Actor: visitor.KeyID}, 2},
		{"by action", audit.Filter{Action: "brand_check.ask"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := log.ListService(ctx, audit.ScopeBrandCheck, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Items) != tt.want {
				t.Fatalf("%d entries, want %d", len(p.Items), tt.want)
			}
			if tt.f == (audit.Filter{}) && p.Items[0].ID != later.ID {
				t.Errorf("first entry %s, want the newest %s", p.Items[0].ID, later.ID)
			}
			for _, e := range p.Items {
				if e.TenantID != 0 || e.Actor.Kind != audit.KindAnonymous {
					t.Errorf("entry %+v", e)
				}
			}
		})
	}
	p, err := log.ListService(ctx, audit.ScopeBrandCheck, audit.Filter{Resource: "brand_check:req1"})
	if err != nil || p.Items[0].Model == nil || p.Items[0].Model.Prompt[0].Content != "what is Acme Notes" {
		t.Fatalf("prompt not kept verbatim: %+v %v", p.Items, err)
	}

	// All or none, and never overwritten: a batch repeating an id stores nothing.
	fresh := audit.New(0, visitor, "brand_check.ask", "brand_check:req3", audit.OutcomeAccepted, clock.Now().Add(time.Second))
	if err := log.AppendService(ctx, audit.ScopeBrandCheck, fresh, later); !errors.Is(err, store.ErrConditionFailed) {
		t.Errorf("re-appending an entry: %v", err)
	}
	if p, _ := log.ListService(ctx, audit.ScopeBrandCheck, audit.Filter{Resource: "brand_check:req3"}); len(p.Items) != 0 {
		t.Errorf("half a batch was stored: %+v", p.Items)
	}
	// No tenant sees them.
	if p, err := log.List(ctx, 1, audit.Filter{}); err != nil || len(p.Items) != 0 {
		t.Errorf("tenant 1 lists %d service entries (%v)", len(p.Items), err)
	}

	bad := []struct {
		name  string
		scope string
		e     audit.Entry
	}{
		{"a tenant's entry", audit.ScopeBrandCheck, audit.New(1, visitor, "x", "y", audit.OutcomeAccepted, clock.Now())},
		{"no action", audit.ScopeBrandCheck, audit.New(0, visitor, "", "y", audit.OutcomeAccepted, clock.Now())},
		{"a scope with a separator", "brand#check", audit.New(0, visitor, "x", "y", audit.OutcomeAccepted, clock.Now())},
		{"no scope", "", audit.New(0, visitor, "x", "y", audit.OutcomeAccepted, clock.Now())},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			if _, err := audit.ServiceOp(b.scope, b.e); err == nil {
				t.Error("accepted")
			}
		})
	}
}
