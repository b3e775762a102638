// Package idempotency makes retried writes safe: a write carrying an
// Idempotency-Key stores a record, in the same transaction as the job it
// creates, naming the request's fingerprint and the job. A retry with the
// same key and request gets the original job; the same key with another
// request is a conflict. Keys are scoped to the tenant and API key and
// expire after 24 h, decided in code (DynamoDB's TTL deletes lazily).
package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// TTL is how long a key is remembered.
const TTL = 24 * time.Hour

// MaxKeyLen is the longest key accepted.
const MaxKeyLen = 255

// ErrInvalidKey: empty, too long or not valid UTF-8.
var ErrInvalidKey = errors.New("idempotency: key must be 1 to 255 characters")

// ErrConflict: the key was used for a different request.
var ErrConflict = errors.New("idempotency: key reused with a different request")

// Validate checks a client's key.
func Validate(key string) error {
	if key == "" || len(key) > MaxKeyLen || !utf8.ValidString(key) {
		return ErrInvalidKey
	}
	return nil
}

// Fingerprint identifies a request: method, path and the exact body.
func Fingerprint(method, path string, body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", method, path)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func recordKey(tenantID int32, apiKeyID, key string) store.Key {
	sum := sha256.Sum256([]byte(key))
	return store.Key{PK: tenants.PK(tenantID), SK: "IDEM#" + apiKeyID + "#" + hex.EncodeToString(sum[:])}
}

// Op is the transaction op that claims key for the request, pointing at
// jobID. It fails its condition when an unexpired record exists.
func Op(tenantID int32, apiKeyID, key, fingerprint, jobID string, now time.Time) store.Op {
	k := recordKey(tenantID, apiKeyID, key)
	return store.PutOp(store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		"fingerprint": fingerprint, "jobId": jobID,
		"createdAt":         now.UTC().Format(time.RFC3339Nano),
		store.AttrExpiresAt: now.Add(TTL).Unix(),
	}, store.NotExists())
}

// Lookup returns the job of an unexpired record for key when the request
// matches it, ErrConflict when it does not, and store.ErrNotFound when no
// unexpired record exists.
func Lookup(ctx context.Context, tbl store.Table, tenantID int32, apiKeyID, key, fingerprint string) (string, error) {
	it, err := tbl.Get(ctx, recordKey(tenantID, apiKeyID, key))
	if err != nil {
		return "", err
	}
	if it.String("fingerprint") != fingerprint {
		return "", ErrConflict
	}
	return it.String("jobId"), nil
}
