package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Values inside an execution are plain decoded JSON (nil, bool, json.Number,
// string, []any, map[string]any) and are never mutated once built: every
// transformation copies what it changes, so iterations and retries can share
// their inputs freely.

func decodeValue(raw []byte) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keeps integers exact through the execution
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return v, nil
}

func encodeValue(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// describe renders a value for error causes, shortened like the console does.
func describe(v any) string {
	b, err := encodeValue(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// pathStep is one member name or array index of a path.
type pathStep struct {
	name    string
	index   int
	isIndex bool
}

// jsonPath is the JsonPath subset Step Functions' reference paths use: $ (or
// $$ for the context object) followed by .name, ['name'] and [index] steps.
// Wildcards, filters, slices and recursive descent are rejected at Load.
type jsonPath struct {
	raw     string
	context bool
	steps   []pathStep
}

func parsePath(s string) (jsonPath, error) {
	p := jsonPath{raw: s}
	rest := s
	switch {
	case strings.HasPrefix(s, "$$"):
		p.context = true
		rest = s[2:]
	case strings.HasPrefix(s, "$"):
		rest = s[1:]
	default:
		return p, fmt.Errorf("path %q must start with $ (or $$ for the context object)", s)
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			if strings.HasPrefix(rest, ".") {
				return p, fmt.Errorf("path %q: recursive descent (..) is not supported", s)
			}
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			name := rest[:end]
			if name == "" {
				return p, fmt.Errorf("path %q: empty member name", s)
			}
			if strings.ContainsAny(name, "*?@()]'\", ") {
				return p, fmt.Errorf("path %q: member %q uses JsonPath syntax the runner does not support (only names, ['name'] and [index])", s, name)
			}
			p.steps = append(p.steps, pathStep{name: name})
			rest = rest[end:]
		case '[':
			closeIdx := strings.IndexByte(rest, ']')
			if closeIdx < 0 {
				return p, fmt.Errorf("path %q: missing ]", s)
			}
			inner := rest[1:closeIdx]
			switch {
			case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
				p.steps = append(p.steps, pathStep{name: inner[1 : len(inner)-1]})
			default:
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return p, fmt.Errorf("path %q: [%s] is not supported (only [index] with a non-negative integer and ['name'])", s, inner)
				}
				p.steps = append(p.steps, pathStep{index: n, isIndex: true})
			}
			rest = rest[closeIdx+1:]
		default:
			return p, fmt.Errorf("path %q: unexpected %q", s, rest[0])
		}
	}
	return p, nil
}

// get evaluates the path against the state data or, for $$ paths, the
// context object.
func (p jsonPath) get(data, ctxObj any) (any, bool) {
	v := data
	if p.context {
		v = ctxObj
	}
	for _, st := range p.steps {
		if st.isIndex {
			arr, ok := v.([]any)
			if !ok || st.index >= len(arr) {
				return nil, false
			}
			v = arr[st.index]
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[st.name]; !ok {
			return nil, false
		}
	}
	return v, true
}

// mustGet is get for fields where a missing value fails the execution with
// States.Runtime, as Step Functions does.
func (p jsonPath) mustGet(field string, data, ctxObj any) (any, error) {
	v, ok := p.get(data, ctxObj)
	if !ok {
		src := data
		if p.context {
			src = ctxObj
		}
		return nil, runtimeErr("The JSONPath '%s' specified for the field '%s' could not be found in the input '%s'", p.raw, field, describe(src))
	}
	return v, nil
}

// set returns a copy of doc with the path's target replaced by v, creating
// missing objects on the way: the ResultPath rule. A step through a value
// that is not an object (or an index outside an array) is a
// States.ResultPathMatchFailure.
func (p jsonPath) set(doc, v any) (any, error) {
	return setSteps(p, p.steps, doc, v)
}

func setSteps(p jsonPath, steps []pathStep, doc, v any) (any, error) {
	if len(steps) == 0 {
		return v, nil
	}
	st := steps[0]
	if st.isIndex {
		arr, ok := doc.([]any)
		if !ok || st.index >= len(arr) {
			return nil, &stateError{name: ErrorResultPathMatch, cause: fmt.Sprintf("Unable to apply ResultPath '%s' to input '%s'", p.raw, describe(doc))}
		}
		child, err := setSteps(p, steps[1:], arr[st.index], v)
		if err != nil {
			return nil, err
		}
		out := append([]any(nil), arr...)
		out[st.index] = child
		return out, nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, &stateError{name: ErrorResultPathMatch, cause: fmt.Sprintf("Unable to apply ResultPath '%s' to input '%s'", p.raw, describe(doc))}
	}
	cur, exists := obj[st.name]
	if !exists && len(steps) > 1 {
		cur = map[string]any{}
	}
	child, err := setSteps(p, steps[1:], cur, v)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(obj)+1)
	for k, val := range obj {
		out[k] = val
	}
	out[st.name] = child
	return out, nil
}

// optPath is an InputPath/OutputPath/ResultPath field: absent (the default
// "$"), null (discard), or a path.
type optPath struct {
	set  bool
	null bool
	path jsonPath
}

// template is a compiled payload template (Parameters, ItemSelector,
// ResultSelector): literal values, and "key.$" members whose path is
// resolved at run time.
type template interface {
	eval(field string, data, ctxObj any) (any, error)
}

type literal struct{ v any }

func (l literal) eval(string, any, any) (any, error) { return l.v, nil }

type objectTemplate struct {
	keys []string
	vals []template
}

func (o objectTemplate) eval(field string, data, ctxObj any) (any, error) {
	out := make(map[string]any, len(o.keys))
	for i, k := range o.keys {
		v, err := o.vals[i].eval(k, data, ctxObj)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

type arrayTemplate []template

func (a arrayTemplate) eval(field string, data, ctxObj any) (any, error) {
	out := make([]any, len(a))
	for i, t := range a {
		v, err := t.eval(field, data, ctxObj)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

type pathTemplate struct{ p jsonPath }

func (t pathTemplate) eval(field string, data, ctxObj any) (any, error) {
	return t.p.mustGet(field+".$", data, ctxObj)
}

// compileTemplate compiles a decoded payload template. Intrinsic functions
// (States.Format(...) and friends) are outside the runner's subset and are
// rejected here rather than misbehaving later.
func compileTemplate(v any) (template, error) {
	switch tv := v.(type) {
	case map[string]any:
		var o objectTemplate
		seen := map[string]bool{}
		for _, k := range sortedKeys(tv) {
			val := tv[k]
			name := k
			var t template
			if strings.HasSuffix(k, ".$") {
				name = strings.TrimSuffix(k, ".$")
				s, ok := val.(string)
				if !ok {
					return nil, fmt.Errorf("member %q must be a string path", k)
				}
				if !strings.HasPrefix(s, "$") {
					return nil, fmt.Errorf("member %q: %q is an intrinsic function or not a path; intrinsic functions are not supported by the local runner", k, s)
				}
				p, err := parsePath(s)
				if err != nil {
					return nil, fmt.Errorf("member %q: %w", k, err)
				}
				t = pathTemplate{p}
			} else {
				var err error
				if t, err = compileTemplate(val); err != nil {
					return nil, fmt.Errorf("member %q: %w", k, err)
				}
			}
			if seen[name] {
				return nil, fmt.Errorf("members %q and %q.$ both set %q", name, name, name)
			}
			seen[name] = true
			o.keys = append(o.keys, name)
			o.vals = append(o.vals, t)
		}
		return o, nil
	case []any:
		a := make(arrayTemplate, len(tv))
		for i, e := range tv {
			t, err := compileTemplate(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			a[i] = t
		}
		return a, nil
	default:
		return literal{v}, nil
	}
}

// sortedKeys keeps Load's errors and evaluation order deterministic.
func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

// templateRefersTo reports whether any "key.$" member of the template uses
// the given path prefix (used to require $$.Task.Token in token tasks).
func templateRefersTo(t template, prefix string) bool {
	switch tt := t.(type) {
	case objectTemplate:
		for _, v := range tt.vals {
			if templateRefersTo(v, prefix) {
				return true
			}
		}
	case arrayTemplate:
		for _, v := range tt {
			if templateRefersTo(v, prefix) {
				return true
			}
		}
	case pathTemplate:
		return strings.HasPrefix(tt.p.raw, prefix)
	}
	return false
}
