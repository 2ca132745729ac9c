package precommit

import (
	"testing"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

// reserve runs ReserveIn in a transaction of its own at now.
func reserve(t *testing.T, s *LedgerStore, h Hold, now time.Time) (Card, int64) {
	t.Helper()
	var bounds Card
	var amount int64
	if err := s.L.Update(ctx, now, func(tx *ledger.Tx) error {
		var err error
		bounds, amount, err = s.ReserveIn(tx, h, now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return bounds, amount
}

// Issue 31: a reservation at a round's open is taken only where a stake could be taken now,
// and never does what a refused stake does: a card whose time limit is up reserves nothing and
// is not barred by it — the bar comes from the first slip that asks, as before, in words. A
// card held at another seat, or at none, reserves nothing either.
func TestReserveNothingWhereAStakeWouldBeRefused(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", Limits{Loss: 10000, Time: time.Hour, Bar: BarWeek})
		h1 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		if _, amount := reserve(t, s, h1, t0); amount != 0 {
			t.Fatalf("a card held at no seat: %d reserved", amount)
		}
		if _, err := s.Claim(ctx, "C1", h1.Seat(), t0); err != nil {
			t.Fatal(err)
		}
		bounds, amount := reserve(t, s, h1, t0)
		c, err := s.Card(ctx, "C1", t0)
		if err != nil {
			t.Fatal(err)
		}
		if amount != 10000 || c.Reserved != 10000 || !c.PeriodStart.IsZero() || !c.PlayFrom.IsZero() || !c.PlayedAt.IsZero() {
			t.Fatalf("the reservation: %d; card %+v: want all of it reserved and no play", amount, c)
		}
		if !bounds.TimeUp().Equal(t0.Add(time.Hour)) {
			t.Fatalf("the reservation's time limit ends %v, want as if play started at it: %v", bounds.TimeUp(), t0.Add(time.Hour))
		}
		// The first slip 10 minutes later, settled: the period starts there.
		first := t0.Add(10 * time.Minute)
		if _, err := s.Settle(ctx, h1, 500, 0, first.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.L.Update(ctx, first.Add(time.Minute), func(tx *ledger.Tx) error {
			_, err := s.SettleIn(tx, h1, 500, 0, Played{First: first, Last: first})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if c, _ = s.Card(ctx, "C1", first.Add(time.Minute)); !c.PeriodStart.IsZero() {
			// Settle closed the hold first (no play told): a second settlement counts nothing.
			t.Fatalf("a closed hold settled again: %+v", c)
		}
		h2 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R2"}
		reserve(t, s, h2, first)
		if err := s.L.Update(ctx, first.Add(time.Minute), func(tx *ledger.Tx) error {
			_, err := s.SettleIn(tx, h2, 500, 0, Played{First: first, Last: first.Add(30 * time.Second)})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		c, _ = s.Card(ctx, "C1", first.Add(time.Minute))
		if !c.PeriodStart.Equal(first) || !c.PlayFrom.Equal(first) || !c.PlayedAt.Equal(first.Add(30*time.Second)) || c.NetLoss() != 1000 || c.Reserved != 0 {
			t.Fatalf("after the settlement: %+v; want play from %v to %v, net loss 1000", c, first, first.Add(30*time.Second))
		}
		// The hour from the first slip is up: a reservation then takes nothing and bars nothing.
		up := first.Add(time.Hour)
		h3 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R3"}
		if _, amount := reserve(t, s, h3, up); amount != 0 {
			t.Fatalf("time up: %d reserved", amount)
		}
		if c, _ = s.Card(ctx, "C1", up); !c.BarredUntil.IsZero() || c.Reserved != 0 {
			t.Fatalf("a reservation refused barred the card or kept something back: %+v", c)
		}
		refusedFor(t, errOf3(s.Allow(ctx, h3, 100, Played{}, up)), "time")
		// Held at another seat: nothing.
		h4 := Hold{Card: "C1", Table: "T2", Terminal: "T09", Round: "R1"}
		if _, amount := reserve(t, s, h4, up.Add(BarWeek)); amount != 0 {
			t.Fatalf("a card held at another seat: %d reserved", amount)
		}
	})
}
