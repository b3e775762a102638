package models_test

import (
	"math"
	"testing"

	"github.com/brandlens/brandlens/shared/models"
)

func TestPrices(t *testing.T) {
	cases := []struct {
		model   string
		in, out int
		want    float64
		known   bool
	}{
		{"gpt-5.5", 1_000_000, 0, 5, true},
		{"gpt-5.5-2026-04-23", 1000, 1000, 0.005 + 0.030, true},
		{"models/gemini-3.5-flash", 0, 1_000_000, 9, true},
		{"claude-sonnet-4-6-20260301", 2000, 500, 0.006 + 0.0075, true},
		{"gpt-5.5-pro", 1000, 1000, 0, false},       // another model, not a snapshot
		{"claude-sonnet-4-7", 1000, 1000, 0, false}, // newer: never priced at 4-6's rate
		{"", 10, 10, 0, false},
	}
	for _, tc := range cases {
		got, known := models.Cost(tc.model, tc.in, tc.out)
		if known != tc.known || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Cost(%q) = %v, %v; want %v, %v", tc.model, got, known, tc.want, tc.known)
		}
	}
}

func TestRequestSplit(t *testing.T) {
	sys := models.Message{Role: models.RoleSystem, Content: "s"}
	user := models.Message{Role: models.RoleUser, Content: "u"}
	asst := models.Message{Role: models.RoleAssistant, Content: "a"}
	cases := []struct {
		name string
		msgs []models.Message
		ok   bool
	}{
		{"system and user", []models.Message{sys, user}, true},
		{"user only", []models.Message{user}, true},
		{"conversation", []models.Message{sys, user, asst, user}, true},
		{"no user", []models.Message{sys}, false},
		{"system late", []models.Message{user, sys}, false},
		{"assistant first", []models.Message{asst, user}, false},
		{"unknown role", []models.Message{{Role: "tool", Content: "x"}}, false},
	}
	for _, tc := range cases {
		system, turns, err := models.Request{Messages: tc.msgs}.Split()
		if (err == nil) != tc.ok {
			t.Errorf("%s: error %v", tc.name, err)
		}
		if err == nil && (turns[0].Role != models.RoleUser || (tc.msgs[0].Role == models.RoleSystem) != (system == "s")) {
			t.Errorf("%s: system %q, turns %v", tc.name, system, turns)
		}
	}
	if (models.Request{}).MaxTokens() != models.DefaultMaxOutputTokens || (models.Request{MaxOutputTokens: 5}).MaxTokens() != 5 {
		t.Error("MaxTokens")
	}
}

func TestRetryable(t *testing.T) {
	for k, want := range map[models.Kind]bool{
		models.KindRateLimited: true, models.KindOverloaded: true, models.KindTimeout: true, models.KindNetwork: true,
		models.KindAuth: false, models.KindQuota: false, models.KindInvalid: false, models.KindTruncated: false, models.KindRefused: false,
	} {
		if got := models.IsRetryable(&models.Error{Kind: k}); got != want {
			t.Errorf("%s retryable %v", k, got)
		}
	}
}

func TestFromEnv(t *testing.T) {
	var offline models.Generator = stub{}
	for mode, ok := range map[string]bool{"": true, "offline": true, " OFFLINE ": true, "openai": false, "gemini": false, "gpt": false} {
		g, err := models.FromEnv(func(string) string { return mode }, offline)
		if (err == nil) != ok || (ok && g != offline) {
			t.Errorf("BRANDLENS_MODELS=%q: %v, %v", mode, g, err)
		}
	}
}

type stub struct{ models.Generator }
