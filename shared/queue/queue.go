// Package queue carries work between the API and the workers: SQS in AWS
// and an in-process delayed queue locally, with the same at-least-once
// semantics (a message may arrive more than once; a handler error makes it
// come back after its visibility timeout; too many receives dead-letter it).
//
// Senders and consumers:
//   - Local: the in-process queue of `brandlens serve` and of tests. Its
//     messages live in memory only; the durable state is in the store, whose
//     sweepers re-enqueue work that a lost message would have carried.
//   - SQS: an Amazon SQS standard queue; Send, and Run to consume it from a
//     long-running process.
//   - LambdaHandler: consumes SQS inside Lambda, reporting batch item
//     failures.
//
// Handlers must be idempotent: every implementation may deliver a message
// more than once.
package queue

import (
	"context"
	"time"
)

// Message is one received message.
type Message struct {
	ID   string
	Body []byte
	// ReceiveCount is 1 on the first delivery.
	ReceiveCount int
}

// Sender puts messages on a queue. delay (at most 15 minutes, as SQS
// DelaySeconds) postpones the first delivery.
type Sender interface {
	Send(ctx context.Context, body []byte, delay time.Duration) error
}

// Handler processes one message; an error makes it come back later.
type Handler func(ctx context.Context, m Message) error

// MaxDelay is SQS's longest DelaySeconds.
const MaxDelay = 15 * time.Minute
