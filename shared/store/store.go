// Package store holds the single-table interface that every domain package
// talks to, and the typed condition and update forms that both backends
// (embedded and dynamodb) implement with the same meaning.
//
// The table has the key attributes PK and SK, two global secondary indexes
// GSI1 (GSI1PK, GSI1SK) and GSI2 (GSI2PK, GSI2SK), and the TTL attribute
// expiresAt (epoch seconds).
// Items whose expiresAt lies in the past are invisible to reads and count as
// absent for NotExists: DynamoDB deletes expired items lazily (up to ~48 h
// later), so expiry is decided here, in code, the same way by both backends.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Attribute names of the table's key schema and TTL.
const (
	AttrPK        = "PK"
	AttrSK        = "SK"
	AttrGSI1PK    = "GSI1PK"
	AttrGSI1SK    = "GSI1SK"
	AttrGSI2PK    = "GSI2PK"
	AttrGSI2SK    = "GSI2SK"
	AttrExpiresAt = "expiresAt"

	// IndexGSI1 names the general global secondary index.
	IndexGSI1 = "GSI1"
	// IndexGSI2 names the second one, for access patterns whose partitions
	// GSI1 cannot also key (citations by platform and mention).
	IndexGSI2 = "GSI2"
)

// Indexes are the global secondary indexes.
var Indexes = []string{IndexGSI1, IndexGSI2}

// IndexKeyAttrs returns the hash and range key attributes of index ("":
// the table).
func IndexKeyAttrs(index string) (hash, rng string) {
	switch index {
	case IndexGSI1:
		return AttrGSI1PK, AttrGSI1SK
	case IndexGSI2:
		return AttrGSI2PK, AttrGSI2SK
	}
	return AttrPK, AttrSK
}

// Item is one row. Values are string, int64 or bool; anything richer is
// stored as a JSON document in a string attribute.
type Item map[string]any

// Key returns the primary key of the item.
func (it Item) Key() Key {
	pk, _ := it[AttrPK].(string)
	sk, _ := it[AttrSK].(string)
	return Key{PK: pk, SK: sk}
}

// String returns the string attribute name, or "".
func (it Item) String(name string) string { s, _ := it[name].(string); return s }

// Int returns the number attribute name, or 0.
func (it Item) Int(name string) int64 { n, _ := it[name].(int64); return n }

// Bool returns the boolean attribute name, or false.
func (it Item) Bool(name string) bool { b, _ := it[name].(bool); return b }

// Clone returns a shallow copy (values are immutable scalars).
func (it Item) Clone() Item {
	c := make(Item, len(it))
	for k, v := range it {
		c[k] = v
	}
	return c
}

// Expired reports whether the item's TTL lies at or before now.
func (it Item) Expired(now time.Time) bool {
	exp, ok := it[AttrExpiresAt].(int64)
	return ok && exp <= now.Unix()
}

// Key is a primary key.
type Key struct{ PK, SK string }

// Table is what domain code needs from the single table.
type Table interface {
	// Get returns the item or ErrNotFound.
	Get(ctx context.Context, key Key) (Item, error)
	// Put writes the whole item when cond holds (a zero Cond always holds).
	Put(ctx context.Context, item Item, cond Cond) error
	// Update applies upd to the item (creating it when absent, as DynamoDB
	// does) when cond holds, and returns the item as it is afterwards.
	Update(ctx context.Context, key Key, upd Update, cond Cond) (Item, error)
	// Delete removes the item when cond holds; deleting nothing is no error.
	Delete(ctx context.Context, key Key, cond Cond) error
	// Query reads one page of a partition of the table or of an index.
	Query(ctx context.Context, q Query) (Page, error)
	// TransactWrite applies all ops or none. When a condition fails the
	// error is a *TxConditionError naming the first failing op.
	TransactWrite(ctx context.Context, ops ...Op) error
}

// MaxTxOps is DynamoDB's limit of actions in one transaction.
const MaxTxOps = 100

var (
	// ErrNotFound: no (unexpired) item has that key.
	ErrNotFound = errors.New("store: item not found")
	// ErrConditionFailed: a condition expression did not hold.
	ErrConditionFailed = errors.New("store: condition failed")
)

// TxConditionError reports which op of a transaction failed its condition.
// errors.Is(err, ErrConditionFailed) holds for it.
type TxConditionError struct{ Index int }

func (e *TxConditionError) Error() string {
	return fmt.Sprintf("store: transaction canceled: condition of op %d failed", e.Index)
}

// Is makes the error match ErrConditionFailed.
func (e *TxConditionError) Is(target error) bool { return target == ErrConditionFailed }

// OpKind is the kind of a transaction op.
type OpKind int

// Transaction op kinds.
const (
	OpPut OpKind = iota + 1
	OpUpdate
	OpDelete
	OpCheck
)

// Op is one action of a transaction.
type Op struct {
	Kind   OpKind
	Item   Item // OpPut
	Key    Key  // OpUpdate, OpDelete, OpCheck
	Update Update
	Cond   Cond
}

// PutOp puts item when cond holds.
func PutOp(item Item, cond Cond) Op { return Op{Kind: OpPut, Item: item, Cond: cond} }

// UpdateOp updates key when cond holds.
func UpdateOp(key Key, upd Update, cond Cond) Op {
	return Op{Kind: OpUpdate, Key: key, Update: upd, Cond: cond}
}

// DeleteOp deletes key when cond holds.
func DeleteOp(key Key, cond Cond) Op { return Op{Kind: OpDelete, Key: key, Cond: cond} }

// CheckOp only checks cond on key.
func CheckOp(key Key, cond Cond) Op { return Op{Kind: OpCheck, Key: key, Cond: cond} }

// OpKey returns the primary key the op touches.
func (o Op) OpKey() Key {
	if o.Kind == OpPut {
		return o.Item.Key()
	}
	return o.Key
}

// Query selects items of one partition of the table (Index "") or of an
// index (IndexGSI1, IndexGSI2).
type Query struct {
	Index string
	PK    string
	SK    KeyCond
	// Desc reads the partition in descending sort-key order.
	Desc bool
	// Limit caps the items evaluated for this page, before Filter, as
	// DynamoDB's Limit does; 0 leaves the backend default (one page of at
	// most 1 MB in DynamoDB, 1000 items in the embedded backend).
	Limit  int
	Filter Cond
	// Cursor continues after the previous page; "" starts at the beginning.
	Cursor string
	// Attrs, when set, are the only attributes the items of the page carry
	// (DynamoDB's ProjectionExpression; the filter still sees all of them).
	// A read that keeps little of many items copies less.
	Attrs []string
}

// Page is one page of a query. Cursor is "" after the last page. A page may
// hold fewer items than Limit (even none) and still have a Cursor.
type Page struct {
	Items  []Item
	Cursor string
}

// KeyOp is a sort-key condition operator.
type KeyOp int

// Sort-key condition operators.
const (
	KeyAny KeyOp = iota // the whole partition
	KeyEq
	KeyBeginsWith
	KeyBetween // Value <= SK <= Value2
	KeyLt
	KeyLe
	KeyGt
	KeyGe
)

// KeyCond is the sort-key part of a query's key condition.
type KeyCond struct {
	Op     KeyOp
	Value  string
	Value2 string
}

// Match reports whether sk satisfies the condition.
func (k KeyCond) Match(sk string) bool {
	switch k.Op {
	case KeyAny:
		return true
	case KeyEq:
		return sk == k.Value
	case KeyBeginsWith:
		return len(sk) >= len(k.Value) && sk[:len(k.Value)] == k.Value
	case KeyBetween:
		return sk >= k.Value && sk <= k.Value2
	case KeyLt:
		return sk < k.Value
	case KeyLe:
		return sk <= k.Value
	case KeyGt:
		return sk > k.Value
	case KeyGe:
		return sk >= k.Value
	}
	return false
}

// SKBeginsWith selects sort keys with the prefix.
func SKBeginsWith(prefix string) KeyCond { return KeyCond{Op: KeyBeginsWith, Value: prefix} }

// SKBetween selects sort keys in [lo, hi].
func SKBetween(lo, hi string) KeyCond { return KeyCond{Op: KeyBetween, Value: lo, Value2: hi} }

// SKEq selects one sort key.
func SKEq(sk string) KeyCond { return KeyCond{Op: KeyEq, Value: sk} }

// Update changes attributes of one item.
type Update struct {
	Set map[string]any
	// SetIfAbsent sets attributes only where the item lacks them.
	SetIfAbsent map[string]any
	// Add adds to number attributes (a missing attribute counts as 0).
	Add    map[string]int64
	Remove []string
}

// Apply returns the item after the update (item may be nil).
func (u Update) Apply(key Key, item Item) Item {
	var out Item
	if item == nil {
		out = Item{AttrPK: key.PK, AttrSK: key.SK}
	} else {
		out = item.Clone()
	}
	for k, v := range u.Set {
		out[k] = v
	}
	for k, v := range u.SetIfAbsent {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	for k, n := range u.Add {
		cur, _ := out[k].(int64)
		out[k] = cur + n
	}
	for _, k := range u.Remove {
		delete(out, k)
	}
	return out
}

// Validate rejects updates DynamoDB would reject: key attributes changed,
// one attribute named twice, or nothing to do.
func (u Update) Validate() error {
	seen := map[string]bool{}
	n := 0
	check := func(name string) error {
		if name == AttrPK || name == AttrSK {
			return fmt.Errorf("store: update may not change key attribute %s", name)
		}
		if seen[name] {
			return fmt.Errorf("store: update names attribute %s twice", name)
		}
		seen[name] = true
		n++
		return nil
	}
	for k := range u.Set {
		if err := check(k); err != nil {
			return err
		}
	}
	for k := range u.SetIfAbsent {
		if err := check(k); err != nil {
			return err
		}
	}
	for k := range u.Add {
		if err := check(k); err != nil {
			return err
		}
	}
	for _, k := range u.Remove {
		if err := check(k); err != nil {
			return err
		}
	}
	if n == 0 {
		return errors.New("store: empty update")
	}
	return nil
}
