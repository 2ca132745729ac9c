package precommit

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/testwait"
	"github.com/tablegames/ats/server/ledger"
)

// groupAllows runs one Allow per hold at once, the first held just before its commit until
// every other call has queued behind it: the others must go into one transaction together.
// It returns each call's result and the number of transactions committed.
func groupAllows(t *testing.T, s *LedgerStore, holds []Hold, need int64) (cards []Card, amounts []int64, errs []error, commits int64) {
	t.Helper()
	var n atomic.Int64
	s.L.OnCommit(func() { n.Add(1) })
	release := make(chan struct{})
	var once sync.Once
	s.L.BeforeCommit(func() { once.Do(func() { <-release }) })
	defer s.L.BeforeCommit(nil)
	defer s.L.OnCommit(nil)
	cards, amounts, errs = make([]Card, len(holds)), make([]int64, len(holds)), make([]error, len(holds))
	var wg sync.WaitGroup
	call := func(i int) {
		defer wg.Done()
		cards[i], amounts[i], errs[i] = s.Allow(ctx, holds[i], need, Played{}, t0)
	}
	wg.Add(1)
	go call(0)
	queued := func(k int) func() bool {
		return func() bool {
			s.allows.mu.Lock()
			defer s.allows.mu.Unlock()
			return s.allows.running && len(s.allows.queue) == k
		}
	}
	if !testwait.For(5*time.Second, queued(0)) {
		t.Fatal("the first call never began its transaction")
	}
	for i := 1; i < len(holds); i++ {
		wg.Add(1)
		go call(i)
	}
	if !testwait.For(5*time.Second, queued(len(holds)-1)) {
		t.Fatal("the other calls did not queue behind the first")
	}
	close(release)
	wg.Wait()
	return cards, amounts, errs, n.Load()
}

// At a round's first slips every seat of a carded table asks for its allowance at once. The
// calls that arrive while one commits are committed together in the next transaction — two
// durable commits for twelve seats, not twelve — and each decides exactly what it would have
// decided alone: the rest of its card's loss limit reserved, or its own refusal (a card at its
// limit), which fails no other seat's call.
func TestAllowCallsArrivingTogetherCommitTogether(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		const seats = 12
		var holds []Hold
		for i := range seats {
			id := fmt.Sprintf("C%02d", i+1)
			registered(t, s, id, dayLimits)
			holds = append(holds, Hold{Card: id, Table: "T1", Terminal: fmt.Sprintf("T%02d", i+1), Round: "R1"})
		}
		// C12 has lost all but 5.00 of its 100.00 limit: its 20.00 is refused.
		spent := Hold{Card: "C12", Table: "T1", Terminal: "T12", Round: "R0"}
		if _, err := s.Stake(ctx, spent, 9500, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Settle(ctx, spent, 9500, 0, t0); err != nil {
			t.Fatal(err)
		}
		cards, amounts, errs, commits := groupAllows(t, s, holds, 2000)
		if commits != 2 {
			t.Errorf("%d transactions for %d calls arriving together, want 2 (the first, then the rest as one)", commits, seats)
		}
		for i := range seats - 1 {
			if errs[i] != nil || amounts[i] != 10000 || cards[i].Reserved != 10000 {
				t.Errorf("%s: allowance %d, reserved %d, %v; want 100.00 reserved", holds[i].Card, amounts[i], cards[i].Reserved, errs[i])
			}
		}
		refusedFor(t, errs[seats-1], "loss")
		// Each allowance is in the store, as its own transaction would have left it.
		for i := range seats - 1 {
			if c, err := s.Card(ctx, holds[i].Card, t0); err != nil || c.Reserved != 10000 {
				t.Errorf("%s in the store: reserved %d, %v", holds[i].Card, c.Reserved, err)
			}
		}
		if c, _ := s.Card(ctx, "C12", t0); c.Reserved != 0 {
			t.Errorf("the refused card reserved %d", c.Reserved)
		}
	})
}

// A call that fails in the group with a database error (here a hold named with a NUL byte,
// which the ledger refuses as a key) fails alone: the group is run again one call a
// transaction, and the other seats' allowances stand.
func TestAllowCallFailingInAGroupFailsAlone(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		for _, id := range []string{"C1", "C2", "C3", "C4"} {
			registered(t, s, id, dayLimits)
		}
		holds := []Hold{
			{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"},
			{Card: "C2", Table: "T1", Terminal: "T02", Round: "R1"},
			{Card: "C3", Table: "T1", Terminal: "T0\x003", Round: "R1"},
			{Card: "C4", Table: "T1", Terminal: "T04", Round: "R1"},
		}
		_, amounts, errs, _ := groupAllows(t, s, holds, 1000)
		for _, i := range []int{0, 1, 3} {
			if errs[i] != nil || amounts[i] != 10000 {
				t.Errorf("%s: allowance %d, %v; want 100.00", holds[i].Card, amounts[i], errs[i])
			}
		}
		if !errors.Is(errs[2], ledger.ErrKeyText) {
			t.Errorf("the bad hold: %v, want ErrKeyText", errs[2])
		}
	})
}
