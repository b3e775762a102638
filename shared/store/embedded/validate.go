package embedded

import (
	"errors"
	"fmt"
	"slices"

	"github.com/brandlens/brandlens/shared/store"
)

// DynamoDB's limits, enforced here too so that code tested against the
// embedded backend does not first fail in AWS.
const (
	maxItemBytes     = 400 * 1024
	maxHashKeyBytes  = 2048
	maxRangeKeyBytes = 1024
)

// normalizeItem returns a copy of item whose numbers are all int64, or the
// error DynamoDB would give for it.
func normalizeItem(item store.Item) (store.Item, error) {
	out := make(store.Item, len(item))
	for k, v := range item {
		out[k] = store.Normalize(v)
	}
	return out, checkItem(out)
}

func checkItem(it store.Item) error {
	size := 0
	for name, v := range it {
		if name == "" {
			return errors.New("store: empty attribute name")
		}
		switch x := v.(type) {
		case string:
			size += len(name) + len(x)
		case int64:
			size += len(name) + numberSize(x)
		case bool:
			size += len(name) + 1
		default:
			return fmt.Errorf("store: attribute %s has unsupported type %T", name, v)
		}
	}
	if err := checkKeyAttr(it, store.AttrPK, maxHashKeyBytes, true); err != nil {
		return err
	}
	if err := checkKeyAttr(it, store.AttrSK, maxRangeKeyBytes, true); err != nil {
		return err
	}
	if err := checkKeyAttr(it, store.AttrGSI1PK, maxHashKeyBytes, false); err != nil {
		return err
	}
	if err := checkKeyAttr(it, store.AttrGSI1SK, maxRangeKeyBytes, false); err != nil {
		return err
	}
	if v, ok := it[store.AttrExpiresAt]; ok {
		if _, ok := v.(int64); !ok {
			return fmt.Errorf("store: %s must be a number, not %T", store.AttrExpiresAt, v)
		}
	}
	if size > maxItemBytes {
		return fmt.Errorf("store: item %s/%s is %d bytes, over DynamoDB's %d", it.String(store.AttrPK), it.String(store.AttrSK), size, maxItemBytes)
	}
	return nil
}

func checkKeyAttr(it store.Item, name string, max int, required bool) error {
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

func checkKey(k store.Key) error {
	return checkItem(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK})
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

// normalizeUpdate validates u and returns a copy whose values are int64
// where numbers were given.
func normalizeUpdate(u store.Update) (store.Update, error) {
	if err := u.Validate(); err != nil {
		return store.Update{}, err
	}
	_, emptyAdd := u.Add[""]
	if emptyAdd || slices.Contains(u.Remove, "") {
		return store.Update{}, errors.New("store: empty attribute name")
	}
	out := store.Update{Add: u.Add, Remove: u.Remove}
	if u.Set != nil {
		out.Set = make(map[string]any, len(u.Set))
		for k, v := range u.Set {
			out.Set[k] = store.Normalize(v)
		}
	}
	if u.SetIfAbsent != nil {
		out.SetIfAbsent = make(map[string]any, len(u.SetIfAbsent))
		for k, v := range u.SetIfAbsent {
			out.SetIfAbsent[k] = store.Normalize(v)
		}
	}
	return out, nil
}

// applyUpdate returns the item after u; cur is the live item or nil.
func applyUpdate(key store.Key, cur store.Item, u store.Update) (store.Item, error) {
	for k := range u.Add {
		if v, ok := cur[k]; ok {
			if _, isNum := v.(int64); !isNum {
				return nil, fmt.Errorf("store: cannot add to attribute %s of type %T", k, v)
			}
		}
	}
	next := u.Apply(key, cur)
	if err := checkItem(next); err != nil {
		return nil, err
	}
	return next, nil
}

// checkCond rejects conditions DynamoDB would refuse to evaluate.
func checkCond(c store.Cond) error {
	switch c.Op {
	case store.CondNone, store.CondItemNotExists, store.CondItemExists:
		return nil
	case store.CondAnd, store.CondOr:
		for _, a := range c.Args {
			if err := checkCond(a); err != nil {
				return err
			}
		}
		return nil
	case store.CondNot:
		if len(c.Args) != 1 {
			return fmt.Errorf("store: NOT needs one condition, has %d", len(c.Args))
		}
		return checkCond(c.Args[0])
	case store.CondAttrExists, store.CondAttrNotExists:
		if c.Attr == "" {
			return errors.New("store: condition names no attribute")
		}
		return nil
	case store.CondEq, store.CondNe, store.CondLt, store.CondLe, store.CondGt, store.CondGe,
		store.CondContains, store.CondBeginsWith:
		if c.Attr == "" {
			return errors.New("store: condition names no attribute")
		}
		switch store.Normalize(c.Value).(type) {
		case string, int64, bool:
			return nil
		}
		return fmt.Errorf("store: condition on %s compares with unsupported type %T", c.Attr, c.Value)
	}
	return fmt.Errorf("store: unknown condition operator %d", c.Op)
}
