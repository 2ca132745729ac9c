package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (issue 34, finding 3, as the lab made it): the server stopped, a balance and the
// money-in meter raised to match, the seal's rows, its head and the key file deleted, the
// server started again. Before, it sealed the edited ledger as found under a new key, and
// verify then reported every row matching (a 10,050.00 balance from 50.00). Now a ledger
// with rows and no seal is refused at start, the error naming what is missing; only the
// operator's explicit reseal (Reseal: who and why) seals it, and that leaves a mark.
func TestAttackStrippedSealNotResealedAsFound(t *testing.T) { stores(t, testStrippedSeal) }

func testStrippedSeal(t *testing.T, s *store) {
	ctx := context.Background()
	if s.pg() {
		// The table's own key, apart from the floor's: the table's seal is what is stripped.
		s.floorKeyPath = filepath.Join(t.TempDir(), "floor.key")
	}
	l := s.open(t)
	credit(t, l, "T01", 5000)
	l.Close()
	s.edit(t, `UPDATE accounts SET balance = balance + 1000000 WHERE terminal = 'T01'`,
		`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`,
		`DELETE FROM seal_rows`, `DELETE FROM seal_head`, `DELETE FROM seal_dirty`)
	if err := os.Remove(s.keyPath); err != nil {
		t.Fatal(err)
	}
	_, err := s.try()
	if !errors.Is(err, ErrUnsealed) || !strings.Contains(err.Error(), "seal head") || !strings.Contains(err.Error(), "key file") {
		t.Fatalf("a ledger whose seal and key were deleted: %v, want ErrUnsealed naming the head and the key", err)
	}
	t.Logf("refused: %v", err)
	if _, err := os.Stat(s.keyPath); err == nil {
		t.Fatal("a new key was made for the stripped ledger")
	}
	// Refused again on the next start: nothing was sealed by the refusal.
	if _, err := s.try(); !errors.Is(err, ErrUnsealed) {
		t.Fatalf("the second start: %v", err)
	}
	// The operator's reseal: who and why are required, and the mark stays.
	if _, err := Reseal(ctx, s.config(), "", "why"); err == nil {
		t.Fatal("a reseal without who")
	}
	if _, err := Reseal(ctx, s.config(), "pitboss-7", ""); err == nil {
		t.Fatal("a reseal without why")
	}
	n, err := Reseal(ctx, s.config(), "pitboss-7", "seal lost in the disk swap, ticket 4411")
	if err != nil || n == 0 {
		t.Fatalf("reseal: %d rows, %v", n, err)
	}
	l = s.open(t)
	marks, err := l.Reseals(ctx)
	if err != nil || len(marks) != 1 || marks[0].By != "pitboss-7" || !strings.Contains(marks[0].Why, "4411") || marks[0].Rows == 0 || marks[0].At.IsZero() {
		t.Fatalf("the reseal's mark: %+v %v", marks, err)
	}
	evs, err := l.Events(ctx, "ledger-resealed", 5)
	if err != nil || len(evs) != 1 || !strings.Contains(evs[0].Detail, "pitboss-7") {
		t.Fatalf("the reseal's audit event: %+v %v", evs, err)
	}
	// The mark is sealed: deleting it fails the seal.
	l.Close()
	s.edit(t, `DELETE FROM ledger_reseals`)
	if _, err := s.try(); !errors.Is(err, ErrTampered) {
		t.Fatalf("the reseal's mark deleted: %v", err)
	}
}

// A new, empty ledger is still sealed on its first start, with no reseal.
func TestNewLedgerSealedWithoutReseal(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		if marks, err := l.Reseals(context.Background()); err != nil || len(marks) != 0 {
			t.Fatalf("marks %v %v", marks, err)
		}
	})
}

func (s *store) config() StoreConfig {
	return StoreConfig{DSN: s.dsn, TableID: s.tableID, KeyPath: s.keyPath, FloorKeyPath: s.floorKeyPath}
}

// resealLegacy seals a ledger written before the seal, as its operator must (Reseal).
func resealLegacy(t *testing.T, path string) {
	t.Helper()
	if _, err := Reseal(context.Background(), StoreConfig{DSN: path}, "ops", "a ledger from before the seal"); err != nil {
		t.Fatal(err)
	}
}

// Issue 34: a reseal "leaves a permanent mark in the ledger and on the floor's reports". The
// floor's reseals are listed by table — who, why, when — for the resealed table only; the
// other table of the floor (PostgreSQL) has none.
func TestResealMarkOnTheFloorReport(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		ctx := context.Background()
		other := s.table(t, "Q2")
		other.open(t).Close()
		l := s.open(t)
		credit(t, l, "T01", 5000)
		// SQLite: the file's one table, id "" until it prints a ticket (Table).
		id := map[bool]string{true: "T1", false: ""}[s.pg()]
		if marks, err := l.FloorReseals(ctx); err != nil || len(marks) == 0 || len(marks[id]) != 0 {
			t.Fatalf("the reseals of a floor never re-sealed: %v %v", marks, err)
		}
		l.Close()
		if _, err := Reseal(ctx, s.config(), "pitboss-7", "key lost in the disk swap, ticket 4411"); err != nil {
			t.Fatal(err)
		}
		l = s.open(t)
		marks, err := l.FloorReseals(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := marks[id]
		if len(m) != 1 || m[0].By != "pitboss-7" || !strings.Contains(m[0].Why, "4411") || m[0].At.IsZero() || m[0].Rows == 0 {
			t.Fatalf("the floor's reseals: %+v", marks)
		}
		if s.pg() {
			if q2, ok := marks["Q2"]; !ok || len(q2) != 0 {
				t.Fatalf("the other table's reseals: %+v (listed: %v)", q2, ok)
			}
		}
	})
}
