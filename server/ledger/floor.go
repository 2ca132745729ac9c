package ledger

// The floor's shared records beyond tickets and the cage (issue 33, points 3, 4 and 8): what
// one table must know of another's doing. On PostgreSQL they live in schema floor, sealed
// under the floor's key like the tickets, so every table server of the floor reads and writes
// one copy; on SQLite (a table alone) in the table's file, where the floor is that table.
//
//   - floor_guesses: each caller's failed ticket validations and lockout (the ticket-guessing
//     throttle, server/redeem.go). A cashier's card works at every cage of the floor, so the
//     count a guesser runs up at one table must stop them at the next: it is kept here, not in
//     a table server's memory — and it survives a restart of the table server too.
//   - floor_events: an audit event one table writes into another's log — the cage of T2 paying
//     a ticket T1 printed tells T1 (where, by whom, when) in the transaction that pays it.
//     A table's own events table is sealed under that table's key, which another table's server
//     does not hold; the floor's rows are under the floor's key, which they all do.
//   - floor_alarm_acks: who acknowledged an alarm and when. Alarms are events of the table
//     that raised them; an acknowledgement names the alarm by its table and sequence number.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

const floorSchema = `
CREATE TABLE IF NOT EXISTS floor_guesses (
	scope        TEXT PRIMARY KEY,
	failures     TEXT NOT NULL DEFAULT '',
	locked_until INTEGER NOT NULL DEFAULT 0,
	lockouts     INTEGER NOT NULL DEFAULT 0,
	last_lockout INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS floor_events (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	for_table  TEXT NOT NULL,
	from_table TEXT NOT NULL,
	at         INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	terminal   TEXT NOT NULL,
	round      TEXT NOT NULL,
	amount     INTEGER NOT NULL,
	detail     TEXT NOT NULL,
	actor      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS floor_alarm_acks (
	id       TEXT PRIMARY KEY,
	acked_by TEXT NOT NULL,
	acked_at INTEGER NOT NULL
);
`

// Guesses is one caller's record of failed ticket validations (the scope the server names:
// a cashier floor-wide, a terminal or a dealer qualified with its table).
type Guesses struct {
	Scope       string
	Failures    []time.Time // within the window, oldest first
	LockedUntil time.Time   // refused until then (zero: never locked out)
	Lockouts    int         // lockouts earned; each doubles the next
	LastLockout time.Time   // when the last lockout started
}

// Locked reports whether g refuses its caller at now.
func (g Guesses) Locked(now time.Time) bool { return now.Before(g.LockedUntil) }

func nanosOrZero(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func zeroOrNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Guesses reads scope's record for a change, holding its row until the commit so two tables
// counting one cashier's failures at once count both (on PostgreSQL the row lock; SQLite has
// one writer). A scope with no record reads as an empty one.
func (t *Tx) Guesses(scope string) (Guesses, error) {
	if err := keyText(scope); err != nil {
		return Guesses{}, err
	}
	// The row exists before it is locked: a lock on no row locks nothing.
	if _, err := t.exec(`INSERT INTO floor_guesses(scope) VALUES (?) ON CONFLICT DO NOTHING`, scope); err != nil {
		return Guesses{}, fmt.Errorf("ledger: guesses of %s: %w", scope, err)
	}
	var fails string
	var until, lockouts, last int64
	err := t.queryRow(`SELECT failures, locked_until, lockouts, last_lockout FROM floor_guesses WHERE scope = ?`+t.l.lockRow(), scope).
		Scan(&fails, &until, &lockouts, &last)
	if err != nil {
		return Guesses{}, fmt.Errorf("ledger: guesses of %s: %w", scope, err)
	}
	if err := t.checkRead("floor_guesses", "scope = ?", scope); err != nil {
		return Guesses{}, err
	}
	g := Guesses{Scope: scope, LockedUntil: nanosOrZero(until), Lockouts: int(lockouts), LastLockout: nanosOrZero(last)}
	if fails != "" {
		for _, f := range strings.Split(fails, ",") {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return Guesses{}, fmt.Errorf("ledger: guesses of %s: failure %q: %w", scope, f, err)
			}
			g.Failures = append(g.Failures, time.Unix(0, n))
		}
	}
	return g, nil
}

// PutGuesses writes scope's record.
func (t *Tx) PutGuesses(g Guesses) error {
	fails := make([]string, len(g.Failures))
	for i, f := range g.Failures {
		fails[i] = strconv.FormatInt(f.UnixNano(), 10)
	}
	_, err := t.exec(`UPDATE floor_guesses SET failures = ?, locked_until = ?, lockouts = ?, last_lockout = ? WHERE scope = ?`,
		strings.Join(fails, ","), zeroOrNanos(g.LockedUntil), int64(g.Lockouts), zeroOrNanos(g.LastLockout), g.Scope)
	if err != nil {
		return fmt.Errorf("ledger: guesses of %s: %w", g.Scope, err)
	}
	return nil
}

// LockedUntil is when scope's lockout ends (zero: none), read outside a transaction: the
// check a call makes before it reads a ticket. The count itself changes only in Guesses'
// transaction.
func (l *Ledger) LockedUntil(ctx context.Context, scope string) (time.Time, error) {
	var until int64
	err := l.db.QueryRowContext(ctx, `SELECT locked_until FROM floor_guesses WHERE scope = ?`, scope).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("ledger: lockout of %s: %w", scope, err)
	}
	return nanosOrZero(until), nil
}

// FloorEvent writes an event into the log of another table of the floor (forTable), as from
// this one: what it did to that table's ticket. The actor is the transaction's (WithActor); a
// terminal's is named with this table ("terminal:T2/T01"), as the other table has a T01 of
// its own.
func (t *Tx) FloorEvent(forTable, kind, terminal, round string, amount int64, detail string) error {
	from, err := t.l.Table(t.ctx)
	if err != nil {
		return err
	}
	actor := ActorOf(t.ctx)
	if id, ok := strings.CutPrefix(actor, "terminal:"); ok && from != "" {
		actor = "terminal:" + from + "/" + id
	}
	_, err = t.exec(`INSERT INTO floor_events(for_table, from_table, at, kind, terminal, round, amount, detail, actor) VALUES (?,?,?,?,?,?,?,?,?)`,
		forTable, from, t.now.UnixNano(), kind, terminal, round, amount, detail, actor)
	if err != nil {
		return fmt.Errorf("ledger: floor event %s for %s: %w", kind, forTable, err)
	}
	return nil
}

// FloorEntry is an event of a table's log as the floor sees it: the table whose log it is in
// (Table, its sequence number there Seq), or one another table wrote into this one's (From,
// Seq 0: it has its own numbering).
type FloorEntry struct {
	AuditEvent
	Table string // whose log it is in ("" on SQLite: the one table)
	From  string // the table that wrote it into this table's log; "" for the table's own
}

// LogFilter chooses the entries of a log: all that pass every set field.
type LogFilter struct {
	Kind     string    // "" every kind
	Terminal string    // "" every terminal; else the events naming it (as written: "T01", "T1/T01")
	Since    time.Time // zero: from the first
	Until    time.Time // zero: to the last; exclusive
}

func (f LogFilter) where() (string, []any) {
	var conds []string
	var args []any
	if f.Kind != "" {
		conds, args = append(conds, "kind = ?"), append(args, f.Kind)
	}
	if f.Terminal != "" {
		conds, args = append(conds, "terminal = ?"), append(args, f.Terminal)
	}
	if !f.Since.IsZero() {
		conds, args = append(conds, "at >= ?"), append(args, f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		conds, args = append(conds, "at < ?"), append(args, f.Until.UnixNano())
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Log is a table's log as its dealer reads it: its own events and those other tables of the
// floor wrote into it (FloorEvent), passing filter, the newest n, newest first.
func (l *Ledger) Log(ctx context.Context, filter LogFilter, n int) ([]FloorEntry, error) {
	me, err := l.Table(ctx)
	if err != nil {
		return nil, err
	}
	where, args := filter.where()
	own, err := l.eventsIn(ctx, "", where, args, n)
	if err != nil {
		return nil, err
	}
	out := make([]FloorEntry, 0, len(own))
	for _, e := range own {
		out = append(out, FloorEntry{AuditEvent: e, Table: me})
	}
	fw := " WHERE for_table = ?"
	if where != "" {
		fw += " AND " + strings.TrimPrefix(where, " WHERE ")
	}
	rows, err := l.db.QueryContext(ctx, `SELECT from_table, at, kind, terminal, round, amount, detail, actor FROM floor_events`+fw+
		` ORDER BY seq DESC LIMIT ?`, append(append([]any{me}, args...), n)...)
	if err != nil {
		return nil, fmt.Errorf("ledger: the floor's events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e := FloorEntry{Table: me}
		var at int64
		if err := rows.Scan(&e.From, &at, &e.Kind, &e.Terminal, &e.Round, &e.Amount, &e.Detail, &e.Actor); err != nil {
			return nil, fmt.Errorf("ledger: the floor's events: %w", err)
		}
		e.At = time.Unix(0, at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: the floor's events: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// eventsIn reads the newest n events of schema ("" the connection's own) passing where.
func (l *Ledger) eventsIn(ctx context.Context, schema, where string, args []any, n int) ([]AuditEvent, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT seq, at, kind, terminal, round, amount, detail, actor FROM `+schema+`events`+where+
		` ORDER BY seq DESC LIMIT ?`, append(args, n)...)
	if err != nil {
		return nil, fmt.Errorf("ledger: events: %w", err)
	}
	defer rows.Close()
	var out []AuditEvent
	for rows.Next() {
		var e AuditEvent
		var at int64
		if err := rows.Scan(&e.Seq, &at, &e.Kind, &e.Terminal, &e.Round, &e.Amount, &e.Detail, &e.Actor); err != nil {
			return nil, fmt.Errorf("ledger: events: %w", err)
		}
		e.At = time.Unix(0, at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Alarm is an alarm of a table of the floor, with its acknowledgement if it has one.
type Alarm struct {
	FloorEntry
	AckedBy string
	AckedAt time.Time
}

// AlarmID names an alarm across the floor: its table and its sequence number in that table's
// log ("T1:42").
func AlarmID(table string, seq int64) string { return table + ":" + strconv.FormatInt(seq, 10) }

// Alarms lists the newest n alarms a table's console shows, newest first: its own, and those
// every other table of the floor raised about a floor-wide caller (an alarm whose terminal
// begins with floorWide, "cashier:": a cashier's card works at every cage). Another table is
// known by its schema (its id in upper case: SchemaOf maps it back), so the list costs a query
// a table, never a scan of the floor's tickets: the table's status carries it.
func (l *Ledger) Alarms(ctx context.Context, floorWide string, n int) ([]Alarm, error) {
	me, err := l.Table(ctx)
	if err != nil {
		return nil, err
	}
	own, err := l.eventsIn(ctx, "", " WHERE kind = ?", []any{"alarm"}, n)
	if err != nil {
		return nil, err
	}
	var out []Alarm
	for _, e := range own {
		out = append(out, Alarm{FloorEntry: FloorEntry{AuditEvent: e, Table: me}})
	}
	if l.dialect == dialectPostgres && floorWide != "" {
		schemas, err := names(ctx, l.db, `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'table\_%' AND nspname <> ? ORDER BY nspname`, SchemaOf(me))
		if err != nil {
			return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
		}
		for _, schema := range schemas {
			// The schema name is [a-z0-9_] (SchemaOf), read from the catalogue: safe to splice.
			evs, err := l.eventsIn(ctx, schema+".", " WHERE kind = ? AND substr(terminal, 1, ?) = ?", []any{"alarm", len(floorWide), floorWide}, n)
			if err != nil {
				return nil, err
			}
			id := strings.ToUpper(strings.TrimPrefix(schema, "table_"))
			for _, e := range evs {
				out = append(out, Alarm{FloorEntry: FloorEntry{AuditEvent: e, Table: id}})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.After(out[j].At)
		}
		return out[i].Table < out[j].Table
	})
	if len(out) > n {
		out = out[:n]
	}
	for i := range out {
		var by string
		var at int64
		err := l.db.QueryRowContext(ctx, `SELECT acked_by, acked_at FROM floor_alarm_acks WHERE id = ?`, AlarmID(out[i].Table, out[i].Seq)).Scan(&by, &at)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("ledger: alarm acknowledgements: %w", err)
		}
		out[i].AckedBy, out[i].AckedAt = by, time.Unix(0, at)
	}
	return out, nil
}

// AckAlarm records that by acknowledged alarm id; an alarm acknowledged already keeps its
// first acknowledgement (ok false, with who and when). The caller checks the alarm exists.
func (t *Tx) AckAlarm(id, by string) (ackedBy string, ackedAt time.Time, ok bool, err error) {
	if err := keyText(id); err != nil {
		return "", time.Time{}, false, err
	}
	res, err := t.exec(`INSERT INTO floor_alarm_acks(id, acked_by, acked_at) VALUES (?,?,?) ON CONFLICT DO NOTHING`, id, by, t.now.UnixNano())
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("ledger: acknowledging alarm %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return by, t.now, true, nil
	}
	var at int64
	if err := t.queryRow(`SELECT acked_by, acked_at FROM floor_alarm_acks WHERE id = ?`, id).Scan(&ackedBy, &at); err != nil {
		return "", time.Time{}, false, fmt.Errorf("ledger: acknowledging alarm %s: %w", id, err)
	}
	return ackedBy, time.Unix(0, at), false, nil
}

// AlarmAt reads alarm seq of table's log: the terminal (or caller) it concerns, and whether
// there is such an alarm — what an acknowledgement may name.
func (t *Tx) AlarmAt(table string, seq int64) (terminal string, ok bool, err error) {
	me, err := t.l.Table(t.ctx)
	if err != nil {
		return "", false, err
	}
	schema := ""
	if table != me {
		if t.l.dialect != dialectPostgres {
			return "", false, nil // a table alone knows no other's alarms
		}
		schema = SchemaOf(table) + "."
		var found bool
		if err := t.queryRow(`SELECT to_regclass(CAST(? AS text)) IS NOT NULL`, schema+"events").Scan(&found); err != nil {
			return "", false, fmt.Errorf("ledger: alarm %s: %w", AlarmID(table, seq), err)
		}
		if !found {
			return "", false, nil
		}
	}
	// The schema is SchemaOf's ([a-z0-9_]): safe to splice.
	err = t.queryRow(`SELECT terminal FROM `+schema+`events WHERE seq = ? AND kind = ?`, seq, "alarm").Scan(&terminal)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("ledger: alarm %s: %w", AlarmID(table, seq), err)
	}
	return terminal, true, nil
}

// FloorTransfer is an event another table of the floor wrote into this table's log
// (FloorEvent) that moves something to this table, e.g. a closed jackpot's meter: Seq is its
// number in the floor's events, unique on the floor, by which the receiver takes it once.
type FloorTransfer struct {
	Seq    int64
	From   string
	At     time.Time
	Amount int64
	Detail string
}

// FloorEventsFor is the floor events of kind written for this table, oldest first. It reads
// the floor's events alone (not the table's own log), so a table may look for them often.
func (l *Ledger) FloorEventsFor(ctx context.Context, kind string) ([]FloorTransfer, error) {
	me, err := l.Table(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := l.db.QueryContext(ctx, `SELECT seq, from_table, at, amount, detail FROM floor_events WHERE for_table = ? AND kind = ? ORDER BY seq`, me, kind)
	if err != nil {
		return nil, fmt.Errorf("ledger: the floor's %s events: %w", kind, err)
	}
	defer rows.Close()
	var out []FloorTransfer
	for rows.Next() {
		var f FloorTransfer
		var at int64
		if err := rows.Scan(&f.Seq, &f.From, &at, &f.Amount, &f.Detail); err != nil {
			return nil, fmt.Errorf("ledger: the floor's %s events: %w", kind, err)
		}
		f.At = time.Unix(0, at)
		out = append(out, f)
	}
	return out, rows.Err()
}

// FloorEvents lists the events of kind in [since, until) (zero: unbounded) of every table of
// the floor — this table's own, and on PostgreSQL every other table schema's — at most n of
// each table, oldest first: a floor-wide report over what each table journalled (the carded
// play report, server/cardreport.go).
func (l *Ledger) FloorEvents(ctx context.Context, kind string, since, until time.Time, n int) ([]FloorEntry, error) {
	me, err := l.Table(ctx)
	if err != nil {
		return nil, err
	}
	where, args := LogFilter{Kind: kind, Since: since, Until: until}.where()
	own, err := l.eventsIn(ctx, "", where, args, n)
	if err != nil {
		return nil, err
	}
	var out []FloorEntry
	for _, e := range own {
		out = append(out, FloorEntry{AuditEvent: e, Table: me})
	}
	if l.dialect == dialectPostgres {
		schemas, err := names(ctx, l.db, `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'table\_%' AND nspname <> ? ORDER BY nspname`, SchemaOf(me))
		if err != nil {
			return nil, fmt.Errorf("ledger: the floor's tables: %w", err)
		}
		for _, schema := range schemas {
			// The schema name is [a-z0-9_] (SchemaOf), read from the catalogue: safe to splice.
			evs, err := l.eventsIn(ctx, schema+".", where, args, n)
			if err != nil {
				return nil, err
			}
			id := strings.ToUpper(strings.TrimPrefix(schema, "table_"))
			for _, e := range evs {
				out = append(out, FloorEntry{AuditEvent: e, Table: id})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		return out[i].Seq < out[j].Seq
	})
	return out, nil
}
