package ledger

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablegames/ats/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// store is one ledger store a test runs against: a SQLite file, or a table's schema in a
// PostgreSQL database (a fresh one per test, from internal/pgtest).
type store struct {
	name    string
	dsn     string // the SQLite file's path, or the postgres:// address
	keyPath string
	tableID string
	// floorKeyPath: PostgreSQL's floor key, "" for keyPath.
	floorKeyPath string
}

// stores runs fn once per store, as subtests "sqlite" and "postgres" (skipped, saying why,
// where PostgreSQL is not installed, unless ATS_REQUIRE_POSTGRES=1).
func stores(t *testing.T, fn func(t *testing.T, s *store)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "table.db")
		fn(t, &store{name: "sqlite", dsn: path, keyPath: KeyPath(path), tableID: "T1"})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		fn(t, &store{name: "postgres", dsn: dsn, keyPath: filepath.Join(t.TempDir(), "ledger.key"), tableID: "T1"})
	})
}

// table is another table server's store on the same database (PostgreSQL) or its own file
// (SQLite).
func (s *store) table(t *testing.T, id string) *store {
	o := *s
	o.tableID = id
	if s.name == "sqlite" {
		o.dsn = filepath.Join(t.TempDir(), id+".db")
		o.keyPath = KeyPath(o.dsn)
	}
	return &o
}

func (s *store) pg() bool { return s.name == "postgres" }

// open opens the store (closed when the test ends).
func (s *store) open(t *testing.T) *Ledger {
	t.Helper()
	l, err := s.try()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func (s *store) try() (*Ledger, error) {
	return OpenStore(context.Background(), s.config())
}

// edit runs SQL on the store behind the server's back: sqlite3 on the file, psql on the
// database (with the table's search path).
func (s *store) edit(t *testing.T, stmts ...string) {
	t.Helper()
	if !s.pg() {
		sqlEdit(t, s.dsn, stmts...)
		return
	}
	db, err := sql.Open("pgx", s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`SET search_path = ` + SchemaOf(s.tableID) + `, ` + FloorSchema); err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// bytesLiteral is SQL for a byte string in the store's dialect.
func (s *store) bytesLiteral(b []byte) string {
	if s.pg() {
		return `'\x` + hexOf(b) + `'::bytea`
	}
	return `x'` + hexOf(b) + `'`
}
