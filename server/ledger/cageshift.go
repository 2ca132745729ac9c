package ledger

// A cashier's shift at the cage (issue 33 point 11): who, when it opened and closed, and the
// tickets the cashier paid in it, counted and summed from cage_payments in the transaction that
// closes it. A cage_shifts row is sealed with the rest of the ledger (on a floor, in the floor's
// schema with the cage's payments, so a cashier may close at any table the shift opened at).
//
// One shift open per cashier is the database's to hold: open_for is the cashier's id while the
// shift is open and "closed:" and the shift's id once closed (':' is in no id), under a UNIQUE
// constraint, so a second open shift fails at the database even if two tables raced to open it.

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// CageShift is one cashier's shift. Closed is zero while it is open; Count and Amount are the
// payments of the shift, set when it closes.
type CageShift struct {
	ID       string
	Cashier  string
	Opened   time.Time
	Closed   time.Time
	Count    int64
	Amount   int64
	ViaTable string // the table server the opening call went through
}

const cageShiftColumns = `id, cashier, opened, closed, count, amount, via_table`

func scanCageShift(row interface{ Scan(...any) error }) (CageShift, error) {
	var s CageShift
	var opened, closed int64
	if err := row.Scan(&s.ID, &s.Cashier, &opened, &closed, &s.Count, &s.Amount, &s.ViaTable); err != nil {
		return CageShift{}, err
	}
	s.Opened = time.Unix(0, opened)
	if closed != 0 {
		s.Closed = time.Unix(0, closed)
	}
	return s, nil
}

// OpenCageShift is cashier's open shift, if any, held until the commit.
func (t *Tx) OpenCageShift(cashier string) (CageShift, bool, error) {
	s, err := scanCageShift(t.queryRow(`SELECT `+cageShiftColumns+` FROM cage_shifts WHERE open_for = ?`+t.l.lockRow(), cashier))
	if errors.Is(err, sql.ErrNoRows) {
		return CageShift{}, false, nil
	}
	if err != nil {
		return CageShift{}, false, fmt.Errorf("ledger: cage shift of %s: %w", cashier, err)
	}
	if err := t.checkRead("cage_shifts", "id = ?", s.ID); err != nil {
		return CageShift{}, false, err
	}
	return s, true, nil
}

// CageShiftByID is a shift by its id.
func (t *Tx) CageShiftByID(id string) (CageShift, bool, error) {
	s, err := scanCageShift(t.queryRow(`SELECT `+cageShiftColumns+` FROM cage_shifts WHERE id = ?`+t.l.lockRow(), id))
	if errors.Is(err, sql.ErrNoRows) {
		return CageShift{}, false, t.checkGone("cage_shifts", id)
	}
	if err != nil {
		return CageShift{}, false, fmt.Errorf("ledger: cage shift %s: %w", id, err)
	}
	if err := t.checkRead("cage_shifts", "id = ?", id); err != nil {
		return CageShift{}, false, err
	}
	return s, true, nil
}

// PutCageShift records a shift opened, or closes it (Closed set): a second open shift of one
// cashier is refused by the database.
func (t *Tx) PutCageShift(s CageShift) error {
	openFor, closed := s.Cashier, int64(0)
	if !s.Closed.IsZero() {
		openFor, closed = "closed:"+s.ID, s.Closed.UnixNano()
	}
	_, err := t.exec(`INSERT INTO cage_shifts(id, cashier, open_for, opened, closed, count, amount, via_table) VALUES (?,?,?,?,?,?,?,?)
		ON CONFLICT (id) DO UPDATE SET open_for = excluded.open_for, closed = excluded.closed, count = excluded.count, amount = excluded.amount`,
		s.ID, s.Cashier, openFor, s.Opened.UnixNano(), closed, s.Count, s.Amount, s.ViaTable)
	if err != nil {
		return fmt.Errorf("ledger: cage shift %s of %s: %w", s.ID, s.Cashier, err)
	}
	return nil
}

// CashierPaid is what cashier has paid at the cage from from on (inclusive), read in the
// transaction: the figures a shift closes with, from rows checked against their seals.
func (t *Tx) CashierPaid(cashier string, from time.Time) (Tally, error) {
	var sum Tally
	err := t.queryRow(`SELECT COUNT(*), CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM cage_payments WHERE cashier = ? AND at >= ?`,
		cashier, from.UnixNano()).Scan(&sum.Count, &sum.Amount)
	if err != nil {
		return Tally{}, fmt.Errorf("ledger: payments of %s: %w", cashier, err)
	}
	if err := t.checkRead("cage_payments", "cashier = ? AND at >= ?", cashier, from.UnixNano()); err != nil {
		return Tally{}, err
	}
	return sum, nil
}
