package outbox

import "sync"

// Notify tells in-process listeners that events were just appended, so that
// `brandlens serve` fans them out at once instead of at its next poll of the
// pending index. Call it after the transaction holding the events commits.
// In AWS nothing listens (DynamoDB Streams trigger the fan-out) and Notify
// does nothing.
func Notify() {
	listeners.Lock()
	fs := make([]func(), 0, len(listeners.m))
	for _, f := range listeners.m {
		fs = append(fs, f)
	}
	listeners.Unlock()
	for _, f := range fs {
		f()
	}
}

// Listen registers f to be called by Notify (f must not block) until the
// returned cancel is called.
func Listen(f func()) (cancel func()) {
	listeners.Lock()
	defer listeners.Unlock()
	listeners.n++
	id := listeners.n
	if listeners.m == nil {
		listeners.m = map[int]func(){}
	}
	listeners.m[id] = f
	return func() {
		listeners.Lock()
		defer listeners.Unlock()
		delete(listeners.m, id)
	}
}

var listeners struct {
	sync.Mutex
	n int
	m map[int]func()
}
