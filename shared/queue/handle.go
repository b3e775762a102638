package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"strconv"
	"time"
	"unicode/utf8"
)

// MaxBodySize is SQS's largest message (1 MiB since August 2025).
const MaxBodySize = 1 << 20

// ErrVisibilityTimeout is the cause of a handler context cancelled because
// the message's visibility timeout ran out.
var ErrVisibilityTimeout = errors.New("queue: visibility timeout elapsed")

// PanicError is what a handler's panic becomes: the message fails (and comes
// back later) instead of taking the worker process down.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("queue: handler panicked: %v", e.Value) }

// call runs h on m, turning a panic into a *PanicError.
func call(ctx context.Context, h Handler, m Message) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return h(ctx, m)
}

// logFailure records a failed delivery; a panic carries its stack.
func logFailure(log *slog.Logger, m Message, err error) {
	attrs := []any{"messageId", m.ID, "receiveCount", m.ReceiveCount, "error", err.Error()}
	var pe *PanicError
	if errors.As(err, &pe) {
		attrs = append(attrs, "stack", string(pe.Stack))
	}
	log.Warn("queue: handler failed", attrs...)
}

// checkBody rejects what SQS would reject, so that the local queue does
// not accept messages that fail in AWS, and so that invalid UTF-8 is not
// silently replaced by U+FFFD when the SDK encodes the request as JSON.
func checkBody(body []byte) error {
	if len(body) == 0 {
		return errors.New("queue: empty message body (SQS requires at least one character)")
	}
	if len(body) > MaxBodySize {
		return fmt.Errorf("queue: message body of %d bytes exceeds SQS's %d", len(body), MaxBodySize)
	}
	for i := 0; i < len(body); {
		r, n := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && n <= 1 {
			return fmt.Errorf("queue: message body is not valid UTF-8 at byte %d", i)
		}
		if !allowedRune(r) {
			return fmt.Errorf("queue: message body has character %U at byte %d, which SQS does not allow", r, i)
		}
		i += n
	}
	return nil
}

// allowedRune is SQS's character set: #x9 | #xA | #xD | #x20 to #xD7FF |
// #xE000 to #xFFFD | #x10000 to #x10FFFF.
func allowedRune(r rune) bool {
	switch {
	case r == 0x9, r == 0xA, r == 0xD:
		return true
	case r >= 0x20 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD:
		return true
	default:
		return r >= 0x10000 && r <= 0x10FFFF
	}
}

// clampDelay bounds a send delay to [0, MaxDelay].
func clampDelay(d time.Duration) time.Duration {
	return min(max(d, 0), MaxDelay)
}

// seconds rounds d up to whole seconds (SQS counts delays and visibility in
// seconds; rounding down would deliver early), within [0, limit].
func seconds(d time.Duration, limit int32) int32 {
	if d <= 0 {
		return 0
	}
	s := math.Ceil(d.Seconds())
	if s >= float64(limit) {
		return limit
	}
	return int32(s)
}

// receiveCount reads SQS's ApproximateReceiveCount attribute; an absent or
// unreadable one counts as a first delivery.
func receiveCount(attrs map[string]string) int {
	n, err := strconv.Atoi(attrs["ApproximateReceiveCount"])
	if err != nil || n < 1 {
		return 1
	}
	return n
}
