package httpapi_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"

	"github.com/brandlens/brandlens/shared/auth"
)

// Every list with a cursor, walked to the end two records a page by the
// nextCursor each page answers, yields the list read in one page: the
// same records in the same order, none twice, none left out.
func TestEveryCursorPagesToTheEnd(t *testing.T) {
	e := newContentEnv(t, "../gaps/testdata/five-queries.json")
	rc := e.subscribe(t, "execution.completed")
	for _, sq := range stagedQueries {
		var q struct{ ID int32 }
		e.do(t, "POST", "/api/v1/queries", `{"text":"`+sq.Text+`","platforms":["chatgpt","perplexity"],"brandProfileId":1}`).Decode(t, 201, &q)
		e.run(t, q.ID)
	}
	e.detect(t, "detect-walk")
	waitFor(t, 30e9, func() bool { return rc.count("execution.completed") >= len(stagedQueries) })
	// Pending approvals: an L0 agent's runs are held, one request per query.
	if _, _, err := e.api.Svc.Keys.Create(context.Background(), auth.NewKey{TenantID: e.api.A.ID, Plaintext: keyAgentL0,
		Scopes: []auth.Scope{auth.ScopePublish}, IsAgent: true, Autonomy: auth.L0}); err != nil {
		t.Fatal(err)
	}
	for q := 1; q <= 5; q++ {
		if r := e.api.Do(t, "POST", fmt.Sprintf("/api/v1/queries/%d/run", q), keyAgentL0, `{}`); r.Status != 202 {
			t.Fatalf("held run of query %d: %d %s", q, r.Status, r.Body)
		}
	}
	var subs struct{ Items []struct{ ID string } }
	e.do(t, "GET", "/api/v1/webhooks", "").Decode(t, 200, &subs)

	for _, tc := range []struct{ path, limit string }{
		{"/api/tracker/approvals/pending", "limit"},
		{"/api/v1/jobs", "limit"},
		{"/api/v1/gaps", "limit"},
		{"/api/v1/opportunities", "limit"},
		{"/api/v1/audit", "limit"},
		{"/api/v1/audit?action=platform.answer", "limit"},
		{"/api/v1/citations", "pageSize"},
		{"/api/v1/citations?platform=chatgpt", "pageSize"},
		{"/api/v1/webhooks/" + subs.Items[0].ID + "/deliveries", "limit"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			u, err := url.Parse(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			at := func(size int, cursor string) ([]string, *string) {
				q := u.Query()
				q.Set(tc.limit, fmt.Sprint(size))
				if cursor != "" {
					q.Set("cursor", cursor)
				}
				var page struct {
					Items      []struct{ ID any }
					NextCursor *string
				}
				e.do(t, "GET", u.Path+"?"+q.Encode(), "").Decode(t, 200, &page)
				var ids []string
				for _, it := range page.Items {
					ids = append(ids, fmt.Sprint(it.ID))
				}
				return ids, page.NextCursor
			}
			all, next := at(100, "")
			if next != nil || len(all) < 3 {
				t.Fatalf("the whole list: %d records, nextCursor %v; want 3 to 100 on one page", len(all), next)
			}
			var walked []string
			for cursor := ""; ; {
				ids, next := at(2, cursor)
				walked = append(walked, ids...)
				if next == nil || len(walked) > len(all) {
					break
				}
				cursor = *next
			}
			if !slices.Equal(walked, all) {
				t.Errorf("walked by cursor:\n%v\nwant the whole list:\n%v", walked, all)
			}
		})
	}
}
