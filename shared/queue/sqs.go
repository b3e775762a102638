package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// SQS limits the consumer works within.
const (
	sqsMaxDelaySeconds      = 900
	sqsMaxVisibilitySeconds = 43200
	sqsMaxBatch             = 10
	sqsLongPollSeconds      = 20
)

// ackTimeout bounds DeleteMessage and ChangeMessageVisibility, which run
// even while Run is stopping.
const ackTimeout = 10 * time.Second

// sqsAPI is the part of *sqs.Client that SQS uses.
type sqsAPI interface {
	SendMessage(context.Context, *sqs.SendMessageInput, ...func(*sqs.Options)) (*sqs.SendMessageOutput, error)
	ReceiveMessage(context.Context, *sqs.ReceiveMessageInput, ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(context.Context, *sqs.DeleteMessageInput, ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error)
	ChangeMessageVisibility(context.Context, *sqs.ChangeMessageVisibilityInput, ...func(*sqs.Options)) (*sqs.ChangeMessageVisibilityOutput, error)
}

// SQS is one Amazon SQS standard queue: a Sender, and a polling consumer for
// running outside Lambda (inside Lambda, the event source mapping polls and
// LambdaHandler consumes). Set the exported fields before first use.
type SQS struct {
	client sqsAPI
	url    string

	// VisibilityTimeout, when set, overrides the queue's on every receive
	// (rounded up to whole seconds) and bounds each handler's context,
	// measured from the receive, with cause ErrVisibilityTimeout.
	VisibilityTimeout time.Duration
	// RetryDelay, when set, makes a failed message visible again after this
	// long (ChangeMessageVisibility, rounded up to whole seconds) instead of
	// when its visibility timeout ends, which is the default and what Lambda
	// does with a reported batch item failure.
	RetryDelay time.Duration
	// Logger receives handler failures and SQS errors.
	Logger *slog.Logger
}

var _ Sender = (*SQS)(nil)

// NewSQS returns the queue at queueURL, reached through client, logging
// to log (nil: slog.Default()).
func NewSQS(client *sqs.Client, queueURL string, log *slog.Logger) *SQS {
	if log == nil {
		log = slog.Default()
	}
	return &SQS{client: client, url: queueURL, Logger: log}
}

// URL is the queue's URL.
func (s *SQS) URL() string { return s.url }

func (s *SQS) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// Send sends body with DelaySeconds = delay rounded up to whole seconds (so
// the message never arrives early), capped at 900.
func (s *SQS) Send(ctx context.Context, body []byte, delay time.Duration) error {
	if err := checkBody(body); err != nil {
		return err
	}
	_, err := s.client.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:     aws.String(s.url),
		MessageBody:  aws.String(string(body)),
		DelaySeconds: seconds(clampDelay(delay), sqsMaxDelaySeconds),
	})
	if err != nil {
		return fmt.Errorf("queue: send to %s: %w", s.url, err)
	}
	return nil
}

// Run long-polls the queue and hands each message to h, at most concurrency
// at a time, until ctx is cancelled; it then waits for the handlers in
// progress and returns nil. It asks for at most as many messages as there
// are idle workers (up to 10 per ReceiveMessage, with one poller per 10
// workers), so that no received message sits waiting for a worker while its
// visibility timeout runs.
//
// Success deletes the message. Failure (error or panic) leaves it to come
// back after its visibility timeout, or after RetryDelay when set; the
// queue's redrive policy dead-letters it in the end. Handlers' contexts
// derive from ctx, but a message whose handler succeeded is deleted even
// when ctx has just been cancelled. Receive errors are logged and retried
// with backoff; only a missing queue ends Run with an error.
func (s *SQS) Run(ctx context.Context, h Handler, concurrency int) error {
	if h == nil {
		return errors.New("queue: nil handler")
	}
	if concurrency < 1 {
		return fmt.Errorf("queue: concurrency %d, want at least 1", concurrency)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan struct{}, concurrency) // one token per busy worker
	var handlers, pollers sync.WaitGroup
	var once sync.Once
	var runErr error
	for range (concurrency + sqsMaxBatch - 1) / sqsMaxBatch {
		pollers.Go(func() {
			if err := s.poll(ctx, h, slots, &handlers); err != nil {
				once.Do(func() { runErr = err })
				cancel()
			}
		})
	}
	pollers.Wait()
	handlers.Wait()
	return runErr
}

// poll receives into free worker slots until ctx ends.
func (s *SQS) poll(ctx context.Context, h Handler, slots chan struct{}, handlers *sync.WaitGroup) error {
	failures := 0
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		n := 1
	more:
		for n < sqsMaxBatch {
			select {
			case slots <- struct{}{}:
				n++
			default:
				break more
			}
		}
		out, err := s.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:            aws.String(s.url),
			MaxNumberOfMessages: int32(n),
			WaitTimeSeconds:     sqsLongPollSeconds,
			VisibilityTimeout:   seconds(s.VisibilityTimeout, sqsMaxVisibilitySeconds), // 0: the queue's
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{
				types.MessageSystemAttributeNameApproximateReceiveCount,
			},
		})
		received := time.Now()
		var msgs []types.Message
		if err == nil {
			msgs = out.Messages
		}
		for range n - len(msgs) {
			<-slots
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if _, ok := errors.AsType[*types.QueueDoesNotExist](err); ok {
				return fmt.Errorf("queue: receive from %s: %w", s.url, err)
			}
			failures++
			wait := min(100*time.Millisecond<<min(failures, 7), 10*time.Second)
			s.logger().Error("queue: receive failed; retrying", "queue", s.url, "error", err.Error(), "retryIn", wait.String())
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return nil
			}
			continue
		}
		failures = 0
		for _, msg := range msgs {
			handlers.Go(func() {
				defer func() { <-slots }()
				s.handle(ctx, h, msg, received)
			})
		}
	}
}

func (s *SQS) handle(ctx context.Context, h Handler, msg types.Message, received time.Time) {
	m := Message{
		ID:           aws.ToString(msg.MessageId),
		Body:         []byte(aws.ToString(msg.Body)),
		ReceiveCount: receiveCount(msg.Attributes),
	}
	hctx := ctx
	if vis := seconds(s.VisibilityTimeout, sqsMaxVisibilitySeconds); vis > 0 {
		// The timeout SQS actually applies: whole seconds, at most 12 hours.
		var cancel context.CancelFunc
		hctx, cancel = context.WithDeadlineCause(ctx, received.Add(time.Duration(vis)*time.Second), ErrVisibilityTimeout)
		defer cancel()
	}
	err := call(hctx, h, m)

	// Acknowledge even if Run is stopping: the work is done, and a
	// redelivery would only repeat it.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
	defer cancel()
	if err == nil {
		if _, derr := s.client.DeleteMessage(actx, &sqs.DeleteMessageInput{
			QueueUrl:      aws.String(s.url),
			ReceiptHandle: msg.ReceiptHandle,
		}); derr != nil {
			s.logger().Error("queue: delete failed; the message will be delivered again",
				"queue", s.url, "messageId", m.ID, "error", derr.Error())
		}
		return
	}
	logFailure(s.logger(), m, err)
	if s.RetryDelay <= 0 {
		return
	}
	if _, verr := s.client.ChangeMessageVisibility(actx, &sqs.ChangeMessageVisibilityInput{
		QueueUrl:          aws.String(s.url),
		ReceiptHandle:     msg.ReceiptHandle,
		VisibilityTimeout: seconds(s.RetryDelay, sqsMaxVisibilitySeconds),
	}); verr != nil {
		s.logger().Warn("queue: could not shorten the visibility timeout of a failed message",
			"queue", s.url, "messageId", m.ID, "error", verr.Error())
	}
}
