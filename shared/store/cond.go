package store

import (
	"strings"
	"time"
)

// CondOp is the operator of a condition.
type CondOp int

// Condition operators. The zero value CondNone always holds.
const (
	CondNone CondOp = iota
	// CondItemNotExists: no item, or the item has expired.
	CondItemNotExists
	// CondItemExists: an unexpired item is there.
	CondItemExists
	CondAttrExists
	CondAttrNotExists
	CondEq
	CondNe
	CondLt
	CondLe
	CondGt
	CondGe
	// CondContains: a string attribute contains Value as a substring.
	CondContains
	CondBeginsWith
	CondAnd
	CondOr
	CondNot
)

// Cond is a condition on one item, used as a write condition or a query
// filter. Build it with the functions below; backends read its fields.
type Cond struct {
	Op    CondOp
	Attr  string
	Value any // string, int64 or bool
	Args  []Cond
}

// IsZero reports whether the condition is absent.
func (c Cond) IsZero() bool { return c.Op == CondNone }

// NotExists holds when the item is absent or expired.
func NotExists() Cond { return Cond{Op: CondItemNotExists} }

// Exists holds when an unexpired item is present.
func Exists() Cond { return Cond{Op: CondItemExists} }

// AttrExists holds when the attribute is present.
func AttrExists(attr string) Cond { return Cond{Op: CondAttrExists, Attr: attr} }

// AttrNotExists holds when the attribute is absent.
func AttrNotExists(attr string) Cond { return Cond{Op: CondAttrNotExists, Attr: attr} }

// Eq holds when attr equals v.
func Eq(attr string, v any) Cond { return Cond{Op: CondEq, Attr: attr, Value: v} }

// Ne holds when attr is present and differs from v, or is absent.
func Ne(attr string, v any) Cond { return Cond{Op: CondNe, Attr: attr, Value: v} }

// Lt holds when attr < v.
func Lt(attr string, v any) Cond { return Cond{Op: CondLt, Attr: attr, Value: v} }

// Le holds when attr <= v.
func Le(attr string, v any) Cond { return Cond{Op: CondLe, Attr: attr, Value: v} }

// Gt holds when attr > v.
func Gt(attr string, v any) Cond { return Cond{Op: CondGt, Attr: attr, Value: v} }

// Ge holds when attr >= v (the "at least" guard of arithmetic updates).
func Ge(attr string, v any) Cond { return Cond{Op: CondGe, Attr: attr, Value: v} }

// Contains holds when the string attr contains substr.
func Contains(attr, substr string) Cond { return Cond{Op: CondContains, Attr: attr, Value: substr} }

// BeginsWith holds when the string attr starts with prefix.
func BeginsWith(attr, prefix string) Cond {
	return Cond{Op: CondBeginsWith, Attr: attr, Value: prefix}
}

// And holds when every non-zero c holds.
func And(cs ...Cond) Cond { return join(CondAnd, cs) }

// Or holds when any non-zero c holds.
func Or(cs ...Cond) Cond { return join(CondOr, cs) }

// Not negates c.
func Not(c Cond) Cond { return Cond{Op: CondNot, Args: []Cond{c}} }

func join(op CondOp, cs []Cond) Cond {
	var args []Cond
	for _, c := range cs {
		if !c.IsZero() {
			args = append(args, c)
		}
	}
	switch len(args) {
	case 0:
		return Cond{}
	case 1:
		return args[0]
	}
	return Cond{Op: op, Args: args}
}

// Attributes reads an item one attribute at a time (a backend's stored
// form need not be decoded whole to evaluate a filter on it).
type Attributes interface {
	Attr(name string) (any, bool)
}

// Attr implements Attributes.
func (it Item) Attr(name string) (any, bool) {
	v, ok := it[name]
	return v, ok
}

// Eval reports whether the condition holds for item (nil when absent) at
// now. It is the reference meaning of Cond; the dynamodb backend translates
// the same tree into a condition expression.
func (c Cond) Eval(item Item, now time.Time) bool {
	if item == nil || item.Expired(now) {
		return c.eval(nil, now)
	}
	return c.eval(item, now)
}

// EvalPresent is Eval on an item that is present and unexpired, read
// through a.
func (c Cond) EvalPresent(a Attributes, now time.Time) bool { return c.eval(a, now) }

// eval: item is nil when the item is absent.
func (c Cond) eval(item Attributes, now time.Time) bool {
	switch c.Op {
	case CondNone:
		return true
	case CondItemNotExists:
		return item == nil
	case CondItemExists:
		return item != nil
	case CondAnd:
		for _, a := range c.Args {
			if !a.eval(item, now) {
				return false
			}
		}
		return true
	case CondOr:
		for _, a := range c.Args {
			if a.eval(item, now) {
				return true
			}
		}
		return false
	case CondNot:
		return !c.Args[0].eval(item, now)
	}
	var v any
	var ok bool
	if item != nil {
		v, ok = item.Attr(c.Attr)
	}
	switch c.Op {
	case CondAttrExists:
		return ok
	case CondAttrNotExists:
		return !ok
	case CondNe:
		return !ok || compare(v, c.Value) != 0
	}
	if !ok {
		// DynamoDB: a comparison with a missing attribute is false.
		return false
	}
	switch c.Op {
	case CondEq:
		return compare(v, c.Value) == 0
	case CondLt, CondLe, CondGt, CondGe:
		r := compare(v, c.Value)
		if r == incomparable {
			return false
		}
		switch c.Op {
		case CondLt:
			return r < 0
		case CondLe:
			return r <= 0
		case CondGt:
			return r > 0
		default:
			return r >= 0
		}
	case CondContains:
		s, ok1 := v.(string)
		sub, ok2 := c.Value.(string)
		return ok1 && ok2 && strings.Contains(s, sub)
	case CondBeginsWith:
		s, ok1 := v.(string)
		p, ok2 := c.Value.(string)
		return ok1 && ok2 && strings.HasPrefix(s, p)
	}
	return false
}

const incomparable = 2

// compare orders two values of the same type; values of different types
// are incomparable (DynamoDB compares only like types).
func compare(a, b any) int {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			return incomparable
		}
		return strings.Compare(x, y)
	case int64:
		y, ok := toInt64(b)
		if !ok {
			return incomparable
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case bool:
		y, ok := b.(bool)
		if !ok {
			return incomparable
		}
		if x == y {
			return 0
		}
		return incomparable
	}
	return incomparable
}

func toInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	}
	return 0, false
}

// Normalize converts the integer kinds callers may pass (int, int32) to
// int64, the one number type items hold. Backends call it on every value
// they store or compare.
func Normalize(v any) any {
	if n, ok := toInt64(v); ok {
		return n
	}
	return v
}
