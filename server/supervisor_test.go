package server

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// supervisorRig is a table whose supervisors' PIN file holds card S7's PIN 482913 (and whose
// PIN throttle runs on a clock the test moves, apart from the table's).
func supervisorRig(t *testing.T) (*rig, *PINs, *fakeClock) {
	t.Helper()
	pins := s7PINs(t)
	clock := &fakeClock{t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)}
	pins.now = clock.Now
	return newRigWith(t, nil, WithSupervisors(pins)), pins, clock
}

// s7PINs is a supervisors' PIN file of card S7's PIN 482913, hashed with 1,000 iterations.
func s7PINs(t *testing.T) *PINs {
	t.Helper()
	line, err := PINLine("S7", "482913", 1000)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := ParseSupervisors([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return pins
}

// asSupervisorCtx is a call context carrying a supervisor's card and PIN, as the dealer's
// console sends them.
func asSupervisorCtx(card, pin string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, SupervisorCardHeader, card, SupervisorPINHeader, pin)
}

// playToOutcome plays one round: T1 bought in for 100.00 bets 10.00 on 17; outcome 17.
func playToOutcome(t *testing.T, r *rig) string {
	t.Helper()
	t1 := r.terminal("T1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := creditNotes(ctx, t1, "n1", 10000); err != nil {
		t.Fatal(err)
	}
	return r.playStraight(t1, "17", 1000, "17")
}

// The dealer's console (a dealer's certificate) corrects an outcome with the supervisor's card
// and PIN: the correction is made, and recorded as supervisor S7's, not dealer D1's; the same
// certificate without them is refused the correction, as it always was.
func TestSupervisorCardAndPINOnTheDealersConsoleCorrectsTheOutcome(t *testing.T) {
	r, _, _ := supervisorRig(t)
	round := playToOutcome(t, r)
	if _, err := r.dealer.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "18"}); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer's certificate alone corrected an outcome: %v", err)
	}
	if _, err := r.dealer.CorrectOutcome(asSupervisorCtx("S7", "482913"), &pb.CorrectOutcomeRequest{RoundId: round, Number: "18"}); err != nil {
		t.Fatalf("the supervisor's PIN on the console: %v", err)
	}
	if got := r.balance("T1"); got != 10000-1000 {
		t.Fatalf("T1 after the correction to 18: %d", got)
	}
	corr := r.auditOf("correction")
	if len(corr) != 1 || !strings.HasPrefix(corr[0], "supervisor:S7 ") {
		t.Fatalf("the correction's audit entry: %q, want it under supervisor:S7", corr)
	}
	auth := r.auditOf("supervisor-authenticated")
	if len(auth) != 1 || !strings.HasPrefix(auth[0], "supervisor:S7 ") || !strings.Contains(auth[0], "dealer D1's console") || !strings.Contains(auth[0], "CorrectOutcome") {
		t.Fatalf("the authentication's audit entry: %q", auth)
	}
	r.conserved()
}

// A wrong PIN is refused and corrects nothing; five in a row lock the card out (the fifth
// answers so, the right PIN is refused too until the period ends) and raise one alarm on the
// table; after the period the right PIN works again. Every refusal is audited under the
// console's certificate with the card named.
func TestSupervisorFiveWrongPINsLockTheCardOutWithAnAlarm(t *testing.T) {
	r, _, clock := supervisorRig(t)
	round := playToOutcome(t, r)
	correct := func(pin string) error {
		_, err := r.dealer.CorrectOutcome(asSupervisorCtx("S7", pin), &pb.CorrectOutcomeRequest{RoundId: round, Number: "18"})
		return err
	}
	for i := range 4 {
		if err := correct("000000"); code(err) != codes.PermissionDenied {
			t.Fatalf("wrong PIN %d: %v", i+1, err)
		}
	}
	if got := r.balance("T1"); got != 10000-1000+36000 {
		t.Fatalf("a wrong PIN moved money: T1 %d", got)
	}
	if err := correct("000000"); code(err) != codes.ResourceExhausted {
		t.Fatalf("fifth wrong PIN: %v, want the card locked out", err)
	}
	if err := correct("482913"); code(err) != codes.ResourceExhausted {
		t.Fatalf("the right PIN while locked out: %v", err)
	}
	clock.Add(SupervisorPolicy.Lockout - time.Second)
	if err := correct("482913"); code(err) != codes.ResourceExhausted {
		t.Fatalf("the right PIN a second before the period ends: %v", err)
	}
	al, err := r.super.ListAlarms(ctx, &pb.ListAlarmsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range al.Alarms {
		if a.Kind == AlarmSupervisorLockout {
			n++
			if !strings.Contains(a.Detail, "S7") || !strings.Contains(a.Detail, "D1") {
				t.Errorf("the alarm does not name the card and the console: %q", a.Detail)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d lockout alarms, want 1: %v", n, al.Alarms)
	}
	refused := r.auditOf("supervisor-pin-refused")
	if len(refused) != 7 || !strings.HasPrefix(refused[0], "dealer:D1 ") || !strings.Contains(refused[0], "S7") {
		t.Fatalf("refusals audited: %q", refused)
	}
	clock.Add(2 * time.Second)
	if err := correct("482913"); err != nil {
		t.Fatalf("the right PIN after the period: %v", err)
	}
}

// Attack: a supervisor's PIN sent with a certificate that is not a dealer's, or to a service
// that is not the dealer's, to reach the cage (stop or pay tickets, read the floor's report) or
// act as a terminal. Refused every time, even with the right PIN; and a terminal sending it to
// the dealer's service is not made a supervisor.
func TestSupervisorPINNeverAuthorisesTheCageOrATerminal(t *testing.T) {
	r, _, _ := supervisorRig(t)
	sctx := asSupervisorCtx("S7", "482913")
	dealerCage := pb.NewCageServiceClient(r.dial(pki.RoleDealer, "D1"))
	if _, err := dealerCage.StopTicket(sctx, &pb.StopTicketRequest{ValidationNumber: "123", Reason: "x"}); code(err) != codes.PermissionDenied {
		t.Errorf("a dealer's certificate with the PIN stopping a ticket: %v", err)
	}
	if _, err := dealerCage.FloorReport(sctx, &pb.FloorReportRequest{}); code(err) != codes.PermissionDenied {
		t.Errorf("a dealer's certificate with the PIN reading the floor report: %v", err)
	}
	cashier := pb.NewCageServiceClient(r.dial(pki.RoleCashier, "C1"))
	if _, err := cashier.StopTicket(sctx, &pb.StopTicketRequest{ValidationNumber: "123", Reason: "x"}); code(err) != codes.PermissionDenied {
		t.Errorf("a cashier's certificate with the PIN stopping a ticket: %v", err)
	}
	term := r.terminal("T1")
	if _, err := term.ServerTime(sctx, &pb.ServerTimeRequest{}); code(err) != codes.PermissionDenied {
		t.Errorf("a terminal's call with the PIN: %v", err)
	}
	asDealer := pb.NewDealerServiceClient(r.dial(pki.RoleTerminal, "T1"))
	if _, err := asDealer.CorrectOutcome(sctx, &pb.CorrectOutcomeRequest{RoundId: "r", Number: "1"}); code(err) != codes.PermissionDenied {
		t.Errorf("a terminal's certificate with the PIN on the dealer's service: %v", err)
	}
	dealerTerm := pb.NewTerminalServiceClient(r.dial(pki.RoleDealer, "D1"))
	if _, err := dealerTerm.ServerTime(sctx, &pb.ServerTimeRequest{}); code(err) != codes.PermissionDenied {
		t.Errorf("a dealer's certificate with the PIN on the terminal's service: %v", err)
	}
	if got := r.auditOf("supervisor-authenticated"); len(got) != 0 {
		t.Errorf("authenticated where it must not be: %q", got)
	}
	// Half the credentials, or two cards, is a clear refusal, not a dealer's call.
	half := metadata.AppendToOutgoingContext(ctx, SupervisorCardHeader, "S7")
	if _, err := r.dealer.GetStatus(half, &pb.GetStatusRequest{}); code(err) != codes.InvalidArgument {
		t.Errorf("a card without a PIN: %v", err)
	}
	two := metadata.AppendToOutgoingContext(sctx, SupervisorCardHeader, "S8")
	if _, err := r.dealer.GetStatus(two, &pb.GetStatusRequest{}); code(err) != codes.InvalidArgument {
		t.Errorf("two cards: %v", err)
	}
	// A table with no supervisors' PIN file refuses every supervisor credential.
	bare := newRig(t)
	if _, err := bare.dealer.GetStatus(sctx, &pb.GetStatusRequest{}); code(err) != codes.FailedPrecondition {
		t.Errorf("a table without supervisor PINs: %v", err)
	}
}

// Attack: timing the PIN check to learn which cards exist or whether a PIN is well formed.
// Every check hashes (at the file's iterations) and compares the hashes in constant time: an
// unknown card and a malformed PIN cost one PBKDF2 of the same work as a known card's.
func TestSupervisorPINCheckCostsTheSameForAnyCardAndPIN(t *testing.T) {
	pins := s7PINs(t)
	var calls, work atomic.Int64
	derive := pins.derive
	pins.derive = func(pin string, salt []byte, iter int) ([]byte, error) {
		calls.Add(1)
		work.Add(int64(iter))
		return derive(pin, salt, iter)
	}
	for _, c := range []struct{ card, pin string }{
		{"S7", "482913"}, {"S7", "000000"}, {"S8", "482913"}, {"S7", "12"}, {"S7", "48291x"}, {"nobody", ""},
	} {
		calls.Store(0)
		work.Store(0)
		pins.verify(c.card, c.pin)
		if calls.Load() != 1 || work.Load() != 1000 {
			t.Errorf("card %q PIN %q: %d hashes of %d iterations, want 1 of 1000", c.card, c.pin, calls.Load(), work.Load())
		}
	}
}
