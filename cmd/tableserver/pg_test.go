package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server/ledger"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// tableserver verify on a floor's PostgreSQL: a table's ledger verifies; a ticket edited with
// psql is named and fails it; a table id with no ledger there is refused, not made.
func TestVerifyOnPostgres(t *testing.T) {
	dsn, key := pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key")
	led, err := ledger.OpenStore(context.Background(), ledger.StoreConfig{DSN: dsn, TableID: "T1", KeyPath: key})
	if err != nil {
		t.Fatal(err)
	}
	err = led.Update(context.Background(), time.Now(), func(tx *ledger.Tx) error {
		return tx.PutTicket(ledger.Ticket{Validation: "100000000000000001", Number: 1, Terminal: "T01", Amount: 5000,
			Issued: time.Now(), Expires: time.Now().Add(time.Hour), State: ledger.TicketPrinted})
	})
	if err != nil {
		t.Fatal(err)
	}
	led.Close()
	run := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := runLedger("verify", args, &out, &errs)
		return code, out.String(), errs.String()
	}
	// The ticket is money the table owes with no money in: conservation fails, the seal holds.
	if code, out, errs := run("-db", dsn, "-table", "T1", "-ledger-key", key); code != 1 || !strings.Contains(out, "every one matches") || !strings.Contains(out, "store postgres, schema version") {
		t.Fatalf("verify: %d %q %q", code, out, errs)
	}
	if code, _, errs := run("-db", dsn, "-table", "T9", "-ledger-key", key); code != 1 || !strings.Contains(errs, "no ledger of table T9") {
		t.Fatalf("verify of a table that has none: %d %q", code, errs)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE floor.tickets SET amount = 900000`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if code, _, errs := run("-db", dsn, "-table", "T1", "-ledger-key", key); code != 1 || !strings.Contains(errs, "table tickets row '100000000000000001'") {
		t.Fatalf("verify of an edited floor: %d %q", code, errs)
	}
}
