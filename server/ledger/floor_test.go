package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
)

// floor is n table servers' ledgers on one PostgreSQL database, given one key file.
func floor(t *testing.T, ids ...string) (*store, []*Ledger) {
	t.Helper()
	s := &store{name: "postgres", dsn: pgtest.DSN(t), keyPath: filepath.Join(t.TempDir(), "floor.key")}
	var ls []*Ledger
	for _, id := range ids {
		ls = append(ls, s.table(t, id).open(t))
	}
	return s, ls
}

func printed(validation string, number, amount int64) Ticket {
	return Ticket{Validation: validation, Number: number, Terminal: "T01", Amount: amount,
		Issued: now, Expires: now.Add(30 * 24 * time.Hour), State: TicketPrinted}
}

// Two tables on one database: each its own schema (the same terminal id, account and ticket
// number at both), one tickets table. A ticket printed at T1 is read at T2; each table's
// conservation counts the tickets it printed.
func TestFloorTablesShareTicketsOnly(t *testing.T) {
	ctx := context.Background()
	_, ls := floor(t, "T1", "T2")
	t1, t2 := ls[0], ls[1]
	credit(t, t1, "T01", 5000)
	credit(t, t2, "T01", 300)
	cashOut := func(l *Ledger, validation string, amount int64) {
		t.Helper()
		err := l.Update(ctx, now, func(tx *Tx) error {
			bal, _, err := tx.Account("T01")
			if err != nil {
				return err
			}
			if err := tx.SetAccount("T01", bal-amount, false); err != nil {
				return err
			}
			return tx.PutTicket(printed(validation, 1, amount)) // each table numbers from 1
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cashOut(t1, "100000000000000001", 5000)
	cashOut(t2, "200000000000000001", 300)

	err := t2.Update(ctx, now, func(tx *Tx) error {
		tk, ok, err := tx.Ticket("100000000000000001")
		if err != nil || !ok || tk.Amount != 5000 {
			return fmt.Errorf("T1's ticket at T2: %+v %v %v", tk, ok, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var issuer string
	if err := t2.db.QueryRow(`SELECT issuer_table FROM tickets WHERE validation = '100000000000000001'`).Scan(&issuer); err != nil || issuer != "T1" {
		t.Fatalf("issuer of T1's ticket: %q %v", issuer, err)
	}
	for i, l := range ls {
		c, err := l.Conserve(ctx)
		want := []int64{5000, 300}[i]
		if err != nil || !c.Holds() || c.OpenTickets != want || c.Balances != 0 {
			t.Fatalf("T%d: %v %v", i+1, c, err)
		}
		if _, err := l.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if c, _ := t1.Conserve(ctx); c.MoneyIn != 5000 {
		t.Fatalf("T1's meters count T2's money: %v", c)
	}
}

// The floor's rows are sealed under the floor's key: a ticket's amount raised with psql is
// refused by every table server's next open; a table server given another key than the
// floor's is refused, saying so.
func TestFloorSealedUnderTheFloorKey(t *testing.T) {
	ctx := context.Background()
	s, ls := floor(t, "T1", "T2")
	if err := ls[0].Update(ctx, now, func(tx *Tx) error { return tx.PutTicket(printed("100000000000000001", 1, 5000)) }); err != nil {
		t.Fatal(err)
	}
	ls[0].Close()
	ls[1].Close()

	other := s.table(t, "T3")
	other.keyPath = filepath.Join(t.TempDir(), "own.key")
	if _, err := other.try(); !errors.Is(err, ErrKey) || !strings.Contains(err.Error(), "floor") {
		t.Fatalf("a table server without the floor's key: %v", err)
	}
	os.WriteFile(other.keyPath, []byte(strings.Repeat("ab", 32)+"\n"), 0o600)
	if _, err := other.try(); err == nil || !strings.Contains(err.Error(), "the floor's key") {
		t.Fatalf("a table server with another key: %v", err)
	}

	s.table(t, "T2").edit(t, `UPDATE tickets SET amount = 500000 WHERE validation = '100000000000000001'`)
	for _, id := range []string{"T1", "T2"} {
		if _, err := s.table(t, id).try(); !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), "table tickets row '100000000000000001'") {
			t.Fatalf("%s opening a floor with an edited ticket: %v", id, err)
		}
	}
}

// Exactly once: one ticket, five tables, fifty concurrent redemptions, each reading the ticket
// and crediting it in one transaction. One is paid; every other finds it redeemed; the seal
// holds at every table.
func TestFloorTicketRedeemedOnceUnderRace(t *testing.T) {
	ctx := context.Background()
	ids := []string{"T1", "T2", "T3", "T4", "T5"}
	_, ls := floor(t, ids...)
	const v = "100000000000000007"
	if err := ls[0].Update(ctx, now, func(tx *Tx) error { return tx.PutTicket(printed(v, 1, 2500)) }); err != nil {
		t.Fatal(err)
	}
	errRedeemed := errors.New("already redeemed")
	var paid, refused atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := ls[i%len(ls)]
			<-start
			err := l.Update(ctx, now, func(tx *Tx) error {
				tk, ok, err := tx.Ticket(v)
				if err != nil || !ok {
					return fmt.Errorf("ticket: %v %v", ok, err)
				}
				if tk.State != TicketPrinted {
					return errRedeemed
				}
				// The window between reading the ticket and writing it, held open: without
				// the row lock every table that read it printed would pay it.
				time.Sleep(5 * time.Millisecond)
				tk.State = TicketRedeemed
				if err := tx.PutTicket(tk); err != nil {
					return err
				}
				bal, _, err := tx.Account("T01")
				if err != nil {
					return err
				}
				if err := tx.SetAccount("T01", bal+tk.Amount, true); err != nil {
					return err
				}
				_, err = tx.AddMeter(MeterMoneyIn, tk.Amount)
				return err
			})
			switch {
			case err == nil:
				paid.Add(1)
			case errors.Is(err, errRedeemed):
				refused.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if paid.Load() != 1 || refused.Load() != 49 {
		t.Fatalf("paid %d times, refused %d", paid.Load(), refused.Load())
	}
	var credited int64
	for _, l := range ls {
		c, err := l.Conserve(ctx)
		if err != nil {
			t.Fatal(err)
		}
		credited += c.Balances
		if _, err := l.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if credited != 2500 {
		t.Fatalf("credited %d in all for a ticket of 2500", credited)
	}
}

// Two tables that lock two tickets in opposite orders deadlock; PostgreSQL aborts one, and
// Update runs its transaction again rather than report the abort: both complete, each once.
func TestUpdateRetriesATransactionAbortedForAnother(t *testing.T) {
	ctx := context.Background()
	_, ls := floor(t, "T1", "T2")
	const a, b = "100000000000000001", "100000000000000002"
	if err := ls[0].Update(ctx, now, func(tx *Tx) error {
		if err := tx.PutTicket(printed(a, 1, 100)); err != nil {
			return err
		}
		return tx.PutTicket(printed(b, 2, 200))
	}); err != nil {
		t.Fatal(err)
	}
	var runs [2]atomic.Int32
	bothHoldOne := make(chan struct{}, 2)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, order := range [][2]string{{a, b}, {b, a}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = ls[i].Update(ctx, now, func(tx *Tx) error {
				run := runs[i].Add(1)
				if _, _, err := tx.Ticket(order[0]); err != nil {
					return err
				}
				if run == 1 { // the first time, wait until the other holds its first ticket too
					bothHoldOne <- struct{}{}
					for len(bothHoldOne) < 2 {
						time.Sleep(time.Millisecond)
					}
				}
				tk, _, err := tx.Ticket(order[1])
				if err != nil {
					return err
				}
				tk.Holder = fmt.Sprintf("T%d", i+1)
				return tx.PutTicket(tk)
			})
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("a deadlock reached the caller: %v / %v", errs[0], errs[1])
	}
	// One ran again at least; a retry can meet the other again (a row lock goes to whoever
	// asks first when it is freed), within the bound.
	if r0, r1 := runs[0].Load(), runs[1].Load(); r0+r1 < 3 || r0 > maxAttempts || r1 > maxAttempts {
		t.Fatalf("the transactions ran %d and %d times: want one of them run again", r0, r1)
	}
	for _, l := range ls {
		if _, err := l.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// A table server whose migration changes a floor table reseals the floor while another table
// writes tickets: every write of the other goes through, and the floor verifies after.
func TestFloorResealedWhileAnotherTableWrites(t *testing.T) {
	ctx := context.Background()
	s, ls := floor(t, "T1")
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	stop := make(chan struct{})
	done := make(chan error, 1)
	var written atomic.Int64
	go func() {
		for i := int64(1); ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			err := ls[0].Update(ctx, now, func(tx *Tx) error {
				return tx.PutTicket(printed(fmt.Sprintf("3%017d", i), i, 100))
			})
			if err != nil {
				done <- err
				return
			}
			written.Add(1)
		}
	}()
	// until waits for T1 to have written n tickets, or fails with what stopped it.
	until := func(n int64) {
		t.Helper()
		for written.Load() < n {
			select {
			case err := <-done:
				t.Fatalf("T1 stopped writing after %d tickets: %v", written.Load(), err)
			case <-time.After(time.Millisecond):
			}
		}
	}
	until(5)
	migrations = append(slices.Clone(saved), migration{version: Version() + 1, what: "tickets.note",
		columns: []column{{"tickets", "note", "TEXT NOT NULL DEFAULT ''"}}})
	t2 := s.table(t, "T2").open(t)
	until(written.Load() + 5)
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("T1's write while T2 resealed the floor: %v", err)
	}
	for _, l := range []*Ledger{ls[0], t2} {
		if _, err := l.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var n int64
	if err := t2.db.QueryRow(`SELECT COUNT(*) FROM tickets WHERE note = ''`).Scan(&n); err != nil || n != written.Load() {
		t.Fatalf("%d tickets with the new column, %d written: %v", n, written.Load(), err)
	}
}
