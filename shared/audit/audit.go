// Package audit is the append-only log of who did what to which resource,
// when and with what outcome — and, for every call to a chat model or an AI
// platform, the exact prompt sent, the model, the response, the tokens and
// the cost. An entry is written once (its put is conditional on the item
// not existing) and never updated or deleted. Op returns the put, so an
// entry can join the store transaction of the action it records; Log.Append
// writes one alone.
package audit

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/timeline"
)

// Actor kinds.
const (
	KindHuman  = "human"
	KindAgent  = "agent"
	KindSystem = "system" // the scheduler and other work nobody's key asked for
)

// SystemActorID names the system in the actor filter.
const SystemActorID = "system"

// Actor is who caused an entry.
type Actor struct {
	// KeyID is the API key's id; "system" for the system.
	KeyID string `json:"keyId"`
	// Kind is human, agent or system.
	Kind string `json:"kind"`
	// AutonomyLevel is the key's trust level (L0, L1, L2); empty for the
	// system.
	AutonomyLevel string `json:"autonomyLevel,omitempty"`
}

// ActorOf is the actor of an authenticated API key.
func ActorOf(p auth.Principal) Actor {
	kind := KindHuman
	if p.IsAgent {
		kind = KindAgent
	}
	return Actor{KeyID: p.KeyID, Kind: kind, AutonomyLevel: string(p.Level())}
}

// System is the actor of work no key asked for.
func System() Actor { return Actor{KeyID: SystemActorID, Kind: KindSystem} }

// Outcomes.
const (
	OutcomeAccepted  = "accepted"  // a job was created for the request
	OutcomeSucceeded = "succeeded" // the action took effect
	OutcomeFailed    = "failed"    // it did not; Detail says why
)

// MaxResponseBytes caps the response text kept in one entry (DynamoDB items
// hold 400 KB). Prompts are never cut: their builders keep them small.
const MaxResponseBytes = 200 << 10

// ModelCall is one call to a chat model or an AI platform, verbatim.
type ModelCall struct {
	// Vendor is openai, anthropic, gemini or offline for generation, or the
	// platform (chatgpt, perplexity, …) for a query run's answer.
	Vendor string `json:"vendor"`
	Model  string `json:"model"`
	// Prompt is every message sent, in order, exactly as sent.
	Prompt            []models.Message `json:"prompt"`
	Response          string           `json:"response"`
	ResponseTruncated bool             `json:"responseTruncated,omitempty"`
	InputTokens       int              `json:"inputTokens"`
	OutputTokens      int              `json:"outputTokens"`
	CostUSD           float64          `json:"costUsd"`
	// CostKnown is false when the model has no price (CostUSD is then 0).
	CostKnown bool  `json:"costKnown"`
	LatencyMS int64 `json:"latencyMs"`
	// Error is the failure of a call that did not answer.
	Error string `json:"error,omitempty"`
}

// Entry is one audit record (the wire shape of GET /api/v1/audit items).
type Entry struct {
	ID       string    `json:"id"`
	TenantID int32     `json:"tenantId"`
	At       time.Time `json:"at"`
	Actor    Actor     `json:"actor"`
	// Action is what was done: gaps.detect, content.generate_brief,
	// content.generate_article, model.generate, job.settle, …
	Action string `json:"action"`
	// Resource is what it was done to, as type:id (job:01…, opportunity:01…,
	// brand_profile:1, query:3).
	Resource string `json:"resource"`
	Outcome  string `json:"outcome"`
	// Detail says why an action failed, or what it changed.
	Detail string     `json:"detail,omitempty"`
	JobID  string     `json:"jobId,omitempty"`
	Model  *ModelCall `json:"model,omitempty"`
}

// New returns an entry stamped now with a fresh id.
func New(tenantID int32, actor Actor, action, resource, outcome string, now time.Time) Entry {
	now = now.UTC()
	return Entry{ID: ids.ULID(now), TenantID: tenantID, At: now, Actor: actor, Action: action, Resource: resource, Outcome: outcome}
}

// Resource renders a resource reference.
func Resource(kind string, id any) string { return fmt.Sprintf("%s:%v", kind, id) }

// WithModelCall attaches a model call to the entry, capping the response.
func (e Entry) WithModelCall(c ModelCall) Entry {
	if len(c.Response) > MaxResponseBytes {
		cut := MaxResponseBytes
		for cut > 0 && !utf8.RuneStart(c.Response[cut]) {
			cut--
		}
		c.Response, c.ResponseTruncated = c.Response[:cut], true
	}
	e.Model = &c
	return e
}

const skPrefix = "AUDIT#"

// Item attributes the list filters read.
const (
	attrActor    = "actor"
	attrAction   = "action"
	attrResource = "resource"
)

func key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: skPrefix + id}
}

// Op is the put of e, conditional on no entry with its id existing: an
// entry is never overwritten.
func Op(e Entry) (store.Op, error) {
	if e.ID == "" || e.TenantID == 0 || e.Action == "" {
		return store.Op{}, errors.New("audit: an entry needs an id, a tenant and an action")
	}
	return entryOp(key(e.TenantID, e.ID), e)
}

// entryOp is the not-exists put of e at k.
func entryOp(k store.Key, e Entry) (store.Op, error) {
	doc, err := store.EncodeDoc(e)
	if err != nil {
		return store.Op{}, err
	}
	return store.PutOp(store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		attrActor: e.Actor.KeyID, attrAction: e.Action, attrResource: e.Resource,
		store.AttrDoc: doc,
	}, store.NotExists()), nil
}

// Log reads and appends audit entries.
type Log struct{ tbl store.Table }

// NewLog returns the log.
func NewLog(tbl store.Table) *Log { return &Log{tbl: tbl} }

// Append writes one entry on its own.
func (l *Log) Append(ctx context.Context, e Entry) error {
	op, err := Op(e)
	if err != nil {
		return err
	}
	if err := l.tbl.TransactWrite(ctx, op); err != nil {
		return fmt.Errorf("audit: append %s: %w", e.Action, err)
	}
	return nil
}

// Filter selects entries; zero members select everything.
type Filter struct {
	Resource string
	Actor    string // an API key id, or "system"
	Action   string
	From, To time.Time // inclusive, at millisecond precision
	Limit    int       // 1..200; 0 means 50
	// Cursor continues a listing where the previous page ended: the id of
	// its last entry.
	Cursor string
}

// Page is one page of entries, newest first. Cursor is "" on the last page.
type Page struct {
	Items  []Entry `json:"items"`
	Cursor string  `json:"cursor"`
}

// List returns a page of the tenant's entries, newest first. The filters on
// resource, actor and action are applied by the store after the key range
// (from, to, cursor) selects the entries; timeline errors report a bad
// limit or cursor.
func (l *Log) List(ctx context.Context, tenantID int32, f Filter) (Page, error) {
	items, next, err := timeline.Page[Entry](ctx, l.tbl, timeline.Query{
		PK: tenants.PK(tenantID), Prefix: skPrefix, From: f.From, To: f.To,
		Filter: filterCond(f), Limit: f.Limit, Cursor: f.Cursor,
	})
	return Page{Items: items, Cursor: next}, err
}

// filterCond is the store filter of f's resource, actor and action.
func filterCond(f Filter) store.Cond {
	var conds []store.Cond
	if f.Resource != "" {
		conds = append(conds, store.Eq(attrResource, f.Resource))
	}
	if f.Actor != "" {
		conds = append(conds, store.Eq(attrActor, f.Actor))
	}
	if f.Action != "" {
		conds = append(conds, store.Eq(attrAction, f.Action))
	}
	return store.And(conds...)
}

// Generation records a chat model's call: the messages exactly as sent and
// what the model answered (resp is zero for a call that failed).
func Generation(msgs []models.Message, resp models.Response) ModelCall {
	return ModelCall{Vendor: resp.Vendor, Model: resp.Model, Prompt: msgs, Response: resp.Text,
		InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens, CostUSD: resp.CostUSD,
		CostKnown: resp.CostKnown, LatencyMS: resp.Latency.Milliseconds()}
}

// ProviderCall records a query run's call to an AI platform the way a
// model call is recorded: the prompt is the query exactly as the adapter
// sends it (one user message; the adapters add no system prompt), the
// response is the answer text. A run's step can add the entry to the
// transaction that records the answer (it leaves room under DynamoDB's 100
// actions), or append it alone when the platform failed (errText set).
func ProviderCall(platform, query string, ans providers.Answer, errText string) ModelCall {
	return ModelCall{Vendor: platform, Model: ans.Model, Prompt: []models.Message{{Role: models.RoleUser, Content: query}},
		Response: ans.Text, InputTokens: ans.InputTokens, OutputTokens: ans.OutputTokens, CostUSD: ans.CostUSD,
		CostKnown: ans.CostUSD > 0, LatencyMS: ans.Latency.Milliseconds(), Error: errText}
}
