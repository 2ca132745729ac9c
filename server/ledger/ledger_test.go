package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

func open(t *testing.T, path string) *Ledger {
	t.Helper()
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestIdempotencyKeys(t *testing.T) { stores(t, testIdempotencyKeys) }

func testIdempotencyKeys(t *testing.T, s *store) {
	ctx := context.Background()
	l := s.open(t)
	credit := func(key, request string) (bool, error) {
		var replayed bool
		err := l.Update(ctx, now, func(tx *Tx) error {
			_, seen, err := tx.Idempotent("T1", key, request)
			if err != nil || seen {
				replayed = seen
				return err
			}
			bal, _, err := tx.Account("T1")
			if err != nil {
				return err
			}
			if err := tx.SetAccount("T1", bal+100, true); err != nil {
				return err
			}
			if _, err := tx.AddMeter(MeterMoneyIn, 100); err != nil {
				return err
			}
			return tx.Remember("T1", key, request, []byte("ok"))
		})
		return replayed, err
	}
	if r, err := credit("k1", "note 100"); err != nil || r {
		t.Fatal(r, err)
	}
	if r, err := credit("k1", "note 100"); err != nil || !r {
		t.Fatalf("replay: %v %v", r, err)
	}
	if _, err := credit("k1", "note 200"); !errors.Is(err, ErrKeyReused) {
		t.Fatalf("reused key: %v", err)
	}
	if _, err := credit("", "note 100"); err == nil {
		t.Fatal("empty key accepted")
	}
	c, err := l.Conserve(ctx)
	if err != nil || !c.Holds() || c.Balances != 100 || c.MoneyIn != 100 {
		t.Fatalf("conservation: %v %v", c, err)
	}
}

func TestConservationSeesEveryTable(t *testing.T) { stores(t, testConservationSeesEveryTable) }

func testConservationSeesEveryTable(t *testing.T, s *store) {
	ctx := context.Background()
	l := s.open(t)
	err := l.Update(ctx, now, func(tx *Tx) error {
		tx.AddMeter(MeterMoneyIn, 10000)
		tx.SetAccount("T1", 2500, true)
		tx.AddMeter(MeterHouseResult, 1500)
		return tx.PutTicket(Ticket{Validation: "000000000000000001", Number: 1, Terminal: "T1", Amount: 6000, Issued: now, Expires: now, State: TicketPrinted})
	})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := l.Conserve(ctx)
	if !c.Holds() || c.OpenTickets != 6000 {
		t.Fatalf("%v", c)
	}
	// A ticket redeemed without the credit breaks the identity, and Conserve says so.
	err = l.Update(ctx, now, func(tx *Tx) error {
		tk, ok, err := tx.Ticket("000000000000000001")
		if err != nil || !ok {
			return fmt.Errorf("ticket: %v %v", ok, err)
		}
		tk.State = TicketRedeemed
		return tx.PutTicket(tk)
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := l.Conserve(ctx); c.Holds() {
		t.Fatalf("a lost ticket went unnoticed: %v", c)
	}
}

// A ledger written before closes had an acked column opens: the column is added, its closes
// count as not acknowledged (their terminals are told once more), and an acknowledgement
// then holds across a reopen.
func TestClosesFromAnOlderLedger(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE closes (id TEXT PRIMARY KEY, terminal TEXT NOT NULL, amount INTEGER NOT NULL, reason TEXT NOT NULL, at INTEGER NOT NULL);
		INSERT INTO closes VALUES ('C1', 'T1', 4000, 'dealer', 1), ('C2', 'T1', 1500, 'dealer', 2), ('C3', 'T2', 700, 'dealer', 3)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ids := func(l *Ledger) []string {
		t.Helper()
		st, err := l.Load(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range st.Closes {
			out = append(out, c.ID)
		}
		return out
	}
	resealLegacy(t, path)
	l, err := Open(path)
	if err != nil {
		t.Fatalf("an older ledger does not open: %v", err)
	}
	if got := fmt.Sprint(ids(l)); got != "[C1 C2 C3]" {
		t.Fatalf("closes from the older ledger: %s", got)
	}
	var found [3]bool
	if err := l.Update(context.Background(), now, func(tx *Tx) error {
		var err error
		for i, id := range []string{"C1", "C3", "C2"} {
			if found[i], err = tx.AckClose("T1", id); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if found != [3]bool{true, false, true} {
		t.Fatalf("acknowledged by T1 (C1, T2's C3, C2): %v", found)
	}
	l.Close()
	l = open(t, path)
	if got := fmt.Sprint(ids(l)); got != "[C3]" {
		t.Fatalf("closes left after T1 acknowledged its own: %s", got)
	}
}
