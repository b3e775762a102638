package dynamo

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/brandlens/brandlens/shared/store"
)

// builder collects the #name and :value placeholders of one request's
// expressions; DynamoDB rejects unused ones, so only rendering adds them.
type builder struct {
	names  map[string]string // attribute → placeholder
	values map[string]types.AttributeValue
}

func newBuilder() *builder {
	return &builder{names: map[string]string{}, values: map[string]types.AttributeValue{}}
}

func (b *builder) name(attr string) string {
	if p, ok := b.names[attr]; ok {
		return p
	}
	p := "#n" + strconv.Itoa(len(b.names))
	b.names[attr] = p
	return p
}

func (b *builder) value(v types.AttributeValue) string {
	p := ":v" + strconv.Itoa(len(b.values))
	b.values[p] = v
	return p
}

// attrNames returns the name map for the request, nil when empty (an empty
// map is a validation error).
func (b *builder) attrNames() map[string]string {
	if len(b.names) == 0 {
		return nil
	}
	out := make(map[string]string, len(b.names))
	for attr, p := range b.names {
		out[p] = attr
	}
	return out
}

func (b *builder) attrValues() map[string]types.AttributeValue {
	if len(b.values) == 0 {
		return nil
	}
	return b.values
}

// node is a condition tree whose constants are folded away before
// rendering, so that an always-true condition can be left out.
type node struct {
	kind int
	leaf func(b *builder) string
	args []node
}

const (
	nTrue = iota
	nFalse
	nLeaf
	nAnd
	nOr
	nNot
)

func constant(v bool) node {
	if v {
		return node{kind: nTrue}
	}
	return node{kind: nFalse}
}

func and(xs ...node) node {
	var args []node
	for _, x := range xs {
		switch x.kind {
		case nTrue:
		case nFalse:
			return x
		case nAnd:
			args = append(args, x.args...)
		default:
			args = append(args, x)
		}
	}
	switch len(args) {
	case 0:
		return constant(true)
	case 1:
		return args[0]
	}
	return node{kind: nAnd, args: args}
}

func or(xs ...node) node {
	var args []node
	for _, x := range xs {
		switch x.kind {
		case nFalse:
		case nTrue:
			return x
		case nOr:
			args = append(args, x.args...)
		default:
			args = append(args, x)
		}
	}
	switch len(args) {
	case 0:
		return constant(false)
	case 1:
		return args[0]
	}
	return node{kind: nOr, args: args}
}

func not(x node) node {
	switch x.kind {
	case nTrue:
		return constant(false)
	case nFalse:
		return constant(true)
	}
	return node{kind: nNot, args: []node{x}}
}

func (n node) render(b *builder) string {
	switch n.kind {
	case nTrue:
		pk := b.name(store.AttrPK)
		return fmt.Sprintf("(attribute_exists(%s) OR attribute_not_exists(%s))", pk, pk)
	case nFalse:
		pk := b.name(store.AttrPK)
		return fmt.Sprintf("(attribute_exists(%s) AND attribute_not_exists(%s))", pk, pk)
	case nLeaf:
		return n.leaf(b)
	case nNot:
		return "(NOT " + n.args[0].render(b) + ")"
	}
	sep := " AND "
	if n.kind == nOr {
		sep = " OR "
	}
	parts := make([]string, len(n.args))
	for i, a := range n.args {
		parts[i] = a.render(b)
	}
	return "(" + strings.Join(parts, sep) + ")"
}

func fn(name, attr string) node {
	return node{kind: nLeaf, leaf: func(b *builder) string { return name + "(" + b.name(attr) + ")" }}
}

func fn2(name, attr string, v types.AttributeValue) node {
	return node{kind: nLeaf, leaf: func(b *builder) string {
		return name + "(" + b.name(attr) + ", " + b.value(v) + ")"
	}}
}

func cmp(attr, op string, v types.AttributeValue) node {
	return node{kind: nLeaf, leaf: func(b *builder) string { return b.name(attr) + " " + op + " " + b.value(v) }}
}

func number(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// liveItem holds for a stored item that has not expired at now.
func liveItem(now int64) node {
	return and(fn("attribute_exists", store.AttrPK), notExpired(now))
}

// notExpired holds for no item and for an item that has not expired.
func notExpired(now int64) node {
	return or(fn("attribute_not_exists", store.AttrExpiresAt), cmp(store.AttrExpiresAt, ">", number(now)))
}

// absentOrExpired is the meaning of store.NotExists.
func absentOrExpired(now int64) node {
	return or(fn("attribute_not_exists", store.AttrPK), cmp(store.AttrExpiresAt, "<=", number(now)))
}

// writeCond translates a write condition. store.Cond.Eval treats an expired
// item as absent for every part of the tree, so the expression splits on
// that: an absent or expired item gives the constant Eval(nil); a live one
// is tested by the tree, translated for a live item.
func writeCond(c store.Cond, now time.Time) (node, error) {
	live, err := translate(c)
	if err != nil {
		return node{}, err
	}
	if c.Eval(nil, now) {
		return or(absentOrExpired(now.Unix()), live), nil
	}
	return and(liveItem(now.Unix()), live), nil
}

// translate renders c for an item known to be present and unexpired.
func translate(c store.Cond) (node, error) {
	switch c.Op {
	case store.CondNone, store.CondItemExists:
		return constant(true), nil
	case store.CondItemNotExists:
		return constant(false), nil
	case store.CondAnd, store.CondOr:
		args := make([]node, 0, len(c.Args))
		for _, a := range c.Args {
			n, err := translate(a)
			if err != nil {
				return node{}, err
			}
			args = append(args, n)
		}
		if c.Op == store.CondAnd {
			return and(args...), nil
		}
		return or(args...), nil
	case store.CondNot:
		if len(c.Args) != 1 {
			return node{}, fmt.Errorf("store: NOT needs one condition, has %d", len(c.Args))
		}
		n, err := translate(c.Args[0])
		if err != nil {
			return node{}, err
		}
		return not(n), nil
	}
	if c.Attr == "" {
		return node{}, errors.New("store: condition names no attribute")
	}
	switch c.Op {
	case store.CondAttrExists:
		return fn("attribute_exists", c.Attr), nil
	case store.CondAttrNotExists:
		return fn("attribute_not_exists", c.Attr), nil
	}
	v, err := attrValue(c.Value)
	if err != nil {
		return node{}, fmt.Errorf("store: condition on %s: %w", c.Attr, err)
	}
	_, isString := v.(*types.AttributeValueMemberS)
	_, isBool := v.(*types.AttributeValueMemberBOOL)
	switch c.Op {
	case store.CondEq:
		return cmp(c.Attr, "=", v), nil
	case store.CondNe:
		// Explicit about the absent attribute, which Ne counts as different.
		return or(fn("attribute_not_exists", c.Attr), cmp(c.Attr, "<>", v)), nil
	case store.CondLt, store.CondLe, store.CondGt, store.CondGe:
		if isBool {
			// Booleans have no order: Eval lets <= and >= hold on equality
			// only, and DynamoDB refuses to order them at all.
			if c.Op == store.CondLe || c.Op == store.CondGe {
				return cmp(c.Attr, "=", v), nil
			}
			return constant(false), nil
		}
		op := map[store.CondOp]string{store.CondLt: "<", store.CondLe: "<=", store.CondGt: ">", store.CondGe: ">="}[c.Op]
		return cmp(c.Attr, op, v), nil
	case store.CondContains, store.CondBeginsWith:
		if !isString {
			return constant(false), nil
		}
		if c.Op == store.CondContains {
			return fn2("contains", c.Attr, v), nil
		}
		return fn2("begins_with", c.Attr, v), nil
	}
	return node{}, fmt.Errorf("store: unknown condition operator %d", c.Op)
}

// updateExpr renders u (already validated) as an update expression.
func updateExpr(b *builder, u store.Update) (string, error) {
	var sets, adds, removes []string
	for _, k := range sortedKeys(u.Set) {
		v, err := attrValue(u.Set[k])
		if err != nil {
			return "", fmt.Errorf("store: set %s: %w", k, err)
		}
		sets = append(sets, b.name(k)+" = "+b.value(v))
	}
	for _, k := range sortedKeys(u.SetIfAbsent) {
		v, err := attrValue(u.SetIfAbsent[k])
		if err != nil {
			return "", fmt.Errorf("store: set %s: %w", k, err)
		}
		n := b.name(k)
		sets = append(sets, n+" = if_not_exists("+n+", "+b.value(v)+")")
	}
	for _, k := range sortedKeys(u.Add) {
		adds = append(adds, b.name(k)+" "+b.value(number(u.Add[k])))
	}
	rm := append([]string(nil), u.Remove...)
	sort.Strings(rm)
	for _, k := range rm {
		removes = append(removes, b.name(k))
	}
	var parts []string
	if len(sets) > 0 {
		parts = append(parts, "SET "+strings.Join(sets, ", "))
	}
	if len(adds) > 0 {
		parts = append(parts, "ADD "+strings.Join(adds, ", "))
	}
	if len(removes) > 0 {
		parts = append(parts, "REMOVE "+strings.Join(removes, ", "))
	}
	return strings.Join(parts, " "), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// keyCond renders the key condition of a query. ok is false when no sort
// key can match (DynamoDB refuses empty key values, and no key is empty).
func keyCond(b *builder, hashAttr, rangeAttr, hash string, k store.KeyCond) (expr string, ok bool) {
	if k.Value == "" {
		switch k.Op {
		case store.KeyEq, store.KeyLt, store.KeyLe:
			return "", false
		case store.KeyGt, store.KeyGe, store.KeyBeginsWith:
			k = store.KeyCond{}
		case store.KeyBetween:
			k = store.KeyCond{Op: store.KeyLe, Value: k.Value2}
			if k.Value == "" {
				return "", false
			}
		}
	}
	expr = b.name(hashAttr) + " = " + b.value(&types.AttributeValueMemberS{Value: hash})
	if k.Op == store.KeyAny {
		return expr, true
	}
	s := func(v string) string { return b.value(&types.AttributeValueMemberS{Value: v}) }
	r := b.name(rangeAttr)
	switch k.Op {
	case store.KeyEq:
		expr += " AND " + r + " = " + s(k.Value)
	case store.KeyBeginsWith:
		expr += " AND begins_with(" + r + ", " + s(k.Value) + ")"
	case store.KeyBetween:
		expr += " AND " + r + " BETWEEN " + s(k.Value) + " AND " + s(k.Value2)
	case store.KeyLt:
		expr += " AND " + r + " < " + s(k.Value)
	case store.KeyLe:
		expr += " AND " + r + " <= " + s(k.Value)
	case store.KeyGt:
		expr += " AND " + r + " > " + s(k.Value)
	case store.KeyGe:
		expr += " AND " + r + " >= " + s(k.Value)
	}
	return expr, true
}
