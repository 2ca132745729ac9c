// Package backoff is the one wait between attempts that every retry loop of the terminal uses:
// reconnecting to the table, asking again for a credit or a buy-in the table has not answered,
// start-up recovery. Exponential with full jitter, so a floor of terminals that lost their
// table server together do not all come back in the same millisecond.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Policy is a base wait and a ceiling; the zero Policy waits 500 ms rising to 5 s.
type Policy struct {
	Base, Max time.Duration
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
		if err := Sleep(ctx, p.Delay(n)); err != nil {
			return err
		}
	}
}

// Sleep waits d or until ctx ends, whichever is first; it returns ctx's error if ctx ended.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
