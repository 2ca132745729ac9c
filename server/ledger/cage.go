package ledger

// The cage's records and the floor's reports (issue 16). A ticket paid in cash at the cage is
// a cage_payments row written in the transaction that marks the ticket redeemed, so a payment
// and the ticket's state cannot disagree; the validation number is unique there too, so a
// second payment of one ticket fails at the database even if every check above it were wrong.
//
// The reports read the ledger outside any transaction: a report is a view, and a figure a
// moment old is still right for the moment it names.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tablegames/ats/app/money"
)

// CagePayment is one ticket paid in cash at the cage.
type CagePayment struct {
	ID         string
	Validation string
	Cashier    string // the cashier's certificate id
	Amount     int64
	At         time.Time
	ViaTable   string // the table server the cage's call went through
}

// PutCagePayment records a cage payment. A second payment of the same ticket is refused by the
// table's unique validation.
func (t *Tx) PutCagePayment(p CagePayment) error {
	_, err := t.exec(`INSERT INTO cage_payments(id, validation, cashier, amount, at, via_table) VALUES (?,?,?,?,?,?)`,
		p.ID, p.Validation, p.Cashier, p.Amount, p.At.UnixNano(), p.ViaTable)
	if err != nil {
		return fmt.Errorf("ledger: cage payment of %s: %w", p.Validation, err)
	}
	return nil
}

// window turns a report's from and to (zero: unbounded) into unix nanos, to exclusive.
func window(from, to time.Time) (int64, int64) {
	f, t := int64(0), int64(1<<63-1)
	if !from.IsZero() {
		f = from.UnixNano()
	}
	if !to.IsZero() {
		t = to.UnixNano()
	}
	return f, t
}

// CagePayments lists the cage's payments in [from, to) (zero: unbounded), oldest first; one
// cashier's when cashier is not "".
func (l *Ledger) CagePayments(ctx context.Context, cashier string, from, to time.Time) ([]CagePayment, error) {
	f, tt := window(from, to)
	rows, err := l.db.QueryContext(ctx, `SELECT id, validation, cashier, amount, at, via_table FROM cage_payments
		WHERE (? = '' OR cashier = ?) AND at >= ? AND at < ? ORDER BY at, id`, cashier, cashier, f, tt)
	if err != nil {
		return nil, fmt.Errorf("ledger: cage payments: %w", err)
	}
	defer rows.Close()
	var out []CagePayment
	for rows.Next() {
		var p CagePayment
		var at int64
		if err := rows.Scan(&p.ID, &p.Validation, &p.Cashier, &p.Amount, &at, &p.ViaTable); err != nil {
			return nil, fmt.Errorf("ledger: cage payments: %w", err)
		}
		p.At = time.Unix(0, at)
		out = append(out, p)
	}
	return out, rows.Err()
}

// Tally is a count of tickets and their sum.
type Tally struct {
	Count  int64
	Amount int64
}

// add counts one more ticket of amount, checked.
func (t *Tally) add(amount int64) error {
	a, err := money.Add(t.Amount, amount)
	if err != nil {
		return err
	}
	t.Count, t.Amount = t.Count+1, a
	return nil
}

// Plus is t and u together, checked.
func (t Tally) Plus(u Tally) (Tally, error) {
	a, err := money.Add(t.Amount, u.Amount)
	return Tally{Count: t.Count + u.Count, Amount: a}, err
}

// TicketTotals is what became of the tickets one table issued in a report's window, as of now.
// Every ticket issued is in exactly one of the other five, so Issued is their sum.
type TicketTotals struct {
	Table          string // the issuing table ("" for tickets from before tables were recorded)
	Issued         Tally
	RedeemedTable  Tally // redeemed at a table's terminal (this one or another)
	RedeemedCage   Tally // paid in cash at the cage
	Handpaid       Tally // could not be printed, paid by hand
	Outstanding    Tally // still owed to the bearer and not yet expired
	ExpiredUnpaid  Tally // still unpaid, past its expiry
	RedeemedByThem Tally // tickets this table's terminals redeemed, whoever issued them
}

// TicketTotals reports, per issuing table (ordered by table id), the tickets issued in
// [from, to) (zero: unbounded) and what became of them as of now.
func (l *Ledger) TicketTotals(ctx context.Context, from, to, now time.Time) ([]TicketTotals, error) {
	f, tt := window(from, to)
	rows, err := l.db.QueryContext(ctx, `SELECT issuer_table, amount, state, expires, redeemed_where FROM tickets
		WHERE issued >= ? AND issued < ? ORDER BY issuer_table, number`, f, tt)
	if err != nil {
		return nil, fmt.Errorf("ledger: ticket totals: %w", err)
	}
	defer rows.Close()
	byTable := map[string]*TicketTotals{}
	var order []string
	get := func(id string) *TicketTotals {
		if tot := byTable[id]; tot != nil {
			return tot
		}
		byTable[id] = &TicketTotals{Table: id}
		order = append(order, id)
		return byTable[id]
	}
	for rows.Next() {
		var issuer, state, where string
		var amount, expires int64
		if err := rows.Scan(&issuer, &amount, &state, &expires, &where); err != nil {
			return nil, fmt.Errorf("ledger: ticket totals: %w", err)
		}
		tot := get(issuer)
		var into *Tally
		switch {
		case state == TicketRedeemed && where == RedeemedAtCage:
			into = &tot.RedeemedCage
		case state == TicketRedeemed:
			into = &tot.RedeemedTable
			if where == "" { // from before tables were recorded: redeemed where it was issued
				where = issuer
			}
			if err := get(where).RedeemedByThem.add(amount); err != nil {
				return nil, fmt.Errorf("ledger: ticket totals: %w", err)
			}
		case state == TicketHandpaid:
			into = &tot.Handpaid
		case TicketOpen(state) && now.UnixNano() > expires:
			into = &tot.ExpiredUnpaid
		default:
			into = &tot.Outstanding
		}
		if err := tot.Issued.add(amount); err != nil {
			return nil, fmt.Errorf("ledger: ticket totals: %w", err)
		}
		if err := into.add(amount); err != nil {
			return nil, fmt.Errorf("ledger: ticket totals: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: ticket totals: %w", err)
	}
	out := make([]TicketTotals, 0, len(order))
	for _, id := range order {
		out = append(out, *byTable[id])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return out, nil
}

// NoteTotals sets, for one terminal, the notes it reported in its acceptor's escrow against the
// money the table credited it for notes, in a report's window.
type NoteTotals struct {
	Terminal   string
	Reported   Tally // notes reported in escrow (each before it is stacked)
	Stacked    Tally // of those, credited: the acceptor stacked them into the cash box
	Uncredited Tally // reported, never credited: returned to the player, or in the box unpaid
	Credited   Tally // the note credits the audit log records (money in for notes)
}

// Difference is the money credited for notes beyond the notes reported stacked (negative:
// stacked notes not credited by the audit log): 0 when the cash box and the credits agree.
func (n NoteTotals) Difference() (int64, error) {
	return money.Sub(n.Credited.Amount, n.Stacked.Amount)
}

// NoteTotals reports every terminal's notes in [from, to) (zero: unbounded), by terminal: the
// escrow reports (note_escrows, by when reported) and the note-in events (by when credited).
func (l *Ledger) NoteTotals(ctx context.Context, from, to time.Time) ([]NoteTotals, error) {
	return l.noteTotalsIn(ctx, "", from, to)
}

// FloorNoteTotals is NoteTotals for every table of the floor (floorTables), by table id.
func (l *Ledger) FloorNoteTotals(ctx context.Context, from, to time.Time) (map[string][]NoteTotals, error) {
	return perTable(ctx, l, func(schema string) ([]NoteTotals, error) { return l.noteTotalsIn(ctx, schema, from, to) })
}

// FloorReseals are the marks every reseal left (Reseals) on every table of the floor
// (floorTables), by table id, oldest first; a table never re-sealed has none. The floor's
// report lists them: a ledger trusted as it was found is said so where the money is read.
func (l *Ledger) FloorReseals(ctx context.Context) (map[string][]Resealed, error) {
	return perTable(ctx, l, func(schema string) ([]Resealed, error) {
		if schema != "" {
			// A table's schema its server has not opened since the seal came has no marks
			// table, and was never re-sealed (Reseal opens it, which makes the table).
			var found bool
			if err := l.db.QueryRowContext(ctx, `SELECT to_regclass(CAST(? AS text)) IS NOT NULL`, schema+"ledger_reseals").Scan(&found); err != nil {
				return nil, fmt.Errorf("ledger: reseals of %s: %w", strings.TrimSuffix(schema, "."), err)
			}
			if !found {
				return nil, nil
			}
		}
		return l.resealsIn(ctx, schema)
	})
}

// perTable runs of over the tables of every table of the floor, by table id: on SQLite the
// one table the file is (Table), its tables unqualified (schema ""); on PostgreSQL every
// table_<id> schema of the database (schema "table_<id>."). A schema's table id is the one
// SchemaOf maps to it among the ids the floor's tickets name (issuer, holder, redeemer) and
// this ledger's own; a table none of them names is shown by its schema name without
// "table_", upper case.
func perTable[T any](ctx context.Context, l *Ledger, of func(schema string) ([]T, error)) (map[string][]T, error) {
	if l.dialect != dialectPostgres {
		id, err := l.Table(ctx)
		if err != nil {
			return nil, err
		}
		v, err := of("")
		return map[string][]T{id: v}, err
	}
	ids := map[string]string{SchemaOf(l.tableID): l.tableID}
	rows, err := l.db.QueryContext(ctx, `SELECT issuer_table FROM tickets UNION SELECT holder_table FROM tickets
		UNION SELECT redeemed_where FROM tickets`)
	if err != nil {
		return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
		}
		if id != "" && id != RedeemedAtCage {
			ids[SchemaOf(id)] = id
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
	}
	rows, err = l.db.QueryContext(ctx, `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'table\_%' ORDER BY nspname`)
	if err != nil {
		return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
	}
	var schemas []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
		}
		schemas = append(schemas, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
	}
	out := map[string][]T{}
	for _, schema := range schemas {
		id, ok := ids[schema]
		if !ok {
			id = strings.ToUpper(strings.TrimPrefix(schema, "table_"))
		}
		// The schema name is [a-z0-9_] (SchemaOf), read from the catalogue: safe to splice.
		v, err := of(schema + ".")
		if err != nil {
			return nil, err
		}
		out[id] = v
	}
	return out, nil
}

// noteTotalsIn is NoteTotals over the tables of schema ("" the connection's own).
func (l *Ledger) noteTotalsIn(ctx context.Context, schema string, from, to time.Time) ([]NoteTotals, error) {
	f, tt := window(from, to)
	byTerm := map[string]*NoteTotals{}
	var order []string
	get := func(id string) *NoteTotals {
		if n := byTerm[id]; n != nil {
			return n
		}
		byTerm[id] = &NoteTotals{Terminal: id}
		order = append(order, id)
		return byTerm[id]
	}
	rows, err := l.db.QueryContext(ctx, `SELECT terminal, amount, state FROM `+schema+`note_escrows WHERE at >= ? AND at < ? ORDER BY terminal, at`, f, tt)
	if err != nil {
		return nil, fmt.Errorf("ledger: note totals: %w", err)
	}
	for rows.Next() {
		var term, state string
		var amount int64
		if err := rows.Scan(&term, &amount, &state); err != nil {
			rows.Close()
			return nil, fmt.Errorf("ledger: note totals: %w", err)
		}
		n := get(term)
		err = n.Reported.add(amount)
		if err == nil && state == NoteCredited {
			err = n.Stacked.add(amount)
		} else if err == nil {
			err = n.Uncredited.add(amount)
		}
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("ledger: note totals: %w", err)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: note totals: %w", err)
	}
	rows, err = l.db.QueryContext(ctx, `SELECT terminal, amount FROM `+schema+`events WHERE kind = 'note-in' AND at >= ? AND at < ? ORDER BY terminal, seq`, f, tt)
	if err != nil {
		return nil, fmt.Errorf("ledger: note totals: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var amount int64
		if err := rows.Scan(&term, &amount); err != nil {
			return nil, fmt.Errorf("ledger: note totals: %w", err)
		}
		if err := get(term).Credited.add(amount); err != nil {
			return nil, fmt.Errorf("ledger: note totals: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: note totals: %w", err)
	}
	out := make([]NoteTotals, 0, len(order))
	for _, id := range order {
		out = append(out, *byTerm[id])
	}
	// Sorted by terminal: the escrow rows came in that order, but a terminal with credits and
	// no escrow reports (a ledger from before escrow) is appended after them.
	sort.Slice(out, func(i, j int) bool { return out[i].Terminal < out[j].Terminal })
	return out, nil
}
