package pgtest

import (
	"database/sql"
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Two tests get two databases of one cluster: what one creates, the other does not see.
func TestFreshDatabasePerTest(t *testing.T) {
	a, b := DSN(t), DSN(t)
	if a == b {
		t.Fatalf("one database for two callers: %s", a)
	}
	da, err := sql.Open("pgx", a)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Close()
	if _, err := da.Exec(`CREATE TABLE x (v BIGINT); INSERT INTO x VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", b)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM pg_tables WHERE tablename = 'x'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the second database sees the first's table: %d %v", n, err)
	}
}
