package app

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
)

// keyedProvider answers when its key is the one the platform accepts.
type keyedProvider struct {
	key, accepted *string
	calls         *int
}

func (p keyedProvider) Platform() string { return "chatgpt" }

func (p keyedProvider) Answer(context.Context, providers.Request) (providers.Answer, error) {
	*p.calls++
	if *p.key != *p.accepted {
		return providers.Answer{}, &providers.Error{Platform: "chatgpt", Kind: providers.KindAuth, Status: 401}
	}
	return providers.Answer{Text: "answered with " + *p.key}, nil
}

// secretsFake is Secrets Manager holding the keys secret, and a clock.
type secretsFake struct {
	value    string
	readErr  error
	reads    int
	builds   int
	accepted string
	calls    int
	now      time.Time
}

func (f *secretsFake) keys(log *slog.Logger) *rotatingKeys {
	return &rotatingKeys{
		read: func(context.Context) ([]byte, error) {
			f.reads++
			return []byte(f.value), f.readErr
		},
		build: func(keys map[string]string) (providers.Set, error) {
			f.builds++
			key := keys["OPENAI_API_KEY"]
			return providers.Set{"chatgpt": keyedProvider{key: &key, accepted: &f.accepted, calls: &f.calls}}, nil
		},
		ttl: 5 * time.Minute,
		now: func() time.Time { return f.now },
		log: log,
	}
}

func TestProviderKeysFollowRotations(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	const v1, v2 = `{"OPENAI_API_KEY":"sk-1"}`, `{"OPENAI_API_KEY":"sk-2"}`
	tests := []struct {
		name string
		// rotate happens after the cold start, at elapsed.
		rotate        func(f *secretsFake)
		elapsed       time.Duration
		wantText      string
		wantAuthError bool
		wantReads     int // after the cold start's
		wantBuilds    int // after the cold start's
	}{
		{"within the TTL the keys read at cold start serve", func(f *secretsFake) {}, time.Minute, "answered with sk-1", false, 0, 0},
		{"after the TTL the secret is read again, same keys: nothing rebuilt", func(f *secretsFake) {}, 5 * time.Minute, "answered with sk-1", false, 1, 0},
		{"rotated, and the TTL passed: the new keys", func(f *secretsFake) { f.value, f.accepted = v2, "sk-2" }, 6 * time.Minute, "answered with sk-2", false, 1, 1},
		{"rotated within the TTL: the refused key makes it read at once and ask again", func(f *secretsFake) { f.value, f.accepted = v2, "sk-2" }, time.Minute, "answered with sk-2", false, 1, 1},
		{"refused but not rotated: the auth error stands", func(f *secretsFake) { f.accepted = "sk-other" }, time.Minute, "", true, 1, 0},
		{"Secrets Manager fails after the TTL: the keys read before keep serving", func(f *secretsFake) { f.readErr = errors.New("throttled") }, 6 * time.Minute, "answered with sk-1", false, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &secretsFake{value: v1, accepted: "sk-1", now: start}
			var logs bytes.Buffer
			set, err := newRotatingKeys(ctx, f.keys(slog.New(slog.NewJSONHandler(&logs, nil))))
			if err != nil {
				t.Fatal(err)
			}
			if f.reads != 1 || f.builds != 1 {
				t.Fatalf("cold start: %d reads, %d builds", f.reads, f.builds)
			}
			tc.rotate(f)
			f.now = start.Add(tc.elapsed)
			ans, err := set["chatgpt"].Answer(ctx, providers.Request{Query: "q"})
			var pe *providers.Error
			if tc.wantAuthError != (errors.As(err, &pe) && pe.Kind == providers.KindAuth) || ans.Text != tc.wantText {
				t.Errorf("answer %q, err %v", ans.Text, err)
			}
			if f.reads-1 != tc.wantReads || f.builds-1 != tc.wantBuilds {
				t.Errorf("%d reads and %d builds after the cold start, want %d and %d", f.reads-1, f.builds-1, tc.wantReads, tc.wantBuilds)
			}
			if f.readErr != nil && !strings.Contains(logs.String(), "keep serving") {
				t.Errorf("the failed read was not logged: %s", logs.String())
			}
		})
	}
}

// Auth failures read the secret at most every authRefreshEvery, and a
// failed read is retried after retryReadAfter, not at every call.
func TestProviderKeysReadsAreBounded(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	f := &secretsFake{value: `{"OPENAI_API_KEY":"sk-1"}`, accepted: "sk-revoked", now: start}
	set, err := newRotatingKeys(ctx, f.keys(slog.New(slog.NewJSONHandler(&bytes.Buffer{}, nil))))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		f.now = start.Add(time.Duration(i) * time.Second)
		set["chatgpt"].Answer(ctx, providers.Request{})
	}
	if f.reads != 2 {
		t.Errorf("%d reads in 10 s of refused calls, want the cold start's and one more", f.reads)
	}
	f.now = start.Add(authRefreshEvery + time.Second)
	set["chatgpt"].Answer(ctx, providers.Request{})
	if f.reads != 3 {
		t.Errorf("%d reads once authRefreshEvery passed, want 3", f.reads)
	}

	f.accepted, f.readErr = "sk-1", errors.New("unavailable")
	f.now = f.now.Add(10 * time.Minute) // past the TTL: read, fail
	set["chatgpt"].Answer(ctx, providers.Request{})
	reads := f.reads
	f.now = f.now.Add(retryReadAfter / 2)
	set["chatgpt"].Answer(ctx, providers.Request{})
	if f.reads != reads {
		t.Error("a failed read was tried again before retryReadAfter")
	}
	f.now = f.now.Add(retryReadAfter)
	set["chatgpt"].Answer(ctx, providers.Request{})
	if f.reads != reads+1 {
		t.Error("a failed read was not tried again after retryReadAfter")
	}
}

func TestProviderKeysRefuseWhatIsNoKeysObject(t *testing.T) {
	f := &secretsFake{value: `["not", "an", "object"]`}
	if _, err := newRotatingKeys(context.Background(), f.keys(slog.Default())); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("err %v", err)
	}
	f = &secretsFake{readErr: errors.New("AccessDeniedException")}
	if _, err := newRotatingKeys(context.Background(), f.keys(slog.Default())); err == nil {
		t.Error("a cold start that cannot read the keys succeeded")
	}
}
