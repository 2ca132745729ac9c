package ledger

// Money the cage must stop (issue 33): a ticket stopped — by an open overpayment whose money
// left in it, or by a supervisor (lost, stolen, disputed) — is paid nowhere on the floor until
// the stop is released, and a cash payment at or over the reporting threshold is recorded with
// the patron's identity and a second person's approval.
//
// The stops, approvals and identified payments are floor tables (cage_*): on PostgreSQL in
// schema floor, read and written by every table server of the floor under the floor's seal;
// on SQLite beside the tickets. A stop is a row per ticket and stop, never deleted: released
// by writing who and when. A payment decision reads a ticket's stops with checkReadAll, so a
// stop deleted without the key (to have the ticket paid) refuses the decision rather than
// letting it through.
//
// Which ticket an overpayment's money left in is the cash-out that closed the account's epoch
// (cashouts, a table's own: terminal ids repeat across tables): each cash-out ends one epoch
// and prints one ticket for the whole balance.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The kinds of stop.
const (
	StopOverpayment = "overpayment" // an open overpayment's money left in the ticket
	StopSupervisor  = "supervisor"  // a supervisor stopped it: lost, stolen, disputed
)

// Stop is one stop on a ticket; in force while Released is zero.
type Stop struct {
	Validation  string
	ID          string
	Kind        string
	Reason      string
	Amount      int64  // the overpayment's; 0 for a supervisor's stop
	Table       string // the table whose overpayment or supervisor stopped it
	Overpayment string // the overpayment's id (kind overpayment)
	By          string // role:id
	At          time.Time
	ReleasedBy  string
	Released    time.Time
	ReleaseNote string
}

// Open reports whether the stop is in force.
func (s Stop) Open() bool { return s.Released.IsZero() }

const stopColumns = `validation, id, kind, reason, amount, source_table, overpayment, stopped_by, stopped_at,
	released_by, released_at, release_note`

// PutStop inserts a stop or records its release; what it stops and why are fixed when made.
func (t *Tx) PutStop(s Stop) error {
	var released int64
	if !s.Released.IsZero() {
		released = s.Released.UnixNano()
	}
	_, err := t.exec(`INSERT INTO cage_stops(`+stopColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(validation, id) DO UPDATE SET released_by = excluded.released_by,
			released_at = excluded.released_at, release_note = excluded.release_note`,
		s.Validation, s.ID, s.Kind, s.Reason, s.Amount, s.Table, s.Overpayment, s.By, s.At.UnixNano(),
		s.ReleasedBy, released, s.ReleaseNote)
	if err != nil {
		return fmt.Errorf("ledger: stop %s of ticket %s: %w", s.ID, s.Validation, err)
	}
	return nil
}

// Stops reads every stop of a ticket, released or not, oldest first, checked against their
// seals — a stop deleted without the key included (checkReadAll).
func (t *Tx) Stops(validation string) ([]Stop, error) {
	rows, err := t.query(`SELECT `+stopColumns+` FROM cage_stops WHERE validation = ? ORDER BY stopped_at, id`, validation)
	out, err := scanStops(rows, err)
	if err != nil {
		return nil, err
	}
	if err := t.checkReadAll("cage_stops", "validation", validation); err != nil {
		return nil, err
	}
	return out, nil
}

// StopsOf reads the stops an overpayment made (of table), checked against their seals.
func (t *Tx) StopsOf(table, overpayment string) ([]Stop, error) {
	const where = `source_table = ? AND overpayment = ?`
	rows, err := t.query(`SELECT `+stopColumns+` FROM cage_stops WHERE `+where+` ORDER BY stopped_at, id`, table, overpayment)
	out, err := scanStops(rows, err)
	if err != nil {
		return nil, err
	}
	if err := t.checkRead("cage_stops", where, table, overpayment); err != nil {
		return nil, err
	}
	return out, nil
}

func scanStops(rows *sql.Rows, err error) ([]Stop, error) {
	if err != nil {
		return nil, fmt.Errorf("ledger: stops: %w", err)
	}
	defer rows.Close()
	var out []Stop
	for rows.Next() {
		var s Stop
		var at, released int64
		if err := rows.Scan(&s.Validation, &s.ID, &s.Kind, &s.Reason, &s.Amount, &s.Table, &s.Overpayment, &s.By, &at,
			&s.ReleasedBy, &released, &s.ReleaseNote); err != nil {
			return nil, fmt.Errorf("ledger: stops: %w", err)
		}
		s.At = time.Unix(0, at)
		if released != 0 {
			s.Released = time.Unix(0, released)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// PutCashout records that terminal's account epoch ended in the cash-out ticket validation.
func (t *Tx) PutCashout(terminal string, epoch int64, validation string) error {
	if _, err := t.exec(`INSERT INTO cashouts(terminal, epoch, validation) VALUES (?,?,?)`, terminal, epoch, validation); err != nil {
		return fmt.Errorf("ledger: cash-out of %s epoch %d: %w", terminal, epoch, err)
	}
	return nil
}

// Cashout reads the ticket terminal's account epoch ended in: ok false when it ended
// otherwise (the dealer closed the account) or before cash-outs were recorded.
func (t *Tx) Cashout(terminal string, epoch int64) (validation string, ok bool, err error) {
	err = t.queryRow(`SELECT validation FROM cashouts WHERE terminal = ? AND epoch = ?`, terminal, epoch).Scan(&validation)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, t.checkGone("cashouts", terminal, epoch)
	}
	if err != nil {
		return "", false, fmt.Errorf("ledger: cash-out of %s epoch %d: %w", terminal, epoch, err)
	}
	if err := t.checkRead("cashouts", "terminal = ? AND epoch = ?", terminal, epoch); err != nil {
		return "", false, err
	}
	return validation, true, nil
}

// Approval is a second person's approval of one ticket's threshold payment.
type Approval struct {
	Validation string
	Approver   string // role:id
	At         time.Time
	Note       string
	UsedBy     string // the payment that used it; "" while unused
}

// PutApproval records an approval, or that a payment used it.
func (t *Tx) PutApproval(a Approval) error {
	_, err := t.exec(`INSERT INTO cage_approvals(validation, approver, at, note, used_by) VALUES (?,?,?,?,?)
		ON CONFLICT(validation, approver) DO UPDATE SET at = excluded.at, note = excluded.note, used_by = excluded.used_by`,
		a.Validation, a.Approver, a.At.UnixNano(), a.Note, a.UsedBy)
	if err != nil {
		return fmt.Errorf("ledger: approval of %s by %s: %w", a.Validation, a.Approver, err)
	}
	return nil
}

// Approvals reads a ticket's approvals, oldest first, checked against their seals.
func (t *Tx) Approvals(validation string) ([]Approval, error) {
	rows, err := t.query(`SELECT validation, approver, at, note, used_by FROM cage_approvals WHERE validation = ? ORDER BY at, approver`, validation)
	if err != nil {
		return nil, fmt.Errorf("ledger: approvals of %s: %w", validation, err)
	}
	defer rows.Close()
	var out []Approval
	for rows.Next() {
		var a Approval
		var at int64
		if err := rows.Scan(&a.Validation, &a.Approver, &at, &a.Note, &a.UsedBy); err != nil {
			return nil, fmt.Errorf("ledger: approvals of %s: %w", validation, err)
		}
		a.At = time.Unix(0, at)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: approvals of %s: %w", validation, err)
	}
	if err := t.checkReadAll("cage_approvals", "validation", validation); err != nil {
		return nil, err
	}
	return out, nil
}

// PatronPayment is a cage payment with the patron's identity: every one at or over the
// reporting threshold (with its approval), and any other the cashier identified.
type PatronPayment struct {
	Payment    string // the cage payment's id
	Validation string
	Amount     int64
	Cashier    string
	At         time.Time
	ViaTable   string
	IDType     string
	IDNumber   string
	Name       string
	ApprovedBy string // role:id; "" below the threshold
	ApprovedAt time.Time
	Threshold  int64 // the threshold in force when paid
}

// PutPatronPayment records an identified payment, in the transaction of its cage payment.
func (t *Tx) PutPatronPayment(p PatronPayment) error {
	var approved int64
	if !p.ApprovedAt.IsZero() {
		approved = p.ApprovedAt.UnixNano()
	}
	_, err := t.exec(`INSERT INTO cage_patrons(payment, validation, amount, cashier, at, via_table, id_type, id_number, name,
			approved_by, approved_at, threshold) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		p.Payment, p.Validation, p.Amount, p.Cashier, p.At.UnixNano(), p.ViaTable, p.IDType, p.IDNumber, p.Name,
		p.ApprovedBy, approved, p.Threshold)
	if err != nil {
		return fmt.Errorf("ledger: patron of payment %s: %w", p.Payment, err)
	}
	return nil
}

// PatronPayments lists the identified payments in [from, to) (zero: unbounded), oldest first.
func (l *Ledger) PatronPayments(ctx context.Context, from, to time.Time) ([]PatronPayment, error) {
	f, tt := window(from, to)
	rows, err := l.db.QueryContext(ctx, `SELECT payment, validation, amount, cashier, at, via_table, id_type, id_number, name,
		approved_by, approved_at, threshold FROM cage_patrons WHERE at >= ? AND at < ? ORDER BY at, payment`, f, tt)
	if err != nil {
		return nil, fmt.Errorf("ledger: patron payments: %w", err)
	}
	defer rows.Close()
	var out []PatronPayment
	for rows.Next() {
		var p PatronPayment
		var at, approved int64
		if err := rows.Scan(&p.Payment, &p.Validation, &p.Amount, &p.Cashier, &at, &p.ViaTable, &p.IDType, &p.IDNumber, &p.Name,
			&p.ApprovedBy, &approved, &p.Threshold); err != nil {
			return nil, fmt.Errorf("ledger: patron payments: %w", err)
		}
		p.At = time.Unix(0, at)
		if approved != 0 {
			p.ApprovedAt = time.Unix(0, approved)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
