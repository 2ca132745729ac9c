package server

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// overpaidTicket plays issue 33's scenario at one terminal of r: 50.00 in, 10.00 on 17, 17
// wins (the balance 400.00), the player cashes out (a 400.00 ticket, printed), and the
// supervisor corrects the outcome to 20: an overpayment of 360.00 whose money left in the
// ticket. It returns the ticket and the round.
func overpaidTicket(t *testing.T, r *rig, term pb.TerminalServiceClient, key string) (vn, round string) {
	t.Helper()
	round = winOn17(t, r, term, key)
	co, err := term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if co.Ticket.Amount != 40000 {
		t.Fatalf("the cash-out after the win: %v", co.Ticket)
	}
	if _, err := term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key + "/printed", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "20"}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber, round
}

// winOn17 plays a round at term: 50.00 in, 10.00 on 17, 17 wins (the balance 400.00). It
// returns the round.
func winOn17(t *testing.T, r *rig, term pb.TerminalServiceClient, key string) string {
	t.Helper()
	if _, err := creditNotes(ctx, term, key+"/in", 5000); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("17", 1000)}}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	return st.RoundId
}

// unprintedTicket cashes term out and reports the ticket's printing failed: to be paid by hand.
func unprintedTicket(t *testing.T, term pb.TerminalServiceClient, key string) string {
	t.Helper()
	co, err := term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: key + "/pf", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber
}

// Issue 33 point 1, over real gRPC: T01 wins on 17, cashes out a 400.00 ticket, the
// supervisor corrects the outcome to 20. The open overpayment of 360.00 names the ticket; the
// cage's look-up says it is not payable and why, in words a cashier reads; PayTicket refuses
// it; a terminal's RedeemTicket refuses it with the refusal the player is told; a supervisor
// cannot release it around the overpayment. Resolved (recovered), the ticket pays.
func TestOverpaidTicketHeldAtTheCageUntilResolved(t *testing.T) {
	bothStores(t, testOverpaidTicketHeldAtTheCageUntilResolved)
}

func testOverpaidTicketHeldAtTheCageUntilResolved(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	t1, t2 := r.terminal("T01"), r.terminal("T02")
	vn, round := overpaidTicket(t, r, t1, "a")
	ops, err := r.dealer.ListOverpayments(ctx, &pb.ListOverpaymentsRequest{OpenOnly: true})
	if err != nil || len(ops.Overpayments) != 1 {
		t.Fatalf("overpayments: %v %v", ops, err)
	}
	o := ops.Overpayments[0]
	if o.Amount != 36000 || o.Kind != ledger.KindOverpayment || len(o.Tickets) != 1 || o.Tickets[0] != vn {
		t.Fatalf("the overpayment does not name the ticket its money left in: %v", o)
	}
	cage := r.cashier("cashier-1")
	look, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil {
		t.Fatal(err)
	}
	want := "held: overpayment of A$360.00 after the correction of round " + round + " 17→20 — see the supervisor"
	if look.Payable || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED || !strings.HasPrefix(look.Message, want) ||
		len(look.Stops) != 1 || look.Stops[0].OverpaymentId != o.Id || look.Stops[0].Amount != 36000 {
		t.Fatalf("the cage's look-up of an overpaid ticket:\n%v\nwant the message to begin %q", look, want)
	}
	t.Logf("the cashier reads: %s", look.Message)
	v := refusal(t, func() error {
		_, err := cage.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "pay"})
		return err
	}(), codes.FailedPrecondition)
	if v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED {
		t.Fatalf("the cage paid, or refused for another reason: %v", v)
	}
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: vn}); code(err) != codes.FailedPrecondition ||
		!strings.Contains(err.Error(), table.TicketStopped) {
		t.Fatalf("a terminal redeemed an overpaid ticket: %v", err)
	}
	if _, err := r.supervisorCage().ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: look.Stops[0].Id,
		Note: "it's fine", IdempotencyKey: "rel"}); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "resolves the overpayment") {
		t.Fatalf("a supervisor released an overpayment's stop around it: %v", err)
	}
	if _, err := r.super.ResolveOverpayment(ctx, &pb.ResolveOverpaymentRequest{Id: o.Id, Resolution: ledger.OverpaymentRecovered,
		Note: "360.00 recovered from the player", IdempotencyKey: "res"}); err != nil {
		t.Fatal(err)
	}
	look, err = cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || !look.Payable || len(look.Stops) != 0 {
		t.Fatalf("resolved, the ticket is still held: %v %v", look, err)
	}
	paid, err := cage.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "pay"})
	if err != nil || paid.Amount != 40000 {
		t.Fatalf("resolved, the cage: %v %v", paid, err)
	}
	evs, err := r.led.Events(ctx, "ticket-stop-released", 10)
	if err != nil || len(evs) != 1 || evs[0].Actor != "supervisor:S1" || !strings.Contains(evs[0].Detail, vn) {
		t.Fatalf("the release's audit: %+v %v", evs, err)
	}
	r.conserved()
}

// A supervisor stops a ticket (lost, stolen, disputed): a reason is required; the stop names
// who made it and when; the cage and terminals refuse it; released with a note (who and when
// recorded), it pays. A paid ticket cannot be stopped, nor a stop released twice.
func TestSupervisorStopsAndReleasesATicket(t *testing.T) {
	bothStores(t, testSupervisorStopsAndReleasesATicket)
}

func testSupervisorStopsAndReleasesATicket(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	t1, t2 := r.terminal("T01"), r.terminal("T02")
	vn := printedTicket(t, t1, "a", 5000)
	sup, cage := r.supervisorCage(), r.cashier("cashier-1")
	if _, err := sup.StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "  ", IdempotencyKey: "s"}); code(err) != codes.InvalidArgument {
		t.Fatalf("a stop without a reason: %v", err)
	}
	stop, err := sup.StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "reported stolen by the patron", IdempotencyKey: "s"})
	if err != nil || stop.StoppedBy != "supervisor:S1" || stop.StoppedAtUnixNanos != r.clock.Now().UnixNano() || stop.Kind != ledger.StopSupervisor {
		t.Fatalf("stop: %v %v", stop, err)
	}
	look, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || look.Payable || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED ||
		!strings.Contains(look.Message, "stopped by supervisor S1 at T1") || !strings.Contains(look.Message, "reported stolen by the patron") {
		t.Fatalf("look-up of a stopped ticket: %v %v", look, err)
	}
	if _, err := cage.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("the cage paid a stopped ticket: %v", err)
	}
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: vn}); !strings.Contains(errText(err), table.TicketStopped) {
		t.Fatalf("a terminal redeemed a stopped ticket: %v", err)
	}
	if _, err := sup.ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: stop.Id, IdempotencyKey: "rel"}); code(err) != codes.InvalidArgument {
		t.Fatalf("a release without a note: %v", err)
	}
	r.clock.Add(time.Minute)
	rel, err := sup.ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: stop.Id, Note: "found by the patron", IdempotencyKey: "rel"})
	if err != nil || rel.ReleasedBy != "supervisor:S1" || rel.ReleasedAtUnixNanos != r.clock.Now().UnixNano() || rel.ReleaseNote != "found by the patron" {
		t.Fatalf("release: %v %v", rel, err)
	}
	if _, err := sup.ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: stop.Id, Note: "again", IdempotencyKey: "rel2"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a stop released twice: %v", err)
	}
	if _, err := cage.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p"}); err != nil {
		t.Fatalf("released, the cage: %v", err)
	}
	if _, err := sup.StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "too late", IdempotencyKey: "s2"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a paid ticket stopped: %v", err)
	}
	for _, kind := range []string{"ticket-stopped", "ticket-stop-released"} {
		if evs, err := r.led.Events(ctx, kind, 10); err != nil || len(evs) != 1 || evs[0].Actor != "supervisor:S1" {
			t.Fatalf("%s audit: %+v %v", kind, evs, err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Only a supervisor stops or releases a ticket: a cashier (who could stop a ticket to pay it
// later to an accomplice, or release one) and a dealer (whose certificate the cage refuses)
// are refused by the role table.
func TestOnlyASupervisorStopsOrReleasesATicket(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, r.terminal("T01"), "a", 5000)
	stop, err := r.supervisorCage().StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "disputed", IdempotencyKey: "s"})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []struct{ role, id string }{{pki.RoleCashier, "cashier-1"}, {pki.RoleDealer, "D1"}, {pki.RoleTerminal, "T01"}} {
		c := pb.NewCageServiceClient(r.dial(who.role, who.id))
		if _, err := c.StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "lost", IdempotencyKey: "x"}); code(err) != codes.PermissionDenied {
			t.Fatalf("%s stopped a ticket: %v", who.role, err)
		}
		if _, err := c.ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: stop.Id, Note: "ok", IdempotencyKey: "x"}); code(err) != codes.PermissionDenied {
			t.Fatalf("%s released a stop: %v", who.role, err)
		}
	}
	if look, err := r.cashier("cashier-1").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn}); err != nil || look.Payable {
		t.Fatalf("the stop did not stand: %v %v", look, err)
	}
}

// A supervisor's stop races a cashier's payment of the same ticket, 30 times: each time the
// ticket is paid (and the stop refused as too late) or stopped (and the payment refused),
// never both, never neither.
//
// The terminal prints the 30 tickets as fast as the machine goes, faster than an honest
// terminal calls (TerminalCallRate): the harness is not the subject, so its rate is lifted.
func TestStopRacesPaymentPaidOnceOrStoppedNeverBoth(t *testing.T) {
	fast := WithCallRate(1e9, 1e9)
	t.Run("sqlite", func(t *testing.T) { testStopRacesPayment(t, newRigWith(t, nil, fast)) })
	t.Run("postgres", func(t *testing.T) {
		testStopRacesPayment(t, newPGRig(t, pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key"), nil, fast))
	})
}

// payAndStop pays ticket vn at cage and stops it by sup at the same moment, and returns both
// answers.
func payAndStop(cage, sup pb.CageServiceClient, vn string) (payErr, stopErr error) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, payErr = cage.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "race-p-" + vn})
	}()
	go func() {
		defer wg.Done()
		_, stopErr = sup.StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "disputed", IdempotencyKey: "race-s-" + vn})
	}()
	wg.Wait()
	return payErr, stopErr
}

func testStopRacesPayment(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	term, sup, cage := r.terminal("T01"), r.supervisorCage(), r.cashier("cashier-1")
	paidN, stoppedN := 0, 0
	for i := range 30 {
		vn := printedTicket(t, term, "t"+string(rune('a'+i%26))+string(rune('a'+i/26)), 1000)
		payErr, stopErr := payAndStop(cage, sup, vn)
		tk := r.ticket(vn)
		look, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case payErr == nil && stopErr == nil:
			t.Fatalf("%s both paid and stopped", vn)
		case payErr == nil:
			if code(stopErr) != codes.FailedPrecondition || tk.State != ledger.TicketRedeemed || len(look.Stops) != 0 {
				t.Fatalf("paid: stop %v, ticket %+v, stops %v", stopErr, tk, look.Stops)
			}
			paidN++
		case stopErr == nil:
			if code(payErr) != codes.FailedPrecondition || tk.State == ledger.TicketRedeemed || len(look.Stops) != 1 {
				t.Fatalf("stopped: pay %v, ticket %+v", payErr, tk)
			}
			stoppedN++
		default:
			t.Fatalf("neither: pay %v, stop %v", payErr, stopErr)
		}
	}
	t.Logf("paid %d, stopped %d", paidN, stoppedN)
	r.conserved()
}

// On a floor of two tables (PostgreSQL): a ticket T1's supervisor stops is refused at the cage
// of T2 and by T2's terminals, with the reason; T2's supervisor releases it and T2's cage pays.
// An overpaid ticket of T1 is held at T2's cage until T1's supervisor resolves the
// overpayment. And the race across the two tables' servers: T1's supervisor stopping a ticket
// while T2's cage pays it — paid once or stopped, never both.
func TestStoppedTicketRefusedAtTheOtherTablesCage(t *testing.T) {
	rs := floorRigs(t, 2)
	t1, t2 := rs[0].terminal("T01"), rs[1].terminal("T01")
	vn := printedTicket(t, t1, "a", 5000)
	stop, err := rs[0].supervisorCage().StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "lost", IdempotencyKey: "s"})
	if err != nil {
		t.Fatal(err)
	}
	cage2 := rs[1].cashier("cashier-2")
	v := refusal(t, func() error {
		_, err := cage2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p"})
		return err
	}(), codes.FailedPrecondition)
	if v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED || !strings.Contains(v.Message, "stopped by supervisor S1 at T1") || !strings.Contains(v.Message, "lost") {
		t.Fatalf("T2's cage on T1's stopped ticket: %v", v)
	}
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: vn}); !strings.Contains(errText(err), table.TicketStopped) {
		t.Fatalf("T2's terminal redeemed T1's stopped ticket: %v", err)
	}
	if _, err := rs[1].supervisorCage().ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: stop.Id,
		Note: "the patron found it", IdempotencyKey: "rel"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cage2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p"}); err != nil {
		t.Fatalf("released at T2, T2's cage: %v", err)
	}

	over, _ := overpaidTicket(t, rs[0], rs[0].terminal("T02"), "o")
	v = refusal(t, func() error {
		_, err := cage2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: over, IdempotencyKey: "p-o"})
		return err
	}(), codes.FailedPrecondition)
	if v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED || !strings.Contains(v.Message, "overpayment of A$360.00") || !strings.Contains(v.Message, "at T1") {
		t.Fatalf("T2's cage on T1's overpaid ticket: %v", v)
	}
	ops, err := rs[0].dealer.ListOverpayments(ctx, &pb.ListOverpaymentsRequest{OpenOnly: true})
	if err != nil || len(ops.Overpayments) != 1 {
		t.Fatalf("T1's overpayments: %v %v", ops, err)
	}
	if _, err := rs[0].super.ResolveOverpayment(ctx, &pb.ResolveOverpaymentRequest{Id: ops.Overpayments[0].Id, Resolution: ledger.OverpaymentWrittenOff,
		Note: "the player has left the casino", IdempotencyKey: "res"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cage2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: over, IdempotencyKey: "p-o"}); err != nil {
		t.Fatalf("resolved at T1, T2's cage: %v", err)
	}

	sup1 := rs[0].supervisorCage()
	paidN, stoppedN := 0, 0
	for i := range 20 {
		vn := printedTicket(t, t1, "race"+string(rune('a'+i)), 1000)
		payErr, stopErr := payAndStop(cage2, sup1, vn)
		tk := rs[0].ticket(vn)
		switch {
		case (payErr == nil) == (stopErr == nil):
			t.Fatalf("%s: pay %v, stop %v: want exactly one", vn, payErr, stopErr)
		case payErr == nil && tk.State == ledger.TicketRedeemed:
			paidN++
		case stopErr == nil && tk.State == ledger.TicketPrinted:
			stoppedN++
		default:
			t.Fatalf("%s: pay %v, stop %v, ticket %+v", vn, payErr, stopErr, tk)
		}
	}
	t.Logf("across the floor: paid %d, stopped %d", paidN, stoppedN)
	floorBooks(t, rs)
}

// A stop deleted behind the server's back (psql or sqlite3, without the ledger's key) to have
// the ticket paid: the cage reads a ticket's stops against their seals, finds one gone, and
// refuses the payment (DataLoss) rather than pay it.
func TestAttackStopDeletedThenPaidRefused(t *testing.T) {
	bothStores(t, testAttackStopDeletedThenPaidRefused)
}

func testAttackStopDeletedThenPaidRefused(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, r.terminal("T01"), "a", 5000)
	if _, err := r.supervisorCage().StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: "stolen", IdempotencyKey: "s"}); err != nil {
		t.Fatal(err)
	}
	dirty := `DELETE FROM seal_dirty`
	if ledger.IsPostgres(r.dbPath) {
		dirty = `DELETE FROM ` + ledger.FloorSchema + `.seal_dirty`
	}
	r.editLedger(t, []string{`DELETE FROM cage_stops WHERE validation = '` + vn + `'`, dirty})
	_, err := r.cashier("cashier-1").PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p"})
	if code(err) != codes.DataLoss || !strings.Contains(err.Error(), "cage_stops") {
		t.Fatalf("the stop deleted, the cage: %v", err)
	}
	if tk := r.ticket(vn); tk.State != ledger.TicketPrinted {
		t.Fatalf("the ticket: %+v", tk)
	}
}

// Bad input to the stop list and the threshold's calls — a reason, a note, a stop id, a
// patron's identity of any bytes, any validation number — gets a clear refusal, never a panic
// or an Internal error; a ticket is paid at most once, and the books conserve.
func FuzzStopAndThresholdCalls(f *testing.F) {
	f.Add(uint8(0), "lost", "", "k")
	f.Add(uint8(1), "found", "", "S1")
	f.Add(uint8(2), "passport", "", "k2")
	f.Add(uint8(3), "", "12-3456", "k3")
	f.Add(uint8(0), "line\nbreak", "", "k4")
	f.Add(uint8(2), "\xff\xfe", "000000000000000000", "k5")
	tbl, _, real := fuzzTable(f)
	f.Fuzz(func(t *testing.T, op uint8, text, validation, key string) {
		if validation == "" {
			validation = real
		}
		var err error
		switch op % 4 {
		case 0:
			_, err = tbl.StopTicket("supervisor:S1", &pb.StopTicketRequest{ValidationNumber: validation, Reason: text, IdempotencyKey: key})
		case 1:
			_, err = tbl.ReleaseTicketStop("supervisor:S1", &pb.ReleaseTicketStopRequest{ValidationNumber: validation, StopId: key, Note: text, IdempotencyKey: key})
		case 2:
			_, err = tbl.PayTicket("cashier-1", &pb.PayTicketRequest{ValidationNumber: validation, IdempotencyKey: key,
				Patron: &pb.PatronIdentity{IdType: text, IdNumber: text, Name: text}})
		case 3:
			_, err = tbl.ApprovePayment(pki.RoleCashier, "cashier-2", &pb.ApprovePaymentRequest{ValidationNumber: validation, Note: text})
		}
		if err != nil && !moneyCodes[code(err)] {
			t.Fatalf("op %d %q %q %q: %v", op, text, validation, key, err)
		}
		checkBooks(t, tbl)
		if ps, err := tbl.led.CagePayments(ctx, "", time.Time{}, time.Time{}); err != nil || len(ps) > 1 {
			t.Fatalf("cage payments: %v %v", ps, err)
		}
	})
}

// An overpaid cash-out whose printer failed is not paid by hand either: the supervisor's
// Handpay is refused with the stop's words until the overpayment is resolved.
func TestOverpaidTicketNotHandPaidUntilResolved(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	term := r.terminal("T01")
	round := winOn17(t, r, term, "a")
	vn := unprintedTicket(t, term, "a")
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "20"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "hp", ValidationNumber: vn}); code(err) != codes.FailedPrecondition ||
		!strings.Contains(err.Error(), "held: overpayment of A$360.00") {
		t.Fatalf("an overpaid ticket paid by hand: %v", err)
	}
	ops, err := r.dealer.ListOverpayments(ctx, &pb.ListOverpaymentsRequest{OpenOnly: true})
	if err != nil || len(ops.Overpayments) != 1 {
		t.Fatalf("overpayments: %v %v", ops, err)
	}
	if _, err := r.super.ResolveOverpayment(ctx, &pb.ResolveOverpaymentRequest{Id: ops.Overpayments[0].Id, Resolution: ledger.OverpaymentRecovered,
		Note: "recovered", IdempotencyKey: "res"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "hp", ValidationNumber: vn}); err != nil {
		t.Fatalf("resolved, the hand pay: %v", err)
	}
	r.conserved()
}

// An invalidation after the player cashed out finds the win overpaid too: the ticket is held,
// and the cashier reads that it was the invalidation, with its reason.
func TestInvalidatedWinHeldAtTheCage(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	term := r.terminal("T01")
	round := winOn17(t, r, term, "a")
	vn := printedTicketOf(t, term, "a")
	if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{Reason: "ball left the wheel"}); err != nil {
		t.Fatal(err)
	}
	look, err := r.cashier("cashier-1").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	want := "held: overpayment of A$350.00 after the invalidation of round " + round + " (ball left the wheel) — see the supervisor"
	if err != nil || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED || !strings.HasPrefix(look.Message, want) {
		t.Fatalf("an invalidated win's ticket: %v %v\nwant the message to begin %q", look, err, want)
	}
	r.conserved()
}
