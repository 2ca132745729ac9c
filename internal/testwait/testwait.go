// Package testwait is how a test waits for what another process or goroutine does — a device
// emulator on a pseudo-terminal, a table server on loopback, a driver's poll — that no clock of
// the test's own can move on. (Timers of the terminal itself run on an injected clock, which a
// test advances instead: app/clock/clocktest.) One helper, so every such wait checks often at
// first, backs off, and gives up at a stated time rather than hanging.
package testwait

import "time"

// For checks ok until it holds or within has passed; it reports whether ok held. The caller
// fails its test with what it was waiting for.
func For(within time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(within)
	wait := time.Millisecond
	for !ok() {
		if time.Now().After(deadline) {
			return ok()
		}
		t := time.NewTimer(wait)
		<-t.C
		wait = min(2*wait, 20*time.Millisecond)
	}
	return true
}
