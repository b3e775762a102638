package detect

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The golden digest pins the detector's complete output — verdicts, every
// mention's span, kind, flags, confidence and evidence score, sentiments,
// evidence sentences, cited URLs, scores, discovered names — over every
// labelled answer (corpus and held-out batches) and the benchmark's
// generated answers. A change meant only to make detection faster must
// leave it identical; a change of the rules changes it, and is then
// regenerated on purpose:
//
//	go test -run TestGoldenDigest -update ./shared/detect
//
// The file keeps one line per answer, so a diff shows which answers a rule
// change moved.

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden.digest from the detector's current results")

const goldenPath = "testdata/golden.digest"

// goldenLines computes one "set<TAB>line<TAB>id<TAB>digest" line per answer.
func goldenLines(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, dir := range []string{"corpus", "heldout"} {
		ps, err := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, ps...)
	}
	if len(paths) == 0 {
		t.Fatal("no corpus or held-out answers")
	}
	ctx := context.Background()
	var lines []string
	for _, path := range paths {
		set := filepath.ToSlash(strings.TrimPrefix(path, "testdata"+string(filepath.Separator)))
		for i, c := range loadCases(t, path) {
			d := New(c.Brand, c.Competitors)
			det := d.Detect(c.Text, c.Citations)
			an, err := d.Analyze(ctx, Input{Text: c.Text, Citations: c.Citations, Query: c.Query})
			if err != nil {
				t.Fatalf("%s %s: %v", set, c.ID, err)
			}
			// The same detector again: pooled scratch must carry nothing
			// from one call into the next.
			if again := d.Detect(c.Text, c.Citations); digestOf(t, again) != digestOf(t, det) {
				t.Errorf("%s %s: a second Detect on the same detector differs from the first", set, c.ID)
			}
			lines = append(lines, fmt.Sprintf("%s\t%d\t%s\t%s", set, i+1, c.ID, digestOf(t, det, an)))
		}
	}
	// The benchmark's long, entity-dense answers on one shared detector.
	brand, comps := benchEntities()
	d := New(brand, comps)
	cits := []Citation{{URL: "https://www.g2.com/categories/crm"}, {URL: "https://blog.brightdesk.com/guide"}}
	for i, a := range benchAnswers(256 << 10) {
		lines = append(lines, fmt.Sprintf("bench\t%d\t-\t%s", i+1, digestOf(t, d.Detect(a, cits))))
	}
	return lines
}

// digestOf hashes the JSON of results: every exported field, floats in
// their shortest exact form.
func digestOf(t *testing.T, rs ...Result) string {
	t.Helper()
	h := sha256.New()
	for _, r := range rs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

func TestGoldenDigest(t *testing.T) {
	got := goldenLines(t)
	if *updateGolden {
		if err := os.WriteFile(goldenPath, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d answers", goldenPath, len(got))
		return
	}
	raw, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	var want []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	wantBy := make(map[string]string, len(want))
	for _, l := range want {
		k, v := goldenKey(l)
		wantBy[k] = v
	}
	changed := 0
	for _, l := range got {
		k, v := goldenKey(l)
		w, ok := wantBy[k]
		switch {
		case !ok:
			t.Errorf("%s: not in %s", k, goldenPath)
		case w != v:
			changed++
			if changed <= 20 {
				t.Errorf("%s: result changed", k)
			}
		}
		delete(wantBy, k)
	}
	for k := range wantBy {
		t.Errorf("%s: in %s but no longer an answer", k, goldenPath)
	}
	if changed > 0 || t.Failed() {
		t.Errorf("%d of %d answers changed: a rule change regenerates %s with -update; a speed-up must change none",
			changed, len(got), goldenPath)
	}
}

// goldenKey splits a digest line into the answer's key and its digest.
func goldenKey(line string) (key, digest string) {
	i := strings.LastIndexByte(line, '\t')
	if i < 0 {
		return line, ""
	}
	return line[:i], line[i+1:]
}
