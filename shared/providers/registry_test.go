package providers

import (
	"errors"
	"strings"
	"testing"

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
