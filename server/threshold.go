package server

// The reporting threshold (issue 33 point 2). Cash of A$10,000 or more paid to a patron is a
// threshold transaction under the AML/CTF Act 2006 (Cth): the casino identifies the patron and
// reports it. At or over the table's ReportingThreshold the cage's PayTicket therefore needs
// the patron's identity (ID type, number, name) and a second person's approval on file — a
// supervisor's, or a cashier's other than the one who pays — and records both, sealed, in the
// transaction of the payment (cage_patrons, and the approval marked used), with an audit event,
// before the cashier is told to hand the cash over. Without them it refuses, saying what is
// missing.
//
// One ticket is one payment: the cage pays a ticket whole, so a ticket's amount is the cash
// paid and cannot be split. Several tickets under the threshold brought by one patron on one
// day (structuring) are not refused — the cage cannot know two bearers are one patron unless
// the cashier identifies them — but every identified payment is recorded, and the floor report
// lists each patron whose identified payments of a day reach the threshold together.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// patronOf checks a patron's identity as the cashier typed it: every field required.
func patronOf(p *pb.PatronIdentity) (ledger.PatronPayment, error) {
	if p == nil {
		return ledger.PatronPayment{}, fmt.Errorf("no patron identity given")
	}
	var out ledger.PatronPayment
	var err error
	if out.IDType, err = text("the patron's ID type (passport, driver licence, …)", p.IdType); err != nil {
		return out, err
	}
	if out.IDNumber, err = text("the patron's ID number", p.IdNumber); err != nil {
		return out, err
	}
	if out.Name, err = text("the patron's name", p.Name); err != nil {
		return out, err
	}
	return out, nil
}

func thresholdPB(p ledger.PatronPayment) *pb.ThresholdPayment {
	out := &pb.ThresholdPayment{PaymentId: p.Payment, ValidationNumber: p.Validation, Amount: p.Amount, CashierId: p.Cashier,
		PaidAtUnixNanos: p.At.UnixNano(), ViaTableId: p.ViaTable, ApprovedBy: p.ApprovedBy, Threshold: p.Threshold,
		Patron: &pb.PatronIdentity{IdType: p.IDType, IdNumber: p.IDNumber, Name: p.Name}}
	if !p.ApprovedAt.IsZero() {
		out.ApprovedAtUnixNanos = p.ApprovedAt.UnixNano()
	}
	return out
}

// recordPatron records an identified cash payment of tk (pp: the payment, who paid, the
// patron) in tx: at or over the threshold (over) with its approval, which it marks used, and
// an audit event saying how it was paid (how); the threshold payment, or nil under it.
func (t *Table) recordPatron(tx *ledger.Tx, tk ledger.Ticket, pp ledger.PatronPayment, approval ledger.Approval, over bool, how string) (*pb.ThresholdPayment, error) {
	pp.Threshold = t.cfg.ReportingThreshold
	if over {
		pp.ApprovedBy, pp.ApprovedAt = approval.Approver, approval.At
		approval.UsedBy = pp.Payment
		if err := tx.PutApproval(approval); err != nil {
			return nil, err
		}
	}
	if err := tx.PutPatronPayment(pp); err != nil {
		return nil, err
	}
	if !over {
		return nil, nil
	}
	return thresholdPB(pp), tx.Event("cage-threshold-payment", tk.Terminal, "", tk.Amount,
		fmt.Sprintf("%s %s by %s, payment %s, at or over the %s reporting threshold: patron %s (%s %s), approved by %s",
			tk.Validation, how, pp.Cashier, pp.Payment, t.inCurrency(t.cfg.ReportingThreshold), pp.Name, pp.IDType, pp.IDNumber, pp.ApprovedBy))
}

// handpayThreshold is a hand payment's threshold check, in its transaction: under the
// threshold nothing (an identity given is recorded); at or over it the patron's identity
// (patron, idErr from patronOf) and an approval by someone other than actor, the supervisor who
// pays, or a refusal saying what is missing. payment is the hand payment's id.
func (t *Table) handpayThreshold(tx *ledger.Tx, tk ledger.Ticket, actor, payment string, given bool, patron ledger.PatronPayment, idErr error, now time.Time) (*pb.ThresholdPayment, error) {
	over := tk.Amount >= t.cfg.ReportingThreshold
	if !over && !given {
		return nil, nil
	}
	var approval ledger.Approval
	if over {
		f, err := t.cageRead(tx, tk)
		if err != nil {
			return nil, err
		}
		var approved bool
		approval, approved = f.approvalFor(actor)
		if idErr != nil || !approved {
			return nil, failed("%s (paid by hand: the second person is a cashier or another supervisor, `atsctl cage approve`)",
				t.thresholdNeeds(tk.Amount, idErr != nil, approved))
		}
	}
	patron.Payment, patron.Validation, patron.Amount, patron.Cashier, patron.At, patron.ViaTable = payment, tk.Validation, tk.Amount, actor, now, t.cfg.TableID
	return t.recordPatron(tx, tk, patron, approval, over, "paid by hand")
}

// ApprovePayment records a second person's approval of a ticket's payment at or over the
// reporting threshold: a supervisor's, or a cashier's (who then may not pay it themself).
func (t *Table) ApprovePayment(role, id string, req *pb.ApprovePaymentRequest) (*pb.PaymentApproval, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	scope := cashierScope(id)
	if role != pki.RoleCashier {
		scope = dealerScope(id)
	}
	if err := t.guessAhead(scope); err != nil {
		return nil, err
	}
	note := strings.TrimSpace(req.Note)
	if note != "" {
		var err error
		if note, err = text("an approval's note", note); err != nil {
			return nil, err
		}
	}
	approver := role + ":" + id
	now := t.now()
	var out *pb.PaymentApproval
	err := t.led.Update(ledger.WithActor(context.Background(), approver), now, func(tx *ledger.Tx) error {
		tk, err := t.cageTicket(tx, req.ValidationNumber)
		if err != nil {
			return err
		}
		if tk.Amount < t.cfg.ReportingThreshold {
			return failed("ticket %s is %s, under the %s reporting threshold: it needs no approval", tk.Validation,
				t.inCurrency(tk.Amount), t.inCurrency(t.cfg.ReportingThreshold))
		}
		if !ledger.TicketOpen(tk.State) {
			f, err := t.cageRead(tx, tk)
			if err != nil {
				return err
			}
			return refusedWith(codes.FailedPrecondition, t.cageView(tk, f, now))
		}
		a := ledger.Approval{Validation: tk.Validation, Approver: approver, At: now, Note: note}
		if err := tx.PutApproval(a); err != nil {
			return err
		}
		out = &pb.PaymentApproval{ValidationNumber: a.Validation, ApprovedBy: a.Approver, ApprovedAtUnixNanos: now.UnixNano(), Note: note}
		return tx.Event("cage-approval", tk.Terminal, "", tk.Amount, fmt.Sprintf("%s (%s, at or over the %s reporting threshold) approved for payment by %s: %s",
			tk.Validation, t.inCurrency(tk.Amount), t.inCurrency(t.cfg.ReportingThreshold), approver, note))
	})
	if err != nil {
		return nil, ledgerErr(t.guessAfter(scope, req.ValidationNumber, err))
	}
	return out, nil
}

// thresholdReport is the floor report's threshold payments (at or over the threshold in force
// when each was paid) and the patron-days whose identified payments reach the threshold over
// several tickets, in the window.
func (t *Table) thresholdReport(ctx context.Context, from, to time.Time, res *pb.FloorReportResponse) error {
	ps, err := t.led.PatronPayments(ctx, from, to)
	if err != nil {
		return err
	}
	res.ReportingThreshold = t.cfg.ReportingThreshold
	type key struct{ day, idType, idNumber string }
	days := map[key]*pb.PatronDay{}
	var order []key
	for _, p := range ps {
		if p.Amount >= p.Threshold {
			res.ThresholdPayments = append(res.ThresholdPayments, thresholdPB(p))
		}
		k := key{p.At.UTC().Format(time.DateOnly), strings.ToUpper(p.IDType), strings.ToUpper(p.IDNumber)}
		d := days[k]
		if d == nil {
			d = &pb.PatronDay{Day: k.day, Patron: &pb.PatronIdentity{IdType: p.IDType, IdNumber: p.IDNumber, Name: p.Name}}
			days[k] = d
			order = append(order, k)
		}
		if d.Amount, err = money.Add(d.Amount, p.Amount); err != nil {
			return fmt.Errorf("patron %s %s: %w", p.IDType, p.IDNumber, err)
		}
		d.Count++
		d.PaymentIds = append(d.PaymentIds, p.Payment)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].day < order[j].day })
	for _, k := range order {
		if d := days[k]; d.Count > 1 && d.Amount >= t.cfg.ReportingThreshold {
			res.PatronDays = append(res.PatronDays, d)
		}
	}
	return nil
}
