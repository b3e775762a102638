// Package ttlcache holds a bounded in-process map whose entries expire a
// fixed time after they were stored: for values read on every request that
// may be a little stale, with the staleness bounded by the TTL.
package ttlcache

import (
	"sync"
	"time"
)

// Cache maps K to V for ttl after each Put, holding at most max entries.
// It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu sync.RWMutex
	m  map[K]entry[V]
}

type entry[V any] struct {
	v       V
	expires time.Time
}

// New returns a cache whose entries live for ttl (> 0), at most max (> 0) at
// a time, on the clock now (nil: time.Now).
func New[K comparable, V any](ttl time.Duration, max int, now func() time.Time) *Cache[K, V] {
	if ttl <= 0 || max <= 0 {
		panic("ttlcache: ttl and max must be positive")
	}
	if now == nil {
		now = time.Now
	}
	return &Cache[K, V]{ttl: ttl, max: max, now: now, m: make(map[K]entry[V])}
}

// Get returns the value stored for k less than the TTL ago.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	e, ok := c.m[k]
	c.mu.RUnlock()
	if !ok || !c.now().Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put stores v for k for the TTL from now. When the cache is full, expired
// entries go first, then arbitrary ones.
func (c *Cache[K, V]) Put(k K, v V) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		for ek, e := range c.m {
			if !now.Before(e.expires) {
				delete(c.m, ek)
			}
		}
		for ek := range c.m {
			if len(c.m) < c.max {
				break
			}
			delete(c.m, ek)
		}
	}
	c.m[k] = entry[V]{v: v, expires: now.Add(c.ttl)}
}

// Delete forgets k.
func (c *Cache[K, V]) Delete(k K) {
	c.mu.Lock()
	delete(c.m, k)
	c.mu.Unlock()
}

// Len is the number of entries held, expired ones included.
func (c *Cache[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
