package httpapi

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Handler is a route's typed function behind the binding of its input. Build
// one with Handle (or NotImplemented); the route table, the router and the
// OpenAPI document all read the declarations it derives from the input type.
type Handler struct {
	bind  *binding
	out   reflect.Type // the answer's type
	serve func(s *Server, rq *Request, path map[string]string) (any, error)
	// notImplemented: the route answers 501 after its guard and checks.
	notImplemented bool
}

// checker is an input with rules that join several of its parameters.
type checker interface{ check(rq *Request) error }

// NoInput is the input of routes without parameters or body.
type NoInput struct{}

// Handle adapts fn: the router fills an In from the request — path, query
// and header parameters by their tags, the JSON body into the field tagged
// body — and answers fn's Out as JSON with the route's Status. A parameter
// is declared only by its field in In, so it cannot be declared in one
// place and read in another.
//
// On idempotent routes (Route.Idempotent) the router runs fn under the
// request's Idempotency-Key once the input is valid (see idempotent.go).
func Handle[In, Out any](fn func(s *Server, rq *Request, in In) (Out, error)) Handler {
	b := newBinding(reflect.TypeFor[In]())
	var restore restoreFunc
	if _, ok := any(*new(Out)).(oneTimeSecret); ok {
		restore = restoreSecret[Out]
	}
	return Handler{bind: b, out: reflect.TypeFor[Out](),
		serve: func(s *Server, rq *Request, path map[string]string) (any, error) {
			var in In
			if err := b.bind(rq, path, reflect.ValueOf(&in).Elem()); err != nil {
				return nil, err
			}
			if c, ok := any(in).(checker); ok {
				if err := c.check(rq); err != nil {
					return nil, err
				}
			}
			run := func() (any, error) { return fn(s, rq, in) }
			if rq.Route != nil && rq.Route.Idempotent() && rq.Route.Implemented() {
				return s.idempotent(rq, func() (any, error) {
					out, err := run()
					if err == nil {
						s.auditWrite(rq, path, out)
					}
					return out, err
				}, restore)
			}
			return run()
		}}
}

// NotImplemented declares a route whose feature has not landed yet: its
// guard and its input checks run, then it answers 501 not_implemented. Out
// is the answer the route will give (documented already).
func NotImplemented[In, Out any]() Handler {
	h := Handle(func(_ *Server, rq *Request, _ In) (Out, error) {
		var zero Out
		return zero, &Error{Code: CodeNotImplemented, Message: rq.Route.Method + " " + rq.Route.Path + " is not available yet"}
	})
	h.notImplemented = true
	return h
}

// Params are the route's path, query and header parameters: its input's,
// and Idempotency-Key on idempotent routes.
func (r *Route) Params() []Param {
	ps := r.Handler.bind.params
	if r.Idempotent() {
		ps = append(slices.Clip(ps), idempotencyKeyParam)
	}
	return ps
}

// RequestBody is the type of the route's JSON body, nil when it takes none.
func (r *Route) RequestBody() reflect.Type { return r.Handler.bind.bodyT }

// ResponseBody is the type of the route's answer (OpenObject while the
// route does not fix its shape).
func (r *Route) ResponseBody() reflect.Type { return r.Handler.out }

// Implemented reports whether the route does more than answer 501.
func (r *Route) Implemented() bool { return !r.Handler.notImplemented }

// check verifies that the route's path placeholders are exactly the path
// parameters of its input.
func (r *Route) check() error {
	if r.Handler.serve == nil {
		return fmt.Errorf("httpapi: %s %s has no handler", r.Method, r.Path)
	}
	want := map[string]bool{}
	for _, seg := range splitPath(r.Path) {
		if strings.HasPrefix(seg, "{") {
			want[strings.Trim(seg, "{}")] = true
		}
	}
	for _, p := range r.Params() {
		if p.In != InPath {
			continue
		}
		if !want[p.Name] {
			return fmt.Errorf("httpapi: %s %s: input declares path parameter %q, which the path lacks", r.Method, r.Path, p.Name)
		}
		delete(want, p.Name)
	}
	for name := range want {
		return fmt.Errorf("httpapi: %s %s: path parameter {%s} is not a field of the input", r.Method, r.Path, name)
	}
	return nil
}
