package ledger

import (
	"context"
	"database/sql"
	"slices"
	"testing"
)

// A ledger at version N opened by code that knows N+1 migrations applies exactly the one it
// lacks, records it, seals what it changed, and applies nothing the next time.
func TestMigrationsApplyOnlyWhatIsMissing(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		ctx := context.Background()
		l := s.open(t)
		n := Version()
		if v, err := l.SchemaVersion(ctx); err != nil || v != n {
			t.Fatalf("a new ledger is at version %d (%v), want %d", v, err, n)
		}
		credit(t, l, "T01", 700)
		l.Close()

		ran := map[int]int{}
		saved := migrations
		t.Cleanup(func() { migrations = saved })
		migrations = slices.Clone(saved)
		for i := range migrations {
			v, apply := migrations[i].version, migrations[i].apply
			migrations[i].apply = func(ctx context.Context, tx *sql.Tx, d dialect) error {
				ran[v]++
				if apply != nil {
					return apply(ctx, tx, d)
				}
				return nil
			}
		}
		migrations = append(migrations, migration{version: n + 1, what: "meters.note",
			columns: []column{{"meters", "note", "TEXT NOT NULL DEFAULT ''"}},
			apply: func(ctx context.Context, tx *sql.Tx, d dialect) error {
				ran[n+1]++
				_, err := tx.ExecContext(ctx, `UPDATE meters SET note = 'migrated' WHERE name = ?`, MeterMoneyIn)
				return err
			}})

		l = s.open(t)
		if len(ran) != 1 || ran[n+1] != 1 {
			t.Fatalf("migrations run opening a version-%d ledger with %d known: %v", n, n+1, ran)
		}
		var note string
		if err := l.db.QueryRow(`SELECT note FROM meters WHERE name = ?`, MeterMoneyIn).Scan(&note); err != nil || note != "migrated" {
			t.Fatalf("the migration's change: %q %v", note, err)
		}
		var rows int
		if err := l.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&rows); err != nil || rows != n+1 {
			t.Fatalf("schema_migrations holds %d rows (%v), want %d", rows, err, n+1)
		}
		if v, _ := l.SchemaVersion(ctx); v != n+1 {
			t.Fatalf("version after the migration: %d", v)
		}
		credit(t, l, "T01", 300) // the migrated rows and the new column are sealed, and a write seals on
		l.Close()

		l = s.open(t) // verified on open under the new schema
		if len(ran) != 1 || ran[n+1] != 1 {
			t.Fatalf("a migrated ledger opened again ran migrations: %v", ran)
		}
		if c, err := l.Conserve(ctx); err != nil || !c.Holds() || c.MoneyIn != 1000 {
			t.Fatalf("conservation: %v %v", c, err)
		}
	})
}

// A SQLite ledger from before versioned migrations (its columns added by looking) opens with
// its rows as they were, and its migrations recorded.
func TestLedgerFromBeforeVersioningOpensUnchanged(t *testing.T) {
	s := &store{name: "sqlite", tableID: "T1"}
	s.dsn = t.TempDir() + "/table.db"
	s.keyPath = KeyPath(s.dsn)
	l := s.open(t)
	credit(t, l, "T01", 4200)
	// What a ledger of the previous release looks like: every column, no schema_migrations,
	// sealed as it stood.
	ctx := context.Background()
	if _, err := l.db.Exec(`DROP TABLE schema_migrations`); err != nil {
		t.Fatal(err)
	}
	tables, err := l.seal.sealedTables(ctx, l.db)
	if err != nil {
		t.Fatal(err)
	}
	l.seal.setTables(tables)
	if err := l.seal.sealAll(ctx, l, l.seal.scopes[0], nil); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = s.open(t)
	if v, err := l.SchemaVersion(ctx); err != nil || v != Version() {
		t.Fatalf("version: %d %v", v, err)
	}
	if c, err := l.Conserve(ctx); err != nil || c.Balances != 4200 || !c.Holds() {
		t.Fatalf("conservation: %v %v", c, err)
	}
}
