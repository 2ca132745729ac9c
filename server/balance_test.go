package server

import (
	"testing"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// SPEC §3.5, 001 §3.1: a wager appropriates money standing to the credit of the chip account,
// so a slip never totals more than the balance: a wager over what is left is reduced to it
// (insufficient-balance), one wager after another, and what the terminal is told is available
// never goes below zero.
func TestWagerNeverExceedsTheBalance(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 1000)
	res, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{
		{Kind: pb.BetKind_BET_KIND_RED, Amount: 800},
		{Kind: pb.BetKind_BET_KIND_BLACK, Amount: 800},
		{Kind: pb.BetKind_BET_KIND_EVEN, Amount: 5000}}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Slip.Results
	if got[0].Accepted != 800 || got[1].Accepted != 200 || got[1].Reason != "insufficient-balance" ||
		got[2].Accepted != 0 || got[2].Reason != "insufficient-balance" || res.Slip.Total != 1000 || res.Balance != 0 {
		t.Fatalf("a slip of 16.00 and 50.00 against a balance of 10.00: %v", res)
	}
	// One wager alone over the balance is reduced to it.
	res, err = c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_ODD, Amount: 1900}}})
	if err != nil || res.Slip.Total != 1000 || res.Slip.Results[0].Reason != "insufficient-balance" {
		t.Fatalf("one wager of 19.00 against 10.00: %v %v", res, err)
	}
	r.conserved()
}
