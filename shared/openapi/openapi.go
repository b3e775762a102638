// Package openapi builds OpenAPI 3.0 documents with kin-openapi: component
// schemas come from Go types through openapi3gen, refined by the rules the
// service's wire types follow (pointers, slices and maps may be null;
// returned members are present unless omitted when empty; request bodies
// refuse unknown members), and Validate checks a document as a client's
// tooling would load it.
package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"
)

// SchemaPrefix starts every component schema reference.
const SchemaPrefix = "#/components/schemas/"

// FieldDoc refines the schema of one member of a component: what the Go
// type cannot say.
type FieldDoc struct {
	Enum        []string // of the value, or of the items of an array
	Min, Max    *float64
	Default     any
	Description string
	// Optional marks a plain (non-pointer) member of a request body that
	// clients may leave out.
	Optional bool
	// Nullable, when set, overrides whether the member may be null: a slice
	// the service never sends as null (false), or a member a contract
	// declares nullable although the service always sends a value (true).
	Nullable *bool
}

// Generator turns Go types into component schemas. Types reached first as
// answers are documented as answers: generate answers before requests.
type Generator struct {
	gen     *openapi3gen.Generator
	schemas openapi3.Schemas
	names   map[reflect.Type]string
	byName  map[string]reflect.Type
	docs    map[string]FieldDoc
	// request: components generated now describe request bodies.
	request bool
	err     error
}

// NewGenerator names components by names (other types by their Go name,
// prefixed with their package's when two types share it) and refines their
// members by docs, keyed "Component.member".
func NewGenerator(names map[reflect.Type]string, docs map[string]FieldDoc) *Generator {
	g := &Generator{schemas: openapi3.Schemas{}, names: map[reflect.Type]string{}, byName: map[string]reflect.Type{}, docs: docs}
	for t, n := range names {
		g.names[t], g.byName[n] = n, t
	}
	g.gen = openapi3gen.NewGenerator(
		openapi3gen.UseAllExportedFields(),
		openapi3gen.CreateComponentSchemas(openapi3gen.ExportComponentSchemasOptions{ExportComponentSchemas: true, ExportTopLevelSchema: true}),
		openapi3gen.CreateTypeNameGenerator(g.name),
		openapi3gen.SchemaCustomizer(g.customize),
	)
	return g
}

var componentNameBad = regexp.MustCompile(`[^A-Za-z0-9._-]`)

func (g *Generator) name(t reflect.Type) string {
	if n, ok := g.names[t]; ok {
		return n
	}
	n := componentNameBad.ReplaceAllString(t.Name(), "_")
	if other, taken := g.byName[n]; taken && other != t {
		pkg := t.PkgPath()
		n = upperFirst(pkg[strings.LastIndex(pkg, "/")+1:]) + n
	}
	g.names[t], g.byName[n] = n, t
	return n
}

// Response returns the schema of an answer of type t: a reference to its
// component for named structs.
func (g *Generator) Response(t reflect.Type) (*openapi3.SchemaRef, error) {
	g.request = false
	return g.schema(t)
}

// Request returns the schema of a request body of type t.
func (g *Generator) Request(t reflect.Type) (*openapi3.SchemaRef, error) {
	g.request = true
	return g.schema(t)
}

func (g *Generator) schema(t reflect.Type) (*openapi3.SchemaRef, error) {
	ref, err := g.gen.NewSchemaRefForValue(reflect.New(t).Elem().Interface(), g.schemas)
	if err == nil {
		err = g.err
	}
	if err != nil {
		return nil, fmt.Errorf("openapi: schema of %s: %w", t, err)
	}
	return ref, nil
}

// Component returns the generated schema of a component, nil if none.
func (g *Generator) Component(name string) *openapi3.Schema {
	if s := g.schemas[name]; s != nil {
		return s.Value
	}
	return nil
}

// Components are every component schema generated so far.
func (g *Generator) Components() openapi3.Schemas { return g.schemas }

var timeType = reflect.TypeFor[time.Time]()

// customize is called by openapi3gen for every type it renders.
func (g *Generator) customize(_ string, t reflect.Type, _ reflect.StructTag, s *openapi3.Schema) error {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		s.Format = "int64" // Go's int is 64 bits wide here
	case reflect.Slice, reflect.Map, reflect.Interface:
		// encoding/json writes a nil slice or map as null.
		if t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8 {
			s.Nullable = true
		}
	case reflect.Struct:
		if t != timeType {
			g.object(t, s)
		}
	}
	return nil
}

// object completes the schema of struct t: required members, nullable
// references, member documentation and, for requests, no unknown members.
func (g *Generator) object(t reflect.Type, s *openapi3.Schema) {
	comp := g.name(t)
	s.Required = nil
	for _, f := range reflect.VisibleFields(t) {
		name, omit, ok := jsonMember(f)
		if !ok {
			continue
		}
		prop := s.Properties[name]
		if prop == nil {
			g.err = fmt.Errorf("member %s of %s has no schema", name, t)
			continue
		}
		doc := g.docs[comp+"."+name]
		if doc.Nullable == nil && f.Tag.Get("nullable") == "false" {
			doc.Nullable = Bool(false) // the decoder refuses null for it
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && ft.Elem() != timeType {
			// A component reference cannot carry nullable itself (3.0).
			prop = &openapi3.SchemaRef{Value: &openapi3.Schema{AllOf: openapi3.SchemaRefs{prop}, Nullable: true}}
		}
		s.Properties[name] = applyDoc(prop, doc)
		k := ft.Kind()
		optional := omit || k == reflect.Pointer || doc.Optional ||
			(g.request && (k == reflect.Slice || k == reflect.Map || k == reflect.Interface))
		if !optional {
			s.Required = append(s.Required, name)
		}
	}
	if g.request {
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: new(bool)}
	}
}

// jsonMember names a field as encoding/json does; ok is false for fields it
// skips and for untagged embedded structs (their members are promoted).
func jsonMember(f reflect.StructField) (name string, omitEmpty, ok bool) {
	tag := f.Tag.Get("json")
	if tag == "-" || !f.IsExported() {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if f.Anonymous && name == "" {
		return "", false, false
	}
	if name == "" {
		name = f.Name
	}
	for o := range strings.SplitSeq(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			omitEmpty = true
		}
	}
	return name, omitEmpty, true
}

func applyDoc(ref *openapi3.SchemaRef, d FieldDoc) *openapi3.SchemaRef {
	if d.Description != "" {
		// openapi3gen names every type in Ref while it works; only component
		// references stay references.
		if strings.HasPrefix(ref.Ref, SchemaPrefix) {
			ref = &openapi3.SchemaRef{Value: &openapi3.Schema{AllOf: openapi3.SchemaRefs{ref}}}
		}
		ref.Value.Description = d.Description
	}
	target := ref.Value
	if target == nil {
		return ref
	}
	if d.Nullable != nil {
		target.Nullable = *d.Nullable
	}
	if target.Type.Is("array") && target.Items != nil && target.Items.Value != nil {
		target = target.Items.Value
	}
	if len(d.Enum) > 0 {
		target.Enum = Strings(d.Enum)
	}
	if d.Min != nil {
		target.Min = d.Min
	}
	if d.Max != nil {
		target.Max = d.Max
	}
	if d.Default != nil {
		target.Default = d.Default
	}
	return ref
}

// Strings returns ss as enum values.
func Strings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Float returns a pointer to n, for bounds.
func Float(n float64) *float64 { return &n }

// Bool returns a pointer to b, for FieldDoc.Nullable.
func Bool(b bool) *bool { return &b }

// Ref returns a reference to the component schema named name.
func Ref(name string) *openapi3.SchemaRef { return openapi3.NewSchemaRef(SchemaPrefix+name, nil) }

func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// Validate checks doc the way a client's tooling sees it: serialised, loaded
// back with every reference resolved, and validated against OpenAPI 3.0.
// Operations kept in the x-webhooks extension (OpenAPI 3.1's webhooks in a
// 3.0 document) are validated as operations of the same document.
func Validate(ctx context.Context, doc *openapi3.T) error {
	b, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("openapi: encode: %w", err)
	}
	if err := load(ctx, b); err != nil {
		return err
	}
	hooks, _ := doc.Extensions[WebhooksExtension].(map[string]*openapi3.PathItem)
	if len(hooks) == 0 {
		return nil
	}
	// The same components, with the webhook operations as paths.
	alt := *doc
	alt.Extensions = nil
	alt.Paths = openapi3.NewPaths()
	for name, item := range hooks {
		alt.Paths.Set("/"+WebhooksExtension+"/"+name, item)
	}
	if b, err = json.Marshal(&alt); err != nil {
		return fmt.Errorf("openapi: encode %s: %w", WebhooksExtension, err)
	}
	if err := load(ctx, b); err != nil {
		return fmt.Errorf("%s: %w", WebhooksExtension, err)
	}
	return nil
}

// WebhooksExtension holds the requests the service sends to subscribers.
const WebhooksExtension = "x-webhooks"

func load(ctx context.Context, b []byte) error {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	doc, err := loader.LoadFromData(b)
	if err != nil {
		return fmt.Errorf("openapi: load: %w", err)
	}
	if err := doc.Validate(ctx, openapi3.EnableExamplesValidation()); err != nil {
		return fmt.Errorf("openapi: validate: %w", err)
	}
	return nil
}
