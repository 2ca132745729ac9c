package server

import (
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Issue 34, finding 1 (001 §4.3.2, SPEC §3.7): a hostile terminal sent ten wagers of 25.00 on
// straight 17 (straight maximum 25.00) in one slip; each was priced alone, 250.00 stood on one
// number and 17 paid 8,750.00. The table now prices the slip spot by spot: 25.00 on 17, the
// other nine add nothing and say so, and 17 pays 875.00 and the stake.
func TestAttackTenMaximumStraightsOnOneNumberOverGRPC(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 100_000)
	ws := make([]*pb.Wager, 10)
	for i := range ws {
		ws[i] = straight("17", 2500)
	}
	resp, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: ws})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Slip.Total != 2500 || resp.Balance != 100_000-2500 {
		t.Fatalf("ten straights of 25.00 on 17: slip total %d, balance %d; want 2500 and 97500", resp.Slip.Total, resp.Balance)
	}
	for i, res := range resp.Slip.Results[1:] {
		if res.Accepted != 0 || res.Reason != "above-maximum" {
			t.Errorf("wager %d: accepted %d reason %q, want 0 above-maximum", i+1, res.Accepted, res.Reason)
		}
	}
	r.clock.Add(30 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	if got, want := r.balance("T1"), int64(100_000-2500+2500*36); got != want {
		t.Fatalf("17 came up: balance %d, want %d (at most 875.00 won)", got, want)
	}
}

// The same over call bets: a neighbours-of-17 bet's straight on 17 lands on the spot the
// terminal's straight 17 already fills, so it cannot be placed whole and is refused whole
// (SPEC §3.6); and the dealer's neighbours bet for the seat counts on 17 too.
func TestAttackNeighboursPieceOnAFullStraightIsRefusedWhole(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 100_000)
	nb := &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{"17"}, Spread: 2, Amount: 2500}
	resp, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1,
		Wagers: []*pb.Wager{straight("17", 2500), straight("17", 2500), nb}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Slip.Total != 2500 || resp.Slip.Results[2].Accepted != 0 || resp.Slip.Results[2].Reason != "above-maximum" {
		t.Fatalf("slip %v: want 25.00 on straight 17 and the neighbours bet refused whole", resp.Slip)
	}
	// The dealer places neighbours of 17 at 1.00 a piece for the seat: 17 holds 25.00, so it
	// cannot; 25.00 a piece on neighbours of 5 (no 17 among them) can.
	if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round,
		Wager: &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{"17"}, Spread: 2, Amount: 100}}); err == nil {
		t.Fatal("the dealer's neighbours of 17 went over straight 17's maximum")
	}
	if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round,
		Wager: &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{"5"}, Spread: 1, Amount: 2000}}); err != nil {
		t.Fatal(err)
	}
	// The terminal's next slip adds a straight on 5: the dealer's 20.00 there leaves 5.00.
	resp, err = c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2,
		Wagers: []*pb.Wager{straight("17", 2500), straight("5", 2500)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Slip.Results[1]; got.Accepted != 500 || got.Reason != "above-maximum" {
		t.Fatalf("straight 5 over the dealer's 20.00 on 5: accepted %d %q, want 500 above-maximum", got.Accepted, got.Reason)
	}
}
