package precommit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server/ledger"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

var ctx = context.Background()

// stores is the same floor seen from n table servers: on SQLite one table's file (a table
// alone is its own floor, so every "table" is one ledger), on PostgreSQL n table servers'
// ledgers on one database.
func bothStores(t *testing.T, n int, fn func(t *testing.T, ss []*LedgerStore)) {
	t.Run("sqlite", func(t *testing.T) {
		l, err := ledger.OpenWith(filepath.Join(t.TempDir(), "t.db"), "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		var ss []*LedgerStore
		for range n {
			ss = append(ss, &LedgerStore{L: l})
		}
		fn(t, ss)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn, key := pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key")
		var ss []*LedgerStore
		for i := range n {
			l, err := ledger.OpenStore(ctx, ledger.StoreConfig{DSN: dsn, TableID: "T" + string(rune('1'+i)), KeyPath: key})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
			ss = append(ss, &LedgerStore{L: l})
		}
		fn(t, ss)
	})
}

var dayLimits = Limits{Loss: 10000, Time: 3 * time.Hour, Bar: BarDay}

func registered(t *testing.T, s Store, id string, l Limits) {
	t.Helper()
	if _, err := s.Register(ctx, id, Registered, "cashier C1: passport X123", t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLimits(ctx, id, l, t0); err != nil {
		t.Fatal(err)
	}
}

func refusedFor(t *testing.T, err error, reason string) *Refusal {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != reason {
		t.Fatalf("got %v, want a refusal for %q", err, reason)
	}
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("%v is not ErrRefused", err)
	}
	return r
}

// A card that is unregistered, lost or barred by the operator, or has no limits, takes no
// wager and holds no seat; the words say why.
func TestCardUnregisteredLostBarredOrWithoutLimitsIsRefused(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		h := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		refusedFor(t, errOf(s.Stake(ctx, h, 500, t0)), "unregistered")
		refusedFor(t, errOf(s.Claim(ctx, "C1", "T1/T01", t0)), "unregistered")
		if _, err := s.Card(ctx, "C1", t0); !errors.Is(err, ErrUnknown) {
			t.Fatalf("unknown card: %v", err)
		}
		if _, err := s.Register(ctx, "C1", Registered, "cashier C1: licence 42", t0); err != nil {
			t.Fatal(err)
		}
		refusedFor(t, errOf(s.Stake(ctx, h, 500, t0)), "no limits")
		if _, err := s.SetLimits(ctx, "C1", dayLimits, t0); err != nil {
			t.Fatal(err)
		}
		for _, st := range []State{Lost, Barred} {
			if _, err := s.Register(ctx, "C1", st, "cashier C1", t0); err != nil {
				t.Fatal(err)
			}
			refusedFor(t, errOf(s.Stake(ctx, h, 500, t0)), string(st))
			refusedFor(t, errOf(s.Claim(ctx, "C1", "T1/T01", t0)), string(st))
		}
		if _, err := s.Register(ctx, "C1", "stolen", "cashier C1", t0); err == nil {
			t.Fatal("a state that is none was taken")
		}
		if _, err := s.Register(ctx, "C2", Registered, "", t0); err == nil {
			t.Fatal("a card registered to no one was taken")
		}
	})
}

func errOf(_ Card, err error) error { return err }

// One card, one seat: a card held at one seat is refused at another, at this table or
// another of the floor, until the first releases it.
func TestCardInUseAtAnotherSeatIsRefused(t *testing.T) {
	bothStores(t, 2, func(t *testing.T, ss []*LedgerStore) {
		registered(t, ss[0], "C1", dayLimits)
		if _, err := ss[0].Claim(ctx, "C1", "T1/T01", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := ss[0].Claim(ctx, "C1", "T1/T01", t0); err != nil {
			t.Fatalf("the holding seat claiming again: %v", err)
		}
		refusedFor(t, errOf(ss[1].Claim(ctx, "C1", "T2/T05", t0)), "in use")
		refusedFor(t, errOf(ss[1].Stake(ctx, Hold{Card: "C1", Table: "T2", Terminal: "T05", Round: "R9"}, 100, t0)), "in use")
		if err := ss[0].Release(ctx, "C1", "T1/T01", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := ss[1].Claim(ctx, "C1", "T2/T05", t0); err != nil {
			t.Fatal(err)
		}
	})
}

// Lowering a limit takes effect at once; raising it only after the cooling-off (24 h).
func TestLimitLoweredAtOnceRaisedAfterCoolingOff(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", dayLimits)
		low := Limits{Loss: 5000, Time: time.Hour, Bar: BarWeek}
		c, err := s.SetLimits(ctx, "C1", low, t0.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if c.Limits != low || !c.NextFrom.IsZero() {
			t.Fatalf("lowered: in force %+v, next from %v", c.Limits, c.NextFrom)
		}
		high := Limits{Loss: 20000, Time: 4 * time.Hour, Bar: BarDay}
		at := t0.Add(2 * time.Minute)
		c, err = s.SetLimits(ctx, "C1", high, at)
		if err != nil {
			t.Fatal(err)
		}
		if c.Limits != low || c.Next != high || !c.NextFrom.Equal(at.Add(24*time.Hour)) {
			t.Fatalf("raised: in force %+v, next %+v from %v", c.Limits, c.Next, c.NextFrom)
		}
		h := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		refusedFor(t, errOf(s.Stake(ctx, h, 5001, at.Add(time.Hour))), "loss")
		c, err = s.Card(ctx, "C1", at.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if c.Limits != high {
			t.Fatalf("after the cooling-off: %+v", c.Limits)
		}
		if _, err := s.Stake(ctx, h, 5001, at.Add(24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		// Mixed: a lower loss limit and a longer time: the loss at once, the time later.
		c, err = s.SetLimits(ctx, "C1", Limits{Loss: 15000, Time: 5 * time.Hour, Bar: BarDay}, at.Add(25*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if c.Limits.Loss != 15000 || c.Limits.Time != 4*time.Hour || c.Next.Time != 5*time.Hour {
			t.Fatalf("mixed: in force %+v next %+v", c.Limits, c.Next)
		}
		if _, err := s.SetLimits(ctx, "C1", Limits{Loss: 100, Time: time.Hour, Bar: 48 * time.Hour}, at); err == nil {
			t.Fatal("a bar of 48 hours was taken")
		}
	})
}

// The loss limit: a slip that would take the net loss (stakes less returns, open stakes as
// lost) past the limit is refused, not clamped; one that reaches it exactly is taken; a loss
// that reaches it bars the card for its bar period, and it plays again after.
func TestLossLimitRefusesTheWagerThatWouldPassIt(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", dayLimits) // A$100
		r1 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		if _, err := s.Stake(ctx, r1, 6000, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Stake(ctx, r1, 8000, t0); err != nil { // a new slip version replaces the hold
			t.Fatal(err)
		}
		if _, err := s.Settle(ctx, r1, 8000, 4000, t0.Add(time.Minute)); err != nil { // lost 40
			t.Fatal(err)
		}
		r2 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R2"}
		ref := refusedFor(t, errOf(s.Stake(ctx, r2, 6001, t0.Add(2*time.Minute))), "loss")
		if ref.Words == "" {
			t.Fatal("no words")
		}
		c, err := s.Stake(ctx, r2, 6000, t0.Add(2*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if c.NetLoss() != 10000 || c.LossLeft() != 0 {
			t.Fatalf("net loss %d left %d", c.NetLoss(), c.LossLeft())
		}
		c, err = s.Settle(ctx, r2, 6000, 0, t0.Add(3*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		until := t0.Add(3*time.Minute + BarDay)
		if !c.BarredUntil.Equal(until) || c.BarredFor != "loss" {
			t.Fatalf("barred until %v for %q", c.BarredUntil, c.BarredFor)
		}
		r3 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R3"}
		ref = refusedFor(t, errOf(s.Stake(ctx, r3, 100, until.Add(-time.Second))), "bar")
		if !ref.Until.Equal(until) {
			t.Fatalf("refused until %v, want %v", ref.Until, until)
		}
		if c, err = s.Stake(ctx, r3, 100, until); err != nil || c.NetLoss() != 100 {
			t.Fatalf("after the bar: %v, net loss %d", err, c.NetLoss())
		}
	})
}

// The time limit: no wager once the time from the period's first wager is up, and reaching it
// bars the card; a slip taken before settles as usual; withdrawing is always taken.
func TestTimeLimitReachedMidPeriodBars(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", Limits{Loss: 100000, Time: time.Hour, Bar: BarWeek})
		r1 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		if _, err := s.Stake(ctx, r1, 500, t0.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		r2 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R2"}
		if _, err := s.Stake(ctx, r2, 500, t0.Add(69*time.Minute)); err != nil {
			t.Fatal(err)
		}
		up := t0.Add(70 * time.Minute)
		ref := refusedFor(t, errOf(s.Stake(ctx, r2, 600, up)), "time")
		if !ref.Until.Equal(up.Add(BarWeek)) {
			t.Fatalf("barred until %v", ref.Until)
		}
		if _, err := s.Stake(ctx, r2, 0, up.Add(time.Second)); err != nil {
			t.Fatalf("withdrawing during the bar: %v", err)
		}
		if c, err := s.Settle(ctx, r1, 500, 1000, up.Add(time.Minute)); err != nil || c.Returned != 1000 {
			t.Fatalf("the slip before the bar settles: %v %+v", err, c)
		}
		r3 := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R3"}
		refusedFor(t, errOf(s.Stake(ctx, r3, 100, up.Add(BarWeek-time.Second))), "bar")
		if _, err := s.Stake(ctx, r3, 100, up.Add(BarWeek)); err != nil {
			t.Fatal(err)
		}
	})
}

// Attack: one card at two terminals of two tables racing past a loss limit. Each stakes A$10
// slips as fast as it can; the limit is A$100. Never more than the limit is held.
func TestTwoTerminalsOneCardRacingPastLossLimit(t *testing.T) {
	bothStores(t, 2, func(t *testing.T, ss []*LedgerStore) {
		registered(t, ss[0], "C1", dayLimits)
		var wg sync.WaitGroup
		taken := make([]int, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := range 15 {
					h := Hold{Card: "C1", Table: "T" + string(rune('1'+i)), Terminal: "T01", Round: "R" + string(rune('a'+n))}
					_, err := ss[i].Stake(ctx, h, 1000, t0)
					switch {
					case err == nil:
						taken[i]++
					case errors.Is(err, ErrRefused):
					default:
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		c, err := ss[0].Card(ctx, "C1", t0)
		if err != nil {
			t.Fatal(err)
		}
		if taken[0]+taken[1] != 10 || c.Reserved != 10000 {
			t.Fatalf("taken %v, reserved %d: the limit is A$100 of A$10 stakes", taken, c.Reserved)
		}
	})
}

// A voided round releases its stakes unplayed; a settlement or void twice counts once.
func TestVoidReleasesAndSettleCountsOnce(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", dayLimits)
		h := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		if _, err := s.Stake(ctx, h, 10000, t0); err != nil {
			t.Fatal(err)
		}
		c, err := s.Void(ctx, h, t0)
		if err != nil || c.NetLoss() != 0 {
			t.Fatalf("void: %v net loss %d", err, c.NetLoss())
		}
		if c, _ = s.Void(ctx, h, t0); c.Reserved != 0 {
			t.Fatalf("void twice: reserved %d", c.Reserved)
		}
		h.Round = "R2"
		if _, err := s.Stake(ctx, h, 3000, t0); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if c, err = s.Settle(ctx, h, 3000, 0, t0); err != nil {
				t.Fatal(err)
			}
		}
		if c.Staked != 3000 || c.Reserved != 0 {
			t.Fatalf("settled twice: %+v", c)
		}
	})
}

// Attack: a slip racing the settlement. The round's hold settled (or was voided) first; the
// slip's stake that arrives after is refused and reserves nothing, so no stake of a closed
// round lingers on the card or passes its limit later.
func TestSlipRacingSettlementReservesNothing(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", dayLimits)
		h := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		if _, err := s.Stake(ctx, h, 2000, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Settle(ctx, h, 2000, 0, t0); err != nil {
			t.Fatal(err)
		}
		refusedFor(t, errOf(s.Stake(ctx, h, 3000, t0)), "closed")
		if _, err := s.Stake(ctx, h, 0, t0); err != nil {
			t.Fatalf("withdrawing after the close: %v", err)
		}
		v := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R2"}
		if _, err := s.Void(ctx, v, t0); err != nil {
			t.Fatal(err)
		}
		c, err := s.Card(ctx, "C1", t0)
		if err != nil {
			t.Fatal(err)
		}
		if c.Reserved != 0 || c.NetLoss() != 2000 {
			t.Fatalf("reserved %d net loss %d", c.Reserved, c.NetLoss())
		}
	})
}

// An allowance reserves everything the card has left for the one seat holding it, so its
// further slips of the round need no call; it is refused as a stake would be; its settlement
// counts only what was staked, and frees the rest.
func TestAllowanceReservesTheRestAndSettlesWhatWasStaked(t *testing.T) {
	bothStores(t, 2, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", dayLimits)
		h := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		c, allowance, err := s.Allow(ctx, h, 2000, Played{}, t0)
		if err != nil || allowance != 10000 || c.LossLeft() != 0 {
			t.Fatalf("allowance %d, left %d: %v", allowance, c.LossLeft(), err)
		}
		// Another table, the same card: nothing left (and the card is not its to use).
		refusedFor(t, errOf(ss[1].Stake(ctx, Hold{Card: "C1", Table: "T2", Terminal: "T01", Round: "S1"}, 100, t0)), "loss")
		if _, a, err := s.Allow(ctx, h, 4000, Played{}, t0); err != nil || a != 10000 {
			t.Fatalf("again in the round: %d %v", a, err)
		}
		if c, err = s.Settle(ctx, h, 3000, 0, t0); err != nil || c.NetLoss() != 3000 || c.Reserved != 0 {
			t.Fatalf("settled: %+v %v", c, err)
		}
		h.Round = "R2"
		refusedFor(t, errOf3(s.Allow(ctx, h, 7001, Played{}, t0)), "loss")
		if c, _ := s.Card(ctx, "C1", t0); c.Reserved != 0 {
			t.Fatalf("a refused allowance reserved %d", c.Reserved)
		}
		if _, a, err := s.Allow(ctx, h, 7000, Played{}, t0); err != nil || a != 7000 {
			t.Fatalf("to the limit: %d %v", a, err)
		}
	})
}

func errOf3(_ Card, _ int64, err error) error { return err }

// SPEC §10: a 15-minute break after three hours of continuous play. A pause as long as the
// break is one, and continuous play starts again; past three hours without one, the next
// wager is refused until the break is over.
func TestBreakAfterThreeHoursContinuousPlay(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", Limits{Loss: 1000000, Time: 20 * time.Hour, Bar: BarDay})
		stake := func(round string, at time.Time) error {
			_, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: round}, 100, at)
			return err
		}
		at := t0
		for i := range 18 { // 3 hours of a wager every 10 minutes
			if err := stake("A"+string(rune('a'+i)), at); err != nil {
				t.Fatalf("at %v: %v", at.Sub(t0), err)
			}
			at = at.Add(10 * time.Minute)
		}
		// A pause of 15 minutes was not taken: the three hours are up.
		r := refusedFor(t, stake("B1", t0.Add(3*time.Hour)), "break")
		if !r.Until.Equal(t0.Add(3*time.Hour + 15*time.Minute)) {
			t.Fatalf("break until %v", r.Until)
		}
		refusedFor(t, stake("B2", t0.Add(3*time.Hour+14*time.Minute)), "break")
		if err := stake("B3", t0.Add(3*time.Hour+15*time.Minute)); err != nil {
			t.Fatal(err)
		}
		// Continuous play counts again from there; a 15-minute pause resets it.
		if err := stake("C1", t0.Add(5*time.Hour+10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := stake("C2", t0.Add(6*time.Hour+20*time.Minute)); err != nil {
			t.Fatalf("after a pause of an hour: %v", err)
		}
	})
}
