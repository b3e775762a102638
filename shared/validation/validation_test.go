package validation_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/brandlens/brandlens/shared/validation"
)

func TestError(t *testing.T) {
	cases := []struct {
		name   string
		add    [][2]string
		nilErr bool
		msg    string
		fields []string
	}{
		{name: "none", nilErr: true},
		{name: "one", add: [][2]string{{"pageSize", "must be at most 100"}}, msg: "invalid field pageSize: must be at most 100", fields: []string{"pageSize"}},
		{name: "sorted by field, first named", add: [][2]string{{"url", "bad"}, {"events", "unknown"}, {"secret", "short"}},
			msg: "3 invalid fields; first events: unknown", fields: []string{"events", "secret", "url"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ve validation.Error
			for _, a := range c.add {
				ve.Add(a[0], "%s", a[1])
			}
			err := ve.Err()
			if c.nilErr {
				if err != nil {
					t.Fatalf("Err() = %v, want nil", err)
				}
				return
			}
			var got *validation.Error
			if !errors.As(fmt.Errorf("wrapped: %w", err), &got) {
				t.Fatalf("%T is not a *validation.Error", err)
			}
			if len(got.Fields) != len(c.add) || got.Fields[0].Field != c.add[0][0] {
				t.Errorf("Err() reordered the fields: %v", got.Fields)
			}
			got = got.Sorted()
			err = got
			if err.Error() != c.msg {
				t.Errorf("message %q, want %q", err.Error(), c.msg)
			}
			var names []string
			for _, f := range got.Fields {
				names = append(names, f.Field)
			}
			if fmt.Sprint(names) != fmt.Sprint(c.fields) {
				t.Errorf("fields %v, want %v", names, c.fields)
			}
		})
	}
	if err := validation.Field("cursor", "not a cursor of this list"); err.Error() != "invalid field cursor: not a cursor of this list" {
		t.Errorf("Field: %v", err)
	}
}

func TestFieldNames(t *testing.T) {
	var ve validation.Error
	ve.Add("url", "bad")
	ve.Add("events", "unknown")
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"nil", nil, nil},
		{"another error", errors.New("boom"), nil},
		{"in order, through wrapping", fmt.Errorf("create: %w", ve.Err()), []string{"url", "events"}},
		{"one field", validation.Field("name", "is required"), []string{"name"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := validation.FieldNames(c.err); !slices.Equal(got, c.want) {
				t.Errorf("FieldNames = %q, want %q", got, c.want)
			}
		})
	}
}
