package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Request is what a route handler sees: the HTTP request, the caller and
// the parameters already parsed and checked against the route's Params.
type Request struct {
	HTTP      *http.Request
	Route     *Route
	Principal auth.Principal
	RequestID string
	// Body is the raw body, read once by the router (capped).
	Body []byte
	// Input is the decoded body: a pointer to a value of the route's
	// Request type, nil for routes without one.
	Input  any
	params map[string]any
	tenant *tenants.Tenant // the caller's, once read
}

// Int returns an int32 parameter (its default when absent).
func (rq *Request) Int(name string) int32 { v, _ := rq.params[name].(int32); return v }

// Str returns a string parameter ("" when absent).
func (rq *Request) Str(name string) string { v, _ := rq.params[name].(string); return v }

// Bool returns a boolean parameter, nil when absent.
func (rq *Request) Bool(name string) *bool {
	v, ok := rq.params[name].(bool)
	if !ok {
		return nil
	}
	return &v
}

// Time returns a date-time parameter (zero when absent).
func (rq *Request) Time(name string) time.Time { v, _ := rq.params[name].(time.Time); return v }

// parseParams checks path and query values against the route's declared
// parameters, naming every bad or unknown one.
func parseParams(rt *Route, pathVals map[string]string, query map[string][]string) (map[string]any, *Error) {
	out := map[string]any{}
	var fe fieldErrors
	declared := map[string]bool{}
	for i := range rt.Params {
		p := &rt.Params[i]
		declared[p.Name] = true
		var raw string
		var present bool
		if p.InPath {
			raw, present = pathVals[p.Name]
		} else if vs, ok := query[p.Name]; ok {
			if len(vs) > 1 {
				fe.add(p.Name, "given %d times; give it once", len(vs))
				continue
			}
			raw, present = vs[0], true
		}
		if !present || (!p.InPath && raw == "") {
			if p.Default != nil {
				out[p.Name] = defaultValue(p)
			}
			continue
		}
		v, msg := p.parse(raw)
		if msg != "" {
			fe.add(p.Name, "%s", msg)
			continue
		}
		out[p.Name] = v
	}
	for name := range query {
		if !declared[name] {
			fe.add(name, "unknown query parameter")
		}
	}
	if e := fe.err(); e != nil {
		return nil, e
	}
	return out, nil
}

func defaultValue(p *Param) any {
	if n, ok := p.Default.(int); ok {
		return int32(n)
	}
	return p.Default
}

// parse converts one raw value; a non-empty message says what is wrong.
func (p *Param) parse(raw string) (any, string) {
	switch p.Type {
	case TypeInt32:
		n, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			return nil, "must be a 32-bit integer"
		}
		if n < int64(p.Min) {
			return nil, "must be at least " + strconv.Itoa(p.Min)
		}
		if p.Max > 0 && n > int64(p.Max) {
			return nil, "must be at most " + strconv.Itoa(p.Max)
		}
		return int32(n), ""
	case TypeBool:
		switch raw {
		case "true":
			return true, ""
		case "false":
			return false, ""
		}
		return nil, "must be true or false"
	case TypeDateTime:
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			// A plain date is the day's start, UTC.
			if d, derr := time.Parse("2006-01-02", raw); derr == nil {
				return d, ""
			}
			return nil, "must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z"
		}
		return t, ""
	default:
		if len(raw) > 500 {
			return nil, "must be at most 500 characters"
		}
		if len(p.Enum) > 0 {
			for _, e := range p.Enum {
				if raw == e {
					return raw, ""
				}
			}
			return nil, "must be one of " + strings.Join(p.Enum, ", ")
		}
		return raw, ""
	}
}

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

// DecodeJSON decodes the request body into dst (a pointer to a struct). An
// empty body leaves dst as it is. Unknown members and members of the wrong
// type are all reported, each by name, in one validation error.
func (rq *Request) DecodeJSON(dst any) *Error {
	if len(bytes.TrimSpace(rq.Body)) == 0 {
		return nil
	}
	if !jsonContentType(rq.HTTP.Header.Get("Content-Type")) {
		return &Error{Code: CodeValidation, Message: "request body must be JSON (application/json, text/json or application/*+json)",
			Details: map[string]any{"fields": []FieldError{{Field: "Content-Type", Message: "unsupported media type " + strconv.Quote(rq.HTTP.Header.Get("Content-Type"))}}}}
	}
	return decodeStrict(rq.Body, dst)
}

func decodeStrict(body []byte, dst any) *Error {
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || members == nil {
		return &Error{Code: CodeValidation, Message: "request body must be a JSON object",
			Details: map[string]any{"fields": []FieldError{{Field: "body", Message: jsonProblem(err)}}}}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Code: CodeValidation, Message: "request body must hold one JSON object",
			Details: map[string]any{"fields": []FieldError{{Field: "body", Message: "unexpected data after the JSON object"}}}}
	}
	fields := jsonFields(reflect.TypeOf(dst).Elem())
	rv := reflect.ValueOf(dst).Elem()
	var fe fieldErrors
	for name, raw := range members {
		idx, ok := fields[name]
		if !ok {
			fe.add(name, "unknown field")
			continue
		}
		f := rv.Field(idx)
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			fe.add(name, "must be %s", typeName(f.Type()))
		}
	}
	return fe.err()
}

func jsonProblem(err error) string {
	if err == nil {
		return "expected an object"
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "malformed JSON at byte " + strconv.FormatInt(se.Offset, 10)
	}
	return "expected an object"
}

// jsonFields maps the JSON member names of struct type t to field indexes.
func jsonFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = i
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
