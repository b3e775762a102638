// Package validation holds the service's one shape of "these fields are
// invalid": domain packages report their rules with it, the HTTP edge's
// decoder reports wire rules with it, and the edge answers it as
// 422 validation_error naming every field.
package validation

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// LimitError: a create would pass a per-tenant cap (webhook subscriptions,
// destinations). No field is at fault — the request is valid, the tenant is
// full — so the edge answers it apart from field errors.
type LimitError struct {
	What string // the records counted, plural: "webhook subscriptions"
	Max  int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the tenant already has %d %s, the most allowed; delete one first", e.Max, e.What)
}

// FieldError names one invalid parameter, body member or header.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error lists every invalid field of one request, so that one answer names
// them all. The zero value is empty and ready to use.
type Error struct {
	Fields []FieldError
}

// Add records that field is invalid.
func (e *Error) Add(field, format string, args ...any) {
	e.Fields = append(e.Fields, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Has reports whether field was already named.
func (e *Error) Has(field string) bool {
	return slices.ContainsFunc(e.Fields, func(f FieldError) bool { return f.Field == field })
}

// Err returns e, or nil when no field was added.
func (e *Error) Err() error {
	if len(e.Fields) == 0 {
		return nil
	}
	return e
}

// Sorted returns a copy of e with its fields sorted by name (stable), the
// order in which answers list them.
func (e *Error) Sorted() *Error {
	fs := slices.Clone(e.Fields)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Field < fs[j].Field })
	return &Error{Fields: fs}
}

// Error names the first field and counts the others.
func (e *Error) Error() string {
	switch len(e.Fields) {
	case 0:
		return "invalid request"
	case 1:
		return "invalid field " + e.Fields[0].Field + ": " + e.Fields[0].Message
	}
	return fmt.Sprintf("%d invalid fields; first %s: %s", len(e.Fields), e.Fields[0].Field, e.Fields[0].Message)
}

// OneOf is the message for a value outside its enum: the value is named,
// so that a wrong one is not mistaken for a missing one.
func OneOf(value string, allowed []string) string {
	list := strings.Join(allowed, ", ")
	if value == "" {
		return "is required: one of " + list
	}
	return fmt.Sprintf("%q is not one of %s", value, list)
}

// Field returns an error naming one invalid field.
func Field(field, format string, args ...any) error {
	var e Error
	e.Add(field, format, args...)
	return e.Err()
}

// FieldNames lists the fields the *Error in err's chain names, in its
// order; nil when err holds none.
func FieldNames(err error) []string {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	out := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		out[i] = f.Field
	}
	return out
}
