package model

import (
	"context"
	"slices"
	"testing"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
)

// slip is a seat's wagers on this round's slip, as the table's stream last told the console.
func (r *tableRig) slip(seat string) []*pb.Wager {
	r.con.mu.Lock()
	defer r.con.mu.Unlock()
	for _, t := range r.con.st.GetTerminals() {
		if t.TerminalId == seat {
			return t.GetSlip().GetWagers()
		}
	}
	return nil
}

// placeInside places, for seat, the inside bet the numbers touched make, as the console's
// Place does: the bet named by the view, the wager written from it.
func (r *tableRig) placeInside(seat string, cents int64, numbers ...string) {
	r.t.Helper()
	sp, err := r.con.View().InsideBet(numbers)
	if err != nil {
		r.t.Fatalf("%v: %v", numbers, err)
	}
	got, why, err := r.con.PlaceWager(context.Background(), seat, InsideWager(sp, cents))
	must(r.t, err)
	if got != cents {
		r.t.Fatalf("%v for %s: %d accepted (%s)", sp, seat, got, why)
	}
}

// guestBetting opens the table, buys a guest in with chips of cents and starts a round: the
// wagering period, with the guest's bets to place.
func (r *tableRig) guestBetting(seat string, cents int64) {
	r.t.Helper()
	ctx := context.Background()
	r.until("the table, closed", func(v View) bool { return v.Up && v.Phase == pb.Phase_PHASE_CLOSED })
	must(r.t, r.con.OpenTable(ctx))
	must(r.t, r.con.Credit(ctx, seat, cents))
	r.until("the guest's chips", func(v View) bool { s, _ := v.Seat(seat); return s.Balance == cents })
	must(r.t, r.con.StartRound(ctx))
	r.until("the wagering period", func(v View) bool { return v.Phase == pb.Phase_PHASE_WAGERING })
}

// A guest announces a split, a street, a corner, a six-line and the basket (000 §11.4.2(b),
// §11.7): the dealer touches their numbers on the grid and each is on the guest's slip as the
// bet of that kind on those numbers, and the round settles each at its own odds.
func TestConsoleGuestInsideBetsOnTheSlipAndSettledAtTheirOdds(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	r.guestBetting("G01", 10000)
	bets := []struct {
		touched []string // in the order the dealer touched them
		kind    pb.BetKind
		numbers []string // as the table writes them
	}{
		{[]string{"20", "17"}, pb.BetKind_BET_KIND_SPLIT, []string{"17", "20"}},
		{[]string{"18", "16", "17"}, pb.BetKind_BET_KIND_STREET, []string{"16", "17", "18"}},
		{[]string{"21", "17", "18", "20"}, pb.BetKind_BET_KIND_CORNER, []string{"17", "18", "20", "21"}},
		{[]string{"13", "14", "15", "16", "17", "18"}, pb.BetKind_BET_KIND_SIX_LINE, []string{"13", "14", "15", "16", "17", "18"}},
		{[]string{"3", "0", "1", "2"}, pb.BetKind_BET_KIND_CORNER, []string{"0", "1", "2", "3"}}, // the basket
	}
	for _, b := range bets {
		r.placeInside("G01", 500, b.touched...)
	}
	r.until("the guest's stake", func(v View) bool { s, _ := v.Seat("G01"); return s.Stake == 2500 })
	slip := r.slip("G01")
	if len(slip) != len(bets) {
		t.Fatalf("G01's slip holds %d wagers, want %d: %v", len(slip), len(bets), slip)
	}
	for i, b := range bets {
		if w := slip[i]; w.Kind != b.kind || !slices.Equal(w.Numbers, b.numbers) || w.Amount != 500 || w.PlacedBy == "" {
			t.Errorf("wager %d on G01's slip: %v %v %d placed by %q; want %v %v 500 by the dealer", i, w.Kind, w.Numbers, w.Amount, w.PlacedBy, b.kind, b.numbers)
		}
	}
	must(t, r.con.NoMoreBets(ctx))
	must(t, r.con.Outcome(ctx, "17"))
	v := r.until("the result", func(v View) bool { return len(v.History) > 0 && v.History[0] == "17" })
	// 17 wins the split (17 to 1), the street (11), the corner (8) and the six-line (5); the
	// basket loses: each winner returns its stake and its odds.
	want := int64(10000 - 2500 + 500*(18+12+9+6))
	if s, _ := v.Seat("G01"); s.Balance != want {
		t.Fatalf("G01's balance %d after 17, want %d", s.Balance, want)
	}
	if !v.Conserved {
		t.Fatal("the ledger does not conserve after the guest's inside bets")
	}
}

// On a double-zero table whose felt has it (Crown's Diagrams F/H, 000 §8.4.3(a)), the five
// numbers 0-00-1-2-3 are the five-line, placed and paid at 6 to 1; the console knows the felt
// from the table's status, not from a default.
func TestConsoleGuestFiveLineOnADoubleZeroTable(t *testing.T) {
	r := newTableRigWith(t, func(c *server.Config) { c.Wheel, c.LayoutProfile = roulette.DoubleZero, roulette.CrownFH })
	ctx := context.Background()
	r.guestBetting("G02", 10000)
	if v := r.con.View(); v.Wheel != roulette.DoubleZero || v.Profile != roulette.CrownFH {
		t.Fatalf("the console's layout %v %v, want the table's double zero crown-fh", v.Wheel, v.Profile)
	}
	r.placeInside("G02", 1000, "2", "00", "0", "3", "1")
	r.until("the guest's stake", func(v View) bool { s, _ := v.Seat("G02"); return s.Stake == 1000 })
	if w := r.slip("G02"); len(w) != 1 || w[0].Kind != pb.BetKind_BET_KIND_FIVE_LINE || !slices.Equal(w[0].Numbers, []string{"0", "00", "1", "2", "3"}) {
		t.Fatalf("G02's slip: %v", w)
	}
	must(t, r.con.NoMoreBets(ctx))
	must(t, r.con.Outcome(ctx, "00"))
	v := r.until("the result", func(v View) bool { return len(v.History) > 0 && v.History[0] == "00" })
	if s, _ := v.Seat("G02"); s.Balance != 10000+6*1000 {
		t.Fatalf("G02's balance %d after 00 on the five-line", s.Balance)
	}
}

// A selection that is no bet of this table — two numbers that do not touch, a six-line of two
// rows apart, the five-line on a single-zero wheel, seven numbers — is named as no bet and
// never becomes a wager; and the table refuses it too if it were sent.
func TestConsoleInvalidSelectionCannotBePlaced(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	v := r.until("the table", func(v View) bool { return v.Up })
	for _, ns := range [][]string{{"17", "23"}, {"10", "11", "12", "16", "17", "18"}, {"0", "1", "2", "3", "4"},
		{"1", "2", "3", "4", "5", "6", "7"}, {}, {"17", "17"}, {"37"}} {
		if sp, err := v.InsideBet(ns); err == nil {
			t.Errorf("%v: the bet %v, want none", ns, sp)
		}
	}
	bad := ViewOf(&pb.TableStatus{Config: &pb.TableConfig{Wheel: pb.Wheel_WHEEL_DOUBLE_ZERO, LayoutProfile: "felt-of-tomorrow"}})
	if sp, err := bad.InsideBet([]string{"17", "20"}); err == nil {
		t.Errorf("a table whose felt the console does not know: the bet %v, want none", sp)
	}
	r.guestBetting("G01", 10000)
	if _, _, err := r.con.PlaceWager(ctx, "G01", &pb.Wager{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"17", "23"}, Amount: 500}); err == nil {
		t.Fatal("the table took the split 17/23")
	}
}
