package outbox_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/outbox"
)

// Every event type has a payload type and a firing rule, and the README's
// payload table names each of its data members, so that the documentation
// cannot drift from the Go types producers use.
func TestEveryEventTypeIsDocumented(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(readme), "\n") {
		for _, typ := range outbox.Types {
			if strings.HasPrefix(line, "| `"+typ+"` |") {
				rows[typ] = line
			}
		}
	}
	if len(outbox.Payloads) != len(outbox.Types) || len(outbox.Fires) != len(outbox.Types) {
		t.Errorf("%d payloads and %d firing rules for %d types", len(outbox.Payloads), len(outbox.Fires), len(outbox.Types))
	}
	for _, typ := range outbox.Types {
		p, ok := outbox.Payloads[typ]
		if !ok || outbox.Fires[typ] == "" {
			t.Errorf("%s: no payload type or firing rule", typ)
			continue
		}
		row, ok := rows[typ]
		if !ok {
			t.Errorf("README: no row for %s in the event payload table", typ)
			continue
		}
		rt := reflect.TypeOf(p)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if !strings.Contains(row, "`"+name+"`") {
				t.Errorf("README: the %s row does not name data member %s", typ, name)
			}
		}
	}
}

func TestNotifyCallsListeners(t *testing.T) {
	calls := 0
	stop := outbox.Listen(func() { calls++ })
	outbox.Notify()
	stop()
	outbox.Notify()
	if calls != 1 {
		t.Errorf("%d calls, want 1", calls)
	}
}
