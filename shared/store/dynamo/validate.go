package dynamo

import (
	"errors"
	"fmt"
	"slices"

	"github.com/brandlens/brandlens/shared/store"
)

// DynamoDB's limits, checked before sending so that both backends refuse
// the same items with the same errors.
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
	return out, checkUpdateValues(out)
}

// checkUpdateValues rejects set values that no item may hold: wrong types,
// empty or non-string index keys, a non-number expiresAt.
func checkUpdateValues(u store.Update) error {
	probe := store.Item{store.AttrPK: "-", store.AttrSK: "-"}
	for k, v := range u.Set {
		probe[k] = v
	}
	for k, v := range u.SetIfAbsent {
		probe[k] = v
	}
	return checkItem(probe)
}
