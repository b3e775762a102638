package workflow

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// choiceRule is one compiled Choice rule: a boolean combination (And, Or,
// Not) or a data test of Variable against a literal or a path.
type choiceRule struct {
	and, or []*choiceRule
	not     *choiceRule

	variable    jsonPath
	op          string // the operator's name without "Path", e.g. "NumericLessThan"
	kind        string // string, numeric, boolean, timestamp, matches, is
	cmp         string // eq, lt, gt, le, ge (is*: the type test)
	operand     any
	operandPath *jsonPath

	next string
}

// comparisonOps maps every supported operator to its kind and comparison.
var comparisonOps = func() map[string][2]string {
	ops := map[string][2]string{
		"BooleanEquals": {"boolean", "eq"},
		"StringMatches": {"matches", "eq"},
		"IsNull":        {"is", "null"},
		"IsPresent":     {"is", "present"},
		"IsNumeric":     {"is", "numeric"},
		"IsString":      {"is", "string"},
		"IsBoolean":     {"is", "boolean"},
		"IsTimestamp":   {"is", "timestamp"},
	}
	for _, kind := range []string{"String", "Numeric", "Timestamp"} {
		for suffix, cmp := range map[string]string{"Equals": "eq", "LessThan": "lt", "GreaterThan": "gt", "LessThanEquals": "le", "GreaterThanEquals": "ge"} {
			ops[kind+suffix] = [2]string{strings.ToLower(kind), cmp}
		}
	}
	return ops
}()

func loadChoice(f *fields, st *state) {
	var raws []map[string]json.RawMessage
	if !f.decode("Choices", &raws) || len(raws) == 0 {
		f.fail("Choices must be a non-empty array")
		return
	}
	for i, raw := range raws {
		r, err := compileRule(raw, true)
		if err != nil {
			f.fail("Choices[%d]: %v", i, err)
			return
		}
		st.choices = append(st.choices, r)
	}
	st.defaultNext = f.str("Default")
}

func compileRule(raw map[string]json.RawMessage, top bool) (*choiceRule, error) {
	r := &choiceRule{}
	var ops []string
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		switch k {
		case "Comment", "Variable", "And", "Or", "Not":
		case "Next":
			if !top {
				return nil, fmt.Errorf("a nested rule cannot have Next")
			}
			if err := json.Unmarshal(raw[k], &r.next); err != nil || r.next == "" {
				return nil, fmt.Errorf("Next must name a state")
			}
		default:
			base := strings.TrimSuffix(k, "Path")
			kc, ok := comparisonOps[base]
			if !ok || base != k && (kc[0] == "is" || kc[0] == "matches") {
				return nil, fmt.Errorf("unknown or unsupported comparison %q", k)
			}
			ops = append(ops, k)
		}
	}
	if top && r.next == "" {
		return nil, fmt.Errorf("a top-level rule needs Next")
	}
	_, hasAnd := raw["And"]
	_, hasOr := raw["Or"]
	_, hasNot := raw["Not"]
	_, hasVar := raw["Variable"]
	boolOps := 0
	for _, b := range []bool{hasAnd, hasOr, hasNot} {
		if b {
			boolOps++
		}
	}
	if boolOps > 0 {
		if boolOps > 1 || hasVar || len(ops) > 0 {
			return nil, fmt.Errorf("a rule is either one of And/Or/Not or a Variable with one comparison")
		}
		return r, r.compileBoolean(raw)
	}
	if !hasVar || len(ops) != 1 {
		return nil, fmt.Errorf("a data-test rule needs Variable and exactly one comparison operator, got %d", len(ops))
	}
	var variable string
	if err := json.Unmarshal(raw["Variable"], &variable); err != nil {
		return nil, fmt.Errorf("Variable must be a path string")
	}
	p, err := parsePath(variable)
	if err != nil {
		return nil, fmt.Errorf("Variable: %w", err)
	}
	r.variable = p
	opName := ops[0]
	r.op = strings.TrimSuffix(opName, "Path")
	kc := comparisonOps[r.op]
	r.kind, r.cmp = kc[0], kc[1]
	if opName != r.op {
		var s string
		if err := json.Unmarshal(raw[opName], &s); err != nil {
			return nil, fmt.Errorf("%s must be a path string", opName)
		}
		op, err := parsePath(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", opName, err)
		}
		r.operandPath = &op
		return r, nil
	}
	v, err := decodeValue(raw[opName])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opName, err)
	}
	if !operandFits(r.kind, v) {
		return nil, fmt.Errorf("%s: %s is not a valid operand", opName, raw[opName])
	}
	r.operand = v
	return r, nil
}

func (r *choiceRule) compileBoolean(raw map[string]json.RawMessage) error {
	if nr, ok := raw["Not"]; ok {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(nr, &inner); err != nil {
			return fmt.Errorf("Not must be a rule object")
		}
		sub, err := compileRule(inner, false)
		if err != nil {
			return fmt.Errorf("Not: %w", err)
		}
		r.not = sub
		return nil
	}
	name := "And"
	if _, ok := raw["Or"]; ok {
		name = "Or"
	}
	var inners []map[string]json.RawMessage
	if err := json.Unmarshal(raw[name], &inners); err != nil || len(inners) == 0 {
		return fmt.Errorf("%s must be a non-empty array of rules", name)
	}
	for i, inner := range inners {
		sub, err := compileRule(inner, false)
		if err != nil {
			return fmt.Errorf("%s[%d]: %w", name, i, err)
		}
		if name == "And" {
			r.and = append(r.and, sub)
		} else {
			r.or = append(r.or, sub)
		}
	}
	return nil
}

func operandFits(kind string, v any) bool {
	switch kind {
	case "string", "matches":
		_, ok := v.(string)
		return ok
	case "numeric":
		_, ok := v.(json.Number)
		return ok
	case "boolean", "is":
		_, ok := v.(bool)
		return ok
	case "timestamp":
		s, ok := v.(string)
		return ok && isTimestamp(s)
	}
	return false
}

func isTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// match evaluates the rule. A Variable that is missing, or a …Path operand
// that is missing or of the wrong type, is a States.Runtime error; a
// Variable of another type than the operator compares simply does not match.
func (r *choiceRule) match(data, ctxObj any) (bool, error) {
	switch {
	case r.not != nil:
		ok, err := r.not.match(data, ctxObj)
		return !ok, err
	case r.and != nil:
		for _, sub := range r.and {
			if ok, err := sub.match(data, ctxObj); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case r.or != nil:
		for _, sub := range r.or {
			if ok, err := sub.match(data, ctxObj); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	if r.op == "IsPresent" {
		_, present := r.variable.get(data, ctxObj)
		return present == r.operand.(bool), nil
	}
	v, ok := r.variable.get(data, ctxObj)
	if !ok {
		return false, runtimeErr("Invalid path '%s': The choice state's condition path references an invalid value.", r.variable.raw)
	}
	operand := r.operand
	if r.operandPath != nil {
		operand, ok = r.operandPath.get(data, ctxObj)
		if !ok || !operandFits(r.kind, operand) {
			return false, runtimeErr("Invalid path '%s' in %sPath: it must point to a %s value", r.operandPath.raw, r.op, r.kind)
		}
	}
	if r.kind == "is" {
		want := operand.(bool)
		var is bool
		switch r.cmp {
		case "null":
			is = v == nil
		case "numeric":
			_, is = v.(json.Number)
		case "string":
			_, is = v.(string)
		case "boolean":
			_, is = v.(bool)
		case "timestamp":
			s, isStr := v.(string)
			is = isStr && isTimestamp(s)
		}
		return is == want, nil
	}
	var c int
	switch r.kind {
	case "string":
		s, ok := v.(string)
		if !ok {
			return false, nil
		}
		c = strings.Compare(s, operand.(string))
	case "matches":
		s, ok := v.(string)
		return ok && wildcardMatch(operand.(string), s), nil
	case "numeric":
		n, ok := v.(json.Number)
		if !ok {
			return false, nil
		}
		a, errA := n.Float64()
		b, errB := operand.(json.Number).Float64()
		if errA != nil || errB != nil {
			return false, nil
		}
		c = compareFloat(a, b)
	case "boolean":
		b, ok := v.(bool)
		return ok && b == operand.(bool), nil
	case "timestamp":
		s, ok := v.(string)
		if !ok {
			return false, nil
		}
		a, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return false, nil
		}
		b, _ := time.Parse(time.RFC3339Nano, operand.(string))
		c = a.Compare(b)
	}
	switch r.cmp {
	case "eq":
		return c == 0, nil
	case "lt":
		return c < 0, nil
	case "gt":
		return c > 0, nil
	case "le":
		return c <= 0, nil
	default: // ge
		return c >= 0, nil
	}
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// wildcardMatch implements StringMatches: * matches any run of characters,
// \* a literal star and \\ a literal backslash.
func wildcardMatch(pattern, s string) bool {
	type tok struct {
		star bool
		r    rune
	}
	var toks []tok
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '\\' && i+1 < len(rs) && (rs[i+1] == '*' || rs[i+1] == '\\'):
			toks = append(toks, tok{r: rs[i+1]})
			i++
		case rs[i] == '*':
			toks = append(toks, tok{star: true})
		default:
			toks = append(toks, tok{r: rs[i]})
		}
	}
	in := []rune(s)
	// Greedy match with backtracking to the last star: linear in practice.
	ti, si, starTok, starS := 0, 0, -1, 0
	for si < len(in) {
		switch {
		case ti < len(toks) && !toks[ti].star && toks[ti].r == in[si]:
			ti++
			si++
		case ti < len(toks) && toks[ti].star:
			starTok, starS = ti, si
			ti++
		case starTok >= 0:
			ti = starTok + 1
			starS++
			si = starS
		default:
			return false
		}
	}
	for ti < len(toks) && toks[ti].star {
		ti++
	}
	return ti == len(toks)
}
