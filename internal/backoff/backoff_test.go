package backoff

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/internal/testwait"
)

func TestDelayStaysUnderItsCeiling(t *testing.T) {
	p := Policy{Base: 10 * time.Millisecond, Max: 80 * time.Millisecond}
	for n, ceiling := range []time.Duration{10, 20, 40, 80, 80, 80} {
		for range 200 {
			if d := p.Delay(n); d < 0 || d > ceiling*time.Millisecond {
				t.Fatalf("attempt %d: %v, want 0..%v", n, d, ceiling*time.Millisecond)
			}
		}
	}
	if d := (Policy{}).Delay(100); d > 5*time.Second {
		t.Fatalf("default ceiling exceeded: %v", d)
	}
}

func TestRetryUntilDoneOrCancelled(t *testing.T) {
	p := Policy{Base: time.Microsecond, Max: time.Microsecond}
	final := errors.New("refused")
	calls := 0
	err := p.Retry(context.Background(), func(context.Context) error {
		calls++
		if calls < 3 {
			return errors.New("no answer")
		}
		return final
	}, func(err error) bool { return errors.Is(err, final) })
	if !errors.Is(err, final) || calls != 3 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Policy{Base: time.Hour, Max: time.Hour}.Retry(ctx, func(context.Context) error { return errors.New("down") }, func(error) bool { return false })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled retry: %v", err)
	}
}

func TestDelayIsJittered(t *testing.T) {
	seen := map[time.Duration]bool{}
	for n := range 40 {
		seen[Policy{Base: 100 * time.Millisecond, Max: 2 * time.Second}.Delay(n)] = true
	}
	if len(seen) < 30 {
		t.Fatalf("backoff is not jittered: %d distinct waits in 40", len(seen))
	}
}

// The wait between attempts runs on the policy's clock, not the wall clock behind it: a
// fake clock that is not moved holds the next attempt back however long the test runs, and
// moving it past the ceiling lets exactly one more attempt through.
func TestRetryWaitsOnTheInjectedClockNotTheWallClock(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := Policy{Base: time.Hour, Max: time.Hour, Clock: clk}
	var calls atomic.Int32
	out := make(chan error, 1)
	go func() {
		out <- p.Retry(context.Background(), func(context.Context) error {
			if calls.Add(1) < 3 {
				return errors.New("no answer")
			}
			return nil
		}, func(err error) bool { return err == nil })
	}()
	for want := int32(1); want <= 2; want++ {
		if !testwait.For(5*time.Second, func() bool { return clk.Pending() == 1 }) {
			t.Fatalf("attempt %d: no wait set on the injected clock (calls %d)", want, calls.Load())
		}
		if n := calls.Load(); n != want {
			t.Fatalf("%d attempts before the clock moved, want %d", n, want)
		}
		clk.Advance(time.Hour) // the ceiling: whatever the jitter drew, the wait is over
	}
	select {
	case err := <-out:
		if err != nil || calls.Load() != 3 {
			t.Fatalf("err %v after %d attempts", err, calls.Load())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Retry did not return after the clock moved past every wait")
	}
}

// Cancelling the context ends the wait at once and leaves no timer behind on the clock.
func TestSleepOnEndsWithItsContextAndStopsItsTimer(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan error, 1)
	go func() { out <- SleepOn(ctx, clk, time.Hour) }()
	if !testwait.For(5*time.Second, func() bool { return clk.Pending() == 1 }) {
		t.Fatal("SleepOn set no timer on the clock")
	}
	cancel()
	if err := <-out; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled sleep: %v", err)
	}
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers left on the clock after the sleep ended", n)
	}
	// And a sleep that runs out returns nil once the clock has moved d, not before.
	go func() { out <- SleepOn(context.Background(), clk, time.Minute) }()
	if !testwait.For(5*time.Second, func() bool { return clk.Pending() == 1 }) {
		t.Fatal("SleepOn set no timer on the clock")
	}
	clk.Advance(time.Minute - time.Nanosecond)
	select {
	case err := <-out:
		t.Fatalf("sleep of a minute ended after a minute less a nanosecond: %v", err)
	default:
	}
	clk.Advance(time.Nanosecond)
	if err := <-out; err != nil {
		t.Fatalf("sleep that ran out: %v", err)
	}
}
