package httpapi_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
)

// errorBody is the envelope with the members these tests read.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details struct {
			Fields        []fieldError `json:"fields"`
			OmittedFields int          `json:"omittedFields"`
		} `json:"details"`
	} `json:"error"`
}

type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func decodeError(t *testing.T, r apitest.Response) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("%v: %s", err, r.Body)
	}
	return e
}

func TestJSONBodiesAreStrict(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	cases := []struct {
		name, body string
		field      string
		message    []string // substrings of the field's message
	}{
		{"duplicate member", `{"samples":1,"samples":5}`, "samples", []string{"more than once"}},
		{"duplicate member, other values", `{"platforms":["chatgpt"],"samples":2,"platforms":["perplexity"]}`, "platforms", []string{"more than once"}},
		{"duplicate member at depth", `{"platforms":[{"a":1,"a":2}]}`, "platforms.0.a", []string{"more than once"}},
		{"truncated", `{"samples":`, "body", []string{"malformed JSON", "byte 11", "ends before"}},
		{"invalid character", `{"samples":1,}`, "body", []string{"malformed JSON", "byte 13"}},
		{"invalid UTF-8", "{\"platforms\":[\"chat\xffgpt\"]}", "body", []string{"malformed JSON", "byte 19", "UTF-8"}},
		{"trailing data", `{"samples":1} {"samples":2}`, "body", []string{"unexpected data after it", "byte 13"}},
		{"an array", `[{"samples":1}]`, "body", []string{"JSON object", "array"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyAPublish, c.body)
			if r.Status != 422 || r.ErrorCode(t) != "validation_error" {
				t.Fatalf("got %d %s", r.Status, r.Body)
			}
			e := decodeError(t, r)
			if len(e.Error.Details.Fields) != 1 || e.Error.Details.Fields[0].Field != c.field {
				t.Fatalf("fields %+v, want %s", e.Error.Details.Fields, c.field)
			}
			for _, m := range c.message {
				if !strings.Contains(e.Error.Details.Fields[0].Message, m) {
					t.Errorf("message %q lacks %q", e.Error.Details.Fields[0].Message, m)
				}
			}
		})
	}
	// Nothing was charged for any of them.
	var c httpapi.CreditInfo
	api.Do(t, "GET", "/api/v1/me/credits", apitest.KeyARead, "").Decode(t, 200, &c)
	if c.Held != 0 {
		t.Fatalf("held %d", c.Held)
	}
}

func TestTwoAPIKeysAreRefused(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	for name, keys := range map[string][]string{
		"the same key twice":   {apitest.KeyARead, apitest.KeyARead},
		"a valid and a wrong":  {apitest.KeyARead, "local-key-does-not-exist-01"},
		"a wrong and a valid":  {"local-key-does-not-exist-01", apitest.KeyAPublish},
		"two tenants' keys":    {apitest.KeyBPublish, apitest.KeyAPublish},
		"an empty and a valid": {"", apitest.KeyAPublish},
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", api.URL+"/api/v1/me", nil)
			req.Header["X-Api-Key"] = keys
			r := apitest.NewClient(t, api.URL).Send(t, req)
			if r.Status != 401 || r.ErrorCode(t) != "invalid_api_key" {
				t.Fatalf("got %d %s", r.Status, r.Body)
			}
		})
	}
}

// An unauthenticated 1 MiB body of unknown members made a 4.85 MB answer:
// the answer lists at most MaxListedFields fields, clipped, and counts the
// rest.
func TestValidationAnswersAreBounded(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	var b strings.Builder
	b.WriteString("{")
	n := 0
	for b.Len() < httpapi.DefaultMaxBody-64 {
		if n > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"m` + strconv.Itoa(n) + `":0`)
		n++
	}
	b.WriteString("}")
	r := api.Do(t, "POST", "/api/v1/brand-check", "", b.String())
	if r.Status != 422 {
		t.Fatalf("got %d", r.Status)
	}
	e := decodeError(t, r)
	if len(e.Error.Details.Fields) != httpapi.MaxListedFields || e.Error.Details.OmittedFields != n-httpapi.MaxListedFields {
		t.Fatalf("%d fields listed, %d omitted, of %d", len(e.Error.Details.Fields), e.Error.Details.OmittedFields, n)
	}
	if len(r.Body) > 8<<10 {
		t.Fatalf("a %d-byte answer", len(r.Body))
	}
	if !strings.HasPrefix(e.Error.Message, strconv.Itoa(n)+" invalid fields") {
		t.Errorf("message %q", e.Error.Message)
	}

	long := strings.Repeat("x", 200_000)
	r = api.Do(t, "POST", "/api/v1/brand-check", "", `{"`+long+`":1}`)
	e = decodeError(t, r)
	if len(r.Body) > 2<<10 || len(e.Error.Details.Fields) != 1 || !strings.HasSuffix(e.Error.Details.Fields[0].Field, "…") {
		t.Fatalf("a %d-byte answer to one long name: %.300s", len(r.Body), r.Body)
	}
	if !slices.Contains([]int{100}, len([]rune(e.Error.Details.Fields[0].Field))) {
		t.Errorf("field clipped to %d characters", len([]rune(e.Error.Details.Fields[0].Field)))
	}
}

// TestRoutesWithoutBodyRefuseOne sends bodies to every keyed route that
// takes none: nothing, whitespace or {} is accepted (whatever the
// Content-Type), anything else is 422 naming body — before the route runs,
// so a rescore sent a body by mistake is not charged.
func TestRoutesWithoutBodyRefuseOne(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 100000})
	cases := []struct {
		name, body, contentType string
		refused                 bool
	}{
		{"none", "", "", false},
		{"whitespace", " \n", "text/plain", false},
		{"empty object", "{ }", "application/x-www-form-urlencoded", false},
		{"a member", `{"x":1}`, "application/json", true},
		{"garbage", "garbage{", "text/plain", true},
		{"an array", "[]", "application/json", true},
		{"null", "null", "application/json", true},
	}
	for _, r := range httpapi.Routes {
		if r.RequestBody() != nil || (r.Guard != httpapi.GuardAPIKey && r.Guard != httpapi.GuardReviewer) {
			continue
		}
		path := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(r.Path, "1")
		for _, c := range cases {
			t.Run(r.Method+" "+r.Path+"/"+c.name, func(t *testing.T) {
				var hdr []string
				if c.contentType != "" {
					hdr = []string{"Content-Type", c.contentType}
				}
				res := api.Do(t, r.Method, path, apitest.KeyAPublish, c.body, hdr...)
				if !c.refused {
					if res.Status == 422 {
						t.Fatalf("got %d %s", res.Status, res.Body)
					}
					return
				}
				if res.Status != 422 || !slices.Equal(res.Fields(t), []string{"body"}) {
					t.Fatalf("got %d %s, want 422 naming body", res.Status, res.Body)
				}
			})
		}
	}
}

// A value outside its enum is named as such, in body members and query
// parameters alike; a missing one is required.
func TestEnumMessages(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	cases := []struct {
		name, method, path, body string
		field, message           string
	}{
		{"unknown publish mode", "POST", "/api/v1/opportunities/01m82pxk3cp716pqtea60svpsr/publish", `{"destinationId":"d","mode":"yolo"}`,
			"mode", `"yolo" is not one of propose, execute`},
		{"missing publish mode", "POST", "/api/v1/opportunities/01m82pxk3cp716pqtea60svpsr/publish", `{"destinationId":"d"}`,
			"mode", "is required: one of propose, execute"},
		{"unknown destination type", "POST", "/api/v1/destinations", `{"type":"ftp","name":"x"}`,
			"type", `"ftp" is not one of webhook, own_site`},
		{"unknown status filter", "GET", "/api/v1/gaps?status=closed", "",
			"status", `"closed" is not one of open, addressed, resolved, dismissed`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := api.Do(t, c.method, c.path, apitest.KeyAPublish, c.body)
			if r.Status != 422 || r.ErrorCode(t) != "validation_error" {
				t.Fatalf("got %d %s", r.Status, r.Body)
			}
			fields := decodeError(t, r).Error.Details.Fields
			if !slices.Contains(fields, fieldError{c.field, c.message}) {
				t.Errorf("fields %+v, want %s: %s", fields, c.field, c.message)
			}
		})
	}
}
