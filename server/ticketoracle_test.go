package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Issue 34, attack 5: CommitRedeem and TicketPrinted answered an unknown validation number
// differently from a real one (NotFound against FailedPrecondition / PermissionDenied), and
// were never throttled nor alarmed: a terminal could test numbers through them without limit.
// Every call that takes a validation number answers alike for "unknown" and "not yours", and
// counts toward the one guessing throttle and alarm of RedeemTicket and the cage's look-up.

// ticketCall is one of the terminal's calls that names a ticket by its validation number.
type ticketCall struct {
	name string
	call func(term pb.TerminalServiceClient, key, vn string) error
}

var terminalTicketCalls = []ticketCall{
	{"CommitRedeem", func(term pb.TerminalServiceClient, key, vn string) error {
		_, err := term.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: vn})
		return err
	}},
	{"CancelRedeem", func(term pb.TerminalServiceClient, key, vn string) error {
		_, err := term.CancelRedeem(ctx, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: vn})
		return err
	}},
	{"TicketPrinted", func(term pb.TerminalServiceClient, key, vn string) error {
		_, err := term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: vn})
		return err
	}},
	{"TicketPrintFailed", func(term pb.TerminalServiceClient, key, vn string) error {
		_, err := term.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: key, ValidationNumber: vn, Fault: "jam"})
		return err
	}},
}

// answer is a refusal as a guesser reads it, the number it named taken out.
func answer(err error, vn string) string {
	st := status.Convert(err)
	return fmt.Sprintf("%v: %s", st.Code(), strings.ReplaceAll(st.Message(), vn, "<number>"))
}

func TestTicketCallsAnswerAlikeForUnknownAndNotYours(t *testing.T) {
	bothStores(t, testTicketCallsAnswerAlikeForUnknownAndNotYours)
}

func testTicketCallsAnswerAlikeForUnknownAndNotYours(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	t2 := r.terminal("T2")
	printed := printedTicket(t, t2, "printed", 5000) // another terminal's, printed
	if _, err := creditNotes(ctx, t2, "in", 2000); err != nil {
		t.Fatal(err)
	}
	co, err := t2.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "issued"})
	if err != nil {
		t.Fatal(err)
	}
	issued := co.Ticket.ValidationNumber // another terminal's, not yet printed
	held := printedTicket(t, r.terminal("T3"), "held", 1000)
	if _, err := r.terminal("T4").RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: held}); err != nil {
		t.Fatal(err) // held by another terminal
	}
	unknown := "000000000000000042"
	for i, c := range terminalTicketCalls {
		t1 := r.terminal(fmt.Sprint("G", i)) // a fresh terminal per call: a few failures, no lockout
		want := answer(c.call(t1, "u", unknown), unknown)
		if !strings.HasPrefix(want, codes.NotFound.String()) {
			t.Fatalf("%s of an unknown number: %s", c.name, want)
		}
		for _, vn := range []string{printed, issued, held} {
			if got := answer(c.call(t1, "k"+vn, vn), vn); got != want {
				t.Errorf("%s of another terminal's ticket answers %q; an unknown number %q", c.name, got, want)
			}
		}
	}
	r.conserved()
}

func TestEveryTicketCallCountsTowardTheGuessingThrottle(t *testing.T) {
	bothStores(t, testEveryTicketCallCountsTowardTheGuessingThrottle)
}

func testEveryTicketCallCountsTowardTheGuessingThrottle(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	t1 := r.terminal("T1")
	mine := printedTicket(t, r.terminal("T2"), "mine", 3000)
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "mine", ValidationNumber: mine}); err != nil {
		t.Fatal(err)
	}
	// One failed validation through each call, and one through RedeemTicket: five, the
	// table's limit (Config.RedeemFailures), counted together.
	guess := 0
	next := func() string { guess++; return fmt.Sprintf("%018d", 7000+guess) }
	for _, c := range terminalTicketCalls {
		if err := c.call(t1, "g"+c.name, next()); code(err) != codes.NotFound {
			t.Fatalf("%s guess: %v", c.name, err)
		}
	}
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "g", ValidationNumber: next()}); code(err) != codes.NotFound {
		t.Fatalf("RedeemTicket guess: %v", err)
	}
	// Locked out: every call refuses a number that is not the terminal's own, alike.
	for _, c := range terminalTicketCalls {
		if err := c.call(t1, "l"+c.name, next()); code(err) != codes.ResourceExhausted {
			t.Errorf("%s of a guess during the cool-down: %v", c.name, err)
		}
	}
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "l", ValidationNumber: mine}); code(err) != codes.ResourceExhausted {
		t.Errorf("RedeemTicket during the cool-down: %v", err)
	}
	st := r.status()
	if len(st.Alarms) != 1 || st.Alarms[0].Kind != AlarmTicketGuessing || st.Alarms[0].TerminalId != "T1" {
		t.Fatalf("alarms: %v", st.Alarms)
	}
	// Its own ticket, stacked before the lockout, is still credited.
	if res, err := t1.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c-mine", ValidationNumber: mine}); err != nil || res.Balance != 3000 {
		t.Fatalf("the terminal's own held ticket during the cool-down: %v %v", res, err)
	}
	r.conserved()
}

// The dealer's and pit boss's calls that name a ticket (Handpay, ReleaseTicketHold) are held
// to the same rule: a ticket that is not this table's to act on (printed at another table, not
// held here) is answered as a number that is no ticket, and failures count toward the same
// throttle and alarm, so a stolen dealer's card is no oracle either.
func TestDealerTicketCallsAnswerAlikeAndCountTowardTheThrottle(t *testing.T) {
	bothStores(t, testDealerTicketCallsAnswerAlikeAndCountTowardTheThrottle)
}

func testDealerTicketCallsAnswerAlikeAndCountTowardTheThrottle(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	t2 := r.terminal("T2")
	printed := printedTicket(t, t2, "printed", 5000) // this table's, printed, not held
	elsewhere := "918273645546372819"
	heldThere := printedTicket(t, t2, "held-there", 1000)
	// The floor's other table T9 printed one that failed to print, and holds another (on a
	// shared store its server writes these rows; here the test does).
	if err := r.led.Update(ctx, r.clock.Now(), func(tx *ledger.Tx) error {
		now := r.clock.Now()
		if err := tx.PutTicket(ledger.Ticket{Validation: elsewhere, Number: 9999, Terminal: "T01", Amount: 2000, Issued: now,
			Expires: now.Add(24 * time.Hour), State: ledger.TicketPrintFailed, IssuerTable: "T9"}); err != nil {
			return err
		}
		tk, _, err := tx.Ticket(heldThere)
		if err != nil {
			return err
		}
		tk.State, tk.HolderTable, tk.Holder, tk.HeldAt = ledger.TicketRedeeming, "T9", "T01", r.clock.Now()
		return tx.PutTicket(tk)
	}); err != nil {
		t.Fatal(err)
	}
	unknown := "000000000000000042"
	handpay := func(key, vn string) error {
		_, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: key, ValidationNumber: vn})
		return err
	}
	release := func(key, vn string) error {
		_, err := r.super.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: key, ValidationNumber: vn, Reason: "test"})
		return err
	}
	want := answer(handpay("h-u", unknown), unknown)
	if got := answer(handpay("h-e", elsewhere), elsewhere); got != want || !strings.HasPrefix(want, codes.NotFound.String()) {
		t.Errorf("Handpay of another table's ticket answers %q; an unknown number %q", got, want)
	}
	want = answer(release("r-u", unknown), unknown)
	for _, vn := range []string{printed, heldThere} {
		if got := answer(release("r-"+vn, vn), vn); got != want || !strings.HasPrefix(want, codes.NotFound.String()) {
			t.Errorf("ReleaseTicketHold of a ticket not held here answers %q; an unknown number %q", got, want)
		}
	}
	// Five failures so far (two hand-pays, three releases): the pit boss is locked out.
	if err := handpay("h-again", unknown); code(err) != codes.ResourceExhausted {
		t.Fatalf("a sixth failed validation: %v", err)
	}
	if err := release("r-again", printed); code(err) != codes.ResourceExhausted {
		t.Fatalf("a release during the cool-down: %v", err)
	}
	st := r.status()
	if len(st.Alarms) != 1 || st.Alarms[0].Kind != AlarmTicketGuessing || !strings.Contains(st.Alarms[0].TerminalId, "S1") {
		t.Fatalf("alarms: %v", st.Alarms)
	}
	// Another pit boss is another scope: not locked out by this one's failures.
	s2 := pb.NewDealerServiceClient(r.dial(pki.RoleSupervisor, "S2"))
	if _, err := s2.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: "d", ValidationNumber: unknown}); code(err) != codes.NotFound {
		t.Fatalf("another pit boss: %v", err)
	}
}
