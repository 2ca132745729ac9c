package precommit

// Allow's group commit. A carded table asks the store for each seat's allowance at the seat's
// first slip of a round (server/carded.go), so when a round opens every seat asks within a few
// milliseconds. Each Allow was a transaction of its own, committed durably one after another:
// at 500 seats the last waited for 499 commits (a slip round trip of over a second on a quiet
// machine, against the 5 ms p99). Here the calls that arrive while one transaction is
// committing wait, and the next transaction carries all of them: each call's check and
// reservation runs exactly as in its own transaction (allowIn, in order, under its own actor
// and time: ledger.Tx.As), and they commit together. What a call decides is what it would have
// decided alone after the calls before it, since they run in sequence on the same rows.
//
// A group that fails as a whole (a database error, never a refusal: a refusal is a result)
// is run again one call a transaction, so one bad call cannot fail the others' slips.

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

// allowGroup is the queue of Allow calls waiting for the next transaction, and whether a
// transaction of them is under way. The zero value is ready.
type allowGroup struct {
	mu      sync.Mutex
	queue   []*allowCall
	running bool
}

// allowCall is one Allow: its arguments, and its result once done is closed.
type allowCall struct {
	ctx    context.Context
	h      Hold
	need   int64
	played Played
	now    time.Time

	card   Card
	amount int64
	err    error
	done   chan struct{}
}

// allow runs c, in a transaction of its own when none is under way, or in the next group.
func (g *allowGroup) allow(s *LedgerStore, c *allowCall) (Card, int64, error) {
	c.done = make(chan struct{})
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if g.running {
		g.mu.Unlock()
		<-c.done
		return c.card, c.amount, c.err
	}
	g.running = true
	batch := g.take()
	g.mu.Unlock()
	s.allowBatch(batch)
	// The calls that queued meanwhile are the next group, committed by a goroutine of their
	// own: this caller's slip is answered now rather than after theirs.
	g.mu.Lock()
	if len(g.queue) == 0 {
		g.running = false
		g.mu.Unlock()
	} else {
		g.mu.Unlock()
		go g.drain(s)
	}
	return c.card, c.amount, c.err
}

// take empties the queue. Under g.mu.
func (g *allowGroup) take() []*allowCall {
	b := g.queue
	g.queue = nil
	return b
}

// drain commits the queued groups until none is left.
func (g *allowGroup) drain(s *LedgerStore) {
	for {
		g.mu.Lock()
		if len(g.queue) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		batch := g.take()
		g.mu.Unlock()
		s.allowBatch(batch)
	}
}

// allowBatch runs the calls of one group and closes each one's done.
func (s *LedgerStore) allowBatch(batch []*allowCall) {
	defer func() {
		for _, c := range batch {
			close(c.done)
		}
	}()
	if len(batch) == 1 {
		c := batch[0]
		c.card, c.amount, c.err = s.allowOne(c.ctx, c.h, c.need, c.played, c.now)
		return
	}
	// The cards' rows in one order, so two tables' groups on one floor's PostgreSQL lock them
	// the same way round rather than deadlock (the ledger retries one that does).
	slices.SortStableFunc(batch, func(a, b *allowCall) int {
		switch {
		case a.h.Card < b.h.Card:
			return -1
		case a.h.Card > b.h.Card:
			return 1
		}
		return 0
	})
	last := batch[0].now
	for _, c := range batch {
		if c.now.After(last) {
			last = c.now
		}
	}
	err := s.L.Update(batch[0].ctx, last, func(tx *ledger.Tx) error {
		for _, c := range batch {
			c.card, c.amount, c.err = Card{}, 0, nil // a retried transaction starts again
			if err := tx.As(c.ctx, c.now, func(tx *ledger.Tx) error {
				card, refusal, amount, err := s.allowIn(tx, c.h, c.need, c.played, c.now)
				c.card, c.amount = card, amount
				if refusal != nil {
					c.err = refusal
				}
				return err
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		return
	}
	for _, c := range batch {
		c.card, c.amount, c.err = s.allowOne(c.ctx, c.h, c.need, c.played, c.now)
	}
}
