package openapi_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/brandlens/brandlens/shared/openapi"
	"github.com/brandlens/brandlens/shared/openapi/openapitest"
)

type Inner struct {
	N int32 `json:"n"`
}

type Base struct {
	ID string `json:"id"`
}

type Answer struct {
	Base
	Name     string            `json:"name"`
	Nick     *string           `json:"nick"`
	Tags     []string          `json:"tags"`
	Scores   map[string]int32  `json:"scores"`
	When     time.Time         `json:"when"`
	Maybe    *time.Time        `json:"maybe"`
	Inner    Inner             `json:"inner"`
	MaybeIn  *Inner            `json:"maybeInner"`
	Omitted  string            `json:"omitted,omitempty"`
	Count    int               `json:"count"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw"`
	Skipped  string            `json:"-"`
	hidden   string            // unexported: not a member
	Platform string            `json:"platform"`
	Docs     map[string]string `json:"docs"`
}

type Body struct {
	Must  string   `json:"must"`
	List  []string `json:"list"`
	Maybe *int32   `json:"maybe"`
	Soft  string   `json:"soft"`
}

func TestGeneratorFollowsEncodingJSON(t *testing.T) {
	g := openapi.NewGenerator(map[reflect.Type]string{reflect.TypeFor[Answer](): "AnswerDto"}, map[string]openapi.FieldDoc{
		"AnswerDto.platform": {Enum: []string{"a", "b"}, Description: "the platform"},
		"AnswerDto.inner":    {Description: "nested"},
		"Body.soft":          {Optional: true},
		"Body.list":          {Enum: []string{"x"}},
	})
	ref, err := g.Response(reflect.TypeFor[Answer]())
	if err != nil {
		t.Fatal(err)
	}
	if ref.Ref != openapi.SchemaPrefix+"AnswerDto" {
		t.Fatalf("answer schema %q, want a reference to AnswerDto", ref.Ref)
	}
	if _, err := g.Request(reflect.TypeFor[Body]()); err != nil {
		t.Fatal(err)
	}
	a, b := g.Component("AnswerDto"), g.Component("Body")
	names := make([]string, 0, len(a.Properties))
	for n := range a.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"any", "count", "docs", "id", "inner", "maybe", "maybeInner", "name", "nick", "omitted", "platform", "raw", "scores", "tags", "when"}
	if !slices.Equal(names, want) {
		t.Errorf("members %v, want %v", names, want)
	}
	req := slices.Clone(a.Required)
	slices.Sort(req)
	if wantReq := []string{"any", "count", "docs", "id", "inner", "name", "platform", "raw", "scores", "tags", "when"}; !slices.Equal(req, wantReq) {
		t.Errorf("required %v, want %v", req, wantReq)
	}
	p := a.Properties
	for _, n := range []string{"nick", "tags", "scores", "maybe", "any"} {
		if !p[n].Value.Nullable {
			t.Errorf("%s is not nullable", n)
		}
	}
	if mi := p["maybeInner"].Value; !mi.Nullable || len(mi.AllOf) != 1 || mi.AllOf[0].Ref != openapi.SchemaPrefix+"Inner" {
		t.Errorf("maybeInner: %+v", mi)
	}
	if in := p["inner"].Value; in.Description != "nested" || len(in.AllOf) != 1 || in.AllOf[0].Ref != openapi.SchemaPrefix+"Inner" {
		t.Errorf("inner: %+v", in)
	}
	if pl := p["platform"].Value; pl.Description != "the platform" || len(pl.Enum) != 2 {
		t.Errorf("platform: %+v", pl)
	}
	if c := p["count"].Value; c.Format != "int64" {
		t.Errorf("count format %q", c.Format)
	}
	if w := p["when"].Value; w.Format != "date-time" {
		t.Errorf("when: %+v", w)
	}
	if a.AdditionalProperties.Has != nil {
		t.Error("an answer refuses unknown members")
	}
	breq := slices.Clone(b.Required)
	if !slices.Equal(breq, []string{"must"}) {
		t.Errorf("request required %v, want [must] (lists, pointers and documented optional members may be left out)", breq)
	}
	if b.AdditionalProperties.Has == nil || *b.AdditionalProperties.Has {
		t.Error("a request body admits unknown members")
	}
	if e := b.Properties["list"].Value.Items.Value.Enum; len(e) != 1 {
		t.Errorf("the enum of a list applies to its items: %v", e)
	}
}

func TestGeneratorNamesCollidingTypesApart(t *testing.T) {
	type Inner struct {
		S string `json:"s"`
	}
	type Pair struct {
		A Inner   `json:"a"`
		B Answer2 `json:"b"`
	}
	g := openapi.NewGenerator(nil, nil)
	if _, err := g.Response(reflect.TypeFor[Answer]()); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Response(reflect.TypeFor[Pair]()); err != nil {
		t.Fatal(err)
	}
	var inners []string
	for name := range g.Components() {
		if strings.HasSuffix(name, "Inner") {
			inners = append(inners, name)
		}
	}
	if len(inners) != 2 {
		t.Errorf("two types named Inner became components %v", inners)
	}
}

type Answer2 struct {
	X int32 `json:"x"`
}

func minimalDoc() *openapi3.T {
	ok := "ok"
	responses := openapi3.NewResponses()
	responses.Set("200", &openapi3.ResponseRef{Value: &openapi3.Response{Description: &ok}})
	item := &openapi3.PathItem{Get: &openapi3.Operation{OperationID: "a", Responses: responses}}
	doc := &openapi3.T{OpenAPI: "3.0.3", Info: &openapi3.Info{Title: "t", Version: "1"}, Paths: openapi3.NewPaths(openapi3.WithPath("/a", item))}
	return doc
}

func TestValidate(t *testing.T) {
	ctx := context.Background()
	if err := openapi.Validate(ctx, minimalDoc()); err != nil {
		t.Fatalf("a minimal document: %v", err)
	}
	dangling := minimalDoc()
	dangling.Paths.Value("/a").Get.Responses.Value("200").Value.Content = openapi3.NewContentWithJSONSchemaRef(openapi.Ref("Missing"))
	if err := openapi.Validate(ctx, dangling); err == nil {
		t.Error("a reference to a missing component validates")
	}
	hooks := minimalDoc()
	hooks.Extensions = map[string]any{openapi.WebhooksExtension: map[string]*openapi3.PathItem{
		"thing.happened": {Post: &openapi3.Operation{OperationID: "b"}}, // no responses
	}}
	if err := openapi.Validate(ctx, hooks); err == nil || !strings.Contains(err.Error(), openapi.WebhooksExtension) {
		t.Errorf("an invalid webhook operation: %v", err)
	}
}

// recorder notes failures instead of failing the test.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Errorf(format string, args ...any) { r.failed = append(r.failed, format) }

func TestLintReportsProblems(t *testing.T) {
	b, err := json.Marshal(minimalDoc()) // no description, tags or servers
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	openapitest.Lint(r, b)
	if len(r.failed) == 0 {
		t.Error("spectral passed a document that lacks operation descriptions, tags and servers")
	}
}
