package server

// The cage (issue 16): a cashier looks up a cash-out ticket printed at any table of the floor
// and pays it in cash, exactly once. The ticket's state, the cage_payments row and the audit
// event commit in one ledger transaction (moneyCall), so a payment is on disk before the cashier
// is told to hand the money over; the ticket row is where every table's terminals and the cage
// meet, so whichever transaction reaches it first redeems it and every other sees it redeemed.
//
// A cashier's card is a bearer credential like a ticket: a stolen one must not be a way to try
// validation numbers. Failed look-ups and payments (no such ticket, not a validation number)
// are throttled per cashier exactly as a terminal's RedeemTicket is (redeem.go), with the same
// alarm on the dealer's console — counted across every cage of the floor, in the floor's store.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// maxValidationInput bounds what ParseValidation reads: 18 digits and the separators a printed
// number has, with room to spare, never a megabyte of spaces.
const maxValidationInput = 64

// ParseValidation reads a validation number as a cashier types or a scanner sends it: 18
// digits, with any spaces and dashes (as printed on the ticket: "12-3456-7890-1234-5678")
// ignored. Anything else is refused with what is wrong.
func ParseValidation(s string) (string, error) {
	if len(s) > maxValidationInput {
		return "", fmt.Errorf("validation number: %d characters is too long (18 digits)", len(s))
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
		default:
			return "", fmt.Errorf("validation number %q: %q at %d is not a digit (18 digits)", s, r, i)
		}
	}
	if b.Len() != 18 {
		return "", fmt.Errorf("validation number %q: %d digits, not 18", s, b.Len())
	}
	return b.String(), nil
}

// cashierScope is a cashier's idempotency and throttling scope: a terminal id has no ':', so it
// can never be mistaken for one.
func cashierScope(id string) string { return "cashier:" + id }

// cageRead reads what decides whether the cage may pay a ticket besides the ticket itself: the
// stops in force on it and its unused threshold approvals, each checked against its seal.
func (t *Table) cageRead(tx *ledger.Tx, tk ledger.Ticket) (cageFacts, error) {
	stops, err := openStops(tx, tk.Validation)
	if err != nil {
		return cageFacts{}, err
	}
	f := cageFacts{stops: stops}
	if tk.Amount >= t.cfg.ReportingThreshold {
		all, err := tx.Approvals(tk.Validation)
		if err != nil {
			return cageFacts{}, err
		}
		for _, a := range all {
			if a.UsedBy == "" {
				f.approvals = append(f.approvals, a)
			}
		}
	}
	return f, nil
}

// cageFacts is what cageRead read.
type cageFacts struct {
	stops     []ledger.Stop     // in force
	approvals []ledger.Approval // unused, of a ticket at or over the threshold
}

// approvalFor is the first unused approval by someone other than payer (role:id): the second
// person.
func (f cageFacts) approvalFor(payer string) (ledger.Approval, bool) {
	for _, a := range f.approvals {
		if a.Approver != payer {
			return a, true
		}
	}
	return ledger.Approval{}, false
}

// cageView is a ticket as the cage is told of it: with whether it can be paid now and, if not,
// why.
func (t *Table) cageView(tk ledger.Ticket, f cageFacts, now time.Time) *pb.CageTicket {
	c := &pb.CageTicket{ValidationNumber: tk.Validation, Amount: tk.Amount, IssuerTableId: tk.IssuerTable,
		IssuerTerminalId: tk.Terminal, TicketNumber: tk.Number, IssuedUnixNanos: tk.Issued.UnixNano(),
		ExpiresUnixNanos: tk.Expires.UnixNano(), State: tk.State,
		RedeemedWhere: tk.RedeemedWhere, RedeemedBy: tk.RedeemedBy}
	if !tk.RedeemedAt.IsZero() {
		c.RedeemedAtUnixNanos = tk.RedeemedAt.UnixNano()
	}
	if tk.State == ledger.TicketRedeeming {
		c.HolderTableId, c.HolderTerminalId = tk.HolderTable, tk.Holder
		if !tk.HeldAt.IsZero() {
			c.HoldLapsesAtUnixNanos = tk.HeldAt.Add(t.cfg.TicketHold).UnixNano()
		}
	}
	for _, s := range f.stops {
		c.Stops = append(c.Stops, stopPB(s))
	}
	c.ReportingThreshold, c.OverThreshold = t.cfg.ReportingThreshold, tk.Amount >= t.cfg.ReportingThreshold
	if len(f.approvals) > 0 {
		a := f.approvals[0]
		c.Approval = &pb.PaymentApproval{ValidationNumber: a.Validation, ApprovedBy: a.Approver, ApprovedAtUnixNanos: a.At.UnixNano(), Note: a.Note}
	}
	c.Refusal, c.Message = t.cageRefusal(tk, f, now)
	c.Payable = c.Refusal == pb.TicketRefusal_TICKET_REFUSAL_UNSPECIFIED
	if c.Payable && c.OverThreshold {
		c.Message = t.thresholdApproved(tk.Amount, c.Approval.ApprovedBy)
	}
	c.CashCap, c.OverCashCap = t.cfg.CashCap, t.overCap(tk.Amount)
	if c.Payable && c.OverCashCap {
		c.Message = strings.TrimPrefix(c.Message+"; "+t.capWords(tk.Amount), "; ")
	}
	return c
}

// thresholdApproved is what the cage is told of a payable ticket at or over the reporting
// threshold, approved by approver.
func (t *Table) thresholdApproved(amount int64, approver string) string {
	return fmt.Sprintf("%s is at or over the %s reporting threshold: approved by %s; record the patron's ID as you pay",
		t.inCurrency(amount), t.inCurrency(t.cfg.ReportingThreshold), approver)
}

// thresholdRefused refuses view, a ticket cashier may otherwise pay, when it is at or over the
// reporting threshold and what the payment needs is missing: a second person's approval (one
// by someone other than cashier), and the patron's identity (idMissing; a look-up, before the
// ID is asked, passes false). It reports whether it refused; the approval found is returned.
func (t *Table) thresholdRefused(view *pb.CageTicket, tk ledger.Ticket, f cageFacts, cashier string, idMissing bool) (ledger.Approval, bool) {
	approval, approved := f.approvalFor(pki.RoleCashier + ":" + cashier)
	if approved {
		// The view names the approval this cashier's payment would use, not the first on file
		// (which may be the cashier's own).
		view.Approval = &pb.PaymentApproval{ValidationNumber: approval.Validation, ApprovedBy: approval.Approver,
			ApprovedAtUnixNanos: approval.At.UnixNano(), Note: approval.Note}
		if view.Payable && view.OverThreshold {
			view.Message = t.thresholdApproved(tk.Amount, approval.Approver)
		}
	}
	if tk.Amount < t.cfg.ReportingThreshold || (approved && !idMissing) {
		return approval, false
	}
	view.Refusal, view.Payable = pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD, false
	view.Message = t.thresholdNeeds(tk.Amount, idMissing, approved)
	if !approved && len(f.approvals) > 0 {
		view.Message += fmt.Sprintf(" (the approval on file is %s's own: a second person approves)", cashier)
	}
	return approval, true
}

// thresholdNeeds is the refusal of a payment at or over the reporting threshold without what it
// needs: the patron's identity (idMissing) and a second person's approval (!approved).
func (t *Table) thresholdNeeds(amount int64, idMissing, approved bool) string {
	need := "record the patron's ID and a second person's approval (a supervisor's or another cashier's)"
	switch {
	case !idMissing:
		need = "a supervisor's (or a second cashier's) approval is needed first"
	case approved:
		need = "record the patron's ID (type, number and name)"
	}
	return fmt.Sprintf("%s is at or over the %s reporting threshold: %s", t.inCurrency(amount), t.inCurrency(t.cfg.ReportingThreshold), need)
}

// cageRefusal is why the cage may not pay a ticket now (UNSPECIFIED: it may), in words too. A
// hold that has lapsed does not stop the cage, as it would not stop another terminal.
func (t *Table) cageRefusal(tk ledger.Ticket, f cageFacts, now time.Time) (pb.TicketRefusal, string) {
	switch tk.State {
	case ledger.TicketRedeemed:
		return pb.TicketRefusal_TICKET_REFUSAL_ALREADY_PAID, fmt.Sprintf("ticket %s has already been paid (%s)", tk.Validation, redeemedWhere(tk))
	case ledger.TicketHandpaid:
		return pb.TicketRefusal_TICKET_REFUSAL_VOID_HANDPAID, fmt.Sprintf("ticket %s could not be printed and was paid by hand%s: this copy is void", tk.Validation, handpaidBy(tk, t.cfg.TableID))
	case ledger.TicketPrintFailed:
		return pb.TicketRefusal_TICKET_REFUSAL_VOID_HANDPAID, fmt.Sprintf("ticket %s could not be printed and is to be paid by hand by a supervisor at %s (not yet paid): this copy is void", tk.Validation, issuerOf(tk, t.cfg.TableID))
	case ledger.TicketIssued:
		return pb.TicketRefusal_TICKET_REFUSAL_NOT_PRINTED, fmt.Sprintf("ticket %s was never confirmed printed: its table's dealer checks it", tk.Validation)
	case ledger.TicketPrinted, ledger.TicketRedeeming:
	default:
		return pb.TicketRefusal_TICKET_REFUSAL_NOT_PRINTED, fmt.Sprintf("ticket %s is %s", tk.Validation, tk.State)
	}
	if len(f.stops) > 0 {
		return pb.TicketRefusal_TICKET_REFUSAL_STOPPED, stopText(f.stops[0])
	}
	if now.After(tk.Expires) {
		return pb.TicketRefusal_TICKET_REFUSAL_EXPIRED, fmt.Sprintf("ticket %s expired on %s", tk.Validation, tk.Expires.UTC().Format(time.DateOnly))
	}
	if tk.State == ledger.TicketRedeeming && !t.holdLapsed(tk, now) {
		// The dealer's certificate cannot release a hold: a supervisor's can (roles.go).
		holder := tk.HolderTable
		if holder == "" {
			holder = t.cfg.TableID
		}
		return pb.TicketRefusal_TICKET_REFUSAL_HELD, fmt.Sprintf("ticket %s is in the acceptor of terminal %s: its hold lapses at %s, or a supervisor at %s releases it",
			tk.Validation, holderName(tk), tk.HeldAt.Add(t.cfg.TicketHold).UTC().Format("15:04:05 UTC"), holder)
	}
	if tk.Amount >= t.cfg.ReportingThreshold && len(f.approvals) == 0 {
		return pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD, t.thresholdNeeds(tk.Amount, true, false)
	}
	return pb.TicketRefusal_TICKET_REFUSAL_UNSPECIFIED, ""
}

// handpaidBy says who paid a ticket by hand, where and when: " at T1 by supervisor:S1 on
// 2026-11-27 03:12:09 UTC"; a hand payment from before they were recorded says where only.
func handpaidBy(tk ledger.Ticket, here string) string {
	s := " at " + issuerOf(tk, here)
	if tk.RedeemedBy != "" {
		s += " by " + tk.RedeemedBy
	}
	if !tk.RedeemedAt.IsZero() {
		s += " on " + tk.RedeemedAt.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return s
}

// refusedWith is a refusal carrying the cage's view of the ticket in its details, so a client
// reads the reason as a value rather than parsing the words.
func refusedWith(code codes.Code, view *pb.CageTicket) error {
	st, err := status.New(code, view.Message).WithDetails(view)
	if err != nil {
		return status.Error(code, view.Message)
	}
	return st.Err()
}

// CageRefusalOf reads the cage's view of a ticket from a refusal's details; nil when it has
// none.
func CageRefusalOf(err error) *pb.CageTicket {
	for _, d := range status.Convert(err).Details() {
		if v, ok := d.(*pb.CageTicket); ok {
			return v
		}
	}
	return nil
}

// cageTicket reads a ticket for the cage: an unparsable number is InvalidArgument, an unknown
// one NotFound with an UNKNOWN refusal in its details.
func (t *Table) cageTicket(tx *ledger.Tx, validation string) (ledger.Ticket, error) {
	vn, err := ParseValidation(validation)
	if err != nil {
		return ledger.Ticket{}, invalid("%v", err)
	}
	tk, ok, err := tx.Ticket(vn)
	if err != nil {
		return ledger.Ticket{}, err
	}
	if !ok {
		return ledger.Ticket{}, refusedWith(codes.NotFound, &pb.CageTicket{ValidationNumber: vn,
			Refusal: pb.TicketRefusal_TICKET_REFUSAL_UNKNOWN, Message: fmt.Sprintf("unknown number %s: check it and type it again", vn)})
	}
	return tk, nil
}

// LookupTicket is a cashier's look-up of a ticket.
func (t *Table) LookupTicket(cashier string, req *pb.LookupTicketRequest) (*pb.CageTicket, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	scope := cashierScope(cashier)
	now := t.now()
	if err := t.guessAhead(scope); err != nil {
		return nil, err
	}
	var view *pb.CageTicket
	err := t.led.Update(ledger.WithActor(context.Background(), scope), now, func(tx *ledger.Tx) error {
		tk, err := t.cageTicket(tx, req.ValidationNumber)
		if err != nil {
			return err
		}
		f, err := t.cageRead(tx, tk)
		if err != nil {
			return err
		}
		view = t.cageView(tk, f, now)
		if view.Payable {
			t.thresholdRefused(view, tk, f, cashier, false)
		}
		return nil
	})
	if err != nil {
		return nil, ledgerErr(t.guessAfter(scope, req.ValidationNumber, err))
	}
	return view, nil
}

// PayTicket pays a ticket in cash at the cage, once, recorded with the cashier who paid it.
func (t *Table) PayTicket(cashier string, req *pb.PayTicketRequest) (*pb.PayTicketResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	scope := cashierScope(cashier)
	if err := t.guessAhead(scope); err != nil {
		return nil, err
	}
	// A patron's identity given is checked first: a typo in a name is the cashier's to fix,
	// not a failed validation counted toward the guessing throttle.
	patron, idErr := patronOf(req.Patron)
	if req.Patron != nil && idErr != nil {
		return nil, invalid("the patron's identity: %s", status.Convert(idErr).Message())
	}
	parts, err := readParts(req.Parts)
	if err != nil {
		return nil, err
	}
	defer t.actAs(scope)()
	// The request as the key remembers it: the number as digits, so a retry typed with the
	// dashes the ticket prints is the same request.
	request := "cage-pay " + req.ValidationNumber
	if vn, err := ParseValidation(req.ValidationNumber); err == nil {
		request = "cage-pay " + vn
	}
	if len(req.Parts) > 0 {
		request += " parts " + partsKey(req.Parts)
	}
	res, replayed, err := moneyCall(t, scope, req.IdempotencyKey, request, func() *pb.PayTicketResponse { return &pb.PayTicketResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.PayTicketResponse, func(), error) {
			tk, err := t.cageTicket(tx, req.ValidationNumber)
			if err != nil {
				return nil, nil, err
			}
			f, err := t.cageRead(tx, tk)
			if err != nil {
				return nil, nil, err
			}
			view := t.cageView(tk, f, now)
			over := tk.Amount >= t.cfg.ReportingThreshold
			if !view.Payable && view.Refusal != pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD {
				return nil, nil, refusedWith(codes.FailedPrecondition, view)
			}
			// At or over the reporting threshold: the patron's identity and a second person's
			// approval, both recorded in this transaction, before the cash is handed over.
			approval, refused := t.thresholdRefused(view, tk, f, cashier, idErr != nil)
			if refused {
				return nil, nil, refusedWith(codes.FailedPrecondition, view)
			}
			// How it is handed over: cash up to the cap, the rest by transfer or cheque with
			// the patron's identity (cashcap.go).
			parts, err := t.payParts(tk, view, parts, patron, idErr)
			if err != nil {
				return nil, nil, err
			}
			if tk.State == ledger.TicketRedeeming { // a lapsed hold: the cage takes the ticket over
				if err := tx.Event("ticket-hold-lapsed", t.qualified(tk.HolderTable, tk.Holder), "", tk.Amount,
					fmt.Sprintf("%s: held by %s since %s, paid at the cage by %s", tk.Validation, holderName(tk), tk.HeldAt.Format(time.RFC3339), cashier)); err != nil {
					return nil, nil, err
				}
			}
			tk.State, tk.HolderTable, tk.Holder, tk.HeldAt = ledger.TicketRedeemed, "", "", time.Time{}
			tk.RedeemedWhere, tk.RedeemedBy, tk.RedeemedAt = ledger.RedeemedAtCage, cashier, now
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			p := ledger.CagePayment{ID: newID("P"), Validation: tk.Validation, Cashier: cashier, Amount: tk.Amount, At: now, ViaTable: t.cfg.TableID}
			if err := tx.PutCagePayment(p); err != nil {
				return nil, nil, err
			}
			if err := tx.PutPaymentParts(p.ID, parts); err != nil {
				return nil, nil, err
			}
			how := t.handedOver(parts)
			var threshold *pb.ThresholdPayment
			if req.Patron != nil {
				pp := ledger.PatronPayment{Payment: p.ID, Validation: tk.Validation, Amount: tk.Amount, Cashier: cashier, At: now,
					ViaTable: t.cfg.TableID, IDType: patron.IDType, IDNumber: patron.IDNumber, Name: patron.Name}
				if threshold, err = t.recordPatron(tx, tk, pp, approval, over, "paid "+how+" at the cage"); err != nil {
					return nil, nil, err
				}
			}
			issuer := tk.IssuerTable
			if issuer == "" {
				issuer = t.cfg.TableID
			}
			if err := tx.Event("cage-paid", t.qualified(tk.IssuerTable, tk.Terminal), "", tk.Amount, fmt.Sprintf("%s (issued at %s by %s) paid %s at the cage by %s, payment %s",
				tk.Validation, issuer, tk.Terminal, how, cashier, p.ID)); err != nil {
				return nil, nil, err
			}
			if err := t.tellIssuer(tx, tk, "cage-paid", "paid "+how+" at the cage through table "+t.cfg.TableID+" by "+cashier+", payment "+p.ID, now); err != nil {
				return nil, nil, err
			}
			return &pb.PayTicketResponse{Ticket: t.cageView(tk, cageFacts{}, now), Amount: cashOf(parts), PaymentId: p.ID,
				CashierId: cashier, PaidAtUnixNanos: now.UnixNano(), Threshold: threshold, Parts: partsPB(parts), Total: tk.Amount}, nil, nil
		})
	if err != nil {
		return nil, t.guessAfter(scope, req.ValidationNumber, err)
	}
	t.log.Info("ticket paid at the cage", "ticket", res.Ticket.ValidationNumber, "amount", res.Amount, "cashier", cashier, "replayed", replayed)
	res.Replayed = replayed
	return res, nil
}

// reportWindow reads a report's window: from and to in unix nanos, 0 unbounded, to after from.
func reportWindow(from, to int64) (time.Time, time.Time, error) {
	if from < 0 || to < 0 {
		return time.Time{}, time.Time{}, invalid("a window's from and to are unix nanos, not negative")
	}
	if from != 0 && to != 0 && to <= from {
		return time.Time{}, time.Time{}, invalid("the window ends (%s) before it starts (%s)",
			time.Unix(0, to).UTC().Format(time.RFC3339), time.Unix(0, from).UTC().Format(time.RFC3339))
	}
	var f, tt time.Time
	if from != 0 {
		f = time.Unix(0, from)
	}
	if to != 0 {
		tt = time.Unix(0, to)
	}
	return f, tt, nil
}

// ShiftTotals is what a cashier paid in a window. A cashier asks for itself ("" is itself); a
// supervisor for anyone ("" is every cashier).
func (t *Table) ShiftTotals(role, caller string, req *pb.ShiftTotalsRequest) (*pb.ShiftTotalsResponse, error) {
	who := req.CashierId
	if who != "" {
		if err := pki.ValidID(who); err != nil {
			return nil, invalid("cashier: %v", err)
		}
	}
	if role == pki.RoleCashier {
		if who != "" && who != caller {
			return nil, status.Errorf(codes.PermissionDenied, "cashier %q may read only their own shift, not %q's (a supervisor may read any)", caller, who)
		}
		who = caller
	}
	from, to, err := reportWindow(req.FromUnixNanos, req.ToUnixNanos)
	if err != nil {
		return nil, err
	}
	ps, err := t.led.CagePayments(context.Background(), who, from, to)
	if err != nil {
		return nil, ledgerErr(err)
	}
	res := &pb.ShiftTotalsResponse{CashierId: who}
	var sum ledger.Tally
	for _, p := range ps {
		if sum, err = sum.Plus(ledger.Tally{Count: 1, Amount: p.Amount}); err != nil {
			return nil, status.Errorf(codes.Internal, "shift totals: %v", err)
		}
		res.Payments = append(res.Payments, &pb.CagePayment{PaymentId: p.ID, ValidationNumber: p.Validation, CashierId: p.Cashier,
			Amount: p.Amount, PaidAtUnixNanos: p.At.UnixNano(), ViaTableId: p.ViaTable})
	}
	res.Count, res.Amount = sum.Count, sum.Amount
	by, err := t.led.PaidByMethod(context.Background(), who, from, to)
	if err != nil {
		return nil, ledgerErr(err)
	}
	res.ByMethod = byMethodPB(by)
	return res, nil
}

func tallyPB(t ledger.Tally) *pb.TicketTally {
	return &pb.TicketTally{Count: t.Count, Amount: t.Amount}
}

func tableTicketsPB(tot ledger.TicketTotals) *pb.TableTickets {
	return &pb.TableTickets{TableId: tot.Table, Issued: tallyPB(tot.Issued), RedeemedTable: tallyPB(tot.RedeemedTable),
		RedeemedCage: tallyPB(tot.RedeemedCage), Handpaid: tallyPB(tot.Handpaid), Outstanding: tallyPB(tot.Outstanding),
		ExpiredUnpaid: tallyPB(tot.ExpiredUnpaid), RedeemedByTable: tallyPB(tot.RedeemedByThem)}
}

// FloorReport is the floor's tickets issued in a window, per issuing table and summed, as of
// now, the notes reconciliation of every table's terminals (on SQLite, this table's), and
// every reseal of every table's ledger.
// Tickets from before tables were recorded are this table's.
func (t *Table) FloorReport(req *pb.FloorReportRequest) (*pb.FloorReportResponse, error) {
	from, to, err := reportWindow(req.FromUnixNanos, req.ToUnixNanos)
	if err != nil {
		return nil, err
	}
	now := t.now()
	ctx := context.Background()
	tots, err := t.led.TicketTotals(ctx, from, to, now)
	if err != nil {
		return nil, ledgerErr(err)
	}
	res := &pb.FloorReportResponse{AtUnixNanos: now.UnixNano(), FromUnixNanos: req.FromUnixNanos, ToUnixNanos: req.ToUnixNanos}
	floor := ledger.TicketTotals{Table: "floor"}
	merged := map[string]ledger.TicketTotals{}
	var order []string
	for _, tot := range tots {
		if tot.Table == "" {
			tot.Table = t.cfg.TableID
		}
		prev, seen := merged[tot.Table]
		if !seen {
			order = append(order, tot.Table)
		}
		if prev, err = addTotals(prev, tot); err != nil {
			return nil, status.Errorf(codes.Internal, "floor report: %v", err)
		}
		prev.Table = tot.Table
		merged[tot.Table] = prev
		if floor, err = addTotals(floor, tot); err != nil {
			return nil, status.Errorf(codes.Internal, "floor report: %v", err)
		}
	}
	floor.Table = "floor"
	sort.Strings(order)
	for _, id := range order {
		res.Tables = append(res.Tables, tableTicketsPB(merged[id]))
	}
	res.Floor = tableTicketsPB(floor)
	if err := t.thresholdReport(ctx, from, to, res); err != nil {
		return nil, ledgerErr(err)
	}
	byTable, err := t.led.FloorNoteTotals(ctx, from, to)
	if err != nil {
		return nil, ledgerErr(err)
	}
	tables := make([]string, 0, len(byTable))
	for id := range byTable {
		tables = append(tables, id)
	}
	sort.Strings(tables)
	for _, id := range tables {
		for _, n := range byTable[id] {
			d, err := n.Difference()
			if err != nil {
				return nil, status.Errorf(codes.Internal, "floor report: %v", err)
			}
			if id == "" { // a SQLite ledger that has printed no ticket yet: this table's
				id = t.cfg.TableID
			}
			res.Notes = append(res.Notes, &pb.NoteReconciliation{TableId: id, TerminalId: n.Terminal,
				Reported: tallyPB(n.Reported), Stacked: tallyPB(n.Stacked), Uncredited: tallyPB(n.Uncredited),
				Credited: tallyPB(n.Credited), Difference: d})
		}
	}
	// The reseals, of all time: a ledger trusted as it was found stays said so (issue 34).
	reseals, err := t.led.FloorReseals(ctx)
	if err != nil {
		return nil, ledgerErr(err)
	}
	tables = tables[:0]
	for id := range reseals {
		tables = append(tables, id)
	}
	sort.Strings(tables)
	for _, id := range tables {
		for _, m := range reseals[id] {
			if id == "" { // as above
				id = t.cfg.TableID
			}
			res.Reseals = append(res.Reseals, &pb.LedgerReseal{TableId: id, AtUnixNanos: m.At.UnixNano(), By: m.By, Why: m.Why,
				SealedRows: m.Rows, Found: m.Found})
		}
	}
	return res, nil
}

// addTotals adds u's figures to t's, checked.
func addTotals(t, u ledger.TicketTotals) (ledger.TicketTotals, error) {
	var err error
	for _, f := range []struct{ to, v *ledger.Tally }{
		{&t.Issued, &u.Issued}, {&t.RedeemedTable, &u.RedeemedTable}, {&t.RedeemedCage, &u.RedeemedCage},
		{&t.Handpaid, &u.Handpaid}, {&t.Outstanding, &u.Outstanding}, {&t.ExpiredUnpaid, &u.ExpiredUnpaid},
		{&t.RedeemedByThem, &u.RedeemedByThem},
	} {
		if *f.to, err = f.to.Plus(*f.v); err != nil {
			return t, err
		}
	}
	return t, nil
}

// ---- the gRPC edge --------------------------------------------------------------------------

type cageService struct {
	pb.UnimplementedCageServiceServer
	t *Table
}

func callerRole(ctx context.Context) string {
	id, _ := ctx.Value(identityKey{}).(identity)
	return id.role
}

func (s *cageService) LookupTicket(ctx context.Context, req *pb.LookupTicketRequest) (*pb.CageTicket, error) {
	return s.t.LookupTicket(callerID(ctx), req)
}

func (s *cageService) PayTicket(ctx context.Context, req *pb.PayTicketRequest) (*pb.PayTicketResponse, error) {
	return s.t.PayTicket(callerID(ctx), req)
}

func (s *cageService) ShiftTotals(ctx context.Context, req *pb.ShiftTotalsRequest) (*pb.ShiftTotalsResponse, error) {
	return s.t.ShiftTotals(callerRole(ctx), callerID(ctx), req)
}

func (s *cageService) StopTicket(ctx context.Context, req *pb.StopTicketRequest) (*pb.TicketStop, error) {
	return s.t.StopTicket(actorOf(ctx), req)
}

func (s *cageService) ReleaseTicketStop(ctx context.Context, req *pb.ReleaseTicketStopRequest) (*pb.TicketStop, error) {
	return s.t.ReleaseTicketStop(actorOf(ctx), req)
}

func (s *cageService) ApprovePayment(ctx context.Context, req *pb.ApprovePaymentRequest) (*pb.PaymentApproval, error) {
	return s.t.ApprovePayment(callerRole(ctx), callerID(ctx), req)
}

func (s *cageService) FloorReport(_ context.Context, req *pb.FloorReportRequest) (*pb.FloorReportResponse, error) {
	return s.t.FloorReport(req)
}
