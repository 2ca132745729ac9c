// Package clocktest is a fake clock.Clock: time stands still until the test moves it, and
// the timers due by then run in the order they were due, on the goroutine that moved it.
package clocktest

import (
	"slices"
	"sync"
	"time"

	"github.com/tablegames/ats/app/clock"
)

// Fake is a clock that moves only when told. Safe for concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers []*timer
}

type timer struct {
	c   *Fake
	at  time.Time
	seq int // ties run in the order they were set
	f   func()
}

// New returns a fake clock at t.
func New(t time.Time) *Fake { return &Fake{now: t} }

// Now is the fake time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc sets f to run once the clock has been moved d on (at once on the next Advance for
// d ≤ 0).
func (c *Fake) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &timer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop cancels the timer.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	n := len(t.c.timers)
	t.c.timers = slices.DeleteFunc(t.c.timers, func(x *timer) bool { return x == t })
	return len(t.c.timers) != n
}

// Advance moves the clock d on, running each timer due by then at its own time, earliest
// first; a timer set by one that runs is run too if it falls due within d.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *timer
		for _, t := range c.timers {
			if !t.at.After(end) && (next == nil || t.at.Before(next.at) || (t.at.Equal(next.at) && t.seq < next.seq)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		c.timers = slices.DeleteFunc(c.timers, func(x *timer) bool { return x == next })
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f() // without the lock: it may set timers or read the clock
	}
}

// Pending is how many timers are set and not yet run.
func (c *Fake) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
