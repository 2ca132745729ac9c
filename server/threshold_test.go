package server

import (
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/pki"
)

// bigTicket is a printed ticket of cents, funded by a dealer buy-in (for amounts notes would
// take a hundred calls to reach).
func bigTicket(t *testing.T, r *rig, terminal, key string, cents int64) string {
	t.Helper()
	term := r.terminal(terminal)
	if err := r.buyIn(term, terminal, key, cents); err != nil {
		t.Fatal(err)
	}
	return printedTicketOf(t, term, key)
}

var patron = &pb.PatronIdentity{IdType: "passport", IdNumber: "PA1234567", Name: "Jane Citizen"}

// Issue 33 point 2 (AML/CTF Act 2006 (Cth), threshold transactions): a A$10,040.00 ticket is
// not paid in cash without the patron's identity and a second person's approval, and the
// refusal says so in those words. The paying cashier's own approval does not count; a second
// cashier's or a supervisor's does. Paid, the identity and approval are recorded with the
// payment, audited, and listed in the floor report; A$10,000.00 exactly is at the threshold;
// A$9,999.00 needs nothing.
func TestThresholdPaymentNeedsPatronIDAndASecondPersonsApproval(t *testing.T) {
	bothStores(t, testThresholdPayment)
}

func testThresholdPayment(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := bigTicket(t, r, "T01", "a", 1004000)
	c1, c2 := r.cashier("cashier-1"), r.cashier("cashier-2")
	const want = "A$10,040.00 is at or over the A$10,000.00 reporting threshold: record the patron's ID and a second person's approval (a supervisor's or another cashier's)"
	look, err := c1.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || look.Payable || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD || look.Message != want ||
		!look.OverThreshold || look.ReportingThreshold != 1000000 {
		t.Fatalf("look-up of a A$10,040.00 ticket: %v %v", look, err)
	}
	pay := func(c pb.CageServiceClient, p *pb.PatronIdentity) (*pb.PayTicketResponse, error) {
		return c.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "pay-" + vn, Patron: p})
	}
	_, err = pay(c1, nil)
	if v := refusal(t, err, codes.FailedPrecondition); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD || v.Message != want {
		t.Fatalf("paid with nothing: %v", v)
	}
	_, err = pay(c1, patron)
	if v := refusal(t, err, codes.FailedPrecondition); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD {
		t.Fatalf("paid with the ID and no approval: %v", v)
	}
	// The paying cashier's own approval is not a second person's: their look-up says so too.
	if _, err := c1.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	if look, err := c1.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn}); err != nil || look.Payable ||
		look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD || !strings.Contains(look.Message, "cashier-1's own") {
		t.Fatalf("the approving cashier's look-up: %v %v", look, err)
	}
	if look, err := c2.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn}); err != nil || !look.Payable ||
		!strings.Contains(look.Message, "approved by cashier:cashier-1; record the patron's ID as you pay") {
		t.Fatalf("another cashier's look-up: %v %v", look, err)
	}
	_, err = pay(c1, patron)
	if v := refusal(t, err, codes.FailedPrecondition); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD || !strings.Contains(v.Message, "cashier-1's own") {
		t.Fatalf("paid on the cashier's own approval: %v", v)
	}
	// A dealer is no second person at the cage.
	if _, err := pb.NewCageServiceClient(r.dial(pki.RoleDealer, "D1")).ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); code(err) != codes.PermissionDenied {
		t.Fatalf("a dealer approved: %v", err)
	}
	if a, err := c2.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn, Note: "ID sighted"}); err != nil || a.ApprovedBy != "cashier:cashier-2" {
		t.Fatalf("a second cashier's approval: %v %v", a, err)
	}
	_, err = pay(c1, nil)
	if v := refusal(t, err, codes.FailedPrecondition); v.Message != "A$10,040.00 is at or over the A$10,000.00 reporting threshold: record the patron's ID (type, number and name)" {
		t.Fatalf("approved, paid without the ID: %v", v)
	}
	// An identity with no name is the cashier's to complete: said so, and not counted as a
	// guess toward the throttle (six in a row lock nobody out).
	for range 6 {
		if _, err = pay(c1, &pb.PatronIdentity{IdType: "passport", IdNumber: "PA1234567"}); code(err) != codes.InvalidArgument ||
			!strings.Contains(err.Error(), "the patron's name is required") {
			t.Fatalf("paid with no name: %v", err)
		}
	}
	paid, err := pay(c1, patron)
	if err != nil || paid.Amount != 1004000 || paid.Threshold == nil || paid.Threshold.ApprovedBy != "cashier:cashier-2" ||
		paid.Threshold.Patron.IdNumber != "PA1234567" || paid.Threshold.Threshold != 1000000 {
		t.Fatalf("paid with both: %v %v", paid, err)
	}

	// A supervisor is a second person too; A$10,000.00 is at the threshold.
	r.clock.Add(time.Minute) // the report lists in the order paid
	at := bigTicket(t, r, "T02", "b", 1000000)
	if _, err := c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: at, IdempotencyKey: "p-at", Patron: patron}); code(err) != codes.FailedPrecondition {
		t.Fatalf("A$10,000.00 paid without an approval: %v", err)
	}
	if _, err := r.supervisorCage().ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: at}); err != nil {
		t.Fatal(err)
	}
	if p, err := c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: at, IdempotencyKey: "p-at", Patron: patron}); err != nil || p.Threshold.ApprovedBy != "supervisor:S1" {
		t.Fatalf("approved by the supervisor: %v %v", p, err)
	}
	// Under it: nothing needed, and nothing to approve.
	under := bigTicket(t, r, "T03", "c", 999900)
	if _, err := r.supervisorCage().ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: under}); code(err) != codes.FailedPrecondition {
		t.Fatalf("an approval under the threshold: %v", err)
	}
	if p, err := c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: under, IdempotencyKey: "p-under"}); err != nil || p.Threshold != nil {
		t.Fatalf("A$9,999.00: %v %v", p, err)
	}

	rep, err := r.supervisorCage().FloorReport(ctx, &pb.FloorReportRequest{})
	if err != nil || len(rep.ThresholdPayments) != 2 || rep.ThresholdPayments[0].ValidationNumber != vn ||
		rep.ThresholdPayments[0].Patron.Name != "Jane Citizen" || rep.ThresholdPayments[1].ValidationNumber != at || rep.ReportingThreshold != 1000000 {
		t.Fatalf("the floor report's threshold payments: %v %v", rep.GetThresholdPayments(), err)
	}
	evs, err := r.led.Events(ctx, "cage-threshold-payment", 10)
	if err != nil || len(evs) != 2 || evs[0].Actor != "cashier:cashier-1" {
		t.Fatalf("the threshold payments' audit: %+v %v", evs, err)
	}
	r.conserved()
}

// Splitting does not dodge the threshold unseen: one ticket is one payment, and a patron the
// cashier identifies on several tickets of one day that reach the threshold together is
// listed in the floor report (structuring), with the payments.
func TestThresholdSplitAcrossTicketsIsListedForThePatronsDay(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	c := r.cashier("cashier-1")
	var ids []string
	for i, term := range []string{"T01", "T02"} {
		vn := bigTicket(t, r, term, "s"+term, 600000)
		p := &pb.PatronIdentity{IdType: "Passport", IdNumber: "pa1234567", Name: "Jane Citizen"}
		if i == 0 {
			p = patron
		}
		res, err := c.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p" + term, Patron: p})
		if err != nil || res.Threshold != nil {
			t.Fatalf("A$6,000.00: %v %v", res, err)
		}
		ids = append(ids, res.PaymentId)
	}
	other := bigTicket(t, r, "T03", "o", 600000)
	if _, err := c.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: other, IdempotencyKey: "po",
		Patron: &pb.PatronIdentity{IdType: "passport", IdNumber: "XB999", Name: "Someone Else"}}); err != nil {
		t.Fatal(err)
	}
	rep, err := c.FloorReport(ctx, &pb.FloorReportRequest{})
	if err != nil || len(rep.ThresholdPayments) != 0 || len(rep.PatronDays) != 1 {
		t.Fatalf("the floor report: %v %v", rep, err)
	}
	d := rep.PatronDays[0]
	got := append([]string{}, d.PaymentIds...)
	slices.Sort(got)
	slices.Sort(ids)
	if d.Count != 2 || d.Amount != 1200000 || d.Day != "2026-11-22" || !slices.Equal(got, ids) {
		t.Fatalf("the patron's day: %v", d)
	}
}

// The threshold is the operator's: a table configured at A$500.00 asks for the ID and approval
// of a A$500.00 ticket.
func TestReportingThresholdIsTheOperators(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.ReportingThreshold = 50000 })
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := printedTicket(t, r.terminal("T01"), "a", 50000)
	look, err := r.cashier("cashier-1").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || look.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD ||
		look.Message != "A$500.00 is at or over the A$500.00 reporting threshold: record the patron's ID and a second person's approval (a supervisor's or another cashier's)" {
		t.Fatalf("look-up at a A$500.00 threshold: %v %v", look, err)
	}
}

// On a floor (PostgreSQL): the approval is the floor's. T1's supervisor approves a
// A$10,040.00 ticket printed at T1, the cashier pays it through T2's server with the patron's
// ID, and the floor report read through T1 lists the payment.
func TestThresholdApprovalIsTheFloors(t *testing.T) {
	rs := floorRigs(t, 2)
	vn := bigTicket(t, rs[0], "T01", "a", 1004000)
	cage2 := rs[1].cashier("cashier-1")
	if _, err := cage2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p", Patron: patron}); code(err) != codes.FailedPrecondition {
		t.Fatalf("paid without an approval: %v", err)
	}
	if _, err := rs[0].supervisorCage().ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	if p, err := cage2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p", Patron: patron}); err != nil || p.Threshold.ApprovedBy != "supervisor:S1" {
		t.Fatalf("T2's cage on T1's approval: %v %v", p, err)
	}
	rep, err := rs[0].supervisorCage().FloorReport(ctx, &pb.FloorReportRequest{})
	if err != nil || len(rep.ThresholdPayments) != 1 || rep.ThresholdPayments[0].ViaTableId != "T2" {
		t.Fatalf("the floor report through T1: %v %v", rep.GetThresholdPayments(), err)
	}
	floorBooks(t, rs)
}

// Cash paid by hand is cash: a A$10,040.00 ticket whose printer failed is not paid by the
// supervisor's hand without the patron's identity and a second person's approval (the paying
// supervisor's own does not count; a cashier's does); paid, it is recorded and reported as the
// cage's threshold payments are.
func TestThresholdHandpayNeedsPatronIDAndASecondPersonsApproval(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	term := r.terminal("T01")
	if err := r.buyIn(term, "T01", "big", 1004000); err != nil {
		t.Fatal(err)
	}
	vn := unprintedTicket(t, term, "big")
	handpay := func(p *pb.PatronIdentity) (*pb.HandpayResponse, error) {
		return r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "hp", ValidationNumber: vn, Patron: p})
	}
	if _, err := handpay(nil); code(err) != codes.FailedPrecondition ||
		!strings.Contains(err.Error(), "A$10,040.00 is at or over the A$10,000.00 reporting threshold: record the patron's ID and a second person's approval (a supervisor's or another cashier's)") {
		t.Fatalf("a hand payment with nothing: %v", err)
	}
	if _, err := r.supervisorCage().ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	if _, err := handpay(patron); code(err) != codes.FailedPrecondition {
		t.Fatalf("paid by hand on the paying supervisor's own approval: %v", err)
	}
	if _, err := r.cashier("cashier-1").ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	res, err := handpay(patron)
	if err != nil || res.Threshold == nil || res.Threshold.ApprovedBy != "cashier:cashier-1" || res.Threshold.CashierId != "supervisor:S1" {
		t.Fatalf("paid by hand with both: %v %v", res, err)
	}
	rep, err := r.supervisorCage().FloorReport(ctx, &pb.FloorReportRequest{})
	if err != nil || len(rep.ThresholdPayments) != 1 || rep.ThresholdPayments[0].ValidationNumber != vn {
		t.Fatalf("the report: %v %v", rep.GetThresholdPayments(), err)
	}
	r.conserved()
}

// The look-up names the approval the payment will use: with the paying cashier's own approval
// on file first and another cashier's after it, cashier-1's look-up names cashier-2's, and the
// payment records cashier-2's (before, the look-up named cashier-1's own, the first on file).
func TestThresholdLookupNamesTheApprovalThePaymentUses(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	vn := bigTicket(t, r, "T01", "a", 1004000)
	c1, c2 := r.cashier("cashier-1"), r.cashier("cashier-2")
	if _, err := c1.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Second)
	if _, err := c2.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	look, err := c1.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil || look.Approval == nil || look.Approval.ApprovedBy != "cashier:cashier-2" ||
		!strings.Contains(look.Message, "approved by cashier:cashier-2") {
		t.Fatalf("cashier-1's look-up: %v %v", look, err)
	}
	p, err := c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p", Patron: patron})
	if err != nil || p.Threshold.ApprovedBy != "cashier:cashier-2" {
		t.Fatalf("the payment: %v %v", p, err)
	}
}
