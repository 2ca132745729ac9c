package server

// A cashier's shift at the cage (issue 33 point 11): the cashier opens it before paying, and
// closes it with the count and sum of what they paid since, counted by the ledger in the
// closing transaction from the cage's own payment records. The shift's row and its audit
// event (cage-shift-opened, cage-shift-closed) commit together, so the record a supervisor
// counts the drawer against is sealed with the payments it sums.
//
// The cashier's page (cmd/cagepage) offers Pay only with a shift open. PayTicket itself does
// not ask for one, so `atsctl cage pay` and scripts work as they did.

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/money"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

func cageShiftPB(s ledger.CageShift) *pb.CageShift {
	v := &pb.CageShift{ShiftId: s.ID, CashierId: s.Cashier, Open: s.Closed.IsZero(), OpenedUnixNanos: s.Opened.UnixNano(),
		Count: s.Count, Amount: s.Amount, ViaTableId: s.ViaTable}
	if !s.Closed.IsZero() {
		v.ClosedUnixNanos = s.Closed.UnixNano()
	}
	return v
}

// shiftUpdate runs fn in a ledger transaction as cashier.
func (t *Table) shiftUpdate(cashier string, fn func(tx *ledger.Tx, now time.Time) error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	return ledgerErr(t.led.Update(ledger.WithActor(context.Background(), cashierScope(cashier)), now, func(tx *ledger.Tx) error {
		return fn(tx, now)
	}))
}

// OpenShift opens cashier's shift, or answers the one open.
func (t *Table) OpenShift(cashier string) (*pb.CageShift, error) {
	var res *pb.CageShift
	err := t.shiftUpdate(cashier, func(tx *ledger.Tx, now time.Time) error {
		s, open, err := tx.OpenCageShift(cashier)
		if err != nil {
			return err
		}
		if !open {
			s = ledger.CageShift{ID: newID("S"), Cashier: cashier, Opened: now, ViaTable: t.cfg.TableID}
			if err := tx.PutCageShift(s); err != nil {
				return err
			}
			if err := tx.Event("cage-shift-opened", "", "", 0, fmt.Sprintf("shift %s of %s opened via table %s", s.ID, cashier, t.cfg.TableID)); err != nil {
				return err
			}
		}
		if res, err = t.shiftSoFar(tx, s); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// shiftSoFar is an open shift with what was paid in it up to now.
func (t *Table) shiftSoFar(tx *ledger.Tx, s ledger.CageShift) (*pb.CageShift, error) {
	paid, err := tx.CashierPaid(s.Cashier, s.Opened)
	if err != nil {
		return nil, err
	}
	s.Count, s.Amount = paid.Count, paid.Amount
	return t.withCash(tx, cageShiftPB(s), s)
}

// withCash adds to v the cash of shift s: what its cashier handed over in it.
func (t *Table) withCash(tx *ledger.Tx, v *pb.CageShift, s ledger.CageShift) (*pb.CageShift, error) {
	var to time.Time
	if !s.Closed.IsZero() {
		to = s.Closed.Add(time.Nanosecond)
	}
	cash, err := tx.CashierCash(s.Cashier, s.Opened, to)
	if err != nil {
		return nil, err
	}
	v.Cash = cash
	return v, nil
}

// CurrentShift is cashier's open shift with what was paid in it so far; Open false when none.
func (t *Table) CurrentShift(cashier string) (*pb.CageShift, error) {
	res := &pb.CageShift{CashierId: cashier}
	err := t.shiftUpdate(cashier, func(tx *ledger.Tx, _ time.Time) error {
		s, open, err := tx.OpenCageShift(cashier)
		if err != nil || !open {
			return err
		}
		res, err = t.shiftSoFar(tx, s)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// CloseShift closes cashier's open shift id with what the cashier paid since it opened. A
// shift of the cashier's already closed is answered again (a retried close).
func (t *Table) CloseShift(cashier string, req *pb.CloseShiftRequest) (*pb.CageShift, error) {
	if req.ShiftId == "" {
		return nil, invalid("close shift: name the shift (shift_id)")
	}
	var res *pb.CageShift
	err := t.shiftUpdate(cashier, func(tx *ledger.Tx, now time.Time) error {
		s, found, err := tx.CageShiftByID(req.ShiftId)
		if err != nil {
			return err
		}
		if !found || s.Cashier != cashier {
			return status.Errorf(codes.NotFound, "%s has no shift %s", cashier, req.ShiftId)
		}
		if !s.Closed.IsZero() {
			res, err = t.withCash(tx, cageShiftPB(s), s)
			return err
		}
		paid, err := tx.CashierPaid(cashier, s.Opened)
		if err != nil {
			return err
		}
		s.Closed, s.Count, s.Amount = now, paid.Count, paid.Amount
		if err := tx.PutCageShift(s); err != nil {
			return err
		}
		if res, err = t.withCash(tx, cageShiftPB(s), s); err != nil {
			return err
		}
		cash := ""
		if res.Cash != s.Amount { // some of it by transfer or cheque (the cash cap)
			cash = ", " + money.Decimal(res.Cash) + " of it in cash"
		}
		return tx.Event("cage-shift-closed", "", "", s.Amount, fmt.Sprintf("shift %s of %s closed via table %s: %d tickets paid, %s%s, since %s",
			s.ID, cashier, t.cfg.TableID, s.Count, money.Decimal(s.Amount), cash, s.Opened.UTC().Format(time.RFC3339)))
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (s *cageService) OpenShift(ctx context.Context, _ *pb.OpenShiftRequest) (*pb.CageShift, error) {
	return s.t.OpenShift(callerID(ctx))
}

func (s *cageService) CloseShift(ctx context.Context, req *pb.CloseShiftRequest) (*pb.CageShift, error) {
	return s.t.CloseShift(callerID(ctx), req)
}

func (s *cageService) CurrentShift(ctx context.Context, _ *pb.CurrentShiftRequest) (*pb.CageShift, error) {
	return s.t.CurrentShift(callerID(ctx))
}
