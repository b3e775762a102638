package costmodel

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Usage is what a run made AWS do.
type Usage struct {
	// DynamoDB request units and requests.
	RRU, WRU       float64
	Calls          int // round trips: every Get, Query, Put, Update, Delete, TransactWrite
	Transactions   int
	Reads, Writes  int            // items read and written
	TxItems        int            // items written in transactions (2 WRU per KB each)
	ReadBytes      int            // bytes read by queries and gets (before filters)
	SQSRequests    map[string]int // requests per queue
	Messages       map[string]int // messages sent per queue
	APIRequests    int
	Transitions    map[string]int // state transitions per workflow
	Executions     map[string]int // workflow executions started
	Lambda         map[string]LambdaUse
	SecretsCalls   int
	CloudFrontReqs int
	// Items are the DynamoDB requests and units by kind of item (the
	// first segment of its sort key: CITATION, EVENT, JOB…).
	Items map[string]ItemUse
}

// ItemUse is what one kind of item cost.
type ItemUse struct {
	Reads, Writes int
	RRU, WRU      float64
}

// LambdaUse is one function's invocations and their total measured
// duration.
type LambdaUse struct {
	Invocations int
	Seconds     float64
}

func (u Usage) clone() Usage {
	u.Messages, u.Transitions, u.Executions = maps.Clone(u.Messages), maps.Clone(u.Transitions), maps.Clone(u.Executions)
	u.SQSRequests = maps.Clone(u.SQSRequests)
	u.Lambda = maps.Clone(u.Lambda)
	u.Items = maps.Clone(u.Items)
	return u
}

// Sub is what u counted beyond prev (an earlier snapshot of the same meter).
func (u Usage) Sub(prev Usage) Usage {
	d := u.clone()
	d.RRU -= prev.RRU
	d.WRU -= prev.WRU
	d.Calls -= prev.Calls
	d.Transactions -= prev.Transactions
	d.Reads -= prev.Reads
	d.Writes -= prev.Writes
	d.TxItems -= prev.TxItems
	d.ReadBytes -= prev.ReadBytes
	d.APIRequests -= prev.APIRequests
	d.SecretsCalls -= prev.SecretsCalls
	d.CloudFrontReqs -= prev.CloudFrontReqs
	for k, v := range prev.Messages {
		d.Messages[k] -= v
	}
	for k, v := range prev.SQSRequests {
		d.SQSRequests[k] -= v
	}
	for k, v := range prev.Transitions {
		d.Transitions[k] -= v
	}
	for k, v := range prev.Executions {
		d.Executions[k] -= v
	}
	for k, v := range prev.Items {
		i := d.Items[k]
		i.Reads -= v.Reads
		i.Writes -= v.Writes
		i.RRU -= v.RRU
		i.WRU -= v.WRU
		d.Items[k] = i
	}
	for k, v := range prev.Lambda {
		l := d.Lambda[k]
		l.Invocations -= v.Invocations
		l.Seconds -= v.Seconds
		d.Lambda[k] = l
	}
	return d
}

// Without is u less the DynamoDB work on the item kinds given (work the
// local runtime does that AWS would not, such as polling an index that a
// stream replaces there).
func (u Usage) Without(kinds ...string) Usage {
	out := u.clone()
	for _, k := range kinds {
		i, ok := out.Items[k]
		if !ok {
			continue
		}
		delete(out.Items, k)
		out.RRU -= i.RRU
		out.WRU -= i.WRU
		out.Reads -= i.Reads
		out.Writes -= i.Writes
		out.Calls -= i.Reads + i.Writes
	}
	return out
}

// Only is the part of u that belongs to the given kinds of items,
// functions and queues (the work of one feature within a larger run).
func (u Usage) Only(kinds, functions, queues []string) Usage {
	out := Usage{Items: map[string]ItemUse{}, Lambda: map[string]LambdaUse{}, Messages: map[string]int{},
		SQSRequests: map[string]int{}, Transitions: map[string]int{}, Executions: map[string]int{}}
	for _, k := range kinds {
		i := u.Items[k]
		out.Items[k] = i
		out.RRU += i.RRU
		out.WRU += i.WRU
		out.Reads += i.Reads
		out.Writes += i.Writes
		out.Calls += i.Reads + i.Writes
	}
	for _, f := range functions {
		out.Lambda[f] = u.Lambda[f]
	}
	for _, q := range queues {
		out.Messages[q], out.SQSRequests[q] = u.Messages[q], u.SQSRequests[q]
	}
	return out
}

// Meter counts a run's billed operations. It is safe for concurrent use.
type Meter struct {
	mu sync.Mutex
	u  Usage
}

// NewMeter returns an empty meter.
func NewMeter() *Meter {
	return &Meter{u: Usage{Messages: map[string]int{}, SQSRequests: map[string]int{}, Transitions: map[string]int{}, Executions: map[string]int{},
		Lambda: map[string]LambdaUse{}, Items: map[string]ItemUse{}}}
}

// Snapshot is what the meter has counted so far.
func (m *Meter) Snapshot() Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.u.clone()
}

func (m *Meter) add(f func(u *Usage)) {
	m.mu.Lock()
	f(&m.u)
	m.mu.Unlock()
}

// Invocation counts one invocation of a Lambda function that ran for d.
func (m *Meter) Invocation(function string, d time.Duration) {
	m.add(func(u *Usage) {
		l := u.Lambda[function]
		l.Invocations++
		l.Seconds += d.Seconds()
		u.Lambda[function] = l
	})
}

// APIRequest counts one request through API Gateway to function, which ran
// for d.
func (m *Meter) APIRequest(function string, d time.Duration) {
	m.add(func(u *Usage) { u.APIRequests++ })
	m.Invocation(function, d)
}

// SecretsCall counts one Secrets Manager read.
func (m *Meter) SecretsCall() { m.add(func(u *Usage) { u.SecretsCalls++ }) }

// CloudFrontRequest counts one request through CloudFront.
func (m *Meter) CloudFrontRequest() { m.add(func(u *Usage) { u.CloudFrontReqs++ }) }

// sqsChunk is the message size one SQS request carries.
const sqsChunk = 64 << 10

// Sender counts each message sent on the named queue as SQS bills it: the
// SendMessage, and the ReceiveMessage and DeleteMessage of its consumer
// (Lambda's event source mapping; counted per message, as if every batch
// held one), each per 64 KB.
func (m *Meter) Sender(name string, s queue.Sender) queue.Sender {
	return senderFunc(func(ctx context.Context, body []byte, delay time.Duration) error {
		chunks := max(1, (len(body)+sqsChunk-1)/sqsChunk)
		m.add(func(u *Usage) {
			u.Messages[name]++
			u.SQSRequests[name] += 3 * chunks
		})
		return s.Send(ctx, body, delay)
	})
}

type senderFunc func(ctx context.Context, body []byte, delay time.Duration) error

func (f senderFunc) Send(ctx context.Context, body []byte, delay time.Duration) error {
	return f(ctx, body, delay)
}

// Consumer counts each message h handles as one invocation of function
// (batches of one: an upper bound on invocations, exact on duration).
func (m *Meter) Consumer(function string, h queue.Handler) queue.Handler {
	return func(ctx context.Context, msg queue.Message) error {
		start := time.Now()
		err := h(ctx, msg)
		m.Invocation(function, time.Since(start))
		return err
	}
}

// Step counts each call of a workflow step as one invocation of its
// function.
func (m *Meter) Step(function string, h workflow.Handler) workflow.Handler {
	return func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
		start := time.Now()
		out, err := h(ctx, in)
		m.Invocation(function, time.Since(start))
		return out, err
	}
}

// Transition counts one state transition of workflow (workflow.WithTransitions).
func (m *Meter) Transition(workflow, state string) {
	m.add(func(u *Usage) { u.Transitions[workflow]++ })
}

// Execution counts one execution of workflow started.
func (m *Meter) Execution(workflow string) { m.add(func(u *Usage) { u.Executions[workflow]++ }) }
