package providers

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Live mode needs providers/live; FromEnv refuses it rather than falling
// back to simulated answers.
func TestFromEnvLiveNeedsLivePackage(t *testing.T) {
	_, err := FromEnv(envOf(map[string]string{"BRANDLENS_PROVIDERS": "live"}), nil)
	if err == nil || !strings.Contains(err.Error(), "live") {
		t.Fatalf("err = %v", err)
	}
}

func TestSetFor(t *testing.T) {
	s, _ := FromEnv(envOf(nil), nil)
	if p, err := s.For(platforms.Gemini); err != nil || p.Platform() != platforms.Gemini {
		t.Fatalf("gemini: %v %v", p, err)
	}
	for _, name := range []string{"copilot", "bing"} {
		_, err := s.For(name)
		var pe *Error
		if !errors.As(err, &pe) || pe.Kind != KindInvalid || !strings.Contains(pe.Message, "not") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// BRANDLENS_PROVIDER_LATENCY makes offline answers take that long, and a
// call cancelled meanwhile ends at once as a transient failure.
func TestFromEnvLatency(t *testing.T) {
	if _, err := FromEnv(envOf(map[string]string{EnvLatency: "soon"}), nil); err == nil || !strings.Contains(err.Error(), EnvLatency) {
		t.Fatalf("bad latency: %v", err)
	}
	synctest.Test(t, func(t *testing.T) {
		s, err := FromEnv(envOf(map[string]string{EnvLatency: "3s"}), nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		ans, err := s[platforms.Claude].Answer(context.Background(), Request{Query: "best crm", Hints: Hints{Brand: "Acme"}})
		if err != nil || ans.Text == "" || time.Since(start) != 3*time.Second {
			t.Fatalf("answer after %s: %v", time.Since(start), err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start = time.Now()
		_, err = s[platforms.Claude].Answer(ctx, Request{Query: "best crm"})
		if !IsRetryable(err) || time.Since(start) != time.Second {
			t.Fatalf("cancelled after %s: %v", time.Since(start), err)
		}
	})
}
