package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/openapi"
	"github.com/brandlens/brandlens/shared/openapi/openapitest"
)

// These tests read the OpenAPI document the way a client does: as JSON.
// The Go types are walked here by reflection independently of the
// generator, so that a DTO, route or error code that drifts from the
// document fails.

type oatNode = map[string]any

// oatDocument returns the generated document decoded from its JSON form.
func oatDocument(t *testing.T) oatNode {
	t.Helper()
	d, err := OpenAPI(Routes)
	if err != nil {
		t.Fatalf("build the document: %v", err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatalf("marshal the document: %v", err)
	}
	var doc oatNode
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("decode the document: %v", err)
	}
	return doc
}

func oatObj(n any, keys ...string) oatNode {
	m, _ := n.(oatNode)
	for _, k := range keys {
		m, _ = m[k].(oatNode)
	}
	return m
}

func oatStrings(v any) []string {
	var out []string
	for _, x := range asSlice(v) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

// oatLookup resolves a local reference such as #/components/schemas/X.
func oatLookup(doc oatNode, ref string) (oatNode, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	var cur any = doc
	for _, p := range strings.Split(ref[2:], "/") {
		m, ok := cur.(oatNode)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	m, ok := cur.(oatNode)
	return m, ok
}

// oatDeref follows $ref chains.
func oatDeref(t *testing.T, doc, n oatNode) oatNode {
	t.Helper()
	for i := 0; n != nil && n["$ref"] != nil; i++ {
		ref, _ := n["$ref"].(string)
		m, ok := oatLookup(doc, ref)
		if !ok || i > 10 {
			t.Fatalf("unresolvable $ref %q", ref)
		}
		n = m
	}
	return n
}

// oatUnwrap strips the {allOf:[x], nullable} wrapper the document uses
// for nullable or described references.
func oatUnwrap(n oatNode) (inner oatNode, nullable bool) {
	nullable, _ = n["nullable"].(bool)
	if all := asSlice(n["allOf"]); len(all) == 1 {
		inner, _ := all[0].(oatNode)
		return inner, nullable
	}
	return n, nullable
}

func oatRefName(n oatNode) string {
	ref, _ := n["$ref"].(string)
	return strings.TrimPrefix(ref, "#/components/schemas/")
}

var oatMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// oatLowerCamel is the operationId rule: api-get-me → apiGetMe.
func oatLowerCamel(s string) string {
	parts := strings.Split(s, "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func oatOperation(t *testing.T, doc oatNode, r Route) oatNode {
	t.Helper()
	op := oatObj(doc, "paths", r.Path, strings.ToLower(r.Method))
	if op == nil {
		t.Fatalf("%s %s: no operation in the document", r.Method, r.Path)
	}
	return op
}

func TestOpenAPIPathsAreExactlyTheRoutes(t *testing.T) {
	doc := oatDocument(t)
	want := map[string]bool{}
	for _, r := range Routes {
		want[r.Method+" "+r.Path] = true
	}
	got := map[string]bool{}
	for path, item := range oatObj(doc, "paths") {
		for k := range item.(oatNode) {
			if !slices.Contains(oatMethods, k) {
				t.Errorf("path %s: unexpected member %q", path, k)
				continue
			}
			got[strings.ToUpper(k)+" "+path] = true
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("route %s is missing from the document", k)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("document has %s, which no route serves", k)
		}
	}
}

func TestOpenAPIOperationsFollowTheRouteTable(t *testing.T) {
	doc := oatDocument(t)
	ids := map[string]string{}
	for _, r := range Routes {
		name := r.Method + " " + r.Path
		op := oatOperation(t, doc, r)
		id, _ := op["operationId"].(string)
		if id != oatLowerCamel(r.Function) {
			t.Errorf("%s: operationId %q, want %q", name, id, oatLowerCamel(r.Function))
		}
		if prev, dup := ids[id]; dup {
			t.Errorf("%s: operationId %q already used by %s", name, id, prev)
		}
		ids[id] = name
		if op["summary"] != r.Summary {
			t.Errorf("%s: summary %v, want %q", name, op["summary"], r.Summary)
		}
		if tags := oatStrings(op["tags"]); r.Tag != "" && !slices.Equal(tags, []string{r.Tag}) {
			t.Errorf("%s: tags %v, want [%s]", name, tags, r.Tag)
		}

		// Security and scope follow the guard.
		sec, ok := op["security"].([]any)
		if !ok {
			t.Errorf("%s: no security array", name)
		}
		var schemes []string
		for _, s := range sec {
			for k := range s.(oatNode) {
				schemes = append(schemes, k)
			}
		}
		scope, _ := op["x-required-scope"].(string)
		switch r.Guard {
		case GuardAPIKey:
			if !slices.Equal(schemes, []string{"ApiKey"}) || scope != string(r.Scope) {
				t.Errorf("%s: security %v scope %q, want ApiKey %q", name, schemes, scope, r.Scope)
			}
		case GuardReviewer:
			desc, _ := op["description"].(string)
			if !slices.Equal(schemes, []string{"ApiKey"}) || scope != "publish" || !strings.Contains(desc, "human") {
				t.Errorf("%s: security %v scope %q description %q, want ApiKey publish for a human key", name, schemes, scope, desc)
			}
		case GuardSignedBody:
			if !slices.Equal(schemes, []string{"ServiceSignature"}) {
				t.Errorf("%s: security %v, want ServiceSignature", name, schemes)
			}
		default:
			if len(sec) != 0 {
				t.Errorf("%s: security %v, want []", name, sec)
			}
		}

		// Parameters: every declared one, path ones required, and
		// Idempotency-Key on job-creating writes.
		params := map[string]oatNode{}
		for _, p := range asSlice(op["parameters"]) {
			pn := oatDeref(t, doc, p.(oatNode))
			params[pn["in"].(string)+":"+pn["name"].(string)] = pn
		}
		for _, p := range r.Params() {
			pn := params[string(p.In)+":"+p.Name]
			if pn == nil {
				t.Errorf("%s: parameter %s in %s missing", name, p.Name, p.In)
				continue
			}
			if (p.In == InPath) != (pn["required"] == true) {
				t.Errorf("%s: parameter %s in %s required = %v", name, p.Name, p.In, pn["required"])
			}
			s := oatObj(pn, "schema")
			wantType := map[reflect.Type][2]string{
				reflect.TypeFor[string](): {"string", ""}, reflect.TypeFor[int32](): {"integer", "int32"},
				reflect.TypeFor[bool](): {"boolean", ""}, reflect.TypeFor[*bool](): {"boolean", ""},
				reflect.TypeFor[time.Time](): {"string", "date-time"},
			}[p.Type]
			format, _ := s["format"].(string)
			if s["type"] != wantType[0] || format != wantType[1] {
				t.Errorf("%s: parameter %s type %v/%v, want %v", name, p.Name, s["type"], s["format"], wantType)
			}
			if len(p.Enum) > 0 && !slices.Equal(oatStrings(s["enum"]), p.Enum) {
				t.Errorf("%s: parameter %s enum %v, want %v", name, p.Name, s["enum"], p.Enum)
			}
			if p.Min != nil && s["minimum"] != float64(*p.Min) {
				t.Errorf("%s: parameter %s minimum %v, want %d", name, p.Name, s["minimum"], *p.Min)
			}
			if p.Max != nil && s["maximum"] != float64(*p.Max) {
				t.Errorf("%s: parameter %s maximum %v, want %d", name, p.Name, s["maximum"], *p.Max)
			}
			if p.Default != "" && fmt.Sprint(s["default"]) != p.Default {
				t.Errorf("%s: parameter %s default %v, want %s", name, p.Name, s["default"], p.Default)
			}
		}
		for _, seg := range strings.Split(r.Path, "/") {
			if strings.HasPrefix(seg, "{") && params["path:"+strings.Trim(seg, "{}")] == nil {
				t.Errorf("%s: path parameter %s undocumented", name, seg)
			}
		}
		// Every write of a keyed caller takes Idempotency-Key (the router
		// derives it from the method and guard; no row can leave it out).
		idem := params["header:Idempotency-Key"]
		keyedWrite := r.Method != http.MethodGet && (r.Guard == GuardAPIKey || r.Guard == GuardReviewer)
		if keyedWrite != r.Idempotent() {
			t.Errorf("%s: Idempotent() = %v for a keyed write = %v", name, r.Idempotent(), keyedWrite)
		}
		if keyedWrite {
			if idem == nil || oatObj(idem, "schema")["maxLength"] != float64(idempotency.MaxKeyLen) || oatObj(idem, "schema")["minLength"] != float64(1) {
				t.Errorf("%s: Idempotency-Key header (1 to %d characters) missing: %v", name, idempotency.MaxKeyLen, idem)
			}
		} else if idem != nil {
			t.Errorf("%s: Idempotency-Key on a route that is no keyed write", name)
		}

		// Request body in the three JSON media types, one schema.
		rb := oatObj(op, "requestBody")
		if (r.RequestBody() != nil) != (rb != nil) {
			t.Errorf("%s: requestBody %v, route body %v", name, rb != nil, r.RequestBody())
		}
		if rb != nil {
			content := oatObj(rb, "content")
			ref := oatObj(content, "application/json", "schema")["$ref"]
			for _, mt := range []string{"application/json", "text/json", "application/*+json"} {
				if oatObj(content, mt, "schema")["$ref"] != ref || ref == nil {
					t.Errorf("%s: request media type %s schema %v, want %v", name, mt, oatObj(content, mt, "schema"), ref)
				}
			}
		}

		// Success response.
		responses := oatObj(op, "responses")
		ok200 := oatObj(responses, strconv.Itoa(r.Status))
		isDoc := r.ResponseBody().Implements(reflect.TypeFor[document]())
		for _, st := range r.MoreStatuses {
			more := oatObj(responses, strconv.Itoa(st))
			if more == nil || !reflect.DeepEqual(oatObj(more, "content"), oatObj(ok200, "content")) {
				t.Errorf("%s: success %d is not documented like %d", name, st, r.Status)
			}
		}
		if isDoc {
			if mt := documentMedia[r.ResponseBody().Name()]; ok200 == nil || mt == "" || oatObj(ok200, "content", mt, "schema") == nil {
				t.Errorf("%s: document answer %d without its media type", name, r.Status)
			}
		} else if ok200 == nil || oatObj(ok200, "content", "application/json", "schema") == nil {
			t.Errorf("%s: success %d without a JSON schema", name, r.Status)
		} else if oatObj(ok200, "headers", "X-Request-Id") == nil {
			t.Errorf("%s: success without X-Request-Id header", name)
		}

		// Errors: every code the guard and the route imply, grouped by
		// status, each an ErrorBody.
		codes := append([]string{}, r.Errors...)
		switch r.Guard {
		case GuardAPIKey, GuardReviewer:
			codes = append(codes, CodeMissingAPIKey, CodeInvalidAPIKey, CodeInsufficientScope, CodeRateLimitExceeded)
		case GuardSignedBody:
			codes = append(codes, CodeInvalidSignature)
		}
		codes = append(codes, CodeNotFound, CodeMethodNotAllowed, CodeInternal, CodeBadRequest, CodeHeadersTooLarge)
		if len(r.Params()) > 0 || r.RequestBody() != nil {
			codes = append(codes, CodeValidation)
		}
		if r.RequestBody() != nil {
			codes = append(codes, CodePayloadTooLarge)
		}
		if !r.Implemented() {
			codes = append(codes, CodeNotImplemented)
		}
		if r.Idempotent() {
			codes = append(codes, CodeIdempotencyConflict)
			if oatObj(ok200, "headers", HeaderIdempotentReplayed) == nil {
				t.Errorf("%s: success without the %s header", name, HeaderIdempotentReplayed)
			}
		}
		for _, c := range codes {
			st := strconv.Itoa(ErrorStatus[c])
			resp := oatObj(responses, st)
			if resp == nil {
				t.Errorf("%s: no %s response for %s", name, st, c)
				continue
			}
			if _, isRef := resp["$ref"].(string); !isRef || !strings.HasPrefix(resp["$ref"].(string), "#/components/responses/") {
				t.Errorf("%s: %s response is not a components/responses reference", name, st)
			}
			resp = oatDeref(t, doc, resp)
			if !slices.Contains(oatStrings(resp["x-error-codes"]), c) {
				t.Errorf("%s: %s response lists %v, not %s", name, st, resp["x-error-codes"], c)
			}
			if desc, _ := resp["description"].(string); !strings.Contains(desc, c) {
				t.Errorf("%s: %s response description does not name %s", name, st, c)
			}
		}
		for st, resp := range responses {
			if st == strconv.Itoa(r.Status) || slices.ContainsFunc(r.MoreStatuses, func(s int) bool { return strconv.Itoa(s) == st }) {
				continue
			}
			if st == "202" && r.Autonomy == AutonomyHeldChange {
				// An L0 agent's change: the approval request that holds it.
				if oatRefName(oatObj(resp.(oatNode), "content", "application/json", "schema")) != "ApprovalRequestDto" {
					t.Errorf("%s: 202 is not the ApprovalRequestDto", name)
				}
				continue
			}
			resp := oatDeref(t, doc, resp.(oatNode))
			if oatRefName(oatObj(resp, "content", "application/json", "schema")) != "ErrorBody" {
				t.Errorf("%s: %s response is not an ErrorBody", name, st)
			}
			for _, c := range oatStrings(resp["x-error-codes"]) {
				if strconv.Itoa(ErrorStatus[c]) != st {
					t.Errorf("%s: code %s listed under %s", name, c, st)
				}
			}
			wantRetry := st == "429" || st == "402" || st == "409" || st == "503"
			if (oatObj(resp, "headers", "Retry-After") != nil) != wantRetry {
				t.Errorf("%s: %s response Retry-After header present = %v", name, st, !wantRetry)
			}
			if oatObj(resp, "headers", "X-Request-Id") == nil {
				t.Errorf("%s: %s response without X-Request-Id header", name, st)
			}
		}
	}
}

// oatJSONFields lists the JSON members of struct t the way encoding/json
// names them: untagged embedded structs promote their members.
func oatJSONFields(t *testing.T, typ reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(typ) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			if f.Type.Kind() != reflect.Struct {
				t.Fatalf("%s embeds %s; teach the test about it", typ, f.Type)
			}
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		out = append(out, f)
	}
	return out
}

func oatJSONName(f reflect.StructField) (name string, omitEmpty bool) {
	name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
}

// oatWalker checks a Go type against the schema the document gives it.
type oatWalker struct {
	t    *testing.T
	doc  oatNode
	seen map[string]reflect.Type // component → Go type
	// nonNull: request members tagged nullable:"false", whose null the
	// decoder refuses, so the schema must not allow it.
	nonNull map[string]bool
}

func (w *oatWalker) walk(typ reflect.Type, n oatNode, at string, response bool) {
	t := w.t
	if n == nil {
		t.Errorf("%s: no schema for %s", at, typ)
		return
	}
	inner, nullable := oatUnwrap(n)
	if typ.Kind() == reflect.Pointer {
		if w.nonNull[at] {
			if nullable || inner["nullable"] == true {
				t.Errorf("%s: null is refused, but the schema is nullable", at)
			}
		} else if !nullable && inner["nullable"] != true {
			t.Errorf("%s: pointer %s is not nullable", at, typ)
		}
		w.walk(typ.Elem(), inner, at, response)
		return
	}
	want := func(typeName, format string) {
		f, _ := inner["format"].(string)
		if inner["type"] != typeName || f != format {
			t.Errorf("%s: %s documented as %v/%v, want %s/%s", at, typ, inner["type"], inner["format"], typeName, format)
		}
	}
	if typ == reflect.TypeFor[time.Time]() {
		want("string", "date-time")
		return
	}
	switch typ.Kind() {
	case reflect.Struct:
		comp := oatRefName(inner)
		if comp == "" {
			t.Errorf("%s: struct %s is not a component reference", at, typ)
			return
		}
		if prev, ok := w.seen[comp]; ok {
			if prev != typ {
				t.Errorf("component %s names both %s and %s", comp, prev, typ)
			}
			return
		}
		w.seen[comp] = typ
		schema, ok := oatLookup(w.doc, "#/components/schemas/"+comp)
		if !ok {
			t.Errorf("%s: component %s missing", at, comp)
			return
		}
		props := oatObj(schema, "properties")
		required := oatStrings(schema["required"])
		names := map[string]bool{}
		for _, f := range oatJSONFields(t, typ) {
			name, omit := oatJSONName(f)
			names[name] = true
			p := oatObj(props, name)
			if p == nil {
				t.Errorf("%s (%s): Go member %s.%s missing from the schema", comp, at, typ, name)
				continue
			}
			mustPresent := f.Type.Kind() != reflect.Pointer && !omit
			isReq := slices.Contains(required, name)
			if response && mustPresent != isReq {
				t.Errorf("%s.%s: required = %v, want %v", comp, name, isReq, mustPresent)
			}
			if !response && isReq && !mustPresent {
				t.Errorf("%s.%s: an optional request member is required", comp, name)
			}
			if !response && f.Tag.Get("nullable") == "false" {
				w.nonNull[comp+"."+name] = true
			}
			w.walk(f.Type, p, comp+"."+name, response)
		}
		for name := range props {
			if !names[name] && !(typ == reflect.TypeFor[ErrorObject]() && name == "details") {
				t.Errorf("%s: schema member %s has no Go field in %s", comp, name, typ)
			}
		}
		for _, name := range required {
			if props[name] == nil {
				t.Errorf("%s: required %s is not a property", comp, name)
			}
		}
	case reflect.Slice:
		want("array", "")
		// A nil slice encodes as null, so a slice is nullable unless its
		// member's documentation promises otherwise (and the type's own tests
		// keep that promise).
		if promised := fieldDocs[at].Nullable; w.nonNull[at] || promised != nil && !*promised {
			if nullable || inner["nullable"] == true {
				t.Errorf("%s: documented never null, but the schema is nullable", at)
			}
		} else if !nullable && inner["nullable"] != true {
			t.Errorf("%s: slice %s is not nullable", at, typ)
		}
		items, _ := inner["items"].(oatNode)
		w.walk(typ.Elem(), items, at+"[]", response)
	case reflect.Map:
		want("object", "")
		if typ.Elem().Kind() == reflect.Interface {
			return
		}
		ap, _ := inner["additionalProperties"].(oatNode)
		w.walk(typ.Elem(), ap, at+"{}", response)
	case reflect.Interface:
	case reflect.String:
		want("string", "")
	case reflect.Bool:
		want("boolean", "")
	case reflect.Int32:
		want("integer", "int32")
	case reflect.Int, reflect.Int64:
		want("integer", "int64")
	case reflect.Float64:
		want("number", "double")
	default:
		t.Errorf("%s: the test does not know Go kind %s", at, typ.Kind())
	}
}

func TestOpenAPISchemasMatchTheGoTypes(t *testing.T) {
	doc := oatDocument(t)
	w := &oatWalker{t: t, doc: doc, seen: map[string]reflect.Type{}, nonNull: map[string]bool{}}
	// Returned types first, as the generator documents a type reached both
	// ways as returned.
	for _, r := range Routes {
		rt := r.ResponseBody()
		if rt == reflect.TypeFor[OpenObject]() || rt == reflect.TypeFor[rawJSON]() || rt.Implements(reflect.TypeFor[document]()) {
			continue
		}
		op := oatOperation(t, doc, r)
		s := oatObj(op, "responses", strconv.Itoa(r.Status), "content", "application/json", "schema")
		w.walk(rt, s, r.Method+" "+r.Path+" response", true)
	}
	for name, resp := range oatObj(doc, "components", "responses") {
		s := oatObj(resp, "content", "application/json", "schema")
		w.walk(reflect.TypeFor[ErrorBody](), s, "error response "+name, true)
	}
	for _, r := range Routes {
		if r.RequestBody() == nil {
			continue
		}
		op := oatOperation(t, doc, r)
		s := oatObj(op, "requestBody", "content", "application/json", "schema")
		w.walk(r.RequestBody(), s, r.Method+" "+r.Path+" request", false)
	}
	if len(w.seen) < 10 {
		t.Errorf("walked only %d components", len(w.seen))
	}
}

func TestOpenAPIDocumentIsWellFormed(t *testing.T) {
	doc := oatDocument(t)
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.") {
		t.Errorf("openapi = %v, want 3.x", doc["openapi"])
	}
	info := oatObj(doc, "info")
	if info["version"] != "1.0" || info["title"] != "brandlens API" {
		t.Errorf("info = %v %v, want brandlens API 1.0", info["title"], info["version"])
	}
	if servers := asSlice(doc["servers"]); len(servers) != 1 || oatObj(servers[0])["url"] != "/" {
		t.Errorf("servers = %v", doc["servers"])
	}
	schemes := oatObj(doc, "components", "securitySchemes")
	if k := oatObj(schemes, "ApiKey"); k["type"] != "apiKey" || k["in"] != "header" || k["name"] != "X-API-Key" {
		t.Errorf("ApiKey scheme = %v", k)
	}
	if k := oatObj(schemes, "ServiceSignature"); k["type"] != "apiKey" || k["in"] != "header" || k["name"] != "X-Service-Signature" ||
		!strings.Contains(k["description"].(string), "HMAC-SHA256") || !strings.Contains(k["description"].(string), "sha256=<hex>") {
		t.Errorf("ServiceSignature scheme = %v", k)
	}
	desc, _ := info["description"].(string)
	for _, s := range []string{
		"1 credit per platform per sample", "only for the platforms that succeeded", "5 per gap detection", "2 per brief",
		"10 per article", "0 per publish", "`chatgpt`, `perplexity`, `gemini`, `claude`, `google_ai_overview`",
		"`positive`, `neutral`, `negative`, `mixed`", "`ai_response`, `organic_search`, `info_site`",
		"pageSize default 20, maximum 100", "limit default 50, maximum 200", "details.fields",
		"`application/json`, `text/json`, `application/*+json`", "413 payload_too_large", "Retry-After", "X-Request-Id", "Idempotency-Key",
	} {
		if !strings.Contains(desc, s) {
			t.Errorf("info.description does not say %q", s)
		}
	}

	// Every $ref resolves.
	refs := 0
	var visit func(v any, at string)
	visit = func(v any, at string) {
		switch x := v.(type) {
		case oatNode:
			if ref, ok := x["$ref"].(string); ok {
				refs++
				if !strings.HasPrefix(ref, "#/components/") {
					t.Errorf("%s: $ref %q is not a component", at, ref)
				} else if _, ok := oatLookup(doc, ref); !ok {
					t.Errorf("%s: $ref %q does not resolve", at, ref)
				}
			}
			for k, e := range x {
				visit(e, at+"/"+k)
			}
		case []any:
			for i, e := range x {
				visit(e, at+"/"+strconv.Itoa(i))
			}
		}
	}
	visit(doc, "#")
	if refs == 0 {
		t.Error("no $ref at all")
	}
}

// oatDescribe renders a property schema in the notation the spec tables
// use: int32, double, bool, string, date-time, [T] for arrays, {T} for
// string-keyed objects, ref:Name, with ? when nullable.
func oatDescribe(n oatNode) string {
	inner, nullable := oatUnwrap(n)
	if inner["nullable"] == true {
		nullable = true
	}
	var s string
	switch {
	case oatRefName(inner) != "":
		s = "ref:" + oatRefName(inner)
	case inner["type"] == "array":
		items, _ := inner["items"].(oatNode)
		s = "[" + oatDescribe(items) + "]"
	case inner["type"] == "object":
		ap, _ := inner["additionalProperties"].(oatNode)
		s = "{" + oatDescribe(ap) + "}"
	case inner["type"] == "integer":
		s, _ = inner["format"].(string)
	case inner["type"] == "number":
		s, _ = inner["format"].(string)
	case inner["type"] == "boolean":
		s = "bool"
	case inner["type"] == "string" && inner["format"] == "date-time":
		s = "date-time"
	case inner["type"] == "string":
		s = "string"
	default:
		s = "?unknown"
	}
	if nullable {
		s += "?"
	}
	return s
}

// The DTO tables of spec/service-api.md, typed out as the source of truth.
var oatSpecDTOs = map[string][][2]string{
	"CitationDto": {
		{"id", "int32"}, {"tenantId", "int32"}, {"brandName", "string?"}, {"platform", "string?"},
		{"platformIcon", "string?"}, {"url", "string?"}, {"title", "string?"}, {"snippet", "string?"},
		{"sentiment", "string?"}, {"date", "date-time"}, {"relevanceScore", "double"},
		{"engagementMetrics", "ref:EngagementMetricsDto"}, {"aiCitationMetrics", "ref:AICitationMetricsDto"},
		{"tags", "[string]?"}, {"createdAt", "date-time"}, {"updatedAt", "date-time"},
		{"searchQueryId", "int32?"}, {"searchQueryText", "string?"}, {"aiOverviewDetected", "bool"},
		{"aiOverviewState", "string?"}, {"inlineCitationCount", "int32"}, {"citationSourceType", "string?"},
		{"visibilityResultId", "int32?"}, {"detectionVerdict", "string?"}, {"detectionConfidence", "double?"},
		{"detectionEvidence", "string?"},
	},
	"AICitationMetricsDto": {
		{"conversationContext", "string?"}, {"originalQuery", "string?"}, {"aiModel", "string?"},
		{"primaryCompetitor", "string?"}, {"responseLength", "int32"}, {"mentionCount", "int32"},
		{"competitorMentioned", "bool"}, {"citationAccuracy", "double?"}, {"contextRelevance", "double?"},
		{"responseHelpfulness", "double?"}, {"citedEntities", "[string]?"}, {"entityRelevanceScores", "{double}?"},
		{"competitivePositionScore", "double"}, {"entityMentions", "[ref:EntityMentionDto]?"},
		{"competitorPositions", "{int32}?"},
	},
	"CompetitorDto": {
		{"id", "int32"}, {"tenantId", "int32"}, {"name", "string?"}, {"websiteUrl", "string?"},
		{"description", "string?"}, {"keywords", "string?"}, {"isActive", "bool"}, {"isDismissed", "bool"},
		{"dismissedAt", "date-time?"}, {"createdAt", "date-time"}, {"updatedAt", "date-time?"},
		{"visibilityRank", "int32?"}, {"imageUrl", "string?"}, {"detailedDescription", "string?"},
		{"detailedDescriptionUrl", "string?"}, {"sameAsUrls", "[string]?"}, {"totalMentions", "int32"},
		{"lastDetected", "date-time?"}, {"dataSource", "string?"},
	},
	"BrandCheckRequest": {
		{"brandName", "string?"}, {"websiteUrl", "string?"}, {"recaptchaToken", "string?"},
	},
	"BrandCheckResponse": {
		{"brandName", "string?"}, {"visibilityScore", "int32"}, {"grade", "string?"},
		{"platforms", "[ref:BrandCheckPlatformResult]"}, {"topCompetitors", "[string]"},
		{"topCompetitorCitedPages", "[ref:BrandCheckCompetitor]"}, {"summary", "string?"}, {"hasUpsell", "bool"},
		{"requestId", "string?"}, {"completedAt", "date-time"},
	},
	"BrandCheckPlatformResult": {
		{"platform", "string"}, {"status", "string"}, {"mentionCount", "int32"}, {"evidenceSnippet", "string"},
		{"competitors", "[string]"}, {"competitorCitedUrls", "{string}"}, {"errorMessage", "string"},
		{"costIncurred", "double"}, {"modelUsed", "string"},
	},
	"BrandCheckCompetitor": {{"name", "string"}, {"citedUrl", "string"}},
}

func TestOpenAPIHasTheSpecDTOs(t *testing.T) {
	doc := oatDocument(t)
	schemas := oatObj(doc, "components", "schemas")
	names := make([]string, 0, len(oatSpecDTOs))
	for n := range oatSpecDTOs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, dto := range names {
		props := oatObj(schemas, dto, "properties")
		if props == nil {
			t.Errorf("component %s missing", dto)
			continue
		}
		for _, f := range oatSpecDTOs[dto] {
			p := oatObj(props, f[0])
			if p == nil {
				t.Errorf("%s.%s missing", dto, f[0])
				continue
			}
			if got := oatDescribe(p); got != f[1] {
				t.Errorf("%s.%s is %s, the spec says %s", dto, f[0], got, f[1])
			}
		}
	}
	for _, n := range []string{"EngagementMetricsDto", "EntityMentionDto", "MonitoringQuery", "Job", "PlatformStatus", "Entitlement", "CreditInfo", "JobAccepted"} {
		if schemas[n] == nil {
			t.Errorf("component %s missing", n)
		}
	}

	// PublishPayload: PascalCase members, required exactly as the spec's
	// table says.
	pp := oatObj(schemas, "PublishPayload")
	want := []string{"SchemaVersion", "ContentId", "ContentVersion", "Title", "Slug", "ContentType", "BodyHtml",
		"SchemaJsonLd", "MetaDescription", "CanonicalUrl", "FeaturedImageUrl", "Author", "PublishDate", "UpdatedDate",
		"TargetEntities", "Headings"}
	for _, f := range want {
		if oatObj(pp, "properties", f) == nil {
			t.Errorf("PublishPayload.%s missing", f)
		}
	}
	req := oatStrings(pp["required"])
	sort.Strings(req)
	if !slices.Equal(req, []string{"BodyHtml", "SchemaVersion", "Slug", "Title"}) {
		t.Errorf("PublishPayload required = %v, want BodyHtml SchemaVersion Slug Title", req)
	}
}

func TestOpenAPIDocumentsEveryErrorCode(t *testing.T) {
	doc := oatDocument(t)
	obj := oatObj(doc, "components", "schemas", "ErrorObject")
	enum := oatStrings(oatObj(obj, "properties", "code")["enum"])
	desc, _ := oatObj(doc, "info")["description"].(string)
	for code, status := range ErrorStatus {
		if !slices.Contains(enum, code) {
			t.Errorf("ErrorObject.code enum lacks %s", code)
		}
		if !strings.Contains(desc, "| `"+code+"` | "+strconv.Itoa(status)+" | ") {
			t.Errorf("info.description's error table lacks %s (%d)", code, status)
		}
	}
	for _, code := range enum {
		if _, ok := ErrorStatus[code]; !ok {
			t.Errorf("ErrorObject.code enum has unknown code %s", code)
		}
	}
	for name, resp := range oatObj(doc, "components", "responses") {
		examples := oatObj(resp, "content", "application/json", "examples")
		for _, code := range oatStrings(oatObj(resp)["x-error-codes"]) {
			if oatObj(examples, code, "value", "error")["code"] != code {
				t.Errorf("response %s: no example for %s", name, code)
			}
		}
	}

	// The envelope: {error: {code, message, details}}, details an object
	// whose fields are FieldErrors.
	body := oatObj(doc, "components", "schemas", "ErrorBody")
	if oatRefName(oatObj(body, "properties", "error")) != "ErrorObject" || !slices.Contains(oatStrings(body["required"]), "error") {
		t.Errorf("ErrorBody = %v", body)
	}
	details := oatObj(obj, "properties", "details")
	if details["type"] != "object" || oatRefName(oatObj(details, "properties", "fields", "items")) != "FieldError" {
		t.Errorf("ErrorObject.details = %v", details)
	}
	fe := oatObj(doc, "components", "schemas", "FieldError", "properties")
	if fe["field"] == nil || fe["message"] == nil {
		t.Errorf("FieldError = %v", fe)
	}
}

func TestOpenAPIServedByTheRouter(t *testing.T) {
	srv := New(Deps{})
	var first []byte
	for i := 0; i < 2; i++ {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /openapi.json = %d: %s", rec.Code, rec.Body.String())
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type = %q", ct)
		}
		if rec.Header().Get("X-Request-Id") == "" {
			t.Error("no X-Request-Id")
		}
		var doc oatNode
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatalf("decode: %v", err)
		}
		if oatObj(doc, "info")["version"] != "1.0" || len(oatObj(doc, "paths")) == 0 {
			t.Errorf("served document: info %v, %d paths", doc["info"], len(oatObj(doc, "paths")))
		}
		if i == 0 {
			first = rec.Body.Bytes()
		} else if string(first) != rec.Body.String() {
			t.Error("the document changed between two requests")
		}
	}
}

// The generator's hand-written tables must follow renames: every member
// note names an existing component member, every error code has a
// meaning, and every credit note a route.
func TestOpenAPIDocTablesAreNotStale(t *testing.T) {
	doc := oatDocument(t)
	schemas := oatObj(doc, "components", "schemas")
	for key := range fieldDocs {
		comp, member, _ := strings.Cut(key, ".")
		if oatObj(schemas, comp, "properties", member) == nil {
			t.Errorf("fieldDocs[%q]: no member %s in component %s", key, member, comp)
		}
	}
	for code := range ErrorStatus {
		if errorDocs[code].Meaning == "" || errorDocs[code].Example == "" {
			t.Errorf("errorDocs lacks the meaning or example message of %s", code)
		}
	}
	for code := range errorDocs {
		if _, ok := ErrorStatus[code]; !ok {
			t.Errorf("errorDocs documents %s, which ErrorStatus does not know", code)
		}
	}
	for fn := range creditNotes {
		if !slices.ContainsFunc(Routes, func(r Route) bool { return r.Function == fn }) {
			t.Errorf("creditNotes[%q]: no such route function", fn)
		}
	}
	for typ, name := range componentNames {
		if got, ok := schemas[name]; !ok || got == nil {
			// Only types some route reaches are components.
			t.Logf("componentNames: %s (%s) is not reached by any route", name, typ)
		}
	}
}

// The document, x-webhooks operations included, validates with kin-openapi.
func TestOpenAPIDocumentValidates(t *testing.T) {
	doc, err := OpenAPI(Routes)
	if err != nil {
		t.Fatal(err)
	}
	if err := openapi.Validate(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
}

// The served document loads and validates with kin-openapi's loader, and
// passes the Spectral OpenAPI linter pinned in tools/.
func TestOpenAPIServedDocumentValidatesAndLints(t *testing.T) {
	rec := httptest.NewRecorder()
	New(Deps{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /openapi.json = %d", rec.Code)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(rec.Body.Bytes())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(loader.Context, openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if doc.Info.Version != "1.0" || doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi %s, version %s", doc.OpenAPI, doc.Info.Version)
	}
	openapitest.Lint(t, rec.Body.Bytes())
}
