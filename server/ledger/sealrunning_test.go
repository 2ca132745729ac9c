package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Attack: a balance raised behind the back of a RUNNING table server (sqlite3 on the open file,
// psql on the database), then the server's own next write to that account. The edit must not
// be laundered into the seal by the server's transaction — neither by sealing the edit's
// trigger note as if it were the server's, nor by sealing the account's next balance over the
// edited one. Either the server's write is refused, or the ledger fails its seal on open.
func TestAttackEditWhileRunningNotLaundered(t *testing.T) { stores(t, testEditWhileRunning) }

func testEditWhileRunning(t *testing.T, s *store) {
	for _, tc := range []struct {
		name   string
		touch  bool // the server writes the edited account afterwards
		credit string
	}{
		{"edit alone, then another account's write", false, "T02"},
		{"edit, then the server writes the same account", true, "T01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := s.table(t, "T"+map[bool]string{false: "A", true: "B"}[tc.touch])
			l := s.open(t)
			credit(t, l, "T01", 5000)
			credit(t, l, "T02", 2000)
			s.edit(t,
				`UPDATE accounts SET balance = balance + 1000000 WHERE terminal = 'T01'`,
				`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`)
			refused := false
			if err := creditErr(l, tc.credit, 100); err != nil {
				if !errors.Is(err, ErrTampered) {
					t.Fatalf("the server's write after the edit: %v, want ErrTampered or success", err)
				}
				refused = true
			}
			l.Close()
			_, err := s.try()
			if !refused && !errors.Is(err, ErrTampered) {
				t.Fatalf("an edit made while the server ran was laundered into the seal: the server wrote after it and the ledger opens (%v)", err)
			}
			if err != nil && !errors.Is(err, ErrTampered) {
				t.Fatal(err)
			}
			if err != nil && !strings.Contains(err.Error(), "accounts") && !strings.Contains(err.Error(), "meters") {
				t.Fatalf("the refusal does not name the edited table: %v", err)
			}
		})
	}
}

// creditErr puts amount into a terminal's account and the money-in meter, as a note does,
// and returns the ledger's answer.
func creditErr(l *Ledger, terminal string, amount int64) error {
	return l.Update(context.Background(), now, func(tx *Tx) error {
		bal, _, err := tx.Account(terminal)
		if err != nil {
			return err
		}
		if err := tx.SetAccount(terminal, bal+amount, true); err != nil {
			return err
		}
		if _, err := tx.AddMeter(MeterMoneyIn, amount); err != nil {
			return err
		}
		return tx.Event("note-in", terminal, "", amount, "")
	})
}
