package server

import (
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

// SettleTrace is where the time of one round's settlement goes, from the dealer's outcome to
// the last Settled event leaving the server: the table's lock taken, the ledger transaction
// (rows, seal, commit; ledger.Timing), every event on its stream's queue, and the first and
// last written to its stream by the Watch handlers. cmd/loadgen prints it beside the terminals'
// receive times. It costs a few clock reads and one atomic add per Settled event sent.
type SettleTrace struct {
	Round  string
	Locked time.Time     // EnterOutcome holds the table's lock
	Ledger ledger.Timing // the settlement's transaction
	Queued time.Time     // every Settled event queued for its streams
	Events int           // Settled events queued (a terminal with two streams counts twice)
	sent   atomic.Int64
	first  atomic.Int64 // unix ns of the first Send to return
	last   atomic.Int64 // unix ns of the latest
}

// Sent is how many Settled events the Watch handlers have written, the first and the last
// time one was.
func (s *SettleTrace) Sent() (n int64, first, last time.Time) {
	return s.sent.Load(), time.Unix(0, s.first.Load()), time.Unix(0, s.last.Load())
}

func (s *SettleTrace) markSent() {
	now := time.Now().UnixNano()
	if s.sent.Add(1) == 1 {
		s.first.Store(now)
	}
	for {
		old := s.last.Load()
		if now <= old || s.last.CompareAndSwap(old, now) {
			return
		}
	}
}

// LastSettleTrace is the trace of the latest settlement, nil before the first.
func (t *Table) LastSettleTrace() *SettleTrace { return t.settleTrace.Load() }

// sent is called by a Watch handler once it has written ev to its stream.
func (e *event) sent() {
	if e.trace != nil {
		e.trace.markSent()
	}
}
