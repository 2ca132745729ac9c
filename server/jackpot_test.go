package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Every recognised wager feeds the meter exactly; the round that takes it to its hidden trigger
// hits; the winner is told at once and credited once the pit boss confirms, exactly once, with
// the ledger conserved throughout and the pending hit surviving a restart.
func TestJackpotContributesHitsAndIsCreditedOnConfirmation(t *testing.T) {
	// Seed 1000.00, hits at 1000.01; 0.1 % of every recognised stake goes to the meter.
	r := newRigWith(t, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: 100000, Ceiling: 100001, RateBP: 10} })
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	for i, c := range []pb.TerminalServiceClient{t1, t2} {
		if _, err := creditNotes(ctx, c, "n", 50000); err != nil {
			t.Fatalf("credit %d: %v", i, err)
		}
	}
	w1 := r.watch(t1)
	defer w1.cancel()
	play := func(stake1, stake2 int64) string {
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range []pb.TerminalServiceClient{t1, t2} {
			stake := []int64{stake1, stake2}[i]
			if stake == 0 {
				continue
			}
			if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1,
				Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: stake}}}); err != nil {
				t.Fatal(err)
			}
		}
		r.clock.Add(21 * time.Second)
		r.table.Advance(r.clock.Now())
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "2"}); err != nil {
			t.Fatal(err)
		}
		return st.RoundId
	}
	status := func() *pb.TableStatus {
		st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := status(); st.JackpotMeter != 100000 || !st.Config.Jackpot {
		t.Fatalf("seeded meter %d (config %v)", st.JackpotMeter, st.Config.Jackpot)
	}
	// 1.00 is below the table minimum per spin (5.00): not a valid wager, no contribution.
	play(100, 0)
	// 0.1 % of 5.00 is half a cent: carried, not shown, not lost.
	play(500, 0)
	if st := status(); st.JackpotMeter != 100000 || st.PendingJackpot != nil {
		t.Fatalf("after half a cent: meter %d pending %v", st.JackpotMeter, st.PendingJackpot)
	}
	round := play(0, 500) // half a cent more, with the half carried: 1000.01, the trigger
	st := status()
	if st.PendingJackpot == nil || st.PendingJackpot.RoundId != round || st.PendingJackpot.Confirmed ||
		st.PendingJackpot.Amount != 100001 || st.PendingJackpot.TerminalId != "T2" || st.JackpotMeter != 100000 {
		t.Fatalf("after the hit: meter %d pending %v", st.JackpotMeter, st.PendingJackpot)
	}
	won := st.PendingJackpot
	if ev := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetJackpotWon() != nil }).GetJackpotWon(); ev.TerminalId != won.TerminalId || ev.Confirmed {
		t.Fatalf("terminals told %v, pending %v", ev, won)
	}
	before := map[string]int64{}
	for _, ts := range st.Terminals {
		before[ts.TerminalId] = ts.Balance
	}
	r.conserved()

	// A restart before the pit boss confirms: the hit is still waiting.
	r.shutdown()
	r.start()
	if st := status(); st.PendingJackpot == nil || st.PendingJackpot.Amount != won.Amount || st.PendingJackpot.TerminalId != won.TerminalId {
		t.Fatalf("after a restart the pending hit is %v, want %v", st.PendingJackpot, won)
	}
	if _, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: "R-nope"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("confirming a round without a hit: %v", err)
	}
	st, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: won.RoundId})
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Terminals {
		want := before[ts.TerminalId]
		if ts.TerminalId == won.TerminalId {
			want += won.Amount
		}
		if ts.Balance != want {
			t.Errorf("%s balance %d, want %d", ts.TerminalId, ts.Balance, want)
		}
	}
	if st.PendingJackpot != nil {
		t.Errorf("still pending after confirmation: %v", st.PendingJackpot)
	}
	if _, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: won.RoundId}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a second confirmation: %v", err)
	}
	r.conserved()
}

func TestJackpotConfigurationIsChecked(t *testing.T) {
	for _, c := range []JackpotConfig{{Seed: 0, Ceiling: 10, RateBP: 1}, {Seed: 10, Ceiling: 10, RateBP: 1}, {Seed: 1, Ceiling: 10, RateBP: 0}, {Seed: 1, Ceiling: 10, RateBP: 10001}} {
		if err := c.validate(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// TestSupervisorClosesTheJackpotAndTransfersItsMeter_001_8_3_6: a supervisor closes the table's
// jackpot with the words of its notice (001 §8.3.5); the whole meter moves, in one journalled
// transaction under the supervisor's identity, to the jackpot named (§8.3.6) — the meter plus
// what was transferred is the same before and after, to the cent — and the closed jackpot takes
// no more contributions, stays closed across a restart and is shown so in the status. The
// dealer may not close it; the notice and the receiving jackpot are required; it closes once.
func TestSupervisorClosesTheJackpotAndTransfersItsMeter_001_8_3_6(t *testing.T) {
	bothStoresWith(t, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: 100000, Ceiling: 10_000_000, RateBP: 100} }, testCloseJackpot)
}

func testCloseJackpot(t *testing.T, r *rig) {
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 50000); err != nil {
		t.Fatal(err)
	}
	r.playStraight(t1, "17", 1000, "2") // 1 % of 10.00: the meter at 1000.10
	meters := func() (meter, transferred int64) {
		st, err := r.led.Load(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		return st.Meters["jackpot_meter"], st.Meters[MeterJackpotTransferred]
	}
	if m, x := meters(); m != 100010 || x != 0 {
		t.Fatalf("before the closure: meter %d transferred %d", m, x)
	}
	const notice = "The Rapid Roulette jackpot closes at 21:00; its meter goes to the jackpot of table T2"
	req := &pb.CloseJackpotRequest{Notice: notice, TransferTo: "T2"}
	if _, err := r.dealer.CloseJackpot(ctx, req); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer closing the jackpot: %v", err)
	}
	for _, bad := range []*pb.CloseJackpotRequest{{TransferTo: "T2"}, {Notice: notice}, {Notice: notice, TransferTo: "T1"}, {Notice: notice, TransferTo: "../T2"}} {
		if _, err := r.super.CloseJackpot(ctx, bad); code(err) != codes.InvalidArgument {
			t.Errorf("%v: %v, want InvalidArgument", bad, err)
		}
	}
	st, err := r.super.CloseJackpot(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	c := st.JackpotClosure
	if st.JackpotMeter != 0 || c == nil || c.Transferred != 100010 || c.TransferTo != "T2" || c.Notice != notice || c.ClosedBy != "supervisor:S1" {
		t.Fatalf("the status after the closure: meter %d closure %v", st.JackpotMeter, c)
	}
	if m, x := meters(); m != 0 || x != 100010 {
		t.Fatalf("after the closure: meter %d transferred %d (not conserved)", m, x)
	}
	if got := r.auditOf("jackpot-closed"); len(got) != 1 || !strings.HasPrefix(got[0], "supervisor:S1 ") {
		t.Fatalf("the closure's audit entry: %q", got)
	}
	if _, err := r.super.CloseJackpot(ctx, req); code(err) != codes.FailedPrecondition {
		t.Fatalf("closed twice: %v", err)
	}
	r.playStraight(t1, "17", 1000, "2")
	if m, x := meters(); m != 0 || x != 100010 {
		t.Fatalf("a closed jackpot took a contribution: meter %d transferred %d", m, x)
	}
	r.conserved()
	r.shutdown()
	r.start()
	st = r.status()
	if st.JackpotMeter != 0 || st.JackpotClosure.GetTransferred() != 100010 || st.JackpotClosure.GetNotice() != notice || st.JackpotClosure.GetClosedBy() != "supervisor:S1" {
		t.Fatalf("after a restart: meter %d closure %v", st.JackpotMeter, st.JackpotClosure)
	}
	r.conserved()
}

// A jackpot hit waiting for the pit boss is not stranded by a closure: the closure is refused
// until it is confirmed. A table with no jackpot has none to close.
func TestJackpotNotClosedOverAPendingHit_001_8_3_6(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: 100000, Ceiling: 100001, RateBP: 100} })
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 50000); err != nil {
		t.Fatal(err)
	}
	round := r.playStraight(t1, "17", 1000, "2")
	req := &pb.CloseJackpotRequest{Notice: "closing", TransferTo: "T2"}
	if _, err := r.super.CloseJackpot(ctx, req); code(err) != codes.FailedPrecondition {
		t.Fatalf("closed over a pending hit: %v", err)
	}
	if _, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	if st, err := r.super.CloseJackpot(ctx, req); err != nil || st.JackpotClosure.GetTransferred() != 100000 {
		t.Fatalf("closing after the confirmation: %v %v", st.GetJackpotClosure(), err)
	}
	r.conserved()
	bare := newRig(t)
	if _, err := bare.super.CloseJackpot(ctx, req); code(err) != codes.FailedPrecondition {
		t.Fatalf("a table without a jackpot: %v", err)
	}
}
