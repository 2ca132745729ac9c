package server

import (
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 003 §4.5, 000 §4.3 (SPEC §3.6): a higher minimum takes effect only after it has been shown for
// 20 minutes. Until then the table keeps pricing slips by the old sign (a wager at the old minimum
// is taken), every status carries the pending sign with the time it comes in, and the first round
// opened after that time plays to it. A lower minimum needs no notice: it applies at once between
// rounds.
func TestRule003_4_5_HigherMinimumAfterTwentyMinutesShown(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 100000); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	old := st.Limits.Default.Min
	higher := &pb.Limits{Default: &pb.Limit{Min: old * 10, Max: st.Limits.Default.Max, Unit: st.Limits.Default.Unit},
		AggregateMin: st.Limits.AggregateMin, TableMax: st.Limits.TableMax}
	announced := r.clock.Now()
	st, err = r.dealer.SetLimits(ctx, &pb.SetLimitsRequest{Limits: higher})
	if err != nil {
		t.Fatal(err)
	}
	if st.Limits.Default.Min != old {
		t.Fatalf("a higher minimum took effect at once: %d, was %d", st.Limits.Default.Min, old)
	}
	p := st.GetPendingLimits()
	if p == nil || p.Limits.Default.Min != old*10 {
		t.Fatalf("the higher minimum is not shown as pending: %v", p)
	}
	if at := time.Unix(0, p.EffectiveAtUnixNanos); at.Sub(announced) < 20*time.Minute {
		t.Fatalf("in force from %v, %v after it was announced", at, at.Sub(announced))
	}

	// Within the 20 minutes a round plays to the old sign: a wager at the old minimum is taken.
	// (Staked at least the aggregate minimum, so the round is recognised, 001 §4.3.3.)
	r.clock.Add(10 * time.Minute)
	stake := max(old, st.Limits.AggregateMin)
	if stake >= old*10 {
		t.Fatalf("the test needs an aggregate minimum (%d) under the new minimum (%d)", stake, old*10)
	}
	round := r.playRound(t, "0", map[pb.TerminalServiceClient][]*pb.Wager{t1: {straight("17", stake)}})
	if bal := r.status().Terminals[0].Balance; bal != 100000-stake {
		t.Fatalf("after round %s under the new minimum: balance %d, want %d", round, bal, 100000-stake)
	}

	// After the 20 minutes, the next round plays to the new one: the old minimum is refused.
	r.clock.Add(10 * time.Minute)
	st, err = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Limits.Default.Min != old*10 || st.GetPendingLimits() != nil {
		t.Fatalf("20 minutes on, the round opened with limits %v pending %v", st.Limits.Default, st.GetPendingLimits())
	}
	ack, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("17", stake)}})
	if err == nil && ack.GetSlip().GetTotal() != 0 {
		t.Fatalf("a wager under the new minimum was taken: %v", ack.GetSlip())
	}
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "1"}); err != nil {
		t.Fatal(err)
	}

	// A lower minimum applies at once between rounds.
	lower := &pb.Limits{Default: &pb.Limit{Min: old, Max: higher.Default.Max, Unit: higher.Default.Unit},
		AggregateMin: higher.AggregateMin, TableMax: higher.TableMax}
	st, err = r.dealer.SetLimits(ctx, &pb.SetLimitsRequest{Limits: lower})
	if err != nil {
		t.Fatal(err)
	}
	if st.Limits.Default.Min != old || st.GetPendingLimits() != nil {
		t.Fatalf("a lower minimum waited: limits %v pending %v", st.Limits.Default, st.GetPendingLimits())
	}
}
