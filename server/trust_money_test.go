package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/ledger"
)

// Regression tests for the attacks of issue 13 ("trust nothing you can check"), money items.
// Each failed on the code before the fix.

// playStraight plays one round at the table: term bets a straight on n for stake, the outcome
// is outcome. It returns the round id.
func (r *rig) playStraight(term pb.TerminalServiceClient, n string, stake int64, outcome string) string {
	r.t.Helper()
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := term.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight(n, stake)}}); err != nil {
		r.t.Fatal(err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: outcome}); err != nil {
		r.t.Fatal(err)
	}
	return st.RoundId
}

func (r *rig) status() *pb.TableStatus {
	r.t.Helper()
	st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	return st
}

func (r *rig) balance(terminal string) int64 {
	r.t.Helper()
	for _, ts := range r.status().Terminals {
		if ts.TerminalId == terminal {
			return ts.Balance
		}
	}
	return 0
}

// Attack 1: credit 100.00, straight 17 for 25.00, outcome 17, cash out 975.00, then the dealer
// corrects the outcome to 18 (or invalidates the round). Before: the balance went to −900.00
// and the next player's 50.00 note disappeared into the debt ("nothing to cash out"). Now the
// account never goes below zero, the overpayment is recorded for the operator, the next
// player's money is theirs, and the books conserve with the overpayment as their own term.
func TestCorrectionAfterCashOutDoesNotSwallowTheNextPlayersNotes(t *testing.T) {
	for _, how := range []string{"correct", "invalidate"} {
		t.Run(how, func(t *testing.T) {
			r := newRig(t)
			t1 := r.terminal("T1")
			r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
			if _, err := creditNotes(ctx, t1, "n1", 10000); err != nil {
				t.Fatal(err)
			}
			round := r.playStraight(t1, "17", 2500, "17")
			co, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out"})
			if err != nil || co.Ticket.Amount != 97500 {
				t.Fatalf("cash-out: %v %v", co, err)
			}
			want := int64(90000) // 17 did not win: the 875.00 won and the 25.00 stake were not theirs
			if how == "correct" {
				if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "18"}); err != nil {
					t.Fatal(err)
				}
			} else {
				want = 87500 // the round never happened: the win was not theirs, the stake was
				if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "wrong ball"}); err != nil {
					t.Fatal(err)
				}
			}
			r.conserved()
			if b := r.balance("T1"); b != 0 {
				t.Fatalf("balance %d after the %s, want 0 (never below zero)", b, how)
			}
			st := r.status()
			if !st.Conserved || st.Overpaid != want || len(st.Overpayments) != 1 {
				t.Fatalf("status: conserved %v, overpaid %d (want %d), %v", st.Conserved, st.Overpaid, want, st.Overpayments)
			}
			o := st.Overpayments[0]
			if o.TerminalId != "T1" || o.RoundId != round || o.Kind != ledger.KindOverpayment || o.Amount != want || o.State != "open" {
				t.Fatalf("overpayment %v", o)
			}
			// The next player's note is theirs: it is not taken for the debt.
			if res, err := creditNotes(ctx, t1, "n2", 5000); err != nil || res.Balance != 5000 {
				t.Fatalf("next player's note: %v %v", res, err)
			}
			co, err = t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out2"})
			if err != nil || co.Ticket.Amount != 5000 {
				t.Fatalf("the next player's cash-out: %v %v", co, err)
			}
			r.conserved()
			// The operator recovers it from the first player (003 §8.15.1.2): money in.
			in := r.status().MoneyIn
			res, err := r.super.ResolveOverpayment(ctx, &pb.ResolveOverpaymentRequest{IdempotencyKey: "r", Id: o.Id, Resolution: "recovered", Note: "paid back at the cage"})
			if err != nil || res.State != "recovered" || res.ResolvedBy != "supervisor:S1" {
				t.Fatalf("resolve: %v %v", res, err)
			}
			st = r.status()
			if st.MoneyIn != in+want || st.Overpaid != 0 || !st.Conserved || len(st.Overpayments) != 0 {
				t.Fatalf("after recovery: %v", st)
			}
			if _, err := r.super.ResolveOverpayment(ctx, &pb.ResolveOverpaymentRequest{IdempotencyKey: "r2", Id: o.Id, Resolution: "written-off"}); code(err) != codes.FailedPrecondition {
				t.Fatalf("resolved twice: %v", err)
			}
			all, err := r.dealer.ListOverpayments(ctx, &pb.ListOverpaymentsRequest{})
			if err != nil || len(all.Overpayments) != 1 || all.Overpayments[0].State != "recovered" {
				t.Fatalf("list: %v %v", all, err)
			}
			r.conserved()
		})
	}
}

// Attack 1, the other order: the next player has bought in before the correction arrives.
// Their money is not the first player's debt, and a refund the correction finds for the first
// player is not the next player's either.
func TestCorrectionAfterCashOutNeverTouchesTheNextPlayersMoney(t *testing.T) {
	bothStores(t, testCorrectionAfterCashOutNeverTouchesTheNextPlayersMoney)
}

func testCorrectionAfterCashOutNeverTouchesTheNextPlayersMoney(t *testing.T, r *rig) {
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	creditNotes(ctx, t1, "n1", 10000)
	creditNotes(ctx, t2, "n1", 10000)
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("17", 2500)}})
	t2.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("18", 2500)}})
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	for _, term := range []pb.TerminalServiceClient{t1, t2} {
		if _, err := term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out"}); err != nil {
			t.Fatal(err)
		}
		if _, err := creditNotes(ctx, term, "next", 5000); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: st.RoundId, Number: "18"}); err != nil {
		t.Fatal(err)
	}
	if b1, b2 := r.balance("T1"), r.balance("T2"); b1 != 5000 || b2 != 5000 {
		t.Fatalf("the next players' balances %d, %d; want their own 5000 each", b1, b2)
	}
	s := r.status()
	if !s.Conserved || s.Overpaid != 90000 || s.Underpaid != 90000 {
		t.Fatalf("status: %v", s)
	}
	kinds := map[string]string{}
	for _, o := range s.Overpayments {
		kinds[o.TerminalId] = o.Kind
	}
	if kinds["T1"] != ledger.KindOverpayment || kinds["T2"] != ledger.KindUnderpayment {
		t.Fatalf("overpayments %v", s.Overpayments)
	}
	r.conserved()
	// A restart reads them back from the ledger and still conserves.
	r.shutdown()
	r.start()
	if s := r.status(); !s.Conserved || s.Overpaid != 90000 || len(s.Overpayments) != 2 {
		t.Fatalf("after a restart: %v", s)
	}
}

// Attack 2: the server credited whatever a terminal reported — a 1-cent "AUD50", a note of
// 9,223,372,036,854,765,806 cents (which then wrapped the balance on settlement while the
// conservation check, wrapping too, still said conserved). Now only a denomination of the
// currency table at its value is credited, and the balance is capped.
func TestServerCreditsOnlyRealNotes(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	for _, c := range []struct {
		amount int64
		code   string
	}{
		{1, "AUD50"}, {9_223_372_036_854_765_806, "AUD50"}, {9_223_372_036_854_765_806, "66"}, {5000, ""},
		{5000, "AUD"}, {5000, "XYZ50"}, {-5000, "AUD50"}, {0, "AUD50"}, {5001, "66"},
	} {
		res, err := creditNote(ctx, t1, &pb.CreditNoteRequest{IdempotencyKey: fmt.Sprint("k", c.amount, c.code), Amount: c.amount, NoteCode: c.code})
		if code(err) != codes.InvalidArgument {
			t.Fatalf("note %d %q: %v %v", c.amount, c.code, res, err)
		}
	}
	if b := r.balance("T1"); b != 0 {
		t.Fatalf("balance %d after forged notes", b)
	}
	for i, c := range []struct {
		amount int64
		code   string
	}{{5000, "AUD50"}, {5000, "66"}, {100, "61"}} {
		if _, err := creditNote(ctx, t1, &pb.CreditNoteRequest{IdempotencyKey: fmt.Sprint("ok", i), Amount: c.amount, NoteCode: c.code}); err != nil {
			t.Fatalf("a real note %v: %v", c, err)
		}
	}
	if b := r.balance("T1"); b != 10100 {
		t.Fatalf("balance %d, want 10100", b)
	}
	r.conserved()
}

// Attack 2, the cap: a terminal's money in stops at the table's maximum balance, with a clear
// refusal, for notes, tickets and dealer buy-ins alike.
func TestMoneyInAboveTheMaximumBalanceIsRefused(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.MaxBalance = 25000 })
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 20000); err != nil {
		t.Fatal(err)
	}
	_, err := creditNote(ctx, t1, &pb.CreditNoteRequest{IdempotencyKey: "over", Amount: 10000, NoteCode: "AUD100"})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "maximum balance") {
		t.Fatalf("a note above the maximum balance: %v", err)
	}
	if _, err := creditNote(ctx, t1, &pb.CreditNoteRequest{IdempotencyKey: "fits", Amount: 5000, NoteCode: "AUD50"}); err != nil {
		t.Fatalf("a note up to the maximum: %v", err)
	}
	// A ticket that would take T2 above it is not even held.
	co, _ := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co"})
	t1.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "p", ValidationNumber: co.Ticket.ValidationNumber})
	creditNotes(ctx, t2, "n", 500)
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: co.Ticket.ValidationNumber}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a ticket above the maximum balance was held: %v", err)
	}
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "b", TerminalId: "T2", Amount: 30000}); code(err) != codes.InvalidArgument {
		t.Fatalf("a buy-in above the maximum balance: %v", err)
	}
	b, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "b2", TerminalId: "T2", Amount: 25000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := t2.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "c", BuyInId: b.BuyInId, Accept: true}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a buy-in accepted above the maximum balance: %v", err)
	}
	r.conserved()
}

// printedTicket cashes a terminal out and confirms the ticket printed: a bearer ticket.
func printedTicket(t *testing.T, term pb.TerminalServiceClient, key string, cents int64) string {
	t.Helper()
	if _, err := creditNotes(ctx, term, key+"/in", cents); err != nil {
		t.Fatal(err)
	}
	co, err := term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key + "/printed", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber
}

// Attack 3: RedeemTicket with no commit or cancel held the ticket against every other
// terminal and handpay, 17 minutes later still. Now a hold lapses after the table's hold time
// (2 min by default), and the dealer can release one at once, recorded with who did it.
func TestAbandonedTicketHoldLapses(t *testing.T) { bothStores(t, testAbandonedTicketHoldLapses) }

func testAbandonedTicketHoldLapses(t *testing.T, r *rig) {
	t1, t2, t3 := r.terminal("T1"), r.terminal("T2"), r.terminal("T3")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, t1, "a", 5000)
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	// Within the hold time the hold stands.
	r.clock.Add(DefaultTicketHold - time.Second)
	if _, err := t3.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a held ticket was taken within the hold time: %v", err)
	}
	st := r.status()
	if len(st.TicketHolds) != 1 || st.TicketHolds[0].TerminalId != "T2" || st.TicketHolds[0].ValidationNumber != vn {
		t.Fatalf("holds in the status: %v", st.TicketHolds)
	}
	// 17 minutes later (the attack), and from the hold time on, another terminal may take it.
	r.clock.Add(17 * time.Minute)
	if _, err := t3.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h2", ValidationNumber: vn}); err != nil {
		t.Fatalf("an abandoned hold still blocks the ticket: %v", err)
	}
	// T2 lost it: its commit is refused (as any ticket not its own). T3's stands, once.
	if _, err := t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c", ValidationNumber: vn}); code(err) != codes.NotFound {
		t.Fatalf("the lapsed holder committed: %v", err)
	}
	if res, err := t3.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c", ValidationNumber: vn}); err != nil || res.Balance != 5000 {
		t.Fatalf("commit: %v %v", res, err)
	}
	r.conserved()
}

// Attack 3, the dealer's release: recorded with the dealer's certificate identity; the terminal
// that held the ticket can still commit it if its acceptor stacked it meanwhile (once), unless
// another terminal has taken it since.
func TestDealerReleasesATicketHold(t *testing.T) { bothStores(t, testDealerReleasesATicketHold) }

func testDealerReleasesATicketHold(t *testing.T, r *rig) {
	t1, t2, t3 := r.terminal("T1"), r.terminal("T2"), r.terminal("T3")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, t1, "a", 5000)
	if _, err := r.super.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: "x", ValidationNumber: vn}); code(err) != codes.NotFound {
		t.Fatalf("released a ticket nobody held: %v", err)
	}
	t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: vn})
	rel, err := r.super.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: "rel", ValidationNumber: vn, Reason: "player walked away"})
	if err != nil || rel.ReleasedFrom != "T2" || rel.Ticket.State != ledger.TicketPrinted {
		t.Fatalf("release: %v %v", rel, err)
	}
	if len(r.status().TicketHolds) != 0 {
		t.Fatal("the released hold is still listed")
	}
	var recorded bool
	evs, err := r.led.Events(ctx, "ticket-hold-released", 10)
	for _, e := range evs {
		recorded = recorded || (e.Terminal == "T2" && strings.Contains(e.Detail, "by supervisor:S1") && e.Actor == "supervisor:S1" && strings.Contains(e.Detail, "walked away"))
	}
	if err != nil || !recorded {
		t.Fatalf("the release is not recorded with the dealer's identity: %v %v", evs, err)
	}
	// T2's acceptor had stacked it after all: its commit is credited once.
	if res, err := t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c", ValidationNumber: vn}); err != nil || res.Balance != 5000 {
		t.Fatalf("the former holder's commit: %v %v", res, err)
	}
	if _, err := t3.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a redeemed ticket was held again: %v", err)
	}
	r.conserved()
}

// Attack 4: 2,000 forged validation numbers were tried at 6,200/s with no alarm. Now a terminal
// is refused (ResourceExhausted) after a few failures, for a cool-down that grows, and an alarm
// is raised on the dealer's console.
func TestGuessingTicketNumbersIsThrottledAndRaisesAnAlarm(t *testing.T) {
	// 2,000 guesses flat out would also get the terminal cut off for its call rate
	// (cutoff.go, TestAbusiveTerminalIsCutOffAndOthersServed); this test is about the
	// redemption throttle, so the cut-off is out of its way.
	r := newRigWith(t, nil, WithCutoff(0))
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, t2, "real", 5000)
	tried, refused := 0, 0
	for i := range 2000 {
		_, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: fmt.Sprint("g", i), ValidationNumber: fmt.Sprintf("%018d", 123456789+i)})
		switch code(err) {
		case codes.NotFound:
			tried++
		case codes.ResourceExhausted:
			refused++
		default:
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	if tried != 5 || refused != 1995 {
		t.Fatalf("%d guesses looked up, %d refused; want 5 and 1995", tried, refused)
	}
	// 2,000 calls at full speed also spent the terminal's call rate at the transport (50 a
	// second, real time, before this throttle is reached): let it refill before going on.
	time.Sleep(2100 * time.Millisecond)
	// Even a real ticket is refused at the throttled terminal during the cool-down…
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "real", ValidationNumber: vn}); code(err) != codes.ResourceExhausted {
		t.Fatalf("throttled terminal: %v", err)
	}
	// …while other terminals are not throttled.
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "x", ValidationNumber: "000000000000000001"}); code(err) != codes.NotFound {
		t.Fatalf("another terminal: %v", err)
	}
	st := r.status()
	if len(st.Alarms) != 1 || st.Alarms[0].Kind != AlarmTicketGuessing || st.Alarms[0].TerminalId != "T1" {
		t.Fatalf("alarms in the status: %v", st.Alarms)
	}
	// After the cool-down (30 s) it may try again; failing again earns a longer one (60 s).
	r.clock.Add(30 * time.Second)
	for i := range 5 {
		if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: fmt.Sprint("again", i), ValidationNumber: fmt.Sprintf("%018d", 99+i)}); code(err) != codes.NotFound {
			t.Fatalf("after the cool-down: %v", err)
		}
	}
	r.clock.Add(59 * time.Second)
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "late", ValidationNumber: vn}); code(err) != codes.ResourceExhausted {
		t.Fatalf("the second cool-down did not grow: %v", err)
	}
	r.clock.Add(time.Second)
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "real2", ValidationNumber: vn}); err != nil {
		t.Fatalf("a real ticket after the cool-down: %v", err)
	}
	al, err := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{})
	if err != nil || len(al.Alarms) != 2 || !strings.Contains(al.Alarms[0].Detail, "lockout 2") {
		t.Fatalf("alarms: %v %v", al, err)
	}
}
