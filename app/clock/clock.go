// Package clock is the one clock the terminal's timers run on: the lock at the deadline, the
// warning before it, the time a message stays on screen. It is injected (never time.Now and
// time.AfterFunc reached for directly) so a test moves time on by hand, in order, without
// sleeping; clocktest holds that fake beside this interface.
package clock

import "time"

// Clock tells the time and calls a function after a duration.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending call of AfterFunc.
type Timer interface {
	// Stop cancels the call; it reports whether it did (false: it ran or was stopped already).
	Stop() bool
}

// Real is the machine's clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
