package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

func capped(c *Config) { c.CashCap = DefaultCashCap }

func cashCapParts(cash, rest int64, method, ref string) []*pb.PaymentPart {
	return []*pb.PaymentPart{{Method: "cash", Amount: cash}, {Method: method, Amount: rest, Reference: ref}}
}

// Issue 31 (the cash cap): a A$1,500.00 ticket is paid at the cage in cash only up to the
// A$1,000.00 cap, the rest by transfer with the patron's ID recorded. Refused: the whole
// ticket in cash with no parts, a forged request naming the whole ticket as cash, a transfer
// without the patron's ID or without its reference, parts that do not sum to the ticket. Paid,
// the cashier is told to hand over the cash part only; the parts are journalled, the books
// conserve and the shift's totals split by method. A ticket at the cap is paid in cash whole.
func TestCashCapPaysCashToTheCapAndTheRestByTransferWithID(t *testing.T) {
	bothStoresWith(t, capped, func(t *testing.T, r *rig) {
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		vn := bigTicket(t, r, "T01", "a", 150000)
		c := r.cashier("cashier-1")
		if _, err := c.OpenShift(ctx, &pb.OpenShiftRequest{}); err != nil {
			t.Fatal(err)
		}
		look, err := c.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
		if err != nil || !look.Payable || !look.OverCashCap || look.CashCap != 100000 ||
			!strings.Contains(look.Message, "A$1,500.00 is over the A$1,000.00 cash cap: pay A$1,000.00 in cash and A$500.00 by electronic transfer or cheque") {
			t.Fatalf("lookup: %v %v", look, err)
		}
		pay := func(key string, parts []*pb.PaymentPart, p *pb.PatronIdentity) (*pb.PayTicketResponse, error) {
			return c.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: key, Parts: parts, Patron: p})
		}
		capRefusal := func(what string, err error, words string) {
			t.Helper()
			if v := refusal(t, err, codes.FailedPrecondition); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP || !strings.Contains(v.Message, words) {
				t.Fatalf("%s: %v", what, v)
			}
		}
		_, err = pay("k1", nil, nil)
		capRefusal("the whole ticket in cash, no parts", err, "over the A$1,000.00 cash cap")
		_, err = pay("k2", []*pb.PaymentPart{{Method: "cash", Amount: 150000}}, patron)
		capRefusal("a forged request: the whole ticket as cash", err, "A$1,500.00 in cash is over the A$1,000.00 cash cap")
		_, err = pay("k3", []*pb.PaymentPart{{Method: "cash", Amount: 100000}, {Method: "cash", Amount: 50000}}, patron)
		capRefusal("a forged request: cash in two parts", err, "A$1,500.00 in cash is over")
		_, err = pay("k4", cashCapParts(100000, 50000, "transfer", "TX1"), nil)
		capRefusal("a transfer without the patron's ID", err, "with the patron's ID recorded")
		for what, parts := range map[string][]*pb.PaymentPart{
			"no reference":          cashCapParts(100000, 50000, "transfer", " "),
			"a negative part":       {{Method: "cash", Amount: 200000}, {Method: "transfer", Amount: -50000, Reference: "TX1"}},
			"an unknown method":     cashCapParts(100000, 50000, "crypto", "X"),
			"a reference with cash": {{Method: "cash", Amount: 100000, Reference: "R"}, {Method: "transfer", Amount: 50000, Reference: "TX1"}},
		} {
			if _, err := pay("k-"+what, parts, patron); code(err) != codes.InvalidArgument {
				t.Fatalf("%s: %v, want InvalidArgument", what, err)
			}
		}
		_, err = pay("k5", cashCapParts(100000, 40000, "transfer", "TX1"), patron)
		capRefusal("parts short of the ticket", err, "the parts sum to A$1,400.00 and the ticket is A$1,500.00")
		_, err = pay("k6", cashCapParts(100000, 60000, "cheque", "CH1"), patron)
		capRefusal("parts over the ticket", err, "the parts sum to A$1,600.00")
		if ps, _ := r.led.CagePayments(ctx, "", time.Time{}, time.Time{}); len(ps) != 0 {
			t.Fatalf("a refused payment was recorded: %v", ps)
		}
		paid, err := pay("ok", cashCapParts(100000, 50000, "transfer", "TX-778"), patron)
		if err != nil {
			t.Fatal(err)
		}
		if paid.Amount != 100000 || paid.Total != 150000 || len(paid.Parts) != 2 || paid.Parts[1].Method != "transfer" || paid.Parts[1].Reference != "TX-778" {
			t.Fatalf("paid: %v", paid)
		}
		if again, err := pay("ok", cashCapParts(100000, 50000, "transfer", "TX-778"), patron); err != nil || !again.Replayed || again.Amount != 100000 {
			t.Fatalf("the retry: %v %v", again, err)
		}
		if _, err := pay("ok", cashCapParts(100000, 50000, "cheque", "CH1"), patron); code(err) != codes.AlreadyExists {
			t.Fatalf("the key again with other parts: %v", err)
		}
		journal := strings.Join(r.auditOf("cage-paid"), "\n")
		if !strings.Contains(journal, "paid as A$1,000.00 cash + A$500.00 transfer ref TX-778 at the cage by cashier-1") {
			t.Fatalf("journal:\n%s", journal)
		}
		// A ticket at the cap exactly: cash, whole, as before.
		small := bigTicket(t, r, "T02", "b", 100000)
		if p, err := c.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: small, IdempotencyKey: "s"}); err != nil || p.Amount != 100000 || p.Total != 100000 {
			t.Fatalf("at the cap: %v %v", p, err)
		}
		r.conserved()
		tot, err := c.ShiftTotals(ctx, &pb.ShiftTotalsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		by := map[string]int64{}
		for _, m := range tot.ByMethod {
			by[m.Method] = m.Amount
		}
		if tot.Amount != 250000 || by["cash"] != 200000 || by["transfer"] != 50000 || len(by) != 2 {
			t.Fatalf("shift totals: %v", tot)
		}
		// The shift's drawer reconciles to the cash alone.
		if sh, err := c.CurrentShift(ctx, &pb.CurrentShiftRequest{}); err != nil || !sh.Open || sh.Amount != 250000 || sh.Cash != 200000 {
			t.Fatalf("the current shift: %v %v", sh, err)
		}
	})
}

// The cap adds to the reporting threshold and the stop list, never in their place: a split
// ticket at or over the threshold still needs its approval and the ID; a stopped ticket is
// paid by no method.
func TestCashCapKeepsTheThresholdAndStopRules(t *testing.T) {
	bothStoresWith(t, func(c *Config) { c.CashCap, c.ReportingThreshold = DefaultCashCap, 200000 }, func(t *testing.T, r *rig) {
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		c1, c2 := r.cashier("cashier-1"), r.cashier("cashier-2")
		big := bigTicket(t, r, "T01", "a", 250000)
		parts := cashCapParts(100000, 150000, "cheque", "CH-1")
		_, err := c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: big, IdempotencyKey: "b1", Parts: parts, Patron: patron})
		if v := refusal(t, err, codes.FailedPrecondition); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD {
			t.Fatalf("a split threshold ticket without approval: %v", v)
		}
		if _, err := c2.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: big}); err != nil {
			t.Fatal(err)
		}
		paid, err := c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: big, IdempotencyKey: "b2", Parts: parts, Patron: patron})
		if err != nil || paid.Threshold == nil || paid.Amount != 100000 {
			t.Fatalf("approved: %v %v", paid, err)
		}
		if got := strings.Join(r.auditOf("cage-threshold-payment"), "\n"); !strings.Contains(got, "paid as A$1,000.00 cash + A$1,500.00 cheque ref CH-1 at the cage") {
			t.Fatalf("threshold journal:\n%s", got)
		}
		stopped := bigTicket(t, r, "T02", "c", 150000)
		if _, err := r.supervisorCage().StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: stopped, Reason: "reported stolen", IdempotencyKey: "s"}); err != nil {
			t.Fatal(err)
		}
		_, err = c1.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: stopped, IdempotencyKey: "s1", Parts: cashCapParts(100000, 50000, "transfer", "TX"), Patron: patron})
		if v := refusal(t, err, codes.FailedPrecondition); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_STOPPED {
			t.Fatalf("a stopped ticket split: %v", v)
		}
		r.conserved()
	})
}

// Issue 31 (the cash cap), at the table: a supervisor's hand payment of a A$5,000.00 ticket
// whose printer failed is cash like the cage's, so the same cap holds. Refused: the whole ticket
// in cash (no parts) with the split's words, a forged request naming it all as cash, a transfer
// without the patron's ID, parts that do not sum to it. Paid as A$1,000.00 cash + A$4,000.00 by
// transfer with the ID: the supervisor is told to hand over the cash part only, the parts are
// recorded with the hand payment and journalled, the books conserve. A ticket at the cap is
// handpaid in cash whole, as before.
func TestCashCapAppliesToASupervisorsHandpay(t *testing.T) {
	bothStoresWith(t, capped, func(t *testing.T, r *rig) {
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		term := r.terminal("T01")
		if err := r.buyIn(term, "T01", "big", 500000); err != nil {
			t.Fatal(err)
		}
		vn := unprintedTicket(t, term, "big")
		handpay := func(key string, parts []*pb.PaymentPart, p *pb.PatronIdentity) (*pb.HandpayResponse, error) {
			return r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: key, ValidationNumber: vn, Parts: parts, Patron: p})
		}
		capRefusal := func(what string, err error, words string) {
			t.Helper()
			if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), words) {
				t.Fatalf("%s: %v, want refused saying %q", what, err, words)
			}
			// Marked as the cap's, for the console to show the split on its panel.
			if v := CageRefusalOf(err); v == nil || v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP || v.CashCap != 100000 || !v.OverCashCap {
				t.Fatalf("%s: the refusal's details %v", what, v)
			}
		}
		_, err := handpay("h1", nil, nil)
		capRefusal("the whole ticket in cash by hand", err,
			"A$5,000.00 is over the A$1,000.00 cash cap: pay A$1,000.00 in cash and A$4,000.00 by electronic transfer or cheque, with the patron's ID recorded")
		_, err = handpay("h2", []*pb.PaymentPart{{Method: "cash", Amount: 500000}}, patron)
		capRefusal("a forged request: the whole ticket as cash", err, "A$5,000.00 in cash is over the A$1,000.00 cash cap")
		_, err = handpay("h3", cashCapParts(100000, 400000, "transfer", "TX-9"), nil)
		capRefusal("a transfer without the patron's ID", err, "with the patron's ID recorded")
		_, err = handpay("h4", cashCapParts(100000, 300000, "transfer", "TX-9"), patron)
		capRefusal("parts short of the ticket", err, "the parts sum to A$4,000.00 and the ticket is A$5,000.00")
		if _, err := handpay("h5", cashCapParts(100000, 400000, "crypto", "X"), patron); code(err) != codes.InvalidArgument {
			t.Fatalf("an unknown method: %v, want InvalidArgument", err)
		}
		if got := strings.Join(r.auditOf("handpay"), "\n"); got != "" {
			t.Fatalf("a refused hand payment was journalled:\n%s", got)
		}
		paid, err := handpay("ok", cashCapParts(100000, 400000, "transfer", "TX-9"), patron)
		if err != nil {
			t.Fatal(err)
		}
		if paid.Cash != 100000 || len(paid.Parts) != 2 || paid.Parts[1].Method != "transfer" || paid.Parts[1].Reference != "TX-9" ||
			paid.PaymentId == "" || paid.Ticket.State != "handpaid" {
			t.Fatalf("paid by hand: %v", paid)
		}
		if again, err := handpay("ok", cashCapParts(100000, 400000, "transfer", "TX-9"), patron); err != nil || again.Cash != 100000 || again.PaymentId != paid.PaymentId {
			t.Fatalf("the retry: %v %v", again, err)
		}
		if _, err := handpay("ok", cashCapParts(100000, 400000, "cheque", "CH-1"), patron); code(err) != codes.AlreadyExists {
			t.Fatalf("the key again with other parts: %v", err)
		}
		parts, err := r.led.PaymentParts(ctx, paid.PaymentId)
		if err != nil || len(parts) != 2 || parts[0].Method != "cash" || parts[0].Amount != 100000 ||
			parts[1].Amount != 400000 || parts[1].Name != "Jane Citizen" || parts[1].IDNumber != "PA1234567" {
			t.Fatalf("the hand payment's parts as recorded: %+v %v", parts, err)
		}
		journal := strings.Join(r.auditOf("handpay"), "\n")
		if !strings.Contains(journal, vn+" paid by hand as A$1,000.00 cash + A$4,000.00 transfer ref TX-9 by supervisor:S1, payment "+paid.PaymentId) {
			t.Fatalf("journal:\n%s", journal)
		}
		// A ticket at the cap exactly: handpaid in cash, whole, as before.
		term2 := r.terminal("T02")
		if err := r.buyIn(term2, "T02", "small", 100000); err != nil {
			t.Fatal(err)
		}
		small := unprintedTicket(t, term2, "small")
		if p, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "s", ValidationNumber: small}); err != nil || p.Cash != 100000 || len(p.Parts) != 1 {
			t.Fatalf("at the cap: %v %v", p, err)
		}
		r.conserved()
	})
}
