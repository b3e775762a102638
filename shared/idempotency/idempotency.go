// Package idempotency makes retried writes safe. A write carrying an
// Idempotency-Key is remembered by one record per (tenant, API key, key):
// the request's fingerprint and, once the write has answered, its answer. A
// retry with the same key and request gets the original answer; the same key
// with another request is a conflict. Keys expire after 24 h, decided in code
// (DynamoDB's TTL deletes lazily).
//
// The HTTP router claims the key before a write runs (Records.Begin), so
// concurrent duplicates cannot both run it, and stores the answer after it
// (Complete) or forgets the key when the write failed (Release: nothing was
// stored, so the retry runs again). A write that creates a job also joins the
// record in the job's transaction (JobOp): the job and the record commit
// together, so even a process that dies between the two cannot make a second
// job — the next claimant finds the job on the record. The scheduler uses
// JobOp without a claim.
package idempotency

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// TTL is how long a key is remembered.
const TTL = 24 * time.Hour

// MaxKeyLen is the longest key accepted, in characters.
const MaxKeyLen = 255

// Lock is how long a claim keeps a key to itself while its write runs. A
// claim older than this belongs to a request that died (API Gateway gives up
// on a request after 29 s, Lambda functions after their timeout); the next
// request with the key takes it over.
const Lock = time.Minute

// MaxStoredBody caps the answer kept for replay (an item holds at most
// 400 KB). Larger answers are remembered as done without their body.
const MaxStoredBody = 256 << 10

var (
	// ErrInvalidKey: empty, too long or not valid UTF-8.
	ErrInvalidKey = errors.New("idempotency: key must be 1 to 255 characters")
	// ErrConflict: the key was used for a different request.
	ErrConflict = errors.New("idempotency: key reused with a different request")
	// ErrInProgress: a request with the key is still running.
	ErrInProgress = errors.New("idempotency: a request with this key is in progress")
)

// Validate checks a client's key.
func Validate(key string) error {
	if !utf8.ValidString(key) {
		return ErrInvalidKey
	}
	if n := utf8.RuneCountInString(key); n == 0 || n > MaxKeyLen {
		return ErrInvalidKey
	}
	return nil
}

// Fingerprint identifies a request: method, path and the body's canonical
// form (RFC 8785: members sorted, numbers and strings normalised, no
// insignificant whitespace), so that the same JSON object written with its
// members in another order or spaced differently is the same request. An
// empty body counts as {}; a body that is not JSON is compared byte for byte.
func Fingerprint(method, path string, body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", method, path)
	h.Write(Canonical(body))
	return hex.EncodeToString(h.Sum(nil))
}

// Canonical returns the RFC 8785 form of a JSON body ({} for an empty one),
// or the body itself when it is not one JSON value.
func Canonical(body []byte) []byte {
	if len(bytes.TrimSpace(body)) == 0 {
		return []byte("{}")
	}
	v := jsontext.Value(bytes.Clone(body))
	if err := v.Canonicalize(); err != nil {
		return body
	}
	return v
}

// Key is one idempotency key of one caller, with the fingerprint of the
// request that carries it.
type Key struct {
	TenantID    int32
	APIKeyID    string
	Key         string
	Fingerprint string
	// token marks the claim Records.Begin took; "" for an unclaimed key
	// (the scheduler's).
	token string
}

// Claimed reports whether the key is held by a claim of Begin.
func (k Key) Claimed() bool { return k.token != "" }

func (k Key) storeKey() store.Key {
	sum := sha256.Sum256([]byte(k.Key))
	return store.Key{PK: tenants.PK(k.TenantID), SK: "IDEM#" + k.APIKeyID + "#" + hex.EncodeToString(sum[:])}
}

// Attributes of a record.
const (
	attrFingerprint = "fingerprint"
	attrState       = "state"
	attrToken       = "token"
	attrLockedUntil = "lockedUntil" // unix milliseconds
	attrJobID       = "jobId"
	attrStatus      = "status"
	attrBody        = "body"
	attrBodyOmitted = "bodyOmitted"
	attrCreatedAt   = "createdAt"

	statePending = "pending"
	stateDone    = "done"
)

// Record is what a key remembers.
type Record struct {
	Fingerprint string
	// Done: the write answered (or, without a claim, created its job).
	Done bool
	// JobID is the job the write created, if it creates jobs.
	JobID string
	// Status and Body are the answer to replay; BodyOmitted says it was too
	// large to keep.
	Status      int
	Body        []byte
	BodyOmitted bool
	token       string
	lockedUntil time.Time
}

func recordOf(it store.Item) *Record {
	r := &Record{
		Fingerprint: it.String(attrFingerprint), Done: it.String(attrState) == stateDone, JobID: it.String(attrJobID),
		Status: int(it.Int(attrStatus)), BodyOmitted: it.Bool(attrBodyOmitted), token: it.String(attrToken),
		lockedUntil: time.UnixMilli(it.Int(attrLockedUntil)),
	}
	if b := it.String(attrBody); b != "" {
		r.Body = []byte(b)
	}
	return r
}

// Records keeps the idempotency records in the table.
type Records struct {
	tbl store.Table
	now func() time.Time
}

// NewRecords returns the records of tbl; now is the clock (nil: time.Now).
func NewRecords(tbl store.Table, now func() time.Time) *Records {
	if now == nil {
		now = time.Now
	}
	return &Records{tbl: tbl, now: now}
}

// Get returns the unexpired record of k, or store.ErrNotFound.
func (r *Records) Get(ctx context.Context, k Key) (*Record, error) {
	it, err := r.tbl.Get(ctx, k.storeKey())
	if err != nil {
		return nil, err
	}
	return recordOf(it), nil
}

// Begin claims k for a write about to run, unless its record says
// otherwise. It returns the claimed key (pass it to the write, then to
// Complete or Release), or the record to replay when an earlier request
// with k has answered; ErrConflict when k was used for another request;
// ErrInProgress while another request with k runs. A claim older than Lock
// is taken over.
func (r *Records) Begin(ctx context.Context, k Key) (Key, *Record, error) {
	k.token = ""
	for range 3 {
		rec, err := r.Get(ctx, k)
		now := r.now()
		switch {
		case errors.Is(err, store.ErrNotFound):
			k.token = newToken()
			err = r.tbl.Put(ctx, store.Item{
				store.AttrPK: k.storeKey().PK, store.AttrSK: k.storeKey().SK,
				attrFingerprint: k.Fingerprint, attrState: statePending, attrToken: k.token,
				attrLockedUntil: now.Add(Lock).UnixMilli(), attrCreatedAt: now.UTC().Format(time.RFC3339Nano),
				store.AttrExpiresAt: now.Add(TTL).Unix(),
			}, store.NotExists())
			if errors.Is(err, store.ErrConditionFailed) {
				continue // another request claimed it first: read what it holds
			}
			if err != nil {
				return Key{}, nil, fmt.Errorf("idempotency: claim: %w", err)
			}
			return k, nil, nil
		case err != nil:
			return Key{}, nil, fmt.Errorf("idempotency: read: %w", err)
		case rec.Fingerprint != k.Fingerprint:
			return Key{}, nil, ErrConflict
		case rec.Done:
			return k, rec, nil
		case now.Before(rec.lockedUntil):
			return Key{}, nil, ErrInProgress
		}
		// The claimant died: take its claim over.
		k.token = newToken()
		_, err = r.tbl.Update(ctx, k.storeKey(), store.Update{Set: map[string]any{
			attrToken: k.token, attrLockedUntil: now.Add(Lock).UnixMilli(),
		}}, store.And(store.Exists(), store.Eq(attrState, statePending), store.Eq(attrToken, rec.token)))
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return Key{}, nil, fmt.Errorf("idempotency: take over: %w", err)
		}
		return k, nil, nil
	}
	return Key{}, nil, ErrInProgress
}

// Complete stores the answer of the write that holds k's claim, for replay.
func (r *Records) Complete(ctx context.Context, k Key, status int, body []byte) error {
	if !k.Claimed() {
		return errors.New("idempotency: Complete needs a claimed key")
	}
	op := AnswerOp(k, status, body)
	if _, err := r.tbl.Update(ctx, op.Key, op.Update, op.Cond); err != nil {
		return fmt.Errorf("idempotency: complete: %w", err)
	}
	return nil
}

// AnswerOp is the op that stores the answer of the write holding k's claim
// (Complete's write), for a write whose answer is decided before its
// transaction commits and must commit with it (a held change's 202): no
// process dying between the two can make a retry do it again. It fails
// when the claim was taken over.
func AnswerOp(k Key, status int, body []byte) store.Op {
	set := map[string]any{attrState: stateDone, attrStatus: int64(status)}
	if len(body) > MaxStoredBody {
		set[attrBodyOmitted] = true
	} else {
		set[attrBody] = string(body)
	}
	return store.UpdateOp(k.storeKey(), store.Update{Set: set, Remove: []string{attrToken, attrLockedUntil}},
		store.And(store.Exists(), store.Eq(attrToken, k.token)))
}

// Release forgets the claim of a write that failed, so that a retry with the
// key runs again. A record that names a job is kept: the job exists, and the
// next claimant finds it there.
func (r *Records) Release(ctx context.Context, k Key) error {
	if !k.Claimed() {
		return nil
	}
	err := r.tbl.Delete(ctx, k.storeKey(), store.And(store.Exists(), store.Eq(attrToken, k.token), store.AttrNotExists(attrJobID)))
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return fmt.Errorf("idempotency: release: %w", err)
	}
	return nil
}

// JobOp is the op that joins k's record to the transaction creating jobID:
// for a claimed key it names the job on the claim (failing when the claim
// was taken over or already names a job); for an unclaimed key it creates
// the record, done (failing when one exists). After it failed, Job tells
// which job the key already has.
func JobOp(k Key, jobID string, now time.Time) store.Op {
	sk := k.storeKey()
	if k.Claimed() {
		return store.UpdateOp(sk, store.Update{Set: map[string]any{attrJobID: jobID}},
			store.And(store.Exists(), store.Eq(attrToken, k.token), store.AttrNotExists(attrJobID)))
	}
	return store.PutOp(store.Item{
		store.AttrPK: sk.PK, store.AttrSK: sk.SK,
		attrFingerprint: k.Fingerprint, attrState: stateDone, attrJobID: jobID,
		attrCreatedAt: now.UTC().Format(time.RFC3339Nano), store.AttrExpiresAt: now.Add(TTL).Unix(),
	}, store.NotExists())
}

// Job returns the job k's record names, with found false when there is no
// record; ErrConflict when the record is another request's, ErrInProgress
// when it names no job yet (another request holds the key).
func (r *Records) Job(ctx context.Context, k Key) (jobID string, found bool, err error) {
	rec, err := r.Get(ctx, k)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("idempotency: read: %w", err)
	case rec.Fingerprint != k.Fingerprint:
		return "", false, ErrConflict
	case rec.JobID == "":
		return "", false, ErrInProgress
	}
	return rec.JobID, true, nil
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
