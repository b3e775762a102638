// Package recaptchatest serves a local siteverify for tests: it takes the
// form Google's endpoint takes (secret, response, remoteip) and answers in
// its shapes, so the real recaptcha.Client is what tests exercise.
package recaptchatest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/recaptcha"
)

// Tokens with a fixed outcome; any other non-empty token is a human.
const (
	// TokenBot gets a v3 score of 0.1 (under the default threshold).
	TokenBot = "test-bot"
	// TokenReplayed was already used: timeout-or-duplicate.
	TokenReplayed = "test-replayed"
	// TokenDown makes siteverify answer 502 (an outage).
	TokenDown = "test-down"
	// TokenHuman passes (as every other token does).
	TokenHuman = "test-human"
)

// Secret is the secret the server expects; any other is invalid-input-secret.
const Secret = "recaptchatest-secret"

// Call is one verification the server answered.
type Call struct{ Token, RemoteIP string }

// Server is a running siteverify.
type Server struct {
	URL   string
	mu    sync.Mutex
	calls []Call
}

// New starts a siteverify closed after tb.
func New(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	token, ip := r.PostForm.Get("response"), r.PostForm.Get("remoteip")
	s.mu.Lock()
	s.calls = append(s.calls, Call{Token: token, RemoteIP: ip})
	s.mu.Unlock()
	answer := map[string]any{"success": true, "score": 0.9, "action": recaptcha.DefaultAction,
		"hostname": "brandlens.example", "challenge_ts": "2026-11-22T18:00:00Z"}
	switch {
	case r.PostForm.Get("secret") != Secret:
		answer = map[string]any{"success": false, "error-codes": []string{recaptcha.CodeInvalidInputSecret}}
	case token == "":
		answer = map[string]any{"success": false, "error-codes": []string{recaptcha.CodeMissingInputResponse}}
	case token == TokenDown:
		w.WriteHeader(http.StatusBadGateway)
		return
	case token == TokenBot:
		answer["score"] = 0.1
	case token == TokenReplayed:
		answer = map[string]any{"success": false, "error-codes": []string{recaptcha.CodeTimeoutOrDuplicate}}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

// Config is a client configuration for this server.
func (s *Server) Config() recaptcha.Config {
	return recaptcha.Config{Secret: Secret, VerifyURL: s.URL, MinScore: recaptcha.DefaultMinScore, Action: recaptcha.DefaultAction}
}

// Env is the environment that points recaptcha.FromEnv at this server.
func (s *Server) Env() map[string]string {
	return map[string]string{recaptcha.EnvSecret: Secret, recaptcha.EnvVerifyURL: s.URL}
}

// Client is a recaptcha.Client of this server.
func (s *Server) Client(tb testing.TB) *recaptcha.Client {
	tb.Helper()
	c, err := recaptcha.New(s.Config())
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Calls are the verifications answered so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}
