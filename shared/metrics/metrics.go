// Package metrics writes brandlens's business figures as CloudWatch
// embedded metric format (EMF) lines: JSON log lines that CloudWatch Logs
// turns into metrics of the stack's namespace, with no API call on the
// request path. In Lambda the lines go to stdout with the function's logs;
// template.yaml's dashboard graphs them.
//
// The figures: JobsSettled by Status, ProviderFailures by Platform (samples
// that got no answer) and CreditsCaptured, written by the Settle that
// commits a job (runs.Metrics).
package metrics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/runs"
)

// Metric and dimension names (the dashboard of template.yaml reads them).
const (
	JobsSettled      = "JobsSettled"
	ProviderFailures = "ProviderFailures"
	CreditsCaptured  = "CreditsCaptured"
	DimStatus        = "Status"
	DimPlatform      = "Platform"
)

// validNamespace: what CloudWatch accepts as a namespace (1–255 of
// 0-9A-Za-z.-_/#: not starting with a colon). A loop, not a regexp: a
// {1,255} repetition compiles into 255 copies at every cold start.
func validNamespace(ns string) bool {
	if len(ns) == 0 || len(ns) > 255 || ns[0] == ':' {
		return false
	}
	for _, c := range ns {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.ContainsRune(".-_/#:", c)) {
			return false
		}
	}
	return true
}

// EMF writes embedded-metric-format lines to w, one Write per line.
type EMF struct {
	mu        sync.Mutex
	w         io.Writer
	namespace string
	now       func() time.Time
}

// NewEMF returns a writer of the namespace's metrics to w; now is the
// clock (nil: time.Now).
func NewEMF(w io.Writer, namespace string, now func() time.Time) (*EMF, error) {
	if w == nil {
		return nil, errors.New("metrics: NewEMF needs a writer")
	}
	if !validNamespace(namespace) {
		return nil, fmt.Errorf("metrics: %q is no CloudWatch namespace", namespace)
	}
	if now == nil {
		now = time.Now
	}
	return &EMF{w: w, namespace: namespace, now: now}, nil
}

// Count is one count metric with its dimensions.
type Count struct {
	Name  string
	Value int64
	Dims  map[string]string
}

// Put writes one line holding the counts; counts with different
// dimensions go in one line only when their dimension values agree, so
// callers pass counts that share dimension names and values (or none).
func (e *EMF) Put(counts ...Count) error {
	if len(counts) == 0 {
		return nil
	}
	type metricDef struct {
		Name string `json:"Name"`
		Unit string `json:"Unit"`
	}
	type directive struct {
		Namespace  string      `json:"Namespace"`
		Dimensions [][]string  `json:"Dimensions"`
		Metrics    []metricDef `json:"Metrics"`
	}
	root := map[string]any{}
	var dirs []directive
	for _, c := range counts {
		keys := slices.Sorted(maps.Keys(c.Dims))
		for _, k := range keys {
			if v, ok := root[k]; ok && v != c.Dims[k] {
				return fmt.Errorf("metrics: dimension %s is %v and %s in one line", k, v, c.Dims[k])
			}
			root[k] = c.Dims[k]
		}
		if _, dup := root[c.Name]; dup {
			return fmt.Errorf("metrics: %s appears twice in one line", c.Name)
		}
		root[c.Name] = c.Value
		if keys == nil {
			keys = []string{}
		}
		dirs = append(dirs, directive{Namespace: e.namespace, Dimensions: [][]string{keys}, Metrics: []metricDef{{c.Name, "Count"}}})
	}
	// Lambda's log-level filter reads "level"; the figures are INFO.
	root["level"] = "INFO"
	root["msg"] = "metrics"
	root["_aws"] = map[string]any{"Timestamp": e.now().UnixMilli(), "CloudWatchMetrics": dirs}
	line, err := json.Marshal(root)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, err = e.w.Write(append(line, '\n'))
	return err
}

// Jobs reports settled jobs as EMF lines (runs.Metrics): one line with
// JobsSettled (by Status) and CreditsCaptured, and one ProviderFailures
// line per platform whose samples failed. A write error is reported to
// onError, never to the Settle that called (the job is settled already).
type Jobs struct {
	EMF     *EMF
	OnError func(error)
}

// JobSettled writes the job's figures.
func (j Jobs) JobSettled(_ context.Context, s runs.Settled) {
	err := j.EMF.Put(
		Count{Name: JobsSettled, Value: 1, Dims: map[string]string{DimStatus: s.Status}},
		Count{Name: CreditsCaptured, Value: s.CreditsCaptured})
	for _, p := range slices.Sorted(maps.Keys(s.FailedSamples)) {
		err = errors.Join(err, j.EMF.Put(Count{Name: ProviderFailures, Value: int64(s.FailedSamples[p]), Dims: map[string]string{DimPlatform: p}}))
	}
	if err != nil && j.OnError != nil {
		j.OnError(err)
	}
}
