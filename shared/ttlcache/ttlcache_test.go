package ttlcache_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/ttlcache"
)

func TestEntriesLiveExactlyTheTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := ttlcache.New[string, int](10*time.Second, 10, nil)
		c.Put("a", 1)
		steps := []struct {
			after time.Duration // since the Put
			ok    bool
		}{{0, true}, {9 * time.Second, true}, {10*time.Second - time.Nanosecond, true}, {10 * time.Second, false}, {time.Hour, false}}
		start := time.Now()
		for _, s := range steps {
			time.Sleep(start.Add(s.after).Sub(time.Now()))
			if v, ok := c.Get("a"); ok != s.ok || (ok && v != 1) {
				t.Fatalf("%v after the put: got %d %v, want present=%v", s.after, v, ok, s.ok)
			}
		}
		c.Put("a", 2) // a new Put starts a new TTL
		time.Sleep(5 * time.Second)
		if v, ok := c.Get("a"); !ok || v != 2 {
			t.Fatalf("after a second put: %d %v", v, ok)
		}
		c.Delete("a")
		if _, ok := c.Get("a"); ok {
			t.Fatal("deleted entry still there")
		}
	})
}

func TestSizeIsBoundedExpiredGoFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := ttlcache.New[int, int](time.Minute, 3, nil)
		c.Put(1, 1)
		time.Sleep(30 * time.Second)
		c.Put(2, 2)
		c.Put(3, 3)
		time.Sleep(45 * time.Second) // 1 expired, 2 and 3 live
		c.Put(4, 4)
		if c.Len() != 3 {
			t.Fatalf("len %d, want 3", c.Len())
		}
		for _, k := range []int{2, 3, 4} {
			if _, ok := c.Get(k); !ok {
				t.Errorf("live entry %d evicted while an expired one was there", k)
			}
		}
		for k := 5; k < 100; k++ {
			c.Put(k, k)
			if c.Len() > 3 {
				t.Fatalf("len %d over the bound 3", c.Len())
			}
		}
		if v, ok := c.Get(99); !ok || v != 99 {
			t.Fatal("the entry just put is missing")
		}
	})
}
