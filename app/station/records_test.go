package station_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
)

// The attacks on the terminal's records (issue 13, item 5), each on a real station against a
// real table server: what the journal's seal and the server's anchor catch, and the station
// refusing money with an error naming what was found.

func (r *rig) journalPath() string { return filepath.Join(r.dir, "terminal.db") }

// pad appends n records to the stopped terminal's journal (game records a terminal would have).
func (r *rig) pad(n int) {
	r.t.Helper()
	j, err := journal.Open(r.journalPath(), nil)
	if err != nil {
		r.t.Fatal(err)
	}
	defer j.Close()
	for range n {
		if _, err := j.Append(context.Background(), journal.Record{Kind: "settled", Round: "R0", Amount: 0}); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *rig) sqlJournal(stmts ...string) {
	r.t.Helper()
	db, err := sql.Open("sqlite", "file:"+r.journalPath())
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			r.t.Fatalf("%s: %v", q, err)
		}
	}
}

// refused waits for the station to refuse money for a journal that fails the anchor, and
// checks that it takes none.
func (r *rig) refused(want string) {
	r.t.Helper()
	r.eventually("the station refusing money", func() bool { return r.st.Refused() != nil })
	err := r.st.Refused()
	if !errors.Is(err, journal.ErrAnchor) || !strings.Contains(err.Error(), want) {
		r.t.Fatalf("refused with %v; want ErrAnchor saying %q", err, want)
	}
	if r.st.MayTakeMoney() || r.acceptorEnabled() {
		r.t.Fatal("a station whose journal failed its check takes money")
	}
	if err := r.st.Cashier.CashOut(context.Background()); err == nil {
		r.t.Fatal("a station whose journal failed its check cashed out")
	}
	if f := r.st.Cashier.Status().Fault; !strings.Contains(f.String(), "records failed their check") {
		r.t.Fatalf("the player is told %q", f.String())
	}
}

// Attack: records 65–68 deleted from the end of the journal while the terminal was down
// ("tickets out" went backwards). The chain left is whole; the anchor is not in it.
func TestAttackJournalRecords65To68DeletedRefusedAtStart(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.stop()
	r.pad(64)
	r.start()
	r.ready()
	r.buyIn(2000) // records 65 (escrow, reported), 66 (credit point, credited), 67 (credited)
	r.stop()
	r.sqlJournal(`DELETE FROM records WHERE seq >= 65`, `DELETE FROM flows WHERE opened >= 65`)
	r.start()
	r.refused("records 65–66 deleted")
}

// Attack: an older copy of the journal put back.
func TestAttackJournalRolledBackRefusedAtStart(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	r.buyIn(2000)
	r.stop()
	old, err := os.ReadFile(r.journalPath())
	if err != nil {
		t.Fatal(err)
	}
	r.start()
	r.ready()
	r.buyIn(500)
	r.stop()
	os.Remove(r.journalPath() + "-wal")
	os.Remove(r.journalPath() + "-shm")
	if err := os.WriteFile(r.journalPath(), old, 0o600); err != nil {
		t.Fatal(err)
	}
	r.start()
	r.refused("older copy")
}

// Attack: the journal emptied (zero length) or removed, for a terminal the table has an
// anchor for: it would open as new and forget every flow.
func TestAttackJournalEmptyOrMissingRefusedAtStart(t *testing.T) {
	for _, how := range []string{"zero-length", "missing"} {
		t.Run(how, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			r.ready()
			r.buyIn(2000)
			r.stop()
			os.Remove(r.journalPath() + "-wal")
			os.Remove(r.journalPath() + "-shm")
			if how == "missing" {
				os.Remove(r.journalPath())
			} else if err := os.Truncate(r.journalPath(), 0); err != nil {
				t.Fatal(err)
			}
			r.start()
			r.refused("journal is empty")
		})
	}
}

// Attack: an amount edited in the journal and its SHA-256 chain recomputed: the MAC fails and
// the station does not start.
func TestAttackJournalAmountEditedRefusedAtStart(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	r.buyIn(2000)
	r.stop()
	r.sqlJournal(`UPDATE records SET amount = 200000 WHERE kind = 'note-escrow'`,
		`UPDATE flows SET amount = 200000 WHERE kind = 'note-escrow'`)
	err := r.tryStart()
	if !errors.Is(err, journal.ErrCorrupt) || !strings.Contains(err.Error(), "(note-escrow)") || !strings.Contains(err.Error(), "MAC") {
		t.Fatalf("station started on an edited journal: %v", err)
	}
}

// Attack: a credit-owed record of 10,000.00 forged into the journal — here with the terminal's
// own key, as if it had leaked, so the journal verifies and the anchor (behind it) holds. The
// recovery asks the table for it; the table never heard of that note in escrow and pays
// nothing; the flow goes to the attendant, unpaid.
func TestAttackForgedCreditOwed10000NotPaidAtRecovery(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	r.buyIn(2000)
	r.stop()
	j, err := journal.Open(r.journalPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	key := "note:0F:00000000deadbeef"
	for _, rec := range []journal.Record{
		{Kind: "note-escrow", Key: key, Amount: 1_000_000, Flow: cashier.Stacking},
		{Kind: "credit-point", Key: key, Flow: cashier.CreditDue},
	} {
		if _, err := j.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	r.start()
	r.eventually("the forged credit refused", func() bool {
		f, ok, err := r.st.Journal.FlowOf(ctx, key)
		return err == nil && ok && f.State == cashier.Unresolved
	})
	if c := r.conserved(); c != 2000 {
		t.Fatalf("ledger balance %d after the forged credit, want 2000", c)
	}
	// The screen follows the table's snapshot, which may come after the recovery's refusal.
	r.eventually("the screen balance is the table's 2000", func() bool { return r.view().Balance == 2000 })
	if f := r.st.Cashier.Status().Fault; !strings.Contains(f.String(), "refused by the table") {
		t.Fatalf("the player is told %q", f.String())
	}
}
