package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
)

// Issue 17 items 5, 6 and 8 at the table's gRPC edge (mutual TLS, a real SQLite file).

func luckyWager(colour string, amount int64) *pb.Wager {
	return &pb.Wager{Kind: pb.BetKind_BET_KIND_LUCKY_BALL, Colour: colour, Amount: amount}
}

// 003 §7.4: however the round is driven — the auto-dealer included — its numbers are drawn
// by the time the wagering period ends, and the draw survives a restart.
func TestRule003_7_4_EveryRoundHasItsDraw(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.LuckyBall = true })
	t1 := r.terminal("T1")
	w := r.watch(t1)
	defer w.cancel()
	// The dealer deals by hand and never reports the spin.
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	d := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetLuckyBall() != nil }).GetLuckyBall()
	if d.RoundId != st.RoundId || d.Draw.Super == "" || d.Draw.Red == "" || d.Draw.Void {
		t.Fatalf("the close drew %v", d)
	}
	// The auto-dealer: each of its rounds has its numbers while bets are open (the spin starts
	// with the round).
	r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "5"})
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{AutoDealer: true})
	open := 0
	for range 6 {
		r.clock.Add(5 * time.Second)
		r.table.Advance(r.clock.Now())
		s, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
		if s.Phase == pb.Phase_PHASE_WAGERING {
			open++
			if r.curDraw() == nil {
				t.Fatalf("auto-dealer round %s is open with no numbers drawn", s.RoundId)
			}
		}
	}
	if open == 0 {
		t.Fatal("the auto-dealer opened no round")
	}
	had := r.curDraw()
	r.shutdown()
	r.start()
	if got := r.curDraw(); had != nil && (got == nil || got.Numbers != had.Numbers) {
		t.Fatalf("the draw %+v came back from the ledger as %+v", had, got)
	}
}

// curDraw is the current round's draw, read under the table's lock.
func (r *rig) curDraw() *roulette.LuckyBallDraw {
	r.table.mu.Lock()
	defer r.table.mu.Unlock()
	if r.table.cur == nil || r.table.cur.draw == nil {
		return nil
	}
	d := *r.table.cur.draw
	return &d
}

// 003 §8.11: the Lucky Ball display reported out of order: the round's Lucky Ball wagers are
// void and returned (the main game's settle), the void is kept across a restart, no Lucky Ball
// wager is taken until the display works, and only the dealer's roles may say so.
func TestRule003_8_11_DisplayFaultVoidsLuckyBallWagers(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.LuckyBall = true })
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := r.dealer.SpinStarted(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
		t.Fatal(err)
	}
	red := r.curDraw().Numbers[roulette.BallRed].String()
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{
		luckyWager("red", 1000), {Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.terminalAsDealer().LuckyBallDisplay(ctx, &pb.LuckyBallDisplayRequest{}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("a terminal reported the display: %v", err)
	}
	if _, err := r.dealer.LuckyBallDisplay(ctx, &pb.LuckyBallDisplayRequest{Working: false, Reason: "blank"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.LuckyBallDisplay(ctx, &pb.LuckyBallDisplayRequest{Working: false}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("reported out of order twice: %v", err)
	}
	// Restart before the outcome: the void is in the ledger.
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	r.shutdown()
	r.start()
	if d := r.curDraw(); d == nil || !d.Void {
		t.Fatalf("after the restart the draw is %+v", d)
	}
	t1 = r.terminal("T1")
	w := r.watch(t1)
	defer w.cancel()
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: red}); err != nil {
		t.Fatal(err)
	}
	s := w.until(t, isSettled).GetSettled()
	mainGame := int64(0)
	if redIsRed := map[string]bool{"1": true, "3": true, "5": true, "7": true, "9": true, "12": true, "14": true, "16": true, "18": true,
		"19": true, "21": true, "23": true, "25": true, "27": true, "30": true, "32": true, "34": true, "36": true}[red]; redIsRed {
		mainGame = 2000
	}
	if s.ReturnedPerWager[0] != 1000 || s.ReturnedPerWager[1] != mainGame || s.Balance != 10000-2000+1000+mainGame {
		t.Fatalf("settled on %s with the Lucky Ball void: %v", red, s)
	}
	r.conserved()
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{luckyWager("blue", 100)}}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a Lucky Ball wager with the display out of order: %v", err)
	}
	r.dealer.SpinStarted(ctx, &pb.RoundRequest{RoundId: st.RoundId})
	if r.curDraw() != nil {
		t.Fatal("numbers drawn with the display out of order")
	}
	if _, err := r.dealer.LuckyBallDisplay(ctx, &pb.LuckyBallDisplayRequest{Working: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 2, Wagers: []*pb.Wager{luckyWager("blue", 500)}}); err != nil {
		t.Fatalf("a Lucky Ball wager once the display works: %v", err)
	}
	// Out of order again before any number is drawn: the round closes with no draw and its
	// Lucky Ball wager is returned whole (no numbers were shown: 003 §7.4, §8.11).
	if _, err := r.dealer.LuckyBallDisplay(ctx, &pb.LuckyBallDisplayRequest{Working: false}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if d := r.curDraw(); d != nil {
		t.Fatalf("numbers drawn at the close with the display out of order: %+v", d)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "0"}); err != nil {
		t.Fatal(err)
	}
	if s := w.until(t, isSettled).GetSettled(); s.RoundId != st.RoundId || len(s.ReturnedPerWager) != 1 || s.ReturnedPerWager[0] != 500 || s.Staked != 500 {
		t.Fatalf("a Lucky Ball wager of a round with no draw settled as %v", s)
	}
	r.conserved()
	log, _ := r.dealer.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 50})
	var kinds []string
	for _, e := range log.Entries {
		if strings.HasPrefix(e.Kind, "lucky-ball-display") {
			kinds = append(kinds, e.Kind+" "+e.Actor)
		}
	}
	if len(kinds) != 3 || !strings.Contains(kinds[1], "D1") {
		t.Fatalf("audit: %v", kinds)
	}
}

// terminalAsDealer is a dealer client dialled with a terminal's certificate.
func (r *rig) terminalAsDealer() pb.DealerServiceClient {
	return pb.NewDealerServiceClient(r.dial("terminal", "T9"))
}

// 001 §9.4 with the trust rules: an earlier round's correction that finds a player overpaid
// takes the account to zero, never below, and records the rest as an overpayment for the
// operator; it is refused while a round is in play; an unknown round is NotFound.
func TestRule001_9_4_EarlierRoundCorrectionOverpayment(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	for _, term := range []pb.TerminalServiceClient{t1, t2} {
		if _, err := creditNotes(ctx, term, "n", 1000); err != nil {
			t.Fatal(err)
		}
	}
	// Round 1: T1 1000 on red, T2 1000 on black; 1 is red: T1 has 2000, T2 0.
	first := r.playRound(t, "1", map[pb.TerminalServiceClient][]*pb.Wager{t1: {{Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}},
		t2: {{Kind: pb.BetKind_BET_KIND_BLACK, Amount: 1000}}})
	// Round 2: T1 loses 1500 of its 2000 on red (2 is black): 500 left.
	second := r.playRound(t, "2", map[pb.TerminalServiceClient][]*pb.Wager{t1: {{Kind: pb.BetKind_BET_KIND_RED, Amount: 1500}}})
	if st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); termBalance(st, "T1") != 500 || termBalance(st, "T2") != 0 {
		t.Fatalf("before the correction: %v", st.Terminals)
	}
	// In play: refused.
	cur, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: first, Number: "2"}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("an earlier round corrected while %s is in play: %v", cur.RoundId, err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: cur.RoundId, Number: "0"})
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: "R999999", Number: "2"}); status.Code(err) != codes.NotFound {
		t.Fatalf("an unknown round: %v", err)
	}
	if _, err := r.dealer.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: first, Number: "2"}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer corrected without the pit boss: %v", err)
	}
	w1, w2 := r.watch(t1), r.watch(t2)
	defer w1.cancel()
	defer w2.cancel()
	// Round 1 was 2 (black): T1 was paid 2000 it should not have (it has 500), T2 is owed 2000.
	st, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: first, Number: "2"})
	if err != nil {
		t.Fatal(err)
	}
	if fr := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetFrozen() != nil }).GetFrozen(); !fr.Frozen {
		t.Fatalf("not frozen first: %v", fr)
	}
	c1 := w1.until(t, isSettled).GetSettled()
	c2 := w2.until(t, isSettled).GetSettled()
	if !c1.Correction || c1.RoundId != first || c1.Balance != 0 || c2.Balance != 2000 {
		t.Fatalf("corrected: T1 %v, T2 %v", c1, c2)
	}
	if termBalance(st, "T1") != 0 || termBalance(st, "T2") != 2000 {
		t.Fatalf("balances after the correction: %v", st.Terminals)
	}
	if len(st.Overpayments) != 1 || st.Overpayments[0].TerminalId != "T1" || st.Overpayments[0].Amount != 1500 || st.Overpayments[0].RoundId != first {
		t.Fatalf("overpayments: %v", st.Overpayments)
	}
	if !st.Conserved {
		t.Fatal("the books do not conserve after the correction")
	}
	// The snapshot's last settlement of T1 is still its latest round's, not the correction.
	r.table.mu.Lock()
	ls := r.table.lastSet["T1"]
	r.table.mu.Unlock()
	if ls == nil || ls.RoundID != second || ls.Correction {
		t.Fatalf("T1's last settlement shown is now %+v", ls)
	}
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: first, Number: "4"}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a corrected round corrected again: %v", err)
	}
	if st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); len(st.History) < 3 || st.History[2].RoundId != first ||
		!st.History[2].Corrected || st.History[1].RoundId != second || st.History[1].Corrected {
		t.Fatalf("the console's history: %v", st.History)
	}
	r.conserved()
}

func termBalance(st *pb.TableStatus, id string) int64 {
	for _, ts := range st.Terminals {
		if ts.TerminalId == id {
			return ts.Balance
		}
	}
	return -1
}

// FuzzLuckyBallDisplay: any report, any reason: refused with a clear code or applied, never a
// panic, and the books conserve.
func FuzzLuckyBallDisplay(f *testing.F) {
	f.Add(false, "blank")
	f.Add(true, "")
	f.Add(false, strings.Repeat("x", 300))
	tbl, _ := openFuzzTable(f)
	f.Fuzz(func(t *testing.T, working bool, reason string) {
		_, err := tbl.LuckyBallDisplay("dealer:D1", working, reason)
		if err != nil && status.Code(err) != codes.FailedPrecondition && status.Code(err) != codes.InvalidArgument {
			t.Fatalf("%v %q: %v", working, reason, err)
		}
		checkBooks(t, tbl)
	})
}

// FuzzSetTableLimits: any limits and warning through the gRPC request's conversion: refused
// with InvalidArgument or in force, never a panic.
func FuzzSetTableLimits(f *testing.F) {
	f.Add(int64(100), int64(50000), int64(100), "straight", int64(100), int64(2500), int64(100), int64(0), int64(500), int64(5000))
	f.Add(int64(1), int64(0), int64(0), "lucky-ball", int64(1), int64(1), int64(0), int64(-1), int64(-1), int64(-1))
	f.Add(int64(100), int64(50), int64(1), "sideways", int64(0), int64(0), int64(0), int64(0), int64(0), int64(30000))
	tbl, _ := openFuzzTable(f)
	svc := &dealerService{t: tbl}
	f.Fuzz(func(t *testing.T, min, max, unit int64, bet string, bmin, bmax, bunit, tableMax, aggMin, warnMs int64) {
		req := &pb.SetLimitsRequest{WarningMs: warnMs, Limits: &pb.Limits{Default: &pb.Limit{Min: min, Max: max, Unit: unit},
			PerBet: map[string]*pb.Limit{bet: {Min: bmin, Max: bmax, Unit: bunit}}, TableMax: tableMax, AggregateMin: aggMin}}
		_, err := svc.SetLimits(ctx, req)
		if err != nil && status.Code(err) != codes.InvalidArgument {
			t.Fatalf("%v: %v", req, err)
		}
		tbl.mu.Lock()
		w, p := tbl.config.Warning, tbl.config.WageringPeriod
		tbl.mu.Unlock()
		if w <= 0 || w >= p {
			t.Fatalf("warning %v in force", w)
		}
	})
}
