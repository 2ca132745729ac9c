package app

import (
	"slices"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Issue 34, finding 1 at the touch (SPEC §3.7, 001 §4.3.2): the straight on 17 and a neighbours
// bet's piece on 17 are one wager on straight 17 (maximum 25.00). The terminal priced each bet
// of its slip alone, so a player could stand 26.00 on 17 by touch, 27.00 by double and 50.00 by
// a favourite; now the touch, double and a favourite all hold 17's total to 25.00.
func TestAttackTouchDoubleAndFavouriteHoldTheSpotTotal(t *testing.T) {
	h := newHarness(t)
	s17, n17 := spot(t, roulette.Straight, 17), roulette.Bet{Call: roulette.Neighbours, Centre: 17}
	h.term.SelectChip(100)
	if fb, err := h.term.Place(n17); err != nil || fb.Accepted != 100 {
		t.Fatalf("neighbours of 17 at 1.00 a piece: %+v %v", fb, err)
	}
	h.term.SelectChip(2500)
	fb, err := h.term.Place(s17)
	if err != nil || fb.Accepted != 2400 || fb.Reason != roulette.ReasonAboveMaximum || fb.Message.IsZero() {
		t.Fatalf("25.00 on straight 17 over the neighbours' 1.00 on 17: %+v %v, want 24.00 and told why", fb, err)
	}
	// Double: 2.00 a piece on the neighbours, then 17 has room for 23.00 of the straight's 48.00.
	if err := h.term.Double(); err != nil {
		t.Fatal(err)
	}
	want := []Stake{{n17, 200}, {s17, 2300}}
	if got := h.term.View().Stakes; !slices.Equal(got, want) || h.term.View().Message.IsZero() {
		t.Fatalf("doubled: %+v, want %+v and the player told", got, want)
	}
	// A favourite saved elsewhere, placed here: the straight fills 17, the neighbours bet cannot
	// put its piece on 17 and is refused whole (SPEC §3.6).
	if err := h.term.PlaceFavourite(Favourite{Stakes: []Stake{{s17, 2500}, {n17, 2500}}}); err != nil {
		t.Fatal(err)
	}
	if got, want := h.term.View().Stakes, []Stake{{s17, 2500}}; !slices.Equal(got, want) {
		t.Fatalf("favourite: %+v, want %+v", got, want)
	}
	// The fake table prices with the same pricer: it acknowledges the slip as the screen shows it.
	eventually(t, "the favourite acknowledged", func() bool {
		sent, ok := h.link.LastSlip()
		return ok && len(sent.Bets) == 1 && h.term.View().Acked
	})
	if got := h.term.View().Stakes; !slices.Equal(got, []Stake{{s17, 2500}}) {
		t.Fatalf("acknowledged: %+v", got)
	}
}

// The dealer's wagers for the seat count on their spots at the touch, as at the table: the
// dealer's neighbours of 17 at 20.00 a piece leave 5.00 for the player's straight on 17.
func TestDealersWagerCountsOnTheSpotAtTheTouch(t *testing.T) {
	h := newHarness(t)
	n17 := roulette.Bet{Call: roulette.Neighbours, Centre: 17}
	h.link.Push(table.DealerWagerPlaced{Slip: table.SlipAck{RoundID: "R1", Version: 1,
		Bets:    []table.SlipBet{{Bet: n17, Amount: 2000, PlacedBy: "dealer:D1"}},
		Results: []table.BetResult{{Accepted: 10000}}, Total: 10000}})
	h.waitFor(func(v View) bool { return len(v.DealerStakes) == 1 })
	h.link.Push(table.BalanceChanged{Balance: 20000})
	h.waitFor(func(v View) bool { return v.Balance == 20000 })
	h.term.SelectChip(2500)
	fb, err := h.term.Place(spot(t, roulette.Straight, 17))
	if err != nil || fb.Accepted != 500 || fb.Reason != roulette.ReasonAboveMaximum {
		t.Fatalf("straight 17 over the dealer's 20.00 on 17: %+v %v, want 5.00 above-maximum", fb, err)
	}
}

// SPEC §3.7 on removal: 0.50 on straight 17 stood only because a neighbours bet already had
// 1.00 there (minimum 1.00, any cent). Taking the neighbours bet off leaves 0.50 alone, below
// the minimum, which the table would refuse: the screen takes it off too and says why.
func TestRemovingACallBetTakesTheStraightItCarried(t *testing.T) {
	h := newHarness(t)
	loose := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000}}
	h.link.SetLimits(loose)
	h.link.Push(table.LimitsChanged{Limits: loose})
	h.waitFor(func(v View) bool { return v.Limits.Default.Unit == 0 })
	s17, n17 := spot(t, roulette.Straight, 17), roulette.Bet{Call: roulette.Neighbours, Centre: 17}
	h.term.SelectChip(100)
	h.term.Place(n17)
	h.term.SelectChip(50)
	if fb, _ := h.term.Place(s17); fb.Accepted != 50 {
		t.Fatalf("0.50 on straight 17 over the neighbours' 1.00: %+v", fb)
	}
	if err := h.term.Remove(n17); err != nil {
		t.Fatal(err)
	}
	if v := h.term.View(); len(v.Stakes) != 0 || v.Message.IsZero() {
		t.Fatalf("after removing the neighbours bet: %+v, message %q; want nothing left and the player told", v.Stakes, v.Message)
	}
}

// Repeat (SPEC §3.7): last round's neighbours of 17 at 1.00 a piece and 24.00 on straight 17,
// repeated after the straight maximum fell to 10.00: the straight finds 1.00 of the neighbours
// bet already on 17 and is put back at 9.00, not at the 10.00 it would be alone.
func TestRepeatHoldsTheSpotTotal(t *testing.T) {
	h := newHarness(t)
	s17, n17 := spot(t, roulette.Straight, 17), roulette.Bet{Call: roulette.Neighbours, Centre: 17}
	h.term.SelectChip(100)
	h.term.Place(n17)
	h.term.SelectChip(2500)
	h.term.Place(s17)
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 2900, Returned: 90000, Balance: 97100})
	h.waitFor(func(v View) bool { return v.LastWin != nil && len(v.Stakes) == 0 })
	lower := limits
	lower.PerKind = map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 1000, Unit: 100}}
	h.link.Push(table.LimitsChanged{Limits: lower})
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool {
		return v.RoundID == "R2" && !v.Locked && v.Limits.For(roulette.Straight).Max == 1000
	})
	if err := h.term.Repeat(); err != nil {
		t.Fatal(err)
	}
	if got, want := h.term.View().Stakes, []Stake{{n17, 100}, {s17, 900}}; !slices.Equal(got, want) {
		t.Fatalf("repeat: %+v, want %+v", got, want)
	}
}
