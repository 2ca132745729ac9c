package ledger

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"
)

// Attack (issue 34, "a whole ledger put back to an older copy"): the ledger copied while the
// server is stopped, money moved, the server stopped again and the copy put back — every row
// matching its seal, the head the copy's own. Before, the server started on it: the money
// moved since the copy was forgotten. Now the ledger's head is anchored outside the ledger (a
// file beside the key, MAC'd under it, written after each commit), and a ledger whose head is
// older than the anchor is refused at start (ErrRolledBack), naming both.
func TestAttackWholeLedgerRolledBackRefusedAtStart(t *testing.T) {
	stores(t, testWholeLedgerRolledBack)
}

func testWholeLedgerRolledBack(t *testing.T, s *store) {
	putBackOlderCopy(t, s)
	_, err := s.try()
	if !errors.Is(err, ErrRolledBack) || !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), "older copy") {
		t.Fatalf("a ledger put back to an older copy: %v, want ErrRolledBack", err)
	}
	t.Logf("refused: %v", err)
}

// The lab's rollback, with the anchor deleted as well (issue 34 part 3): a ledger whose head
// counts commits has had an anchor since its first open, so a missing one is refused, not
// taken for a first start.
func TestAttackLedgerRolledBackAndAnchorDeletedRefusedAtStart(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		putBackOlderCopy(t, s)
		if err := os.Remove(anchorPath(s.keyPath, s.pgSchema())); err != nil {
			t.Fatal(err)
		}
		_, err := s.try()
		if !errors.Is(err, ErrRolledBack) || !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), "anchor") {
			t.Fatalf("an older copy with its anchor deleted: %v, want ErrRolledBack", err)
		}
		t.Logf("refused: %v", err)
	})
}

// putBackOlderCopy plays the lab's rollback: a copy of the stopped ledger is taken, money moves
// after it, and the copy is put back in place of the newer ledger.
func putBackOlderCopy(t *testing.T, s *store) {
	t.Helper()
	l := s.open(t)
	credit(t, l, "T01", 5000)
	l.Close()
	restore := s.snapshot(t)
	l = s.open(t)
	credit(t, l, "T01", 100000) // the money the copy does not know of
	l.Close()
	restore()
}

// The anchor lags at most behind the ledger, never ahead: a ledger whose last commits the
// anchor has not seen yet (a kill before the anchor was written) opens, and moves the anchor.
func TestLedgerAheadOfItsAnchorOpens(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		credit(t, l, "T01", 5000)
		l.Close()
		anchor := anchorPath(s.keyPath, s.pgSchema())
		old, err := os.ReadFile(anchor)
		if err != nil {
			t.Fatal(err)
		}
		l = s.open(t)
		credit(t, l, "T01", 100)
		l.Close()
		if err := os.WriteFile(anchor, old, 0o600); err != nil { // as if killed before the write
			t.Fatal(err)
		}
		l = s.open(t)
		credit(t, l, "T01", 100)
	})
}

func (s *store) pgSchema() string {
	if s.pg() {
		return SchemaOf(s.tableID)
	}
	return ""
}

// snapshot copies the stopped ledger (the SQLite file; the table's schema, seal included, on
// PostgreSQL) and returns what puts the copy back.
func (s *store) snapshot(t *testing.T) func() {
	t.Helper()
	if !s.pg() {
		b, err := os.ReadFile(s.dsn)
		if err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(s.dsn + ext); err == nil {
				t.Fatalf("the stopped ledger has a %s file", ext)
			}
		}
		return func() {
			if err := os.WriteFile(s.dsn, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	db, err := sql.Open("pgx", s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	schema := SchemaOf(s.tableID)
	tables, err := names(context.Background(), db, `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'seal_dirty'`, schema)
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, tb := range tables {
		stmts = append(stmts, `CREATE TABLE bak_`+schema+`_`+tb+` AS SELECT * FROM `+schema+`.`+tb)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return func() {
		for _, tb := range tables {
			for _, q := range []string{`DELETE FROM ` + schema + `.` + tb, `INSERT INTO ` + schema + `.` + tb + ` SELECT * FROM bak_` + schema + `_` + tb} {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
		}
		if _, err := db.Exec(`DELETE FROM ` + schema + `.seal_dirty`); err != nil {
			t.Fatal(err)
		}
	}
}
