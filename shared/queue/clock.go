package queue

import (
	"sort"
	"sync"
	"time"
)

// Clock is the time source of a Local queue. Tests use a ManualClock so
// that delays and visibility timeouts pass when the test says, not when the
// machine gets round to it.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f (in its own goroutine, or synchronously from
	// ManualClock.Advance) once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call; it reports whether it did.
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// ManualClock is a Clock that moves only when Advance is called. Timers due
// at or before the new time run synchronously inside Advance, in due order,
// so that when Advance returns every message that became visible is ready.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
	seq    uint64
}

// NewManualClock returns a clock reading start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start}
}

type manualTimer struct {
	c   *ManualClock
	at  time.Time
	seq uint64 // ties run in creation order
	f   func()
}

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	for i, x := range t.c.timers {
		if x == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			return true
		}
	}
	return false
}

// Now returns the clock's current reading.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d. A non-positive d still waits for the
// next Advance (even Advance(0)), as a real timer never runs inline.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &manualTimer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Advance moves the clock forward by d and runs the timers that fall due,
// including ones that those timers schedule within the window.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.Slice(c.timers, func(i, j int) bool {
			a, b := c.timers[i], c.timers[j]
			if !a.at.Equal(b.at) {
				return a.at.Before(b.at)
			}
			return a.seq < b.seq
		})
		if len(c.timers) == 0 || c.timers[0].at.After(target) {
			c.now = target
			c.mu.Unlock()
			return
		}
		t := c.timers[0]
		c.timers = c.timers[1:]
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f() // without the lock: f may read the clock or schedule again
	}
}
