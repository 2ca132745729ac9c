package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Attack, as a certification lab would make it: on the live ledger of a RUNNING table server,
// a second connection (sqlite3 on the file, psql on the database) reads the seal's triggers'
// SQL from the catalogue, drops them, raises an account's balance and the money-in meter to
// match (so the conservation identity holds), and recreates the triggers from the SQL it read.
// No note is left for the server to find. The server's next write to that account — a note
// credited, or a settlement of many accounts — must then be refused with ErrTampered naming
// the edited row, nothing of it committed, and the ledger must still fail its verification:
// before, the server sealed the edited balance with its own change as if both were its own,
// and the ledger verified clean.
func TestAttackTriggersDroppedEditNotLaundered(t *testing.T) { stores(t, testTriggersDropped) }

func testTriggersDropped(t *testing.T, base *store) {
	ctx := context.Background()
	for i, tc := range []struct {
		name string
		// edits are run with the triggers dropped; want is the table the refusal names.
		edits []string
		want  string
		// write is the server's next transaction, which writes the edited row.
		write func(l *Ledger) error
	}{
		{"balance and meter raised, then a credit to the account",
			[]string{`UPDATE accounts SET balance = balance + 1000000 WHERE terminal = 'T01'`,
				`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`},
			"accounts", func(l *Ledger) error { return creditErr(l, "T01", 100) }},
		{"balance and meter raised, then a settlement of every account",
			[]string{`UPDATE accounts SET balance = balance + 1000000 WHERE terminal = 'T01'`,
				`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`},
			"accounts", func(l *Ledger) error { return settleAll(l, "R9") }},
		{"meter raised alone, then a credit (the meter is the row written first)",
			[]string{`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`},
			"meters", func(l *Ledger) error { return creditErr(l, "T02", 100) }},
		{"an account inserted without a seal, then the server credits it",
			[]string{`INSERT INTO accounts(terminal, balance, open) VALUES ('T99', 1000000, 1)`,
				`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`},
			"accounts", func(l *Ledger) error { return creditErr(l, "T99", 100) }},
		{"an account deleted, then the server writes its key again",
			[]string{`DELETE FROM accounts WHERE terminal = 'T02'`},
			"accounts", func(l *Ledger) error { return creditErr(l, "T02", 100) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base.table(t, fmt.Sprintf("P%d", i))
			l := s.open(t)
			credit(t, l, "T01", 5000)
			credit(t, l, "T02", 2000)
			credit(t, l, "T03", 700)
			s.editTriggersDropped(t, tc.edits...)
			err := tc.write(l)
			if !errors.Is(err, ErrTampered) {
				t.Fatalf("the server's write over a row edited with the triggers dropped: %v, want ErrTampered", err)
			}
			t.Logf("refused: %v", err)
			if !strings.Contains(err.Error(), "table "+tc.want+" row ") {
				t.Fatalf("the refusal does not name the edited row of %s: %v", tc.want, err)
			}
			// Nothing of the refused transaction committed, and the edit is not laundered:
			// the ledger fails its seal, now and on the next start.
			if _, err := l.Verify(ctx); !errors.Is(err, ErrTampered) {
				t.Fatalf("after the refused write the ledger verifies: %v", err)
			}
			l.Close()
			if _, err := s.try(); !errors.Is(err, ErrTampered) {
				t.Fatalf("the ledger edited with its triggers dropped opens: %v", err)
			}
		})
	}
	// The same edit with the triggers left in place but its notes deleted afterwards: no note
	// either, and the same refusal.
	t.Run("notes deleted after the edit", func(t *testing.T) {
		s := base.table(t, "PN")
		l := s.open(t)
		credit(t, l, "T01", 5000)
		s.edit(t, `UPDATE accounts SET balance = balance + 1000000 WHERE terminal = 'T01'`,
			`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`,
			`DELETE FROM seal_dirty`)
		if err := creditErr(l, "T01", 100); !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), "table meters row ") && !strings.Contains(err.Error(), "table accounts row ") {
			t.Fatalf("the server's write over an edit whose notes were deleted: %v", err)
		}
		if _, err := l.Verify(ctx); !errors.Is(err, ErrTampered) {
			t.Fatalf("the edit was laundered: %v", err)
		}
	})
}

// settleAll settles every account as the table server does: the accounts read and written in
// one statement each, a settlement each, and the house's meter moved.
func settleAll(l *Ledger, round string) error {
	return l.Update(context.Background(), now, func(tx *Tx) error {
		ids, err := tx.accountIDs()
		if err != nil {
			return err
		}
		accts, err := tx.Accounts(ids)
		if err != nil {
			return err
		}
		var as []AccountBalance
		var ss []Settlement
		for _, id := range ids {
			as = append(as, AccountBalance{Terminal: id, Balance: accts[id].Balance + 50, Open: accts[id].Open})
			ss = append(ss, Settlement{Round: round, Terminal: id, Generation: 1, Staked: 50, Returned: 100, Recognised: true, Outcome: "17"})
		}
		if err := tx.SetAccounts(as); err != nil {
			return err
		}
		if err := tx.PutSettlements(ss); err != nil {
			return err
		}
		_, err = tx.AddMeter(MeterHouseResult, int64(-50*len(ids)))
		return err
	})
}

func (t *Tx) accountIDs() ([]string, error) {
	rows, err := t.query(`SELECT terminal FROM accounts ORDER BY terminal`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// editTriggersDropped runs stmts on the live ledger from a second connection as an editor who
// knows how the seal notes rows would: every trigger of the store's own tables read from the
// catalogue (sqlite_master; pg_trigger on PostgreSQL), dropped, the edits made, and the
// triggers recreated from the SQL read — all in one transaction, so the server never sees the
// ledger without them.
func (s *store) editTriggersDropped(t *testing.T, stmts ...string) {
	t.Helper()
	driver, dsn := "sqlite", "file:"+s.dsn+"?_pragma=busy_timeout(5000)"
	if s.pg() {
		driver, dsn = "pgx", s.dsn
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	catalogue := `SELECT 'DROP TRIGGER ' || name, sql FROM sqlite_master WHERE type = 'trigger'`
	if s.pg() {
		schema := SchemaOf(s.tableID)
		if _, err := db.Exec(`SET search_path = ` + schema + `, ` + FloorSchema); err != nil {
			t.Fatal(err)
		}
		catalogue = `SELECT 'DROP TRIGGER ' || quote_ident(tgname) || ' ON ' || tgrelid::regclass::text, pg_get_triggerdef(oid)
			FROM pg_trigger WHERE NOT tgisinternal AND tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = '` + schema + `'::regnamespace)`
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	rows, err := tx.Query(catalogue)
	if err != nil {
		t.Fatal(err)
	}
	var drops, creates []string
	for rows.Next() {
		var d, c string
		if err := rows.Scan(&d, &c); err != nil {
			t.Fatal(err)
		}
		drops, creates = append(drops, d), append(creates, c)
	}
	rows.Close()
	if len(drops) < 2 {
		t.Fatalf("the catalogue lists %d seal triggers", len(drops))
	}
	for _, q := range append(append(drops, stmts...), creates...) {
		if _, err := tx.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var notes int
	if err := tx.QueryRow(`SELECT COUNT(*) FROM seal_dirty`).Scan(&notes); err != nil {
		t.Fatal(err)
	}
	if notes != 0 {
		t.Fatalf("the edit with the triggers dropped left %d notes", notes)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// The pre-image check passes every write the server itself makes, however the rows moved in
// its transaction — rows inserted (no old seal), deleted, inserted and deleted again, deleted
// and inserted again under the same key, a key moved by an update, a rowid reused by another
// key, and on SQLite the rowid-keyed events moved and an account's rowid moved under its key —
// and the ledger verifies after. The same deletes and moves over a row first edited with the
// triggers dropped are refused, naming the row.
func TestPreimageCheckPassesTheServersOwnWrites(t *testing.T) {
	stores(t, testPreimageOwnWrites)
}

func testPreimageOwnWrites(t *testing.T, base *store) {
	ctx := context.Background()
	setup := func(t *testing.T, id string) (*store, *Ledger) {
		s := base.table(t, id)
		l := s.open(t)
		for _, id := range []string{"T01", "T02", "T03", "T04", "T05"} {
			credit(t, l, id, 1000)
		}
		return s, l
	}
	writes := []string{
		`INSERT INTO accounts(terminal, balance, open) VALUES ('T06', 0, 1)`,
		`DELETE FROM accounts WHERE terminal = 'T01'`,
		`INSERT INTO accounts(terminal, balance, open) VALUES ('T07', 0, 1)`,
		`DELETE FROM accounts WHERE terminal = 'T07'`,
		`DELETE FROM accounts WHERE terminal = 'T02'`,
		`INSERT INTO accounts(terminal, balance, open) VALUES ('T02', 5, 1)`,
		`UPDATE accounts SET terminal = 'T14' WHERE terminal = 'T04'`,
		`UPDATE accounts SET balance = balance + 1 WHERE terminal = 'T03'`,
		`UPDATE accounts SET balance = balance + 1 WHERE terminal = 'T03'`,
		`DELETE FROM accounts WHERE terminal = 'T05'`,
		`INSERT INTO accounts(terminal, balance, open) VALUES ('T20', 0, 1)`,
	}
	if base.pg() {
		writes = append(writes, `UPDATE events SET seq = seq + 1000 WHERE seq = (SELECT MAX(seq) FROM events)`)
	} else {
		writes = append(writes,
			`UPDATE events SET rowid = rowid + 1000 WHERE seq = (SELECT MAX(seq) FROM events)`,
			`UPDATE accounts SET rowid = rowid + 5000 WHERE terminal = 'T03'`)
	}
	run := func(l *Ledger, qs ...string) error {
		return l.Update(ctx, now, func(tx *Tx) error {
			for _, q := range qs {
				if _, err := tx.exec(q); err != nil {
					return fmt.Errorf("%s: %w", q, err)
				}
			}
			return tx.Event("test", "", "", 0, "own writes")
		})
	}
	t.Run("own writes", func(t *testing.T) {
		_, l := setup(t, "OW")
		if err := run(l, writes...); err != nil {
			t.Fatalf("the server's own writes refused: %v", err)
		}
		n, err := l.Verify(ctx)
		if err != nil {
			t.Fatalf("after the server's own writes: %v", err)
		}
		var bal int64
		if err := l.Update(ctx, now, func(tx *Tx) error {
			var err error
			bal, _, err = tx.Account("T14")
			return err
		}); err != nil || bal != 1000 {
			t.Fatalf("the moved account: %d, %v", bal, err)
		}
		if n == 0 {
			t.Fatal("nothing sealed")
		}
	})
	edited := []struct{ edit, write string }{
		{`UPDATE accounts SET balance = 99999 WHERE terminal = 'T01'`, `DELETE FROM accounts WHERE terminal = 'T01'`},
		{`UPDATE accounts SET balance = 99999 WHERE terminal = 'T04'`, `UPDATE accounts SET terminal = 'T14' WHERE terminal = 'T04'`},
		{`UPDATE accounts SET balance = 99999 WHERE terminal = 'T05'`, `DELETE FROM accounts WHERE terminal = 'T05'; INSERT INTO accounts(terminal, balance, open) VALUES ('T20', 0, 1)`},
		{`UPDATE events SET detail = 'x' WHERE seq = (SELECT MAX(seq) FROM events)`, `UPDATE events SET amount = 1 WHERE seq = (SELECT MAX(seq) FROM events)`},
	}
	if !base.pg() {
		// The row is not at the rowid the server's note names: it is found by its key.
		edited = append(edited, struct{ edit, write string }{
			`UPDATE accounts SET balance = 99999 WHERE terminal = 'T03'`, `UPDATE accounts SET rowid = rowid + 5000, balance = 1 WHERE terminal = 'T03'`})
	}
	for i, tc := range edited {
		t.Run(fmt.Sprintf("edited then %d", i), func(t *testing.T) {
			s, l := setup(t, fmt.Sprintf("OE%d", i))
			s.editTriggersDropped(t, tc.edit)
			err := run(l, strings.Split(tc.write, "; ")...)
			if !errors.Is(err, ErrTampered) {
				t.Fatalf("%s over a row edited with the triggers dropped: %v, want ErrTampered", tc.write, err)
			}
			tbl := strings.Fields(tc.edit)[1]
			if !strings.Contains(err.Error(), "table "+tbl+" row ") {
				t.Fatalf("the refusal does not name the row: %v", err)
			}
			if _, err := l.Verify(ctx); !errors.Is(err, ErrTampered) {
				t.Fatalf("the edit was laundered: %v", err)
			}
		})
	}
}

// A row and its seal both put back to an older version, with the triggers dropped: the row
// matches its older seal, so the pre-image check passes and the server's next write to it goes
// through — but the seal head, which the server moves from what it held rather than from
// seal_rows, still covers the newer seal, and the ledger fails its verification, before the
// write and after: the rollback is not laundered either.
func TestAttackRowAndSealRolledBackNotLaundered(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		ctx := context.Background()
		l := s.open(t)
		credit(t, l, "T01", 5000)
		var bal int64
		var mac []byte
		if err := l.db.QueryRow(`SELECT a.balance, r.mac FROM accounts a JOIN seal_rows r ON r.tbl = 'accounts' AND r.pk = '''T01'''
			WHERE a.terminal = 'T01'`).Scan(&bal, &mac); err != nil {
			t.Fatal(err)
		}
		credit(t, l, "T01", 100) // spent later, say; the editor wants the 5,000 back
		s.editTriggersDropped(t,
			fmt.Sprintf(`UPDATE accounts SET balance = %d WHERE terminal = 'T01'`, bal),
			`UPDATE seal_rows SET mac = `+s.bytesLiteral(mac)+` WHERE tbl = 'accounts' AND pk = '''T01'''`)
		if _, err := l.Verify(ctx); !errors.Is(err, ErrTampered) {
			t.Fatalf("a row rolled back with its seal verifies: %v", err)
		}
		if err := creditErr(l, "T01", 1); err != nil && !errors.Is(err, ErrTampered) {
			t.Fatal(err)
		}
		if _, err := l.Verify(ctx); !errors.Is(err, ErrTampered) {
			t.Fatalf("a row rolled back with its seal, then written by the server, verifies: %v", err)
		}
	})
}
