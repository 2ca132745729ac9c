package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Issue 33 point 9: the cage's HELD refusal sent the cashier to "that table's dealer", whose
// certificate cannot release a hold. It names the supervisor of the holding table, whose
// release is the one that works (the dealer's is refused).
func TestHeldRefusalNamesTheSupervisorNotTheDealer(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T01"), r.terminal("T02")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, t1, "a", 2000)
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	look, err := r.cashier("cashier-1").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_HELD {
		t.Fatalf("look-up: %v %v", look, err)
	}
	if strings.Contains(look.Message, "dealer") || !strings.Contains(look.Message, "a supervisor at T1 releases it") {
		t.Fatalf("the HELD refusal does not name the supervisor: %q", look.Message)
	}
	if _, err := r.dealer.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{ValidationNumber: vn, IdempotencyKey: "d"}); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer released the hold: %v", err)
	}
	if _, err := r.super.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{ValidationNumber: vn, IdempotencyKey: "s"}); err != nil {
		t.Fatalf("the supervisor the refusal names: %v", err)
	}
}

// Issue 33 point 9: VOID_HANDPAID says who paid the ticket by hand, where and when; a ticket
// reported unprintable and not yet paid says so, and who is to pay it.
func TestVoidHandpaidSaysWhoPaidItByHandAndWhen(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T01")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "a", 1000); err != nil {
		t.Fatal(err)
	}
	co, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out"})
	if err != nil {
		t.Fatal(err)
	}
	vn := co.Ticket.ValidationNumber
	if _, err := t1.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: "pf", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	cage := r.cashier("cashier-1")
	look, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_VOID_HANDPAID || !strings.Contains(look.Message, "to be paid by hand by a supervisor at T1 (not yet paid)") {
		t.Fatalf("an unprintable ticket not yet hand-paid: %v %v", look, err)
	}
	r.clock.Add(3 * time.Minute)
	paidAt := r.clock.Now()
	if _, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "hp", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	look, err = cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	want := "was paid by hand at T1 by supervisor:S1 on " + paidAt.UTC().Format("2006-01-02 15:04:05 UTC")
	if err != nil || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_VOID_HANDPAID || !strings.Contains(look.Message, want) ||
		look.RedeemedBy != "supervisor:S1" || look.RedeemedAtUnixNanos != paidAt.UnixNano() {
		t.Fatalf("a hand-paid ticket's copy: %v %v\nwant the message to say %q", look, err, want)
	}
	r.conserved()
}
