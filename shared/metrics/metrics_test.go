package metrics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/metrics"
	"github.com/brandlens/brandlens/shared/runs"
)

// emfLine checks one line against the embedded metric format's rules
// (docs.aws.amazon.com CloudWatch "Specification: Embedded metric
// format"): a JSON object whose _aws member holds an integer millisecond
// Timestamp and CloudWatchMetrics directives, each with a Namespace,
// dimension sets naming string members of the root (at most 30 each) and
// metrics naming numeric members (at most 100). It returns the metrics by
// name with their dimension values.
func emfLine(t *testing.T, line string) map[string]emfMetric {
	t.Helper()
	var root map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &root); err != nil {
		t.Fatalf("not a JSON object: %s", line)
	}
	var meta struct {
		Timestamp         *json.Number
		CloudWatchMetrics []struct {
			Namespace  string
			Dimensions [][]string
			Metrics    []struct{ Name, Unit string }
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(root["_aws"])))
	dec.UseNumber()
	if err := dec.Decode(&meta); err != nil || meta.Timestamp == nil || len(meta.CloudWatchMetrics) == 0 {
		t.Fatalf("_aws %s: %v", root["_aws"], err)
	}
	if _, err := meta.Timestamp.Int64(); err != nil {
		t.Errorf("Timestamp %s is not an integer", *meta.Timestamp)
	}
	out := map[string]emfMetric{}
	for _, d := range meta.CloudWatchMetrics {
		if d.Namespace == "" || len(d.Metrics) == 0 || len(d.Metrics) > 100 || len(d.Dimensions) == 0 {
			t.Errorf("directive %+v", d)
		}
		for _, set := range d.Dimensions {
			if len(set) > 30 {
				t.Errorf("%d dimensions", len(set))
			}
		}
		for _, m := range d.Metrics {
			var v float64
			if err := json.Unmarshal(root[m.Name], &v); err != nil {
				t.Errorf("metric %s has no numeric member: %s", m.Name, root[m.Name])
			}
			dims := map[string]string{}
			for _, k := range d.Dimensions[0] {
				var s string
				if err := json.Unmarshal(root[k], &s); err != nil {
					t.Errorf("dimension %s has no string member: %s", k, root[k])
				}
				dims[k] = s
			}
			out[m.Name] = emfMetric{ns: d.Namespace, value: v, unit: m.Unit, dims: dims}
		}
	}
	return out
}

type emfMetric struct {
	ns    string
	value float64
	unit  string
	dims  map[string]string
}

func TestJobSettledLines(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		settled runs.Settled
		want    []map[string]emfMetric
	}{
		{"succeeded", runs.Settled{Status: "succeeded", CreditsCaptured: 6},
			[]map[string]emfMetric{{
				metrics.JobsSettled:     {"brandlens/test", 1, "Count", map[string]string{"Status": "succeeded"}},
				metrics.CreditsCaptured: {"brandlens/test", 6, "Count", map[string]string{}},
			}}},
		{"partial: one line per platform that failed", runs.Settled{Status: "partial", CreditsCaptured: 2, FailedSamples: map[string]int{"perplexity": 2, "chatgpt": 1}},
			[]map[string]emfMetric{{
				metrics.JobsSettled:     {"brandlens/test", 1, "Count", map[string]string{"Status": "partial"}},
				metrics.CreditsCaptured: {"brandlens/test", 2, "Count", map[string]string{}},
			}, {
				metrics.ProviderFailures: {"brandlens/test", 1, "Count", map[string]string{"Platform": "chatgpt"}},
			}, {
				metrics.ProviderFailures: {"brandlens/test", 2, "Count", map[string]string{"Platform": "perplexity"}},
			}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			emf, err := metrics.NewEMF(&buf, "brandlens/test", func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			metrics.Jobs{EMF: emf, OnError: func(err error) { t.Error(err) }}.JobSettled(context.Background(), tc.settled)
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tc.want), buf.String())
			}
			for i, l := range lines {
				if got := emfLine(t, l); !reflect.DeepEqual(got, tc.want[i]) {
					t.Errorf("line %d: %+v, want %+v", i, got, tc.want[i])
				}
				if !strings.Contains(l, `"Timestamp":1795341600000`) || !strings.Contains(l, `"level":"INFO"`) {
					t.Errorf("line %d lacks the timestamp or the INFO level: %s", i, l)
				}
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("stdout closed") }

func TestEMFRefusesAndReports(t *testing.T) {
	for _, ns := range []string{"", "has space", ":leading", strings.Repeat("n", 256)} {
		if _, err := metrics.NewEMF(&bytes.Buffer{}, ns, nil); err == nil {
			t.Errorf("namespace %q accepted", ns)
		}
	}
	emf, err := metrics.NewEMF(&bytes.Buffer{}, "ns", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := emf.Put(metrics.Count{Name: "A", Value: 1, Dims: map[string]string{"Status": "x"}},
		metrics.Count{Name: "B", Value: 1, Dims: map[string]string{"Status": "y"}}); err == nil {
		t.Error("one line with two values of a dimension")
	}
	if err := emf.Put(metrics.Count{Name: "A", Value: 1}, metrics.Count{Name: "A", Value: 2}); err == nil {
		t.Error("one line with a metric twice")
	}
	broken, _ := metrics.NewEMF(failingWriter{}, "ns", nil)
	var reported error
	metrics.Jobs{EMF: broken, OnError: func(err error) { reported = err }}.JobSettled(context.Background(), runs.Settled{Status: "failed"})
	if reported == nil {
		t.Error("a failed write was not reported")
	}
}
