package backoff

import (
	"context"
	"errors"
	"testing"
	"time"
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
