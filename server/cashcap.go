package server

// The cash cap on payouts (issue 31): under Crown's rules a cash-out ticket over the cap
// (A$1,000 by default, Config.CashCap) is paid in cash only up to the cap, and the rest by
// electronic transfer or cheque, with the patron's identity recorded: at the cage (PayTicket)
// and by a supervisor's hand at the table (Handpay, dealer.go), by the same rule. PayTicket takes
// the payment's parts (a method and an amount each) and pays only when they sum to the ticket
// exactly (the money conserved), the cash among them is within the cap, and every part not in
// cash has its reference and the patron's identity. The parts are recorded with the payment in
// its transaction (ledger.PutPaymentParts) and named in its journal event; ShiftTotals splits
// by method. The cap adds to the reporting threshold's rule (threshold.go) and the stop list
// (stops.go), never in place of them: a ticket at or over the threshold still needs its
// approval and identity, whatever the split, and a stopped ticket is paid by no method.

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// overCap reports whether a ticket of amount is over the table's cash cap.
func (t *Table) overCap(amount int64) bool { return t.cfg.CashCap > 0 && amount > t.cfg.CashCap }

// capWords is what the cashier is told of a ticket over the cap.
func (t *Table) capWords(amount int64) string {
	return fmt.Sprintf("%s is over the %s cash cap: pay %s in cash and %s by electronic transfer or cheque, with the patron's ID recorded",
		t.inCurrency(amount), t.inCurrency(t.cfg.CashCap), t.inCurrency(t.cfg.CashCap), t.inCurrency(amount-t.cfg.CashCap))
}

// capRefused is PayTicket's refusal of parts the cap does not allow: view, marked CASH_CAP,
// with why.
func capRefused(view *pb.CageTicket, why string) error {
	view.Refusal, view.Payable, view.Message = pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP, false, why
	return refusedWith(codes.FailedPrecondition, view)
}

// readParts reads a payment's parts as typed (the cage's PayTicket, a supervisor's Handpay),
// before the ticket is read (so a typo is the payer's to fix, never counted as a failed
// validation): each a known method and a positive amount, each part not in cash with its
// reference. None: nil (the whole ticket in cash).
func readParts(parts []*pb.PaymentPart) ([]ledger.PaymentPart, error) {
	if len(parts) > 4 {
		return nil, invalid("%d parts: a ticket is paid in at most 4", len(parts))
	}
	var out []ledger.PaymentPart
	var sum int64
	for i, p := range parts {
		method := strings.ToLower(strings.TrimSpace(p.Method))
		if method != ledger.PayCash && method != ledger.PayTransfer && method != ledger.PayCheque {
			return nil, invalid("part %d: method %q: cash, transfer or cheque", i+1, p.Method)
		}
		if p.Amount <= 0 {
			return nil, invalid("part %d: %d cents: a part is a positive amount", i+1, p.Amount)
		}
		if sum > math.MaxInt64-p.Amount {
			return nil, invalid("the parts overflow")
		}
		sum += p.Amount
		part := ledger.PaymentPart{Method: method, Amount: p.Amount}
		if method == ledger.PayCash {
			if strings.TrimSpace(p.Reference) != "" {
				return nil, invalid("part %d: cash has no reference", i+1)
			}
		} else {
			ref, err := text(fmt.Sprintf("part %d (%s): the reference (the cheque's number or the transfer's)", i+1, method), p.Reference)
			if err != nil {
				return nil, err
			}
			part.Reference = ref
		}
		out = append(out, part)
	}
	return out, nil
}

// payParts decides how ticket tk is handed over, in the payment's transaction: parts (from
// readParts; none: the whole ticket in cash) must sum to the ticket exactly and hold no more
// cash than the cap, and a part not in cash is paid with the patron's identity (patron; idErr:
// why none usable was given), recorded with it. Refused (FailedPrecondition, view marked
// CASH_CAP) with what is wrong.
func (t *Table) payParts(tk ledger.Ticket, view *pb.CageTicket, parts []ledger.PaymentPart, patron ledger.PatronPayment, idErr error) ([]ledger.PaymentPart, error) {
	if len(parts) == 0 {
		if t.overCap(tk.Amount) {
			return nil, capRefused(view, t.capWords(tk.Amount))
		}
		return []ledger.PaymentPart{{Method: ledger.PayCash, Amount: tk.Amount}}, nil
	}
	var sum, cash int64
	out := make([]ledger.PaymentPart, len(parts))
	for i, p := range parts {
		sum += p.Amount // readParts bounded the sum
		if p.Method == ledger.PayCash {
			cash += p.Amount
		} else {
			if idErr != nil {
				return nil, capRefused(view, fmt.Sprintf("a payment by %s is made with the patron's ID recorded: type its type, number and name", p.Method))
			}
			p.IDType, p.IDNumber, p.Name = patron.IDType, patron.IDNumber, patron.Name
		}
		out[i] = p
	}
	if sum != tk.Amount {
		return nil, capRefused(view, fmt.Sprintf("the parts sum to %s and the ticket is %s: they must sum to it exactly", t.inCurrency(sum), t.inCurrency(tk.Amount)))
	}
	if t.cfg.CashCap > 0 && cash > t.cfg.CashCap {
		return nil, capRefused(view, fmt.Sprintf("%s in cash is over the %s cash cap: %s",
			t.inCurrency(cash), t.inCurrency(t.cfg.CashCap), t.capWords(tk.Amount)))
	}
	return out, nil
}

// cashOf is the cash among parts: what the cashier hands over.
func cashOf(parts []ledger.PaymentPart) int64 {
	var n int64
	for _, p := range parts {
		if p.Method == ledger.PayCash {
			n += p.Amount
		}
	}
	return n
}

// partsPB is parts as the cage is told of them.
func partsPB(parts []ledger.PaymentPart) []*pb.PaymentPart {
	out := make([]*pb.PaymentPart, 0, len(parts))
	for _, p := range parts {
		out = append(out, &pb.PaymentPart{Method: p.Method, Amount: p.Amount, Reference: p.Reference})
	}
	return out
}

// handedOver is how parts were handed over, in the journal: "in cash" for the whole ticket in
// cash, else "as " and partsText.
func (t *Table) handedOver(parts []ledger.PaymentPart) string {
	if len(parts) == 1 && parts[0].Method == ledger.PayCash {
		return "in cash"
	}
	return "as " + t.partsText(parts)
}

// partsText is parts in the journal: "A$1,000.00 cash + A$500.00 transfer ref TX9".
func (t *Table) partsText(parts []ledger.PaymentPart) string {
	var b []string
	for _, p := range parts {
		s := t.inCurrency(p.Amount) + " " + p.Method
		if p.Reference != "" {
			s += " ref " + p.Reference
		}
		b = append(b, s)
	}
	return strings.Join(b, " + ")
}

// partsKey is the parts as the idempotency key remembers the request: a retry with other
// parts is another request (AlreadyExists), not the first answered again.
func partsKey(parts []*pb.PaymentPart) string {
	var b []string
	for _, p := range parts {
		b = append(b, fmt.Sprintf("%s:%d:%s", strings.ToLower(strings.TrimSpace(p.Method)), p.Amount, strings.TrimSpace(p.Reference)))
	}
	return strings.Join(b, ",")
}

// byMethodPB is the tallies by method, cash first.
func byMethodPB(m map[string]ledger.Tally) []*pb.MethodTally {
	var out []*pb.MethodTally
	for method, tl := range m {
		out = append(out, &pb.MethodTally{Method: method, Count: tl.Count, Amount: tl.Amount})
	}
	order := map[string]int{ledger.PayCash: 0, ledger.PayTransfer: 1, ledger.PayCheque: 2}
	sort.Slice(out, func(i, j int) bool { return order[out[i].Method] < order[out[j].Method] })
	return out
}
