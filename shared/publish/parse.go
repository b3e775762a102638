package publish

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/brandlens/brandlens/shared/validation"
)

// SupportedMajor is the SchemaVersion major version ParsePayload reads.
const SupportedMajor = 1

var versionPattern = regexp.MustCompile(`^([0-9]{1,9})(\.[0-9]{1,9}){0,3}$`)

// payloadFields maps each PublishPayload member, case-folded, to its field
// index: receivers parse the names case-insensitively (spec, Versioning 2).
var payloadFields = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[Payload]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[strings.ToLower(name)] = i
	}
	return m
}()

// ParsePayload reads a PublishPayload as a receiver must: one JSON object
// whose member names match in any casing (SchemaVersion, schemaversion,
// SCHEMAVERSION …). A member named twice — exactly, or in two casings — is
// refused, since which one counts would be a guess. Unknown members are
// ignored: a later 1.x version may add optional ones. SchemaVersion must be
// present and of major version 1; another major is refused (the payload's
// shape may differ). Errors are *validation.Error naming each member.
func ParsePayload(body []byte) (Payload, error) {
	var p Payload
	if !utf8.Valid(body) {
		return p, validation.Field("body", "must be UTF-8 JSON")
	}
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	v, err := dec.ReadValue()
	if err != nil {
		return p, validation.Field("body", "must be one JSON object: %s", shorten(err.Error()))
	}
	if v.Kind() != '{' {
		return p, validation.Field("body", "must be a JSON object")
	}
	v = v.Clone() // valid only until the decoder reads on
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return p, validation.Field("body", "must hold one JSON object and nothing after it")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(v, &members); err != nil {
		return p, validation.Field("body", "must be a JSON object")
	}
	var ve validation.Error
	rv := reflect.ValueOf(&p).Elem()
	seen := map[int]string{}
	for name, raw := range members {
		i, ok := payloadFields[strings.ToLower(name)]
		if !ok {
			continue
		}
		f := rv.Type().Field(i)
		wire, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if other, dup := seen[i]; dup {
			ve.Add(wire, "is given twice (as %q and %q); give it once", other, name)
			continue
		}
		seen[i] = name
		if err := json.Unmarshal(raw, rv.Field(i).Addr().Interface()); err != nil {
			ve.Add(wire, "must be %s", kindOf(f.Type))
		}
	}
	if err := ve.Err(); err != nil {
		return p, err
	}
	if _, err := Major(p.SchemaVersion); err != nil {
		return p, err
	}
	return p, nil
}

// ParseBody implements the HTTP router's self-parsing body: the site
// content receiver reads its payload with ParsePayload, not the API's
// strict, case-sensitive decoder.
func (p *Payload) ParseBody(body []byte) error {
	v, err := ParsePayload(body)
	*p = v
	return err
}

// Major returns the major version of a SchemaVersion ("1.0" → 1), and
// refuses a missing or malformed one, or a major other than
// SupportedMajor.
func Major(v string) (int, error) {
	m := versionPattern.FindStringSubmatch(v)
	if m == nil {
		return 0, validation.Field("SchemaVersion", "is required: a version such as %d.0", SupportedMajor)
	}
	major, _ := strconv.Atoi(m[1])
	if major != SupportedMajor {
		return major, validation.Field("SchemaVersion", "major version %d is not supported; this receiver reads %d.x", major, SupportedMajor)
	}
	return major, nil
}

func kindOf(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Slice:
		return "an array of strings"
	case t.Kind() == reflect.Pointer:
		return "a string or null"
	}
	return "a string"
}

func shorten(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
