// Package clocksync estimates the table server's clock from request/response exchanges, the
// way NTP does, so a terminal can show the countdown and lock its layout on the server's time.
//
// Each exchange gives four times: t0 the client sent, t1 the server received, t2 the server
// replied, t3 the client received. Its offset estimate is ((t1−t0)+(t2−t3))/2 and its round-trip
// delay (t3−t0)−(t2−t1). Whatever the split of the delay between the two directions, the true
// offset lies within delay/2 of the estimate, so the sample with the smallest delay in a recent
// window (the min-RTT filter) gives the tightest bound, and the lock time derived from it is
// provably never after the server's deadline.
package clocksync

import (
	"sync"
	"time"
)

// Sample is one exchange.
type Sample struct {
	T0, T1, T2, T3 time.Time
}

// Offset is server time minus client time by this sample.
func (s Sample) Offset() time.Duration { return (s.T1.Sub(s.T0) + s.T2.Sub(s.T3)) / 2 }

// Delay is the round trip spent on the network.
func (s Sample) Delay() time.Duration { return s.T3.Sub(s.T0) - s.T2.Sub(s.T1) }

// Estimator keeps the last Window samples. It is safe for concurrent use.
type Estimator struct {
	mu      sync.Mutex
	window  int
	samples []Sample
}

// DefaultWindow is how many recent exchanges the min-RTT filter looks at.
const DefaultWindow = 8

// New returns an estimator over the last window samples (DefaultWindow if window < 1).
func New(window int) *Estimator {
	if window < 1 {
		window = DefaultWindow
	}
	return &Estimator{window: window}
}

// Add records an exchange. Samples with a negative delay (a clock that jumped) are ignored.
func (e *Estimator) Add(s Sample) bool {
	if s.Delay() < 0 || s.T3.Before(s.T0) {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.samples = append(e.samples, s)
	if len(e.samples) > e.window {
		e.samples = e.samples[len(e.samples)-e.window:]
	}
	return true
}

// Reset forgets every sample (after a reconnect, the path may have changed).
func (e *Estimator) Reset() {
	e.mu.Lock()
	e.samples = nil
	e.mu.Unlock()
}

// Estimate returns the offset of the minimum-delay sample and its error bound (half its delay).
// ok is false before the first sample.
func (e *Estimator) Estimate() (offset, bound time.Duration, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.samples) == 0 {
		return 0, 0, false
	}
	best := e.samples[0]
	for _, s := range e.samples[1:] {
		if s.Delay() < best.Delay() {
			best = s
		}
	}
	return best.Offset(), (best.Delay() + 1) / 2, true
}

// ServerNow converts a local time to the estimated server time.
func (e *Estimator) ServerNow(local time.Time) time.Time {
	off, _, _ := e.Estimate()
	return local.Add(off)
}

// Margin is added to the error bound when locking: scheduling and drawing take time too.
const Margin = 5 * time.Millisecond

// LockAt returns the local time at which to lock for a server deadline: early by the error
// bound and Margin, so the layout is locked before the server's deadline whatever the true
// offset within the bound. Without any sample it cannot know, so it locks at once (zero time).
func (e *Estimator) LockAt(deadline time.Time) time.Time {
	off, bound, ok := e.Estimate()
	if !ok {
		return time.Time{}
	}
	return deadline.Add(-off - bound - Margin)
}
