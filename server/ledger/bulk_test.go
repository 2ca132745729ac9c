package ledger

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The batch reads and writes of a settlement (bulk.go) do what the one-row ones do, on both
// stores and across batch boundaries: 300 accounts written by SetAccounts read back the same
// through Account, Epoch and Accounts (a terminal without an account is absent), settlements
// written by PutSettlements read back through Settlements, a settlement written again only
// marks it reversed, and a balance below zero is refused before anything is written.
func TestBatchAccountsAndSettlements(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		ctx := context.Background()
		const n = 300
		var ids []string
		var as []AccountBalance
		var ss []Settlement
		for i := range n {
			id := fmt.Sprintf("T%03d", i)
			ids = append(ids, id)
			as = append(as, AccountBalance{Terminal: id, Balance: int64(1000 + i), Open: i%3 != 0})
			ss = append(ss, Settlement{Round: "R1", Terminal: id, Generation: 1, Staked: int64(i), Returned: int64(2 * i), Recognised: i%2 == 0, Outcome: "17", Epoch: int64(i % 4)})
		}
		err := l.Update(ctx, time.Now(), func(tx *Tx) error {
			if err := tx.NextEpoch("T007"); err != nil {
				return err
			}
			if err := tx.SetAccounts(as); err != nil {
				return err
			}
			return tx.PutSettlements(ss)
		})
		if err != nil {
			t.Fatal(err)
		}
		err = l.Update(ctx, time.Now(), func(tx *Tx) error {
			got, err := tx.Accounts(append(ids, "T-NONE"))
			if err != nil {
				return err
			}
			if len(got) != n {
				t.Errorf("%d accounts read, want %d", len(got), n)
			}
			for i, id := range ids {
				bal, open, err := tx.Account(id)
				if err != nil {
					return err
				}
				epoch, err := tx.Epoch(id)
				if err != nil {
					return err
				}
				want := AccountRow{Balance: int64(1000 + i), Open: i%3 != 0, Epoch: epoch}
				if got[id] != want || bal != want.Balance || open != want.Open {
					t.Fatalf("%s: Accounts %+v, Account %d %v, want %+v", id, got[id], bal, open, want)
				}
			}
			if got["T007"].Epoch != 1 {
				t.Errorf("T007's epoch %d, want 1", got["T007"].Epoch)
			}
			back, err := tx.Settlements("R1")
			if err != nil {
				return err
			}
			if len(back) != n {
				t.Fatalf("%d settlements read back, want %d", len(back), n)
			}
			for i, s := range back {
				if s != ss[i] {
					t.Fatalf("settlement %d: %+v, want %+v", i, s, ss[i])
				}
			}
			ss[5].Reversed, ss[5].Staked = true, 999 // written again: only reversed changes
			if err := tx.PutSettlements(ss[5:6]); err != nil {
				return err
			}
			back, err = tx.Settlements("R1")
			if err != nil {
				return err
			}
			if len(back) != n-1 {
				t.Errorf("%d live settlements after reversing one, want %d", len(back), n-1)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = l.Update(ctx, time.Now(), func(tx *Tx) error {
			return tx.SetAccounts([]AccountBalance{{Terminal: "T001", Balance: 5}, {Terminal: "T002", Balance: -1}})
		})
		if err == nil {
			t.Fatal("a balance below zero was written")
		}
		err = l.Update(ctx, time.Now(), func(tx *Tx) error {
			bal, _, err := tx.Account("T001")
			if err == nil && bal != 1001 {
				t.Errorf("T001's balance %d after a refused batch, want 1001", bal)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
