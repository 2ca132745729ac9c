package ledger

import (
	"context"
	"testing"
	"time"
)

// An account's epoch moves on at each close on both stores. On PostgreSQL the upsert's
// "epoch + 1" was ambiguous (the existing row's or the proposed one's) and every cash-out
// failed with SQLSTATE 42702 (found by loadgen -tables with -redemptions).
func TestNextEpochOnEveryStore(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		for want := int64(1); want <= 3; want++ {
			var got int64
			err := l.Update(context.Background(), time.Now(), func(tx *Tx) error {
				if err := tx.NextEpoch("T001"); err != nil {
					return err
				}
				var err error
				got, err = tx.Epoch("T001")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("epoch %d after %d closes", got, want)
			}
		}
	})
}
