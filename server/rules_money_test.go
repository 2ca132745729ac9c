package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// The engine's side of issue 17 items 1–4. The same rules through the real terminal are in
// app/station/rules_ride_money_test.go.

// play runs one round on the rig: the slip each terminal is given (version 1), the deadline,
// the outcome. It returns the round.
func (r *rig) playRound(t *testing.T, outcome string, slips map[pb.TerminalServiceClient][]*pb.Wager) string {
	t.Helper()
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for c, ws := range slips {
		if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: ws}); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: outcome}); err != nil {
		t.Fatal(err)
	}
	return st.RoundId
}

// 004 §3.6(b), §3.7, §3.4: under vic-1999 the winning wagers of a round ride on the next, and the
// terminal is told the slip the table carried (SlipCarried, with its version) right after the
// new round's phase, so its next change is newer and withdraws them. A terminal without a live
// stream has nothing carried: a wager settles only as a screen showed it.
func TestRule004_3_6_WinnersCarriedAreToldToTheTerminal(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.RulesProfile = table.ProfileVic1999 })
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for id, c := range map[string]pb.TerminalServiceClient{"T1": t1, "T2": t2} {
		if err := r.buyIn(c, id, "in-"+id, 10000); err != nil {
			t.Fatal(err)
		}
	}
	w1 := r.watch(t1)
	defer w1.cancel()
	// T2 plays round 1 but is not watching when round 2 opens.
	r.playRound(t, "17", map[pb.TerminalServiceClient][]*pb.Wager{
		t1: {straight("17", 500), black(500), straight("2", 500)},
		t2: {straight("17", 500)},
	})
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	phase := false
	ev := w1.until(t, func(ev *pb.TableEvent) bool {
		if p := ev.GetPhase(); p != nil && p.RoundId == st.RoundId && p.Phase == pb.Phase_PHASE_WAGERING {
			phase = true
		}
		return ev.GetSlipCarried() != nil
	})
	if !phase {
		t.Fatal("the carried slip was told before the new round's phase: the terminal clears its layout on the phase")
	}
	sl := ev.GetSlipCarried().GetSlip()
	if sl.RoundId != st.RoundId || sl.Version != 1 || sl.Total != 1000 || len(sl.Wagers) != 2 {
		t.Fatalf("carried slip %v, want the two winners (straight 17, black) of 5.00 in %s at version 1", sl, st.RoundId)
	}
	status, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range status.Terminals {
		want := map[string]int64{"T1": 1000, "T2": 0}[ts.TerminalId]
		if ts.SlipTotal != want {
			t.Errorf("%s carried %d, want %d (T2 had no live stream)", ts.TerminalId, ts.SlipTotal, want)
		}
	}
	// §3.7: the player withdraws the black by touching it — a newer version, taken.
	ack, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: sl.Version + 1, Wagers: []*pb.Wager{straight("17", 500)}})
	if err != nil {
		t.Fatalf("withdrawing a carried winner: %v", err)
	}
	if ack.Slip.Total != 500 {
		t.Fatalf("after withdrawing the black: %v", ack.Slip)
	}
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	set := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetSettled() != nil && ev.GetSettled().RoundId == st.RoundId }).GetSettled()
	if set.Staked != 500 || set.Returned != 18000 || set.SlipVersion != 2 {
		t.Fatalf("settled %v, want the 5.00 straight left on the layout (version 2)", set)
	}
	r.conserved()
}

// 004 §3.6(b): nothing rides from a round invalidated after its outcome (001 §12.3), nor at a
// table whose profile does not keep winners on the layout.
func TestRule004_3_6_NothingCarriedFromAnInvalidatedRoundOrOtherProfiles(t *testing.T) {
	for _, profile := range []string{table.ProfileVic1999, table.ProfileCrown} {
		t.Run(profile, func(t *testing.T) {
			r := newRigWith(t, func(c *Config) { c.RulesProfile = profile })
			t1 := r.terminal("T1")
			r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
			if err := r.buyIn(t1, "T1", "in", 10000); err != nil {
				t.Fatal(err)
			}
			w := r.watch(t1)
			defer w.cancel()
			round := r.playRound(t, "17", map[pb.TerminalServiceClient][]*pb.Wager{t1: {straight("17", 500)}})
			if profile == table.ProfileVic1999 {
				if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "dealer error"}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{}); err != nil {
				t.Fatal(err)
			}
			status, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
			for _, ts := range status.Terminals {
				if ts.SlipTotal != 0 {
					t.Fatalf("%s: %d carried", ts.TerminalId, ts.SlipTotal)
				}
			}
		})
	}
}

// 004 §6.4(b) (and §6.3(c)): while a dealer buy-in waits for the player's confirmation, a slip
// that places a further wager is refused with the reason; one that only withdraws is taken;
// once confirmed, betting goes on.
func TestRule004_6_4b_PendingBuyInRefusesFurtherWagers(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	slip := func(v uint64, ws ...*pb.Wager) error {
		_, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: v, Wagers: ws})
		return err
	}
	if err := slip(1, red(500), straight("17", 500)); err != nil {
		t.Fatal(err)
	}
	b, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "more", TerminalId: "T1", Amount: 5000})
	if err != nil {
		t.Fatal(err)
	}
	for name, ws := range map[string][]*pb.Wager{
		"a new bet":          {red(500), straight("17", 500), straight("5", 500)},
		"more on a bet held": {red(1000), straight("17", 500)},
	} {
		err := slip(2, ws...)
		if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "6.4(b)") || !strings.Contains(err.Error(), "50.00") {
			t.Fatalf("%s while a buy-in of 50.00 waits: %v", name, err)
		}
	}
	if err := slip(3, red(500)); err != nil {
		t.Fatalf("withdrawing a wager while a buy-in waits: %v", err)
	}
	if err := slip(4); err != nil {
		t.Fatalf("withdrawing every wager while a buy-in waits: %v", err)
	}
	if _, err := t1.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "yes", BuyInId: b.BuyInId, Accept: true}); err != nil {
		t.Fatal(err)
	}
	if err := slip(5, red(1000), straight("5", 500)); err != nil {
		t.Fatalf("after the buy-in was confirmed: %v", err)
	}
	// Declining ends the wait too.
	b, err = r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "again", TerminalId: "T1", Amount: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if err := slip(6, red(1500)); code(err) != codes.FailedPrecondition {
		t.Fatalf("a second buy-in waiting: %v", err)
	}
	if _, err := t1.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "no", BuyInId: b.BuyInId, Accept: false}); err != nil {
		t.Fatal(err)
	}
	if err := slip(7, red(1500)); err != nil {
		t.Fatalf("after the buy-in was declined: %v", err)
	}
	r.conserved()
}

// 004 §6.2, §6.6 and 000 §11.7.2, §11.7.6: under vic-1999 and at a TouchTable the money goes in
// and out only through the dealer. The table says so in its config (DealerCashOnly) and
// refuses a note (in escrow and at its credit), a ticket buy-in and a ticket cash-out, with a
// reason naming the rules; the dealer's buy-in and close (the payout in chips) work. The Crown
// and Star profiles keep their notes and tickets.
func TestRule004_6_2_MoneyOnlyThroughTheDealer(t *testing.T) {
	for _, profile := range []string{table.ProfileVic1999, table.ProfileTouchTable, table.ProfileCrown, table.ProfileStar} {
		t.Run(profile, func(t *testing.T) {
			dealerOnly := profile == table.ProfileVic1999 || profile == table.ProfileTouchTable
			rules, err := table.RulesOf(profile)
			if err != nil {
				t.Fatal(err)
			}
			r := newRigWith(t, func(c *Config) { c.RulesProfile, c.LayoutProfile = profile, rules.Layout() })
			t1 := r.terminal("T1")
			r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
			status, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if status.Config.DealerCashOnly != dealerOnly || status.Config.RulesProfile != profile {
				t.Fatalf("config %v: dealer cash only %v, want %v", status.Config.RulesProfile, status.Config.DealerCashOnly, dealerOnly)
			}
			refused := func(what string, err error) {
				t.Helper()
				if !dealerOnly {
					return
				}
				if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "dealer") || !strings.Contains(err.Error(), "6.2") {
					t.Fatalf("%s under %s: %v, want refused naming the dealer and 004 §6.2", what, profile, err)
				}
			}
			_, err = t1.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: "n1", Amount: 2000, NoteCode: "65"})
			refused("a note in escrow", err)
			_, err = t1.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "n1", Amount: 2000, NoteCode: "65"})
			refused("a note credit", err)
			if !dealerOnly && err != nil {
				t.Fatalf("a note under %s: %v", profile, err)
			}
			_, err = t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "tk", ValidationNumber: "123456789012345678"})
			refused("a ticket buy-in", err)
			if err := r.buyIn(t1, "T1", "dealer", 5000); err != nil {
				t.Fatalf("the dealer's buy-in under %s: %v", profile, err)
			}
			// 000 §11.7.6: the player selects Cash-Out and the dealer pays; elsewhere a ticket
			// prints, and there is nothing to ask the dealer for.
			asked, err := t1.RequestDealerCashOut(ctx, &pb.RequestDealerCashOutRequest{})
			if dealerOnly != (err == nil) || dealerOnly && asked.Balance != 5000 {
				t.Fatalf("asking the dealer to cash out under %s: %v %v", profile, asked, err)
			}
			requested := func() bool {
				st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
				if err != nil {
					t.Fatal(err)
				}
				for _, ts := range st.Terminals {
					if ts.TerminalId == "T1" {
						return ts.CashOutRequested
					}
				}
				return false
			}
			if requested() != dealerOnly {
				t.Fatalf("the dealer's status shows the request: %v under %s", requested(), profile)
			}
			_, err = t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out"})
			refused("a ticket cash-out", err)
			if !dealerOnly {
				if err != nil {
					t.Fatalf("a ticket cash-out under %s: %v", profile, err)
				}
				r.conserved()
				return
			}
			// The payout in chips: the dealer closes the account at the console.
			res, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: "close", TerminalId: "T1"})
			if err != nil || res.Amount != 5000 {
				t.Fatalf("the dealer paying out in chips: %v %v", res, err)
			}
			if requested() {
				t.Fatal("the request still shown after the dealer paid")
			}
			if _, err := t1.RequestDealerCashOut(ctx, &pb.RequestDealerCashOutRequest{}); code(err) != codes.FailedPrecondition {
				t.Fatalf("asking to cash out a closed account: %v", err)
			}
			r.conserved()
		})
	}
}

func TestRulesProfileIsChecked(t *testing.T) {
	led, err := ledger.Open(t.TempDir() + "/t.db")
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	cfg := DefaultConfig()
	cfg.RulesProfile = "vic1999"
	if _, err := NewTable(context.Background(), cfg, led, nil, nil); err == nil || !strings.Contains(err.Error(), "vic1999") {
		t.Fatalf("a misspelt profile: %v", err)
	}
}

// 001 §8.8: a jackpot hit in a round that is then invalidated, before the pit boss confirmed it,
// is void: the terminals are told, the amount goes back on the meter, the pit boss cannot
// confirm it, and a restart keeps it void. §9.10: a confirmed jackpot stands whatever becomes
// of its round.
func TestRule001_8_8_JackpotOfAnInvalidatedRoundIsVoid(t *testing.T) {
	const seed, ceiling = 100000, 100001
	r := newRigWith(t, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: seed, Ceiling: ceiling, RateBP: 10} })
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 50000); err != nil {
		t.Fatal(err)
	}
	w := r.watch(t1)
	defer w.cancel()
	status := func() *pb.TableStatus {
		st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	balance := func() int64 {
		for _, ts := range status().Terminals {
			if ts.TerminalId == "T1" {
				return ts.Balance
			}
		}
		return -1
	}
	// Two rounds of 5.00 on red add a cent (0.1 %): 1000.01, the trigger.
	hitRound := func() string {
		r.playRound(t, "2", map[pb.TerminalServiceClient][]*pb.Wager{t1: {red(500)}})
		round := r.playRound(t, "2", map[pb.TerminalServiceClient][]*pb.Wager{t1: {red(500)}})
		st := status()
		if st.PendingJackpot == nil || st.PendingJackpot.RoundId != round || st.JackpotMeter != seed {
			t.Fatalf("no hit in %s: meter %d pending %v", round, st.JackpotMeter, st.PendingJackpot)
		}
		return round
	}
	round := hitRound()
	before := balance()
	if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "wheel fault"}); err != nil {
		t.Fatal(err)
	}
	won := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetJackpotWon() != nil && ev.GetJackpotWon().Void }).GetJackpotWon()
	if won.RoundId != round || won.Amount != ceiling || won.Confirmed {
		t.Fatalf("the void told as %v", won)
	}
	if m := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetJackpot() != nil }).GetJackpot(); m.Amount != ceiling {
		t.Fatalf("meter told %d after the void, want %d back on it", m.Amount, ceiling)
	}
	st := status()
	if st.PendingJackpot != nil || st.JackpotMeter != ceiling {
		t.Fatalf("after the void: meter %d pending %v, want %d and none", st.JackpotMeter, st.PendingJackpot, ceiling)
	}
	_, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: round})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "void") {
		t.Fatalf("confirming a void jackpot: %v", err)
	}
	if got := balance(); got != before+500 { // the round's stake refunded; no jackpot
		t.Fatalf("balance %d after the void, want %d (the stake refunded, no prize)", got, before+500)
	}
	r.conserved()
	r.shutdown()
	r.start()
	if st := status(); st.PendingJackpot != nil || st.JackpotMeter != ceiling {
		t.Fatalf("after a restart: meter %d pending %v", st.JackpotMeter, st.PendingJackpot)
	}

	// §9.10: a hit confirmed, its round invalidated after — the prize stands.
	t1 = r.terminal("T1") // the restart closed the rig's connections
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	round = r.playRound(t, "2", map[pb.TerminalServiceClient][]*pb.Wager{t1: {red(500)}}) // meter already at the trigger
	st = status()
	if st.PendingJackpot == nil || st.PendingJackpot.RoundId != round {
		t.Fatalf("the re-credited meter did not hit: meter %d pending %v", st.JackpotMeter, st.PendingJackpot)
	}
	prize := st.PendingJackpot.Amount
	if _, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	withPrize, meter := balance(), status().JackpotMeter
	if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "wheel fault"}); err != nil {
		t.Fatal(err)
	}
	if got := balance(); got != withPrize+500 {
		t.Fatalf("balance %d after invalidating a round whose jackpot of %d was confirmed, want %d: the prize stands", got, prize, withPrize+500)
	}
	if m := status().JackpotMeter; m != meter {
		t.Fatalf("meter %d, want %d: a confirmed jackpot goes nowhere", m, meter)
	}
	r.conserved()
}

// FuzzSlipWhileBuyInWaits sends arbitrary slips while a dealer buy-in waits for the player
// (004 §6.4(b)): a slip is taken only if it places nothing further — every wager on a bet the
// acknowledged slip holds, at no more than attempted there — and every other slip is refused
// for the buy-in (FailedPrecondition naming the rule) or as bad input (InvalidArgument). Never a
// panic.
func FuzzSlipWhileBuyInWaits(f *testing.F) {
	f.Add(int32(15), "", int64(1000), int64(500))
	f.Add(int32(15), "", int64(1500), int64(500))
	f.Add(int32(1), "17", int64(500), int64(500))
	f.Add(int32(1), "17", int64(400), int64(0))
	f.Add(int32(1), "5", int64(100), int64(500))
	f.Add(int32(99), "x", int64(-1), int64(1<<62))

	tbl, _ := openFuzzTable(f)
	if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		f.Fatal(err)
	}
	if err := tbl.RegisterTerminal("T1"); err != nil {
		f.Fatal(err)
	}
	st, err := tbl.StartRound("dealer:test")
	if err != nil {
		f.Fatal(err)
	}
	version := uint64(1)
	ack, err := tbl.UpdateSlip("T1", st.RoundId, version, slipWagers([]*pb.Wager{red(1000), straight("17", 500)}))
	if err != nil {
		f.Fatal(err)
	}
	if _, err := tbl.CreditPlayer("dealer:test", &pb.CreditPlayerRequest{IdempotencyKey: "b", TerminalId: "T1", Amount: 5000}); err != nil {
		f.Fatal(err)
	}
	held := func(a *table.SlipAck) map[roulette.Bet]int64 {
		m := map[roulette.Bet]int64{}
		for _, b := range a.Bets {
			m[b.Bet] = b.Amount
		}
		return m
	}
	was := held(ack)
	f.Fuzz(func(t *testing.T, kind int32, numbers string, amount, redAmount int64) {
		var nums []string
		if numbers != "" {
			nums = strings.Split(numbers, ",")
		}
		ws := []*pb.Wager{{Kind: pb.BetKind(kind), Numbers: nums, Amount: amount}}
		if redAmount != 0 {
			ws = append(ws, red(redAmount))
		}
		in := slipWagers(ws)
		further := false
		for _, w := range in {
			if w.Err != nil {
				continue
			}
			b, err := roulette.ParseBet(tbl.layout, w.Spec)
			if err != nil {
				continue
			}
			if held, ok := was[b]; !ok || w.Amount > held {
				further = true
			}
		}
		version++
		got, err := tbl.UpdateSlip("T1", st.RoundId, version, in)
		switch {
		case err == nil:
			if further {
				t.Fatalf("%v taken while the buy-in waits: it places more than %v", ws, was)
			}
			was = held(got)
		case code(err) == codes.FailedPrecondition:
			if !further || !strings.Contains(err.Error(), "6.4(b)") {
				t.Fatalf("%v refused (held %v): %v", ws, was, err)
			}
		case code(err) != codes.InvalidArgument:
			t.Fatalf("%v: %v", ws, err)
		}
	})
}
