package ledger

// The parts of a cage payment (issue 31, the cash cap): a cash-out ticket over the cash cap is
// paid in cash up to the cap and the rest by electronic transfer or cheque, with the patron's
// identity recorded for the part not paid in cash. cage_payments keeps one row per ticket
// paid, its whole amount (what the floor's books count); cage_payment_parts says how it was
// handed over, written in the same transaction, and sums to it. A payment from before the
// parts were recorded, or with no row here, was paid in cash whole.
//
// The document's number is kept in clear here, as in cage_patrons: a payment by transfer or
// cheque over the cap is a record the AML/CTF Act's reports may be asked for.

import (
	"context"
	"fmt"
	"time"
)

const cagePartsSchema = `
CREATE TABLE IF NOT EXISTS cage_payment_parts (
	payment   TEXT NOT NULL,
	seq       INTEGER NOT NULL,
	method    TEXT NOT NULL,
	amount    INTEGER NOT NULL CHECK (amount > 0),
	reference TEXT NOT NULL DEFAULT '',
	id_type   TEXT NOT NULL DEFAULT '',
	id_number TEXT NOT NULL DEFAULT '',
	name      TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (payment, seq)
);
`

// The ways a cage payment's part is handed over.
const (
	PayCash     = "cash"
	PayTransfer = "transfer"
	PayCheque   = "cheque"
)

// PaymentPart is one part of a cage payment: how much, by which method, its reference (the
// cheque's number, the transfer's), and for a part not in cash the patron's identity.
type PaymentPart struct {
	Method, Reference      string
	Amount                 int64
	IDType, IDNumber, Name string
}

// PutPaymentParts records how payment was handed over, in its transaction.
func (t *Tx) PutPaymentParts(payment string, parts []PaymentPart) error {
	for i, p := range parts {
		if _, err := t.exec(`INSERT INTO cage_payment_parts(payment, seq, method, amount, reference, id_type, id_number, name) VALUES (?,?,?,?,?,?,?,?)`,
			payment, i, p.Method, p.Amount, p.Reference, p.IDType, p.IDNumber, p.Name); err != nil {
			return fmt.Errorf("ledger: payment %s part %d: %w", payment, i, err)
		}
	}
	return nil
}

// PaymentParts is how payment was handed over, its parts in order (none: paid in cash whole,
// or no such payment): a cage payment's, or a supervisor's hand payment's at a table.
func (l *Ledger) PaymentParts(ctx context.Context, payment string) ([]PaymentPart, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT method, amount, reference, id_type, id_number, name FROM cage_payment_parts
		WHERE payment = ? ORDER BY seq`, payment)
	if err != nil {
		return nil, fmt.Errorf("ledger: payment %s parts: %w", payment, err)
	}
	defer rows.Close()
	var out []PaymentPart
	for rows.Next() {
		var p PaymentPart
		if err := rows.Scan(&p.Method, &p.Amount, &p.Reference, &p.IDType, &p.IDNumber, &p.Name); err != nil {
			return nil, fmt.Errorf("ledger: payment %s parts: %w", payment, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PaidByMethod is what the cage paid in [from, to) (zero: unbounded) by each method, one
// cashier's when cashier is not "": a payment without parts counts as cash whole.
func (l *Ledger) PaidByMethod(ctx context.Context, cashier string, from, to time.Time) (map[string]Tally, error) {
	f, tt := window(from, to)
	rows, err := l.db.QueryContext(ctx, `SELECT p.id, p.amount, COALESCE(pp.method, ''), COALESCE(pp.amount, 0) FROM cage_payments p
		LEFT JOIN cage_payment_parts pp ON pp.payment = p.id
		WHERE (? = '' OR p.cashier = ?) AND p.at >= ? AND p.at < ? ORDER BY p.at, p.id, pp.seq`, cashier, cashier, f, tt)
	if err != nil {
		return nil, fmt.Errorf("ledger: payments by method: %w", err)
	}
	defer rows.Close()
	out := map[string]Tally{}
	for rows.Next() {
		var id, method string
		var total, amount int64
		if err := rows.Scan(&id, &total, &method, &amount); err != nil {
			return nil, fmt.Errorf("ledger: payments by method: %w", err)
		}
		if method == "" { // no parts: cash, whole
			method, amount = PayCash, total
		}
		if out[method], err = out[method].Plus(Tally{Count: 1, Amount: amount}); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// CashierCash is the cash cashier handed over at the cage in [from, to) (to zero: unbounded),
// read in the transaction: what a shift's drawer reconciles to. A payment without parts was
// cash whole; of one with parts, its cash parts.
func (t *Tx) CashierCash(cashier string, from, to time.Time) (int64, error) {
	f, tt := window(from, to)
	var cash int64
	err := t.queryRow(`SELECT CAST(COALESCE(SUM(CASE WHEN pp.payment IS NULL THEN p.amount WHEN pp.method = ? THEN pp.amount ELSE 0 END), 0) AS BIGINT)
		FROM cage_payments p LEFT JOIN cage_payment_parts pp ON pp.payment = p.id
		WHERE p.cashier = ? AND p.at >= ? AND p.at < ?`, PayCash, cashier, f, tt).Scan(&cash)
	if err != nil {
		return 0, fmt.Errorf("ledger: cash paid by %s: %w", cashier, err)
	}
	return cash, nil
}
