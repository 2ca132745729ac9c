package server

// Issue 31, the slip round trip at 500 terminals: each carded seat's allowance is reserved in
// the transaction that opens the round (carded.go reserveCards, precommit.LedgerStore.ReserveIn),
// so the seat's first slip makes no store call. These tests prove what that must not change:
// a reservation is not play, play is counted from the first slip, and never one wager past a
// limit when the reservation meets a cash-out, a card change, a restart or a slip past it.

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// countingStore is the table's card store counting its Allow calls: the store calls a slip
// makes on its way.
type countingStore struct {
	*precommit.LedgerStore
	allows atomic.Int64
}

func (s *countingStore) Allow(ctx context.Context, h precommit.Hold, need int64, played precommit.Played, now time.Time) (precommit.Card, int64, error) {
	s.allows.Add(1)
	return s.LedgerStore.Allow(ctx, h, need, played, now)
}

// countingRig is a carded rig whose table's card store counts its Allow calls.
func countingRig(t *testing.T, pg bool, more func(*Config)) (*rig, *countingStore) {
	s := &countingStore{LedgerStore: &precommit.LedgerStore{}}
	cfg := func(c *Config) {
		c.Carded, c.Cards = true, s
		if more != nil {
			more(c)
		}
	}
	var r *rig
	if pg {
		r = newPGRig(t, pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key"), cfg)
	} else {
		r = newRigWith(t, cfg)
	}
	s.L, s.S = r.led, r.table.cfg.Precommit
	return r, s
}

// bothCountingRigs runs fn on a counting rig on SQLite and on PostgreSQL.
func bothCountingRigs(t *testing.T, more func(*Config), fn func(t *testing.T, r *rig, s *countingStore)) {
	t.Run("sqlite", func(t *testing.T) { r, s := countingRig(t, false, more); fn(t, r, s) })
	t.Run("postgres", func(t *testing.T) { r, s := countingRig(t, true, more); fn(t, r, s) })
}

// heldWithoutPlay has the seat hold card with limits l and no play on it yet: the card is
// presented at the terminal and its first limits set there (cardseat.go), as a player does
// before their first wager.
func heldWithoutPlay(t *testing.T, r *rig, terminal, card string, l precommit.Limits) {
	t.Helper()
	if _, err := r.cards().Register(ctx, card, precommit.Registered, "cashier C1: passport X1", r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.table.PresentCard(terminal, card); err != nil {
		t.Fatal(err)
	}
	if _, err := r.table.SetCardLimits(terminal, card, l); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) card(t *testing.T, id string) precommit.Card {
	t.Helper()
	c, err := r.cards().Card(ctx, id, r.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (r *rig) nextRound(t *testing.T) string {
	t.Helper()
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return st.RoundId
}

// seatedRound plays a first round at T1 on card C42 (A$100 limit) — a slip of first, outcome
// (red "1" wins, "2" loses) — so the seat holds the card, and opens the next round, in which
// the card's allowance is reserved for the seat. It returns T1 and that round.
func seatedRound(t *testing.T, r *rig, first int64, outcome string) (pb.TerminalServiceClient, string) {
	t.Helper()
	r.registerCard(t, "C42", limit100)
	c, round := openRound(t, r, "T1", 50000)
	if _, err := redSlip(c, round, 1, first, "C42"); err != nil {
		t.Fatal(err)
	}
	r.finish(t, round, outcome)
	return c, r.nextRound(t)
}

// Issue 31 (the slip's p99 at 500 terminals): a seat holding its card when a round opens has
// its allowance reserved then; its first slip of the round, and every slip within the
// allowance, makes no store call. A seat that takes its card at its first slip asks the store
// once, as before.
func TestSPEC10_FirstSlipOfARoundMakesNoStoreCall(t *testing.T) {
	bothCountingRigs(t, nil, func(t *testing.T, r *rig, s *countingStore) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		if n := s.allows.Load(); n != 1 {
			t.Fatalf("the card taken at the seat's first slip: %d store calls, want 1", n)
		}
		r.finish(t, round, "1") // won: net loss 0
		round = r.nextRound(t)
		if card := r.card(t, "C42"); card.Reserved != 11000 {
			t.Fatalf("the round open: reserved %d, want the whole A$110 left (A$100 and the A$10 won)", card.Reserved)
		}
		for v := uint64(1); v <= 3; v++ {
			r.clock.Add(time.Second)
			if _, err := redSlip(c, round, v, int64(v)*1000, "C42"); err != nil {
				t.Fatal(err)
			}
		}
		if n := s.allows.Load(); n != 1 {
			t.Fatalf("three slips under the round's reservation: %d store calls in all, want still 1", n)
		}
		r.finish(t, round, "2")
		if n, card := r.netLoss(t, "C42"); n != 3000-1000 || card.Reserved != 0 {
			t.Fatalf("after the settlement: net loss %d, reserved %d; want 2000 and 0", n, card.Reserved)
		}
	})
}

// Issue 31: a reservation at the round's open is not play. A seat holding its card that
// places nothing in the round leaves the card's limit period, continuous play and breaks
// exactly as they were, and the settlement releases the reservation in full; a seat that
// plays starts them at its first slip, not at the open.
func TestSPEC10_ReservationIsNotPlay(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		c, round := openRound(t, r, "T1", 50000) // round 1: the seat has no card yet
		heldWithoutPlay(t, r, "T1", "C42", limit100)
		r.finish(t, round, "5")
		before := r.card(t, "C42")
		round = r.nextRound(t) // the reservation
		open := r.card(t, "C42")
		if open.Reserved != 10000 || !open.PeriodStart.IsZero() || !open.PlayFrom.IsZero() || !open.PlayedAt.IsZero() {
			t.Fatalf("at the open: reserved %d, period from %v, play from %v, played at %v; want 10000 reserved and no play",
				open.Reserved, open.PeriodStart, open.PlayFrom, open.PlayedAt)
		}
		r.finish(t, round, "2") // the seat placed nothing
		after := r.card(t, "C42")
		if after.Reserved != 0 || after.NetLoss() != 0 || !after.PeriodStart.Equal(before.PeriodStart) ||
			!after.PlayFrom.Equal(before.PlayFrom) || !after.PlayedAt.Equal(before.PlayedAt) || len(after.Spans) != len(before.Spans) {
			t.Fatalf("a round the seat sat out: %+v; want %+v with nothing reserved", after, before)
		}
		// Played from the first slip, 10 s after the open, to the latest, 15 s after.
		round = r.nextRound(t)
		t0 := r.clock.Now()
		r.clock.Add(10 * time.Second)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(5 * time.Second)
		if _, err := redSlip(c, round, 2, 2000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round, "2")
		got := r.card(t, "C42")
		first, last := t0.Add(10*time.Second), t0.Add(15*time.Second)
		if !got.PeriodStart.Equal(first) || !got.PlayFrom.Equal(first) || !got.PlayedAt.Equal(last) {
			t.Fatalf("period from %v, play from %v, played at %v; want the first slip %v and the latest %v",
				got.PeriodStart, got.PlayFrom, got.PlayedAt, first, last)
		}
		if got.NetLoss() != 2000 || got.Reserved != 0 {
			t.Fatalf("net loss %d, reserved %d", got.NetLoss(), got.Reserved)
		}
	})
}

// Issue 31: the time bounds of a reservation are the card's as if play had started at the
// open — earlier than it does — so a slip past them goes to the store, which counts the play
// from the first slip and decides exactly: a time limit runs from the first wager, not from
// the round's open.
func TestSPEC10_TimeLimitRunsFromTheFirstSlipNotTheOpen(t *testing.T) {
	long := func(c *Config) { c.Carded, c.Period = true, 3*time.Hour }
	bothStoresWith(t, long, func(t *testing.T, r *rig) {
		c, round := openRound(t, r, "T1", 50000)
		heldWithoutPlay(t, r, "T1", "C42", precommit.Limits{Loss: 10000, Time: time.Hour, Bar: precommit.BarDay})
		r.clock.Add(3 * time.Hour)
		r.finish(t, round, "5")
		round = r.nextRound(t)
		t0 := r.clock.Now()
		r.clock.Add(30 * time.Minute)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil { // the first wager: the hour starts
			t.Fatal(err)
		}
		r.clock.Add(31 * time.Minute) // past the open's hour, within the first slip's
		if _, err := redSlip(c, round, 2, 2000, "C42"); err != nil {
			t.Fatalf("a slip 61 minutes after the open, 31 after the first wager: %v", err)
		}
		if card := r.card(t, "C42"); !card.PeriodStart.Equal(t0.Add(30 * time.Minute)) {
			t.Fatalf("the period from %v, want the first slip %v", card.PeriodStart, t0.Add(30*time.Minute))
		}
		r.clock.Add(29 * time.Minute) // the first wager's hour is up
		refusedSaying(t, errOf(redSlip(c, round, 3, 3000, "C42")), "time limit of 1h0m0s is reached")
	})
}

// Attack: a player cashes out with no slip in the round while their card's allowance is
// reserved at the seat, and takes the card to another seat of the floor in the same round.
// The cash-out releases the reservation at once: the card plays its whole limit there.
func TestSPEC10_CashOutReleasesTheRoundsReservation(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		c, round := seatedRound(t, r, 1000, "1") // C42 reserved for T1
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		if _, err := c.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out"}); err != nil {
			t.Fatal(err)
		}
		if card := r.card(t, "C42"); card.Reserved != 0 || card.HeldBy != "" {
			t.Fatalf("after the cash-out: reserved %d, held by %q", card.Reserved, card.HeldBy)
		}
		if res, err := redSlip(c2, round, 1, 10000, "C42"); err != nil || res.Slip.Total != 10000 {
			t.Fatalf("the whole limit at the next seat, same round: %v %v", res, err)
		}
	})
}

// Attack: the dealer closes a seat holding a card with a reservation and no slip (the player
// left): the reservation is released with the close, as with a cash-out.
func TestSPEC10_DealerCloseReleasesTheRoundsReservation(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		seatedRound(t, r, 1000, "1") // C42 reserved for T1
		if _, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{TerminalId: "T1", IdempotencyKey: "close"}); err != nil {
			t.Fatal(err)
		}
		if card := r.card(t, "C42"); card.Reserved != 0 || card.HeldBy != "" {
			t.Fatalf("after the close: reserved %d, held by %q", card.Reserved, card.HeldBy)
		}
	})
}

// Attack: a seat changes card at its first slip of a round while its first card's allowance
// is reserved: the unused reservation does not block the change (it is no play) and is voided
// with it, so the first card plays its whole limit at another seat in the same round. Once a
// slip has used it, the change waits for the result, as before.
func TestSPEC10_CardChangeVoidsAnUnusedReservation(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C43", limit100)
		c, round := seatedRound(t, r, 1000, "1") // C42 reserved for T1
		if _, err := redSlip(c, round, 1, 500, "C43"); err != nil {
			t.Fatalf("a card change with only a reservation on the first card: %v", err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 2, 500, "C42")), "change card after the result")
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		if res, err := redSlip(c2, round, 1, 10000, "C42"); err != nil || res.Slip.Total != 10000 {
			t.Fatalf("the first card's whole limit at another seat: %v %v", res, err)
		}
		r.finish(t, round, "2")
		if n, card := r.netLoss(t, "C43"); n != 500 || card.Reserved != 0 {
			t.Fatalf("C43: net loss %d reserved %d", n, card.Reserved)
		}
		if n, card := r.netLoss(t, "C42"); n != 10000-1000 || card.Reserved != 0 { // A$10 won in the first round
			t.Fatalf("C42: net loss %d reserved %d", n, card.Reserved)
		}
	})
}

// Attack: a restart while a round's reservations are in place. The restart voids the wagering
// round, and every reservation of it with its slips: the card's limit is whole again.
func TestSPEC10_RestartVoidsTheRoundsReservations(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		seatedRound(t, r, 1000, "1") // C42 reserved for T1
		if card := r.card(t, "C42"); card.Reserved != 11000 {
			t.Fatalf("reserved %d at the open", card.Reserved)
		}
		r.shutdown()
		r.start()
		if card := r.card(t, "C42"); card.Reserved != 0 || card.NetLoss() != -1000 {
			t.Fatalf("after the restart: reserved %d, net loss %d; want 0 and the first round's A$10 won", card.Reserved, card.NetLoss())
		}
	})
}

// Attack: a slip needing more than the seat's reservation (the card's loss left when the
// round opened) goes to the store, which replaces the reservation with the slip's own
// allowance: it is refused if it would pass the limit — in words, with what is left — and a
// slip within it is taken; the settlement counts exactly what was staked.
func TestSPEC10_SlipPastTheReservationGoesToTheStore(t *testing.T) {
	bothCountingRigs(t, nil, func(t *testing.T, r *rig, s *countingStore) {
		c, round := seatedRound(t, r, 6000, "2") // lost 60: 40 left
		before := s.allows.Load()
		refusedSaying(t, errOf(redSlip(c, round, 1, 4100, "C42")), "past your loss limit: A$40.00")
		if s.allows.Load() != before+1 {
			t.Fatal("a slip past the reservation did not ask the store")
		}
		if res, err := redSlip(c, round, 2, 4000, "C42"); err != nil || res.Slip.Total != 4000 {
			t.Fatalf("to the limit: %v %v", res, err)
		}
		r.finish(t, round, "1")
		if n, card := r.netLoss(t, "C42"); n != 6000-4000 || card.Reserved != 0 {
			t.Fatalf("net loss %d, reserved %d; want 2000, 0", n, card.Reserved)
		}
	})
}

// Attack: seats changing and releasing their cards while rounds open, as fast as they can:
// the round's reservations meet the card changes (a reservation committed for a card the seat
// has just left). Whatever the order, no reservation outlives its round's settlement on a
// card no seat plays, and each card ends with nothing reserved.
func TestSPEC10_CardChangesRacingTheRoundsOpenLeaveNothingReserved(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		r.registerCard(t, "C43", limit100)
		c, round := openRound(t, r, "T1", 500000)
		if _, err := redSlip(c, round, 1, 100, "C42"); err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			r.finish(t, round, "1")
			card := []string{"C42", "C43"}[i%2]
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				// The slip's round is the one closing: refused, but its card taken first.
				_, _ = redSlip(c, round, 100, 100, card)
			}()
			round = r.nextRound(t)
			wg.Wait()
			if _, err := redSlip(c, round, 1, 100, card); err != nil {
				t.Fatalf("round %d on %s: %v", i, card, err)
			}
		}
		r.finish(t, round, "1")
		for _, id := range []string{"C42", "C43"} {
			if got := r.card(t, id); got.Reserved != 0 {
				t.Fatalf("%s: %d reserved after every round settled", id, got.Reserved)
			}
		}
	})
}

// Attack: a seat's first slip of a round asks for more than the round's reservation and is
// refused, and the seat places nothing else. The reservation still holds on the card (a
// refused Allow leaves the hold as it was): the settlement must release it, or the rest of the
// card's loss limit stays kept back and every later slip is refused as past a limit the
// player never reached.
func TestSPEC10_RefusedSlipLeavesNoReservationBehind(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		c, round := seatedRound(t, r, 6000, "2") // lost 60: 40 left
		refusedSaying(t, errOf(redSlip(c, round, 1, 4100, "C42")), "past your loss limit: A$40.00")
		r.finish(t, round, "2")
		if n, card := r.netLoss(t, "C42"); n != 6000 || card.Reserved != 0 {
			t.Fatalf("after a round with only a refused slip: net loss %d, reserved %d; want 6000, 0", n, card.Reserved)
		}
		round = r.nextRound(t)
		if res, err := redSlip(c, round, 1, 4000, "C42"); err != nil || res.Slip.Total != 4000 {
			t.Fatalf("the A$40 left, next round: %v %v", res, err)
		}
	})
}

// Attack, the narrowest order of a card change racing a round's open: the seat's new card is
// recorded (heldBy) after the open's transaction committed a reservation on the old card but
// before the open puts its reservations in place, so heldBy saw no reservation to void. The
// open then finds the seat no longer holds that card and voids the reservation itself, or it
// would keep the old card's limit back for the round at a seat that does not hold it.
func TestSPEC10_ReservationOfACardTheSeatLeftDuringTheOpenIsVoided(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round, "1")
		tb := r.table
		var rs []reservation
		if err := tb.led.Update(tb.bg(), r.clock.Now(), func(tx *ledger.Tx) error {
			var err error
			rs, err = tb.reserveCards(tx, "R999999", r.clock.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(rs) != 1 || r.card(t, "C42").Reserved != 11000 {
			t.Fatalf("reservations %+v, reserved %d", rs, r.card(t, "C42").Reserved)
		}
		tb.cards.mu.Lock()
		tb.cards.holding["T1"] = "C43" // the seat's card changed meanwhile
		tb.cards.mu.Unlock()
		tb.mu.Lock()
		tb.reserved(rs)
		tb.mu.Unlock()
		if got := r.card(t, "C42").Reserved; got != 0 {
			t.Fatalf("a reservation of a card the seat left: %d still reserved", got)
		}
		if a, ok := tb.cards.allowanceOf("T1"); ok && a.round == "R999999" {
			t.Fatalf("the seat was given the reservation of a card it left: %+v", a)
		}
	})
}

// Attack: the dealer's call bets placed on a carded seat before its player has wagered this
// round, now that the seat's allowance is reserved when the round opens: a reservation is not
// the player's wager, and the dealer is still refused until the player has played.
func TestSPEC10_DealerWagerNeedsThePlayersWagerNotAReservation(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		c, round := seatedRound(t, r, 1000, "1") // C42 reserved for T1
		tier := &pb.Wager{Kind: pb.BetKind_BET_KIND_TIER, Amount: 200}
		refusedSaying(t, errOf(r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round, Wager: tier})), "plays carded")
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round, Wager: tier}); err != nil {
			t.Fatalf("after the player's wager: %v", err)
		}
	})
}
