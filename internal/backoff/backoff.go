// Package backoff is the one wait between attempts that every retry loop of the terminal uses:
// reconnecting to the table, asking again for a credit or a buy-in the table has not answered,
// start-up recovery. Exponential with full jitter, so a floor of terminals that lost their
// table server together do not all come back in the same millisecond.
//
// The wait runs on an injected clock (app/clock), like every other timer of the terminal, so a
// test moves it on by hand instead of sleeping through it.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/tablegames/ats/app/clock"
)

// Policy is a base wait, a ceiling and the clock the wait runs on; the zero Policy waits
// 500 ms rising to 5 s on the machine's clock.
type Policy struct {
	Base, Max time.Duration
	Clock     clock.Clock // nil: the machine's clock
}

func (p Policy) orDefault() Policy {
	if p.Base <= 0 {
		p.Base = 500 * time.Millisecond
	}
	if p.Max <= 0 {
		p.Max = 5 * time.Second
	}
	return p
}

// Delay is the wait before attempt n (from 0): a random time up to min(Base·2ⁿ, Max).
func (p Policy) Delay(n int) time.Duration {
	p = p.orDefault()
	ceiling := p.Max
	if n < 30 && p.Base<<n < p.Max {
		ceiling = p.Base << n
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}

// Retry calls try until it reports done, waiting Delay(n) between attempts; it returns the
// last error, or ctx's error if ctx ended first. try's error is passed to done so a caller
// decides which errors are final (a refusal) and which are worth another attempt.
func (p Policy) Retry(ctx context.Context, try func(context.Context) error, done func(error) bool) error {
	for n := 0; ; n++ {
		err := try(ctx)
		if done(err) {
			return err
		}
		if err := SleepOn(ctx, p.Clock, p.Delay(n)); err != nil {
			return err
		}
	}
}

// Sleep waits d on the machine's clock or until ctx ends, whichever is first; it returns
// ctx's error if ctx ended.
func Sleep(ctx context.Context, d time.Duration) error { return SleepOn(ctx, nil, d) }

// SleepOn is Sleep on clk (nil: the machine's clock). The timer is stopped when ctx ends
// first, so a cancelled wait leaves nothing pending on the clock.
func SleepOn(ctx context.Context, clk clock.Clock, d time.Duration) error {
	if clk == nil {
		clk = clock.Real{}
	}
	done := make(chan struct{})
	t := clk.AfterFunc(d, func() { close(done) })
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-done:
		return nil
	}
}
