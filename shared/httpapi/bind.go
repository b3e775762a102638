package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"mime"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/brandlens/brandlens/shared/validation"
)

// This file is the one decoder of wire rules: it turns path, query and
// header values and the JSON body into a handler's typed input, and reports
// every bad, unknown or repeated one as a validation error naming it.
// Domain rules (ranges of domain values, what exists) stay in the domain.
//
// An input is a struct whose fields say where they come from:
//
//	type in struct {
//		ID       int32     `path:"id" min:"1"`
//		Page     int32     `query:"page" default:"1" min:"1"`
//		Platform string    `query:"platform" enum:"platforms"`
//		From     time.Time `query:"dateFrom" doc:"inclusive lower bound"`
//		Version  string    `header:"X-Version" minLength:"1" maxLength:"20"`
//		Body     RunRequest `body:"json"`
//	}
//
// Field types: string, int32, bool, *bool (nil when absent) and time.Time
// (RFC 3339, or a plain date meaning that day's start, UTC). Embedded
// structs contribute their fields.

// ParamIn says where a parameter is read.
type ParamIn string

// Parameter locations.
const (
	InPath   ParamIn = "path"
	InQuery  ParamIn = "query"
	InHeader ParamIn = "header"
)

// maxStringParam caps string parameters that declare no maxLength.
const maxStringParam = 500

// Param is one declared parameter of a route, derived from its input type:
// the router checks requests against it and the OpenAPI document shows it.
type Param struct {
	Name string
	In   ParamIn
	// Type is the Go type of the input field (string, int32, bool, *bool,
	// time.Time).
	Type                 reflect.Type
	Enum                 []string
	Default              string // raw value used when the parameter is absent
	Min, Max             *int64 // bounds of int32 parameters
	MinLength, MaxLength int    // of string parameters (MaxLength > 0)
	Description          string
	index                []int
}

// Required: path parameters always are.
func (p Param) Required() bool { return p.In == InPath }

// binding is how one input type is filled from a request.
type binding struct {
	typ    reflect.Type
	params []Param
	query  map[string]bool
	body   []int        // index of the body field (nil: no body)
	bodyT  reflect.Type // its type
}

var (
	timeType    = reflect.TypeFor[time.Time]()
	boolPtrType = reflect.TypeFor[*bool]()
)

// newBinding reads the tags of input type t. Malformed tags are programming
// errors of the route table and panic when it is built.
func newBinding(t reflect.Type) *binding {
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("httpapi: input type %s is not a struct", t))
	}
	b := &binding{typ: t, query: map[string]bool{}}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		if _, ok := f.Tag.Lookup("body"); ok {
			if b.body != nil || f.Type.Kind() != reflect.Struct {
				panic(fmt.Sprintf("httpapi: %s.%s: one struct field may be the body", t, f.Name))
			}
			b.body, b.bodyT = f.Index, f.Type
			continue
		}
		p := Param{Type: f.Type, Description: f.Tag.Get("doc"), index: f.Index}
		for _, in := range []ParamIn{InPath, InQuery, InHeader} {
			if name, ok := f.Tag.Lookup(string(in)); ok {
				if p.Name != "" || name == "" {
					panic(fmt.Sprintf("httpapi: %s.%s: give exactly one named path, query or header tag", t, f.Name))
				}
				p.Name, p.In = name, in
			}
		}
		if p.Name == "" {
			panic(fmt.Sprintf("httpapi: %s.%s has no path, query, header or body tag", t, f.Name))
		}
		if p.In == InHeader && strings.EqualFold(p.Name, HeaderIdempotencyKey) {
			panic(fmt.Sprintf("httpapi: %s.%s: the router reads Idempotency-Key on every write; inputs do not declare it", t, f.Name))
		}
		switch f.Type {
		case reflect.TypeFor[string](), reflect.TypeFor[int32](), reflect.TypeFor[bool](), boolPtrType, timeType:
		default:
			panic(fmt.Sprintf("httpapi: %s.%s: parameters are string, int32, bool, *bool or time.Time, not %s", t, f.Name, f.Type))
		}
		if set, ok := f.Tag.Lookup("enum"); ok {
			if p.Enum = enumSets[set]; len(p.Enum) == 0 {
				panic(fmt.Sprintf("httpapi: %s.%s: unknown enum set %q", t, f.Name, set))
			}
		}
		p.Min, p.Max = tagInt(t, f, "min"), tagInt(t, f, "max")
		if n := tagInt(t, f, "minLength"); n != nil {
			p.MinLength = int(*n)
		}
		p.MaxLength = maxStringParam
		if n := tagInt(t, f, "maxLength"); n != nil {
			p.MaxLength = int(*n)
		}
		if d, ok := f.Tag.Lookup("default"); ok {
			if _, msg := p.parse(d); msg != "" {
				panic(fmt.Sprintf("httpapi: %s.%s: default %q %s", t, f.Name, d, msg))
			}
			p.Default = d
		}
		if p.In == InQuery {
			b.query[p.Name] = true
		}
		b.params = append(b.params, p)
	}
	return b
}

func tagInt(t reflect.Type, f reflect.StructField, tag string) *int64 {
	s, ok := f.Tag.Lookup(tag)
	if !ok {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("httpapi: %s.%s: %s:%q is not an integer", t, f.Name, tag, s))
	}
	return &n
}

// bind fills dst (a settable value of b.typ) from the request, naming every
// bad, unknown or repeated parameter; then decodes the body.
func (b *binding) bind(rq *Request, pathVals map[string]string, dst reflect.Value) error {
	var ve validation.Error
	query := rq.Query()
	params := b.params
	if rq.Route != nil {
		params = rq.Route.Params()
	}
	for i := range params {
		p := &params[i]
		var raw string
		var present bool
		switch p.In {
		case InPath:
			raw, present = pathVals[p.Name]
		case InQuery:
			vs, ok := query[p.Name]
			if ok && len(vs) > 1 {
				ve.Add(p.Name, "given %d times; give it once", len(vs))
				continue
			}
			// An empty query value counts as absent (?page=&pageSize=10).
			present = ok && vs[0] != ""
			if present {
				raw = vs[0]
			}
		case InHeader:
			vs := rq.HTTP.Header.Values(p.Name)
			if len(vs) > 1 {
				ve.Add(p.Name, "given %d times; give it once", len(vs))
				continue
			}
			present = len(vs) == 1
			if present {
				raw = vs[0]
			}
		}
		if !present {
			if p.Default == "" {
				continue
			}
			raw = p.Default
		}
		v, msg := p.parse(raw)
		if msg != "" {
			ve.Add(p.Name, "%s", msg)
			continue
		}
		if p.index != nil { // nil: read by the router (Idempotency-Key)
			dst.FieldByIndex(p.index).Set(reflect.ValueOf(v))
		}
	}
	for name := range query {
		if !b.query[name] {
			ve.Add(name, "unknown query parameter")
		}
	}
	if err := ve.Err(); err != nil {
		return err
	}
	if b.body == nil {
		return checkNoBody(rq.Body)
	}
	// Bodies are checked before the handler runs, so that even a route
	// still answering 501 tells a client what is wrong with its body.
	return decodeBody(rq, dst.FieldByIndex(b.body).Addr().Interface())
}

// parse converts one raw value; a non-empty message says what is wrong.
func (p *Param) parse(raw string) (any, string) {
	switch p.Type {
	case reflect.TypeFor[int32]():
		n, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			return nil, "must be a 32-bit integer"
		}
		if p.Min != nil && n < *p.Min {
			return nil, "must be at least " + strconv.FormatInt(*p.Min, 10)
		}
		if p.Max != nil && n > *p.Max {
			return nil, "must be at most " + strconv.FormatInt(*p.Max, 10)
		}
		return int32(n), ""
	case reflect.TypeFor[bool](), boolPtrType:
		var v bool
		switch raw {
		case "true":
			v = true
		case "false":
		default:
			return nil, "must be true or false"
		}
		if p.Type == boolPtrType {
			return &v, ""
		}
		return v, ""
	case timeType:
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			// A plain date is the day's start, UTC.
			if d, derr := time.Parse("2006-01-02", raw); derr == nil {
				return d, ""
			}
			return nil, "must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z"
		}
		return t, ""
	}
	if !utf8.ValidString(raw) {
		return nil, "must be valid UTF-8"
	}
	if n := utf8.RuneCountInString(raw); n > p.MaxLength || n < p.MinLength {
		if p.MinLength > 0 {
			return nil, fmt.Sprintf("must be %d to %d characters", p.MinLength, p.MaxLength)
		}
		return nil, fmt.Sprintf("must be at most %d characters", p.MaxLength)
	}
	if len(p.Enum) > 0 && !slices.Contains(p.Enum, raw) {
		return nil, validation.OneOf(raw, p.Enum)
	}
	return raw, ""
}

// JSONMediaTypes are the request body media types the router accepts, as
// the spec lists them.
var JSONMediaTypes = []string{"application/json", "text/json", "application/*+json"}

// jsonContentType reports whether a Content-Type names JSON as the spec
// accepts it: application/json, text/json or application/*+json.
func jsonContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || mt == "text/json" ||
		(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// decodeBody decodes the request body into dst (a pointer to a struct). An
// empty body leaves dst as it is.
func decodeBody(rq *Request, dst any) error {
	if len(bytes.TrimSpace(rq.Body)) == 0 {
		return nil
	}
	if ct := rq.HTTP.Header.Get("Content-Type"); !jsonContentType(ct) {
		return validation.Field("Content-Type", "unsupported media type %q; send application/json, text/json or application/*+json", ct)
	}
	if p, ok := dst.(bodyParser); ok {
		return p.ParseBody(rq.Body)
	}
	return decodeStrict(rq.Body, dst)
}

// checkNoBody accepts what a route without a body may be sent — nothing,
// whitespace or {} (whatever its Content-Type) — and refuses anything else,
// so that a client sending a body by mistake is told rather than served (and
// charged) as if it had sent none.
func checkNoBody(body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var members map[string]json.RawMessage
	if checkJSON(body) == nil && json.Unmarshal(body, &members) == nil && len(members) == 0 {
		return nil
	}
	return validation.Field("body", "this route takes no body: send none, or {}")
}

// bodyParser is a body that parses itself: the PublishPayload a receiver
// reads case-insensitively, as the spec asks of receivers.
type bodyParser interface{ ParseBody(body []byte) error }

// decodeStrict decodes one JSON object into dst, a pointer to a struct.
// The body must be well-formed JSON (UTF-8, one object, nothing after it)
// with every object member named once at any depth — a duplicate would
// otherwise be read as its last value, which may not be what a client
// checked or was charged for. Then unknown members and members of the wrong
// type are all reported, each by name, and so is null for a member tagged
// nullable:"false" (an update's member that has no null value: without the
// tag null would read as absent and change nothing, silently).
func decodeStrict(body []byte, dst any) error {
	if err := checkJSON(body); err != nil {
		return err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return validation.Field("body", "must be a JSON object")
	}
	rv := reflect.ValueOf(dst).Elem()
	fields := jsonFields(rv.Type())
	var ve validation.Error
	for name, raw := range members {
		idx, ok := fields[name]
		if !ok {
			ve.Add(name, "unknown field")
			continue
		}
		if string(raw) == "null" && rv.Type().FieldByIndex(idx).Tag.Get("nullable") == "false" {
			ve.Add(name, "must not be null; omit it to leave it as it is")
			continue
		}
		f := rv.FieldByIndex(idx)
		if isInteger(f.Type()) {
			raw = integral(raw)
		}
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			ve.Add(name, "must be %s", typeName(f.Type()))
		}
	}
	return ve.Err()
}

// integral rewrites a JSON number whose value is an integer (1.0, 1e2,
// 0.5e1) as the integer literal encoding/json decodes into a top-level
// integer member: clients whose numbers are floats (JavaScript, Python)
// send integers that way, and RFC 8785 (the idempotency fingerprint) takes
// them for the same value. Anything else (1.5, strings, values beyond
// int64, a number written in more than maxIntegralLen characters) is
// returned as it is, for the decoder to refuse.
func integral(raw json.RawMessage) json.RawMessage {
	if len(raw) > maxIntegralLen {
		return raw // big.Rat's work grows with the digits: a megabyte of them took seconds
	}
	// ParseFloat first: it bounds the value cheaply before big.Rat works
	// out exactly whether it is an integer (1.0000000000000000001 is not).
	if f, err := strconv.ParseFloat(string(raw), 64); err != nil || math.Abs(f) > math.MaxInt64 {
		return raw
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok || !r.IsInt() {
		return raw
	}
	return json.RawMessage(r.Num().String())
}

// maxIntegralLen bounds the numbers integral reads: an int64 written as a
// float, with its decimals, fits in far fewer characters.
const maxIntegralLen = 64

// isInteger reports whether t, or what it points to, is an integer type.
func isInteger(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// checkJSON accepts one JSON object whose members are each named once (at
// any depth) and nothing after it; a syntax error is reported with its byte
// offset, a duplicate member by its path (a.b.0.c).
func checkJSON(body []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	v, err := dec.ReadValue()
	if err != nil {
		return jsonSyntaxError(err)
	}
	if k := v.Kind(); k != '{' {
		return validation.Field("body", "must be a JSON object, not %s", jsonKindName(k))
	}
	end := dec.InputOffset()
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return validation.Field("body", "must hold one JSON object: unexpected data after it at byte %d", end)
	}
	return nil
}

func jsonSyntaxError(err error) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return validation.Field("body", "must be a JSON object: the body holds no JSON value")
	}
	if errors.Is(err, jsontext.ErrDuplicateName) {
		return validation.Field(pointerField(se.JSONPointer), "given more than once; give each member once")
	}
	reason := se.Err.Error()
	if errors.Is(se.Err, io.ErrUnexpectedEOF) {
		reason = "the body ends before the JSON value does"
	}
	where := ""
	if se.JSONPointer != "" {
		where = " (in " + pointerField(se.JSONPointer) + ")"
	}
	return validation.Field("body", "malformed JSON at byte %d%s: %s", se.ByteOffset, where, reason)
}

// pointerField names the member a JSON pointer designates, as a dotted
// path: /a/c/0/d is a.c.0.d.
func pointerField(p jsontext.Pointer) string {
	return strings.Join(slices.Collect(p.Tokens()), ".")
}

func jsonKindName(k jsontext.Kind) string {
	switch k {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a JSON value"
}

// jsonFields maps the JSON member names of struct type t to field indexes
// (embedded structs promote their members, as encoding/json does for
// untagged ones).
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := out[name]; !dup {
			out[name] = f.Index
		}
	}
	return out
}

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int32:
		return "a 32-bit integer"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(typeName(t.Elem()), "a "), "an ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a valid value"
}
