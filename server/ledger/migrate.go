package ledger

// Versioned migrations. A ledger records in schema_migrations every migration applied to it,
// by number; Open applies, in order, each one it has not, each in its own transaction with
// its record, so a crash leaves a ledger at one version or the next. A migration is written
// for both stores: it adds columns (each only if the table lacks it, so a ledger from before
// the versioning — whose columns earlier code added by looking — opens unchanged, only its
// migrations recorded) and may run code of its own.
//
// Add a migration at the end of migrations with the next number; never change or renumber
// one that was released. On PostgreSQL the migrations are the table server's own schema's:
// a floor table (tickets, cage_*, floor_*) gained a column by one table server's migration
// already has it when the next opens (ADD COLUMN IF NOT EXISTS).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const migrationsSchema = `
CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	applied INTEGER NOT NULL
);
`

// column is a column a migration adds: its table, name and SQLite declaration (translated for
// PostgreSQL).
type column struct{ table, name, decl string }

// migration is one numbered change of the ledger's schema.
type migration struct {
	version int
	what    string
	columns []column
	// apply, if set, runs after the columns are added, in the same transaction.
	apply func(ctx context.Context, tx *sql.Tx, d dialect) error
}

var migrations = []migration{
	{1, "closes.acked: the terminal has recorded the close", []column{{"closes", "acked", "INTEGER NOT NULL DEFAULT 0"}}, nil},
	// A close from before the column counts as not acknowledged, so its terminal is told of
	// it once more and its journal, which knows it by id, records it no more.
	{2, "events.actor: who did it", []column{{"events", "actor", "TEXT NOT NULL DEFAULT ''"}}, nil},
	// Events from before the column have "" — not recorded.
	{3, "account epochs, ticket holds' time, void jackpots", []column{
		// accounts.epoch counts the closes of an account (cash-out, dealer close): money of
		// one epoch belongs to the player who sat there then. settlements.epoch is the epoch
		// a round settled in, so a correction after the player left never reaches the next
		// player's money. A ledger from before counts every account and settlement as epoch 0.
		{"accounts", "epoch", "INTEGER NOT NULL DEFAULT 0"},
		{"settlements", "epoch", "INTEGER NOT NULL DEFAULT 0"},
		// tickets.held_at is when a terminal took its hold on the ticket, so a hold can lapse.
		{"tickets", "held_at", "INTEGER NOT NULL DEFAULT 0"},
		// jackpots.void: a hit whose round was invalidated before the pit boss confirmed it
		// (001 §8.8), its amount put back on the meter.
		{"jackpots", "void", "INTEGER NOT NULL DEFAULT 0"},
	}, nil},
	{4, "the floor's tickets: issuer and holder tables, where, by whom and when redeemed", []column{
		// Which table printed a ticket, which table's terminal holds it (terminal ids repeat
		// across tables), and where (a table id or "cage"), by whom and when it was redeemed.
		// A ticket from before has "" for each: printed, held and redeemed at this table,
		// the only place it could be then. The cage's payments (cage_payments) are a new
		// table, made by the schema.
		{"tickets", "issuer_table", "TEXT NOT NULL DEFAULT ''"},
		{"tickets", "holder_table", "TEXT NOT NULL DEFAULT ''"},
		{"tickets", "redeemed_where", "TEXT NOT NULL DEFAULT ''"},
		{"tickets", "redeemed_by", "TEXT NOT NULL DEFAULT ''"},
		{"tickets", "redeemed_at", "INTEGER NOT NULL DEFAULT 0"},
	}, nil},
	{5, "overpayments.tickets: the cash-out tickets an overpaid balance left in", []column{
		// Stopped at every cage and terminal until the overpayment is resolved (issue 33). An
		// overpayment from before names none. The stops themselves (cage_stops), the
		// cash-outs of each epoch (cashouts) and the threshold records (cage_approvals,
		// cage_patrons) are new tables, made by the schema.
		{"overpayments", "tickets", "TEXT NOT NULL DEFAULT ''"},
	}, nil},
}

// Version is the newest migration this code knows: the schema version of a ledger it opened.
func Version() int { return migrations[len(migrations)-1].version }

// SchemaVersion is the ledger's schema version: the newest migration applied to it.
func (l *Ledger) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	if err := l.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("ledger: schema version: %w", err)
	}
	return int(v.Int64), nil
}

// migrate applies the migrations the ledger has not had, and reports how many.
func migrate(ctx context.Context, l *Ledger) (int, error) {
	have, err := l.SchemaVersion(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range migrations {
		if m.version <= have {
			continue
		}
		if err := l.apply(ctx, m); err != nil {
			return n, fmt.Errorf("migration %d (%s): %w", m.version, m.what, err)
		}
		n++
	}
	return n, nil
}

func (l *Ledger) apply(ctx context.Context, m migration) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	if l.dialect == dialectPostgres {
		// Floor tables are altered by whichever table server comes first.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('ats-ledger-schema'))`); err != nil {
			return err
		}
	}
	for _, c := range m.columns {
		if err := addColumn(ctx, tx, nil, l.dialect, c); err != nil {
			return err
		}
	}
	if m.apply != nil {
		if err := m.apply(ctx, tx, l.dialect); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, applied) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		m.version, time.Now().UnixNano())
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return errors.New("recorded meanwhile by another process: is another table server using this ledger?")
	}
	return tx.Commit()
}

// addColumn adds a column to a table unless it has it already, in tx (or on db, if tx is nil).
func addColumn(ctx context.Context, tx *sql.Tx, db *sql.DB, d dialect, c column) error {
	var q interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
		QueryRowContext(context.Context, string, ...any) *sql.Row
	} = db
	if tx != nil {
		q = tx
	}
	if d == dialectPostgres {
		if _, err := q.ExecContext(ctx, `ALTER TABLE `+c.table+` ADD COLUMN IF NOT EXISTS `+c.name+` `+pgType(c.decl)); err != nil {
			return fmt.Errorf("adding %s.%s: %w", c.table, c.name, err)
		}
		return nil
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, c.table, c.name).Scan(&n); err != nil {
		return fmt.Errorf("schema of %s: %w", c.table, err)
	}
	if n > 0 {
		return nil
	}
	if _, err := q.ExecContext(ctx, `ALTER TABLE `+c.table+` ADD COLUMN `+c.name+` `+c.decl); err != nil {
		return fmt.Errorf("adding %s.%s: %w", c.table, c.name, err)
	}
	return nil
}
