package server

import (
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 001 §4.3.3 (SPEC §3.4, 004 §4.3(c)): a slip totalling less than the aggregate minimum at the
// end of the wagering period is not recognised — it neither wins nor loses, its stake comes
// back — while a slip of exactly the minimum settles. Both slips are on the winning number, so
// a settlement that recognised the small one (the lab's mutation: recognised forced true) pays
// it 36 times its stake and fails here; the correction keeps it unrecognised too.
func TestRule001_4_3_3_BelowTheAggregateMinimumIsNotRecognised(t *testing.T) {
	r := newRig(t)
	aggMin := DefaultConfig().Limits.AggregateMin // 5.00
	below, at := r.terminal("T1"), r.terminal("T2")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for id, c := range map[string]pb.TerminalServiceClient{"T1": below, "T2": at} {
		if err := r.buyIn(c, id, "n", 10000); err != nil {
			t.Fatal(err)
		}
	}
	wb, wa := r.watch(below), r.watch(at)
	defer wb.cancel()
	defer wa.cancel()
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for c, amount := range map[pb.TerminalServiceClient]int64{below: aggMin - 100, at: aggMin} {
		res, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("17", amount)}})
		if err != nil || res.Slip.Total != amount {
			t.Fatalf("slip of %d: %v %v", amount, res, err)
		}
	}
	r.clock.Add(31 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	if s := wb.until(t, isSettled).GetSettled(); s.Recognised || s.Staked != 0 || s.Returned != 0 || s.Balance != 10000 {
		t.Fatalf("%d on the winning number, below the aggregate minimum %d, settled as %v: want not recognised, the balance untouched", aggMin-100, aggMin, s)
	}
	if s := wa.until(t, isSettled).GetSettled(); !s.Recognised || s.Staked != aggMin || s.Returned != 36*aggMin || s.Balance != 10000-aggMin+36*aggMin {
		t.Fatalf("a slip of exactly the aggregate minimum settled as %v", s)
	}
	r.conserved()
	// Re-settled on another number, the small slip is still not recognised.
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: st.RoundId, Number: "20"}); err != nil {
		t.Fatal(err)
	}
	if s := wb.until(t, isSettled).GetSettled(); !s.Correction || s.Recognised || s.Returned != 0 || s.Balance != 10000 {
		t.Fatalf("corrected, the small slip settled as %v", s)
	}
	if s := wa.until(t, isSettled).GetSettled(); !s.Correction || !s.Recognised || s.Balance != 10000-aggMin {
		t.Fatalf("corrected, the slip at the minimum settled as %v", s)
	}
	r.conserved()
}
