package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/cases"
)

// Unique keeps one value of the documents of a collection (a competitor's
// name, a query's text) unique within a partition, ignoring case (Unicode
// case folding) and spacing (runs of white space count as one, leading and
// trailing ones not at all).
//
// Each value has a claim item naming the document that holds it, written
// in the same transaction as the document under the condition that no
// claim exists, so of concurrent writers of one value exactly one succeeds
// — a listing checked before writing cannot promise that. (A rename or a
// delete of a document must move or delete its claim in its transaction
// too: MoveOps and ReleaseOps give the ops.)
type Unique[T any] struct {
	Docs Collection[T]
	// Kind names the value in claim keys ("COMPETITORNAME").
	Kind string
	// Value is the unique value of a document.
	Value func(T) string
	// Prefix is the sort-key prefix of the documents in a partition: the
	// documents stored before claims existed are found there, to be
	// claimed once (see Ready).
	Prefix string
	// Holds, when set, tells whether a document holds its value at all (a
	// deleted query keeps its document but not its text): Ready claims no
	// value for a document it rejects.
	Holds func(T) bool
}

// Fold is the canonical form of a unique value: case-folded, with white
// space normalized.
func Fold(value string) string {
	return cases.Fold().String(strings.Join(strings.Fields(value), " "))
}

// claimKey hashes the folded value, so that a long value never passes
// DynamoDB's sort-key limit; the claim item keeps the value readable.
func (u Unique[T]) claimKey(pk, value string) Key {
	sum := sha256.Sum256([]byte(Fold(value)))
	return Key{PK: pk, SK: u.markerSK() + "#" + hex.EncodeToString(sum[:])}
}

// markerSK is the item that says the partition's values are all claimed.
func (u Unique[T]) markerSK() string { return "UNIQUE#" + u.Kind }

func (u Unique[T]) claimOp(pk, value string, holder Key) Op {
	k := u.claimKey(pk, value)
	return PutOp(Item{AttrPK: k.PK, AttrSK: k.SK, "value": Fold(value), "holderSK": holder.SK, "holderPK": holder.PK}, NotExists())
}

// Holder returns the document that holds value in partition pk; ok is
// false when none does.
func (u Unique[T]) Holder(ctx context.Context, pk, value string) (doc T, ok bool, err error) {
	it, err := u.Docs.Table.Get(ctx, u.claimKey(pk, value))
	switch {
	case errors.Is(err, ErrNotFound):
		return doc, false, nil
	case err != nil:
		return doc, false, fmt.Errorf("%s: read %s claim: %w", u.Docs.Name, u.Kind, err)
	}
	doc, err = u.Docs.Get(ctx, Key{PK: it.String("holderPK"), SK: it.String("holderSK")})
	return doc, err == nil, err
}

// OpClaim is the position of the claim in the ops of Prepare: when it
// fails its condition, another writer took the value first.
const OpClaim = 0

// Prepare returns, for a caller's transaction, the document build makes
// and the ops that store it holding value in partition pk: the claim (at
// OpClaim), then the document. When value is already held it returns the
// holder and no ops, without calling build.
func (u Unique[T]) Prepare(ctx context.Context, pk, value string, build func() (T, error)) (T, []Op, error) {
	var zero T
	if err := u.Ready(ctx, pk); err != nil {
		return zero, nil, err
	}
	if held, ok, err := u.Holder(ctx, pk, value); err != nil || ok {
		return held, nil, err
	}
	v, err := build()
	if err != nil {
		return zero, nil, err
	}
	put, err := u.Docs.PutOp(v, NotExists())
	if err != nil {
		return zero, nil, err
	}
	return v, []Op{u.claimOp(pk, value, u.Docs.Key(v)), put}, nil
}

// Create stores the document build makes, holding value in partition pk,
// and returns it with created=true. When value is already held, also by a
// writer that wins a race, it returns the holder with created=false.
func (u Unique[T]) Create(ctx context.Context, pk, value string, build func() (T, error)) (doc T, created bool, err error) {
	doc, ops, err := u.Prepare(ctx, pk, value, build)
	if err != nil || ops == nil {
		return doc, false, err
	}
	err = u.Docs.Table.TransactWrite(ctx, ops...)
	var txe *TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == OpClaim:
		doc, _, err = u.Holder(ctx, pk, value)
		return doc, false, err
	case err != nil:
		return doc, false, fmt.Errorf("%s: create: %w", u.Docs.Name, err)
	}
	return doc, true, nil
}

// Ready makes sure that the values of documents stored before claims
// existed are claimed, once per partition; Prepare calls it. Several
// callers may run it at once: the first claim of a value wins, so of
// documents that already share a value the first listed keeps it.
func (u Unique[T]) Ready(ctx context.Context, pk string) error {
	marker := Key{PK: pk, SK: u.markerSK()}
	_, err := u.Docs.Table.Get(ctx, marker)
	if err == nil {
		return nil
	}
	if !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%s: read %s claims marker: %w", u.Docs.Name, u.Kind, err)
	}
	existing, err := u.Docs.Query(ctx, Query{PK: pk, SK: SKBeginsWith(u.Prefix)})
	if err != nil {
		return err
	}
	for _, v := range existing {
		if u.Holds != nil && !u.Holds(v) {
			continue
		}
		op := u.claimOp(pk, u.Value(v), u.Docs.Key(v))
		if err := u.Docs.Table.Put(ctx, op.Item, op.Cond); err != nil && !errors.Is(err, ErrConditionFailed) {
			return fmt.Errorf("%s: claim existing %s: %w", u.Docs.Name, u.Kind, err)
		}
	}
	if err := u.Docs.Table.Put(ctx, Item{AttrPK: marker.PK, AttrSK: marker.SK}, NotExists()); err != nil && !errors.Is(err, ErrConditionFailed) {
		return fmt.Errorf("%s: mark %s claimed: %w", u.Docs.Name, u.Kind, err)
	}
	return nil
}

// releaseOp deletes the claim of value while doc holds it.
func (u Unique[T]) releaseOp(pk, value string, holder Key) Op {
	return DeleteOp(u.claimKey(pk, value), Eq("holderSK", holder.SK))
}

// held reports whether doc holds value's claim.
func (u Unique[T]) held(ctx context.Context, pk, value string, doc T) (bool, error) {
	it, err := u.Docs.Table.Get(ctx, u.claimKey(pk, value))
	switch {
	case errors.Is(err, ErrNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("%s: read %s claim: %w", u.Docs.Name, u.Kind, err)
	}
	k := u.Docs.Key(doc)
	return it.String("holderPK") == k.PK && it.String("holderSK") == k.SK, nil
}

// ReleaseOps returns, for the transaction that deletes doc (or stops it
// holding its value), the op that frees value so that another document may
// take it; none when doc does not hold it (a document stored before claims
// existed that lost its value to an older one).
func (u Unique[T]) ReleaseOps(ctx context.Context, pk, value string, doc T) ([]Op, error) {
	if err := u.Ready(ctx, pk); err != nil {
		return nil, err
	}
	ok, err := u.held(ctx, pk, value, doc)
	if err != nil || !ok {
		return nil, err
	}
	return []Op{u.releaseOp(pk, value, u.Docs.Key(doc))}, nil
}

// MoveOps returns, for the transaction that renames doc from oldValue to
// newValue, the claim of newValue (at OpClaim: it fails its condition when
// another document holds newValue) and the release of oldValue. A rename
// that changes only case or spacing needs no ops.
func (u Unique[T]) MoveOps(ctx context.Context, pk, oldValue, newValue string, doc T) ([]Op, error) {
	if Fold(oldValue) == Fold(newValue) {
		return nil, nil
	}
	release, err := u.ReleaseOps(ctx, pk, oldValue, doc)
	if err != nil {
		return nil, err
	}
	return append([]Op{u.claimOp(pk, newValue, u.Docs.Key(doc))}, release...), nil
}

// TakenError: another document holds the value a rename asked for.
type TakenError[T any] struct{ Holder T }

func (e *TakenError[T]) Error() string { return "store: the value is held by another document" }

// Replace writes updated in place of the document read as old, moving its
// claim to updated's value in the same transaction (a rename). It returns
// a *TakenError when another document holds that value, and an error
// matching ErrConditionFailed when the document changed since it was read
// (read it again).
func (u Unique[T]) Replace(ctx context.Context, pk string, old Snapshot[T], updated T) error {
	ops, err := u.MoveOps(ctx, pk, u.Value(old.Value), u.Value(updated), old.Value)
	if err != nil {
		return err
	}
	put, err := u.Docs.ReplaceOp(old, updated)
	if err != nil {
		return err
	}
	err = u.Docs.Table.TransactWrite(ctx, append(ops, put)...)
	var txe *TxConditionError
	if errors.As(err, &txe) && len(ops) > 0 && txe.Index == OpClaim {
		if holder, ok, herr := u.Holder(ctx, pk, u.Value(updated)); herr != nil || ok {
			if herr != nil {
				return herr
			}
			return &TakenError[T]{Holder: holder}
		}
	}
	if err != nil {
		return fmt.Errorf("%s: replace: %w", u.Docs.Name, err)
	}
	return nil
}
