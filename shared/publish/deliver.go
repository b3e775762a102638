package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/livepages"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Headers of a channel B delivery besides Content-Type and the signature.
const (
	HeaderEvent     = "X-Service-Event"
	HeaderContentID = "X-Service-Content-Id"
	EventPublished  = "content.published"
	// maxAnswer is how much of a receiver's answer is read (for its url).
	maxAnswer = 64 << 10
)

// DeliveryFailedError: the receiver did not answer 2xx, or could not be
// reached, or took longer than 30 s (the workflow fails the job with it;
// there is no automatic retry: a retry is a new publish).
type DeliveryFailedError struct{ Message string }

func (e *DeliveryFailedError) Error() string { return e.Message }

// Result is a publish job's result (the job record's result).
type Result struct {
	OpportunityID  string `json:"opportunityId"`
	DestinationID  string `json:"destinationId"`
	LiveURL        string `json:"liveUrl"`
	ContentVersion string `json:"contentVersion"`
	HTTPStatus     int    `json:"httpStatus"`
	IndexNowPinged bool   `json:"indexNowPinged"`
	PayloadSHA256  string `json:"payloadSha256"`
	Signed         bool   `json:"signed"`
}

// Attempt is what one POST got.
type Attempt struct {
	Status  int
	LiveURL string
	Err     string // "" on 2xx
}

// Target is where and how a payload goes.
type Target struct {
	URL    string
	Secret []byte // nil: unsigned
	Client *http.Client
}

// Post sends the payload bytes once to t: the spec's channel B headers,
// the signature over the exact bytes, 30 s, redirects not followed. The
// live URL is the Location header, else the JSON answer's url, location or
// publishedUrl, else the endpoint URL.
func Post(ctx context.Context, t Target, contentID string, body []byte, timeout time.Duration) Attempt {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return Attempt{Err: "invalid destination URL"}
	}
	req.Header.Set("Content-Type", "application/json")
	if len(t.Secret) > 0 {
		req.Header.Set(signing.Header, signing.Sign(t.Secret, body))
	}
	req.Header.Set(HeaderEvent, EventPublished)
	req.Header.Set(HeaderContentID, contentID)
	req.Header.Set("User-Agent", "brandlens-publish/1.0")
	res, err := t.Client.Do(req)
	if err != nil {
		return Attempt{Err: describe(err, timeout)}
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	a := Attempt{Status: res.StatusCode}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		a.Err = "the destination answered HTTP " + strconv.Itoa(res.StatusCode)
		if res.StatusCode >= 300 && res.StatusCode < 400 {
			a.Err += " (redirects are not followed)"
		}
		return a
	}
	a.LiveURL = LiveURL(t.URL, res.Header.Get("Location"), answer)
	return a
}

// LiveURL applies the spec's precedence: Location, then the JSON answer's
// url, location or publishedUrl, then the endpoint. A relative Location
// resolves against the endpoint; only absolute http(s) results count.
func LiveURL(endpoint, location string, answer []byte) string {
	base, _ := url.Parse(endpoint)
	abs := func(s string) string {
		if s == "" || base == nil {
			return ""
		}
		u, err := base.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return ""
		}
		return u.String()
	}
	if u := abs(location); u != "" {
		return u
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(answer, &m) == nil {
		for _, name := range []string{"url", "location", "publishedUrl"} {
			var s string
			if json.Unmarshal(m[name], &s) == nil {
				if u := abs(s); u != "" {
					return u
				}
			}
		}
	}
	return endpoint
}

func describe(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.Is(err, ssrf.ErrDenied):
		return "the destination address is not allowed (SSRF guard)"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return "timeout: no answer within " + timeout.String()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return "network error: " + msg
}

// DeliverInput is the workflow state when Deliver runs.
type DeliverInput struct {
	JobID    string `json:"jobId"`
	TenantID int32  `json:"tenantId"`
	Type     string `json:"type"`
}

// Deliver is the publish step: one POST of the stored payload bytes to the
// destination. On 2xx one transaction marks the opportunity published
// (live URL, content version, IndexNow), indexes the live URL for
// content.cited, appends content.published and the audit entry of the
// attempt, and records the job's outcome. Otherwise the attempt is
// audited alone and the step fails with DeliveryFailedError (the job fails
// at 0 credits, the opportunity unchanged). Run again after success it
// sends nothing.
func (s *Service) Deliver(ctx context.Context, in DeliverInput) (Result, error) {
	if raw, done, err := meter.Done(ctx, s.tbl, in.TenantID, in.JobID); err != nil || done {
		var r Result
		if done {
			err = json.Unmarshal(raw, &r)
		}
		return r, err
	}
	p, actor, err := meter.Params[Params](ctx, s.tbl, in.TenantID, in.JobID)
	if err != nil {
		return Result{}, err
	}
	if p.ApprovalID != "" {
		// The approval must be this job's (a propose approved, or the one
		// an execute used).
		ok, err := s.approvals.Consume(ctx, in.TenantID, p.ApprovalID, in.JobID)
		if err != nil {
			return Result{}, meter.StoreErr("use approval", err)
		}
		if !ok {
			return Result{}, &meter.PermanentError{Message: "the approval " + p.ApprovalID + " does not authorize this publish"}
		}
	}
	d, err := s.dests.Get(ctx, in.TenantID, p.DestinationID)
	if errors.Is(err, destinations.ErrNotFound) {
		return Result{}, &meter.PermanentError{Message: "destination " + p.DestinationID + " was deleted"}
	}
	if err != nil {
		return Result{}, meter.StoreErr("read destination", err)
	}
	t, err := s.target(ctx, d)
	if err != nil {
		return Result{}, err
	}
	sum := sha256.Sum256(p.Payload)
	res := Result{OpportunityID: p.OpportunityID, DestinationID: d.ID, PayloadSHA256: hex.EncodeToString(sum[:]), Signed: len(t.Secret) > 0}
	var pl Payload
	if err := json.Unmarshal(p.Payload, &pl); err == nil && pl.ContentVersion != nil {
		res.ContentVersion = *pl.ContentVersion
	}
	if err := s.claimSend(ctx, in.TenantID, p.OpportunityID, res.ContentVersion); err != nil {
		return Result{}, err
	}
	att := Post(ctx, t, p.OpportunityID, p.Payload, s.deliveryWait)
	res.HTTPStatus = att.Status
	now := s.now().UTC()
	entry := audit.New(in.TenantID, actor, ActionAttempt, audit.Resource("opportunity", p.OpportunityID), audit.OutcomeSucceeded, now)
	entry.JobID = in.JobID
	entry.Detail = fmt.Sprintf("POST to %s destination %s: payload sha256 %s (%d bytes, %s), receiver status %s",
		d.Type, d.ID, res.PayloadSHA256, len(p.Payload), signedText(res.Signed), statusText(att))
	if att.Err != "" {
		entry.Outcome = audit.OutcomeFailed
		entry.Detail += ": " + att.Err
		if err := audit.NewLog(s.tbl).Append(ctx, entry); err != nil {
			s.log.Error("publish: audit failed attempt", "job_id", in.JobID, "error", err.Error())
		}
		return Result{}, &DeliveryFailedError{Message: att.Err}
	}
	res.LiveURL = att.LiveURL
	if d.IndexNow() {
		res.IndexNowPinged = s.pingIndexNow(ctx, d, res.LiveURL)
		entry.Detail += fmt.Sprintf("; IndexNow pinged: %t", res.IndexNowPinged)
	}
	if err := s.record(ctx, in, p, d, res, entry, now); err != nil {
		return Result{}, err
	}
	return res, nil
}

func signedText(signed bool) string {
	if signed {
		return "signed"
	}
	return "unsigned: the destination has no secret"
}

func statusText(a Attempt) string {
	if a.Status == 0 {
		return "none"
	}
	return strconv.Itoa(a.Status)
}

// target is where d's deliveries go.
func (s *Service) target(ctx context.Context, d destinations.Destination) (Target, error) {
	if d.Type == destinations.TypeOwnSite {
		if len(s.cfg.SiteContentSecret) == 0 || s.cfg.SiteBaseURL == "" {
			return Target{}, &meter.PermanentError{Message: "the own site is not configured (BRANDLENS_SITE_CONTENT_SECRET, BRANDLENS_SITE_BASE_URL)"}
		}
		return Target{URL: s.cfg.SiteBaseURL + "/api/site-content/webhooks/" + d.SiteContentType, Secret: s.cfg.SiteContentSecret, Client: s.trusted}, nil
	}
	secret, err := s.dests.Secret(ctx, d)
	if err != nil {
		return Target{}, meter.StoreErr("open destination secret", err)
	}
	t := Target{URL: d.URL, Client: s.webhook}
	if secret != "" {
		t.Secret = []byte(secret)
	}
	return t, nil
}

// pingIndexNow submits the live URL to the IndexNow endpoint (one POST,
// 10 s); a failure is logged, never fails the publish.
func (s *Service) pingIndexNow(ctx context.Context, d destinations.Destination, liveURL string) bool {
	body := map[string]any{"host": d.IndexNowHost, "key": d.IndexNowKey, "urlList": []string{liveURL}}
	if d.IndexNowKeyLocation != "" {
		body["keyLocation"] = d.IndexNowKeyLocation
	}
	b, _ := json.Marshal(body)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.IndexNowEndpoint, bytes.NewReader(b))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	res, err := s.trusted.Do(req)
	if err != nil {
		s.log.Warn("publish: IndexNow ping failed", "destination_id", d.ID, "error", err.Error())
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, maxAnswer))
	res.Body.Close()
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusAccepted {
		s.log.Warn("publish: IndexNow refused the ping", "destination_id", d.ID, "status", res.StatusCode)
		return false
	}
	return true
}

// record commits a successful publish, with the opportunity's gap
// addressed.
func (s *Service) record(ctx context.Context, in DeliverInput, p Params, d destinations.Destination, res Result, entry audit.Entry, now time.Time) error {
	for attempt := 1; ; attempt++ {
		o, err := s.opps.Get(ctx, in.TenantID, p.OpportunityID)
		if err != nil {
			return meter.StoreErr("read opportunity", err)
		}
		first := now
		if o.Publish != nil && !o.Publish.FirstPublishedAt.IsZero() {
			first = o.Publish.FirstPublishedAt
		}
		var cited *opportunities.Cited
		if o.Publish != nil && o.Publish.LiveURL == res.LiveURL {
			cited = o.Publish.Cited
		}
		next, err := opportunities.Apply(o, opportunities.ActionPublish, now, func(n *opportunities.Opportunity) {
			n.Publish = &opportunities.Publication{Status: opportunities.StatusPublished, DestinationID: d.ID, DestinationType: d.Type,
				LiveURL: res.LiveURL, ContentVersion: res.ContentVersion, PublishedAt: now, FirstPublishedAt: first,
				IndexNowPinged: res.IndexNowPinged, JobID: in.JobID, Cited: cited}
		})
		if err != nil {
			// Sent, but the opportunity moved on (dismissed): the job fails;
			// the attempt is audited.
			entry.Outcome = audit.OutcomeFailed
			entry.Detail += "; not recorded: " + err.Error()
			_ = audit.NewLog(s.tbl).Append(ctx, entry)
			return &meter.PermanentError{Message: err.Error()}
		}
		oppOp, err := opportunities.ReplaceOp(o, next)
		if err != nil {
			return err
		}
		ev, err := outbox.New(in.TenantID, outbox.ContentPublished, outbox.ContentPublishedData{OpportunityID: o.ID,
			LiveURL: res.LiveURL, IndexNowPinged: res.IndexNowPinged, DestinationID: d.ID, JobID: in.JobID, PublishedAt: now}, now)
		if err != nil {
			return err
		}
		evOp, err := outbox.Op(ev)
		if err != nil {
			return err
		}
		doneOp, err := meter.DoneOp(in.TenantID, in.JobID, res)
		if err != nil {
			return err
		}
		auditOp, err := audit.Op(entry)
		if err != nil {
			return err
		}
		gapOps, err := s.gaps.AddressOps(ctx, in.TenantID, o.GapID, now)
		if err != nil {
			return meter.StoreErr("read gap", err)
		}
		ops := append([]store.Op{doneOp, oppOp}, gapOps...)
		ops = append(append(ops, evOp, auditOp), livepages.IndexOps(in.TenantID, o.ID, res.LiveURL)...)
		newest := len(ops)
		ops = append(ops, store.CheckOp(sentKey(in.TenantID, o.ID), store.Eq(attrSentVersion, res.ContentVersion)))
		err = s.tbl.TransactWrite(ctx, ops...)
		var txe *store.TxConditionError
		if errors.As(err, &txe) && txe.Index == newest {
			// A newer publish started sending meanwhile: it is the live one.
			entry.Outcome = audit.OutcomeFailed
			entry.Detail += "; not recorded: a newer publish of the opportunity was sent meanwhile"
			_ = audit.NewLog(s.tbl).Append(ctx, entry)
			return s.superseded(ctx, in.TenantID, o.ID, res.ContentVersion, true)
		}
		if errors.As(err, &txe) {
			recorded, changed := recordConflict(txe.Index, len(gapOps))
			switch {
			case recorded:
				return nil // recorded by a concurrent run of the step
			case changed && attempt < maxRecordAttempts:
				entry.ID = audit.New(in.TenantID, entry.Actor, entry.Action, entry.Resource, entry.Outcome, s.now()).ID
				continue // the opportunity (a citation noticed) or its gap (a detection) changed meanwhile: read again
			}
		}
		if err != nil {
			return meter.StoreErr("record publish", err)
		}
		outbox.Notify()
		return nil
	}
}

// The opportunity's newest ContentVersion sent (text order = publish
// order): a publish goes out only when no newer one of the opportunity has
// started going out, so that an old proposal approved late never sends its
// older text after a newer publish, nor is recorded as the live version.
const attrSentVersion = "version"

func sentKey(tenantID int32, oppID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "PUBLISHSENT#" + oppID}
}

// claimSend raises the opportunity's newest sent version to version, on
// the condition that it is not newer already (the same version is a
// re-sent attempt of the same publish); otherwise the publish fails
// without sending.
func (s *Service) claimSend(ctx context.Context, tenantID int32, oppID, version string) error {
	k := sentKey(tenantID, oppID)
	err := s.tbl.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, attrSentVersion: version},
		store.Or(store.NotExists(), store.Le(attrSentVersion, version)))
	if errors.Is(err, store.ErrConditionFailed) {
		return s.superseded(ctx, tenantID, oppID, version, false)
	}
	if err != nil {
		return meter.StoreErr("claim the newest version", err)
	}
	return nil
}

// superseded is the failure of a publish of version that a newer publish
// of the opportunity overtook: before it was sent, or (sent) after it was
// sent and before it was recorded, when the newer one is the live one.
func (s *Service) superseded(ctx context.Context, tenantID int32, oppID, version string, sent bool) error {
	newer := "a newer version"
	if it, err := s.tbl.Get(ctx, sentKey(tenantID, oppID)); err == nil {
		newer = it.String(attrSentVersion)
	}
	what := "its older text is not sent — publish again to send the current article"
	if sent {
		what = "it was sent but is not recorded as live: the newer version is the live one"
	}
	return &meter.PermanentError{Message: fmt.Sprintf("superseded: a newer publish of opportunity %s (ContentVersion %s) went out "+
		"after this one (ContentVersion %s) was made; %s", oppID, newer, version, what)}
}

// maxRecordAttempts bounds record's re-reads of an opportunity or gap that
// keeps changing; past it the step fails as on any store error.
const maxRecordAttempts = 5

// recordConflict reads a failed condition at op index i of record's
// transaction, which holds the done record (0), the opportunity (1) and
// the gap's ops (2 … 1+gapOps): the publish was recorded already, or what
// it read changed meanwhile.
func recordConflict(i, gapOps int) (recorded, changed bool) {
	return i == 0, i >= 1 && i <= 1+gapOps
}

// AwaitInput is the input of the approval step (a .waitForTaskToken
// task): the job and the token its workflow waits on.
type AwaitInput struct {
	JobID     string `json:"jobId"`
	TenantID  int32  `json:"tenantId"`
	TaskToken string `json:"taskToken"`
}

// AwaitApproval is the approval step: a job held for its approval request
// registers the token there (the review answers it, or the step answers at
// once when the review came first); any other job proceeds at once.
func (s *Service) AwaitApproval(ctx context.Context, in AwaitInput) (struct{}, error) {
	j, err := jobs.NewRepo(s.tbl).Get(ctx, in.TenantID, in.JobID)
	if errors.Is(err, jobs.ErrNotFound) {
		return struct{}{}, &meter.PermanentError{Message: "job " + in.JobID + " does not exist"}
	}
	if err != nil {
		return struct{}{}, meter.StoreErr("read job", err)
	}
	if j.ApprovalID == nil || !j.AwaitingApproval {
		return struct{}{}, s.approvals.Proceed(ctx, in.TaskToken)
	}
	_, err = s.approvals.AwaitDecision(ctx, approvals.AwaitInput{JobID: in.JobID, TenantID: in.TenantID,
		ApprovalID: *j.ApprovalID, TaskToken: in.TaskToken})
	return struct{}{}, err
}

// Handlers are the publish workflow's steps.
func (s *Service) Handlers() workflow.Handlers {
	return workflow.Handlers{
		StepAwaitApproval: meter.Handler(s.AwaitApproval),
		StepDeliver:       meter.Handler(s.Deliver),
	}
}
