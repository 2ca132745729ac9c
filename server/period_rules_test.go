package server

import (
	"context"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 001 §5.1.2: "If the casino operator has not made a determination, the wagering period is 30
// seconds." The table's default configuration has a period of 30 s; over gRPC a round of a
// table left at it closes 30 s after it opens, its terminals are told that deadline and that
// period; the operator's own period (the dealer's SetWageringPeriod) replaces it from the next
// round, and a terminal connecting then is told the new one.
func TestRule001_5_1_2_WageringPeriodIs30sUnlessTheOperatorSetsIt(t *testing.T) {
	if p := DefaultConfig().Period; p != 30*time.Second {
		t.Fatalf("the default wagering period is %v, want 30s", p)
	}
	// The rig shortens its tables' period for speed: this table keeps the default.
	r := newRigWith(t, func(c *Config) { c.Period = DefaultConfig().Period })
	t1 := r.terminal("T1")
	w := r.watch(t1)
	defer w.cancel()
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	round := func(want time.Duration) {
		t.Helper()
		opened := r.clock.Now()
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Unix(0, st.DeadlineUnixNanos).Sub(opened); got != want {
			t.Fatalf("round %s closes %v after it opens, want %v", st.RoundId, got, want)
		}
		ph := w.until(t, func(ev *pb.TableEvent) bool {
			return ev.GetPhase() != nil && ev.GetPhase().Phase == pb.Phase_PHASE_WAGERING && ev.GetPhase().RoundId == st.RoundId
		}).GetPhase()
		if got := time.Unix(0, ph.DeadlineUnixNanos).Sub(opened); got != want {
			t.Fatalf("the terminal was told round %s closes %v after it opens, want %v", st.RoundId, got, want)
		}
		r.clock.Add(want - time.Millisecond)
		r.table.Advance(r.clock.Now())
		if s, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); s.Phase != pb.Phase_PHASE_WAGERING {
			t.Fatalf("round %s closed before its period of %v (%v)", st.RoundId, want, s.Phase)
		}
		r.clock.Add(time.Millisecond)
		r.table.Advance(r.clock.Now())
		if s, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); s.Phase != pb.Phase_PHASE_NO_MORE_BETS {
			t.Fatalf("round %s still %v at the end of its period of %v", st.RoundId, s.Phase, want)
		}
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "5"}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || s.Config.WageringPeriodMs != 30000 {
		t.Fatalf("the table's period %d ms, want 30000 (%v)", s.GetConfig().GetWageringPeriodMs(), err)
	}
	round(30 * time.Second)
	// The operator's determination replaces it.
	if _, err := r.dealer.SetWageringPeriod(ctx, &pb.SetWageringPeriodRequest{WageringPeriodMs: 45000}); err != nil {
		t.Fatal(err)
	}
	round(45 * time.Second)
	// A terminal connecting now is told the operator's period in its snapshot.
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := t1.Watch(sctx, &pb.WatchRequest{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil || first.GetSnapshot().GetConfig().GetWageringPeriodMs() != 45000 {
		t.Fatalf("a terminal connecting after the operator's 45 s is told %v (%v)", first.GetSnapshot().GetConfig(), err)
	}
	s, err = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || s.Config.WageringPeriodMs != 45000 {
		t.Fatalf("after the operator's 45 s the table's period is %d ms (%v)", s.GetConfig().GetWageringPeriodMs(), err)
	}
}
