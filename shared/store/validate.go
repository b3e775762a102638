package store

import (
	"errors"
	"fmt"
	"slices"
)

// DynamoDB's limits. Both backends check them before they write, so that
// code tested against the embedded backend does not first fail in AWS, and
// both refuse the same input with the same errors.
const (
	MaxItemBytes     = 400 * 1024
	MaxHashKeyBytes  = 2048
	MaxRangeKeyBytes = 1024
)

// NormalizeItem returns a copy of item whose numbers are all int64, or the
// error DynamoDB would give for it.
func NormalizeItem(item Item) (Item, error) {
	out := make(Item, len(item))
	for k, v := range item {
		out[k] = Normalize(v)
	}
	return out, out.Validate()
}

// Size is the item's size as DynamoDB counts it against the 400 KB limit
// and in capacity units: each attribute's name plus its value (strings in
// UTF-8 bytes, numbers about one byte per two digits, booleans one byte).
func (it Item) Size() int {
	size := 0
	for name, v := range it {
		size += len(name)
		switch x := v.(type) {
		case string:
			size += len(x)
		case int64:
			size += numberSize(x)
		case int:
			size += numberSize(int64(x))
		case bool:
			size++
		}
	}
	return size
}

// Validate rejects an item (already normalized) that DynamoDB would
// refuse: unsupported value types, missing, empty, non-string or oversized
// key attributes, a non-number expiresAt, more than 400 KB.
func (it Item) Validate() error {
	for name, v := range it {
		if name == "" {
			return errors.New("store: empty attribute name")
		}
		switch v.(type) {
		case string, int64, bool:
		default:
			return fmt.Errorf("store: attribute %s has unsupported type %T", name, v)
		}
	}
	size := it.Size()
	for _, k := range []struct {
		name     string
		max      int
		required bool
	}{
		{AttrPK, MaxHashKeyBytes, true},
		{AttrSK, MaxRangeKeyBytes, true},
		{AttrGSI1PK, MaxHashKeyBytes, false},
		{AttrGSI1SK, MaxRangeKeyBytes, false},
		{AttrGSI2PK, MaxHashKeyBytes, false},
		{AttrGSI2SK, MaxRangeKeyBytes, false},
	} {
		if err := checkKeyAttr(it, k.name, k.max, k.required); err != nil {
			return err
		}
	}
	if v, ok := it[AttrExpiresAt]; ok {
		if _, ok := v.(int64); !ok {
			return fmt.Errorf("store: %s must be a number, not %T", AttrExpiresAt, v)
		}
	}
	if size > MaxItemBytes {
		return fmt.Errorf("store: item %s/%s is %d bytes, over DynamoDB's %d", it.String(AttrPK), it.String(AttrSK), size, MaxItemBytes)
	}
	return nil
}

func checkKeyAttr(it Item, name string, max int, required bool) error {
	v, ok := it[name]
	if !ok {
		if required {
			return fmt.Errorf("store: item lacks key attribute %s", name)
		}
		return nil
	}
	s, ok := v.(string)
	switch {
	case !ok:
		return fmt.Errorf("store: key attribute %s must be a string, not %T", name, v)
	case s == "":
		return fmt.Errorf("store: key attribute %s is empty", name)
	case len(s) > max:
		return fmt.Errorf("store: key attribute %s is longer than %d bytes", name, max)
	}
	return nil
}

// Validate rejects a key DynamoDB would refuse.
func (k Key) Validate() error {
	// The key rules of Item.Validate, without building an item (every read
	// validates its key).
	for _, a := range []struct {
		name, v string
		max     int
	}{{AttrPK, k.PK, MaxHashKeyBytes}, {AttrSK, k.SK, MaxRangeKeyBytes}} {
		switch {
		case a.v == "":
			return fmt.Errorf("store: key attribute %s is empty", a.name)
		case len(a.v) > a.max:
			return fmt.Errorf("store: key attribute %s is longer than %d bytes", a.name, a.max)
		}
	}
	return nil
}

// numberSize approximates DynamoDB's size of a number: one byte per two
// significant digits plus one.
func numberSize(n int64) int {
	digits := 1
	for n >= 10 || n <= -10 {
		n /= 10
		digits++
	}
	return (digits+1)/2 + 1
}

// Normalize validates u and returns a copy whose values are int64 where
// numbers were given.
func (u Update) Normalize() (Update, error) {
	if err := u.Validate(); err != nil {
		return Update{}, err
	}
	_, emptyAdd := u.Add[""]
	if emptyAdd || slices.Contains(u.Remove, "") {
		return Update{}, errors.New("store: empty attribute name")
	}
	out := Update{Add: u.Add, Remove: u.Remove, Set: normalizeValues(u.Set), SetIfAbsent: normalizeValues(u.SetIfAbsent)}
	// Set values no item may hold (wrong types, empty or non-string index
	// keys, a non-number expiresAt) are refused whatever the item is.
	probe := Item{AttrPK: "-", AttrSK: "-"}
	for k, v := range out.Set {
		probe[k] = v
	}
	for k, v := range out.SetIfAbsent {
		probe[k] = v
	}
	return out, probe.Validate()
}

func normalizeValues(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = Normalize(v)
	}
	return out
}

// ApplyChecked returns the item after u (normalized) where cur (nil when
// absent) was, refusing what DynamoDB refuses: adding to a non-number, or
// an item the update makes invalid.
func (u Update) ApplyChecked(key Key, cur Item) (Item, error) {
	for k := range u.Add {
		if v, ok := cur[k]; ok {
			if _, isNum := v.(int64); !isNum {
				return nil, fmt.Errorf("store: cannot add to attribute %s of type %T", k, v)
			}
		}
	}
	next := u.Apply(key, cur)
	if err := next.Validate(); err != nil {
		return nil, err
	}
	return next, nil
}

// Validate rejects conditions DynamoDB would refuse to evaluate.
func (c Cond) Validate() error {
	switch c.Op {
	case CondNone, CondItemNotExists, CondItemExists:
		return nil
	case CondAnd, CondOr:
		for _, a := range c.Args {
			if err := a.Validate(); err != nil {
				return err
			}
		}
		return nil
	case CondNot:
		if len(c.Args) != 1 {
			return fmt.Errorf("store: NOT needs one condition, has %d", len(c.Args))
		}
		return c.Args[0].Validate()
	case CondAttrExists, CondAttrNotExists:
		if c.Attr == "" {
			return errors.New("store: condition names no attribute")
		}
		return nil
	case CondEq, CondNe, CondLt, CondLe, CondGt, CondGe, CondContains, CondBeginsWith:
		if c.Attr == "" {
			return errors.New("store: condition names no attribute")
		}
		switch Normalize(c.Value).(type) {
		case string, int64, bool:
			return nil
		}
		return fmt.Errorf("store: condition on %s compares with unsupported type %T", c.Attr, c.Value)
	}
	return fmt.Errorf("store: unknown condition operator %d", c.Op)
}

// Validate rejects queries DynamoDB would refuse.
func (q Query) Validate() error {
	switch {
	case q.Index != "" && !slices.Contains(Indexes, q.Index):
		return fmt.Errorf("store: unknown index %q", q.Index)
	case q.PK == "":
		return errors.New("store: query needs a partition key")
	case q.Limit < 0:
		return fmt.Errorf("store: negative query limit %d", q.Limit)
	case q.SK.Op < KeyAny || q.SK.Op > KeyGe:
		return fmt.Errorf("store: unknown sort-key operator %d", q.SK.Op)
	case q.SK.Op == KeyBetween && q.SK.Value > q.SK.Value2:
		return fmt.Errorf("store: BETWEEN needs its lower bound %q <= its upper bound %q", q.SK.Value, q.SK.Value2)
	case slices.Contains(q.Attrs, ""):
		return errors.New("store: query projects an empty attribute name")
	}
	return q.Filter.Validate()
}

// Prepare validates one op as DynamoDB would and returns it with
// normalized values.
func (o Op) Prepare() (Op, error) {
	var err error
	switch o.Kind {
	case OpPut:
		o.Item, err = NormalizeItem(o.Item)
	case OpUpdate:
		if err = o.Key.Validate(); err == nil {
			o.Update, err = o.Update.Normalize()
		}
	case OpDelete, OpCheck:
		err = o.Key.Validate()
	default:
		err = fmt.Errorf("store: unknown op kind %d", o.Kind)
	}
	if err == nil {
		err = o.Cond.Validate()
	}
	return o, err
}

// PrepareTransaction validates a transaction as DynamoDB would (at most
// MaxTxOps valid ops, no item touched twice) and returns its ops prepared.
func PrepareTransaction(ops []Op) ([]Op, error) {
	if len(ops) > MaxTxOps {
		return nil, fmt.Errorf("store: transaction has %d ops, more than %d", len(ops), MaxTxOps)
	}
	out := make([]Op, len(ops))
	seen := make(map[Key]int, len(ops))
	for i, op := range ops {
		op, err := op.Prepare()
		if err != nil {
			return nil, fmt.Errorf("store: transaction op %d: %w", i, err)
		}
		k := op.OpKey()
		if j, dup := seen[k]; dup {
			return nil, fmt.Errorf("store: transaction ops %d and %d both touch %s/%s", j, i, k.PK, k.SK)
		}
		seen[k] = i
		out[i] = op
	}
	return out, nil
}
