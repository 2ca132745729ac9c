package ledger

import (
	"context"
	"testing"
)

// An account's epoch counts its closes on both stores. On PostgreSQL "SET epoch = epoch + 1" in
// an upsert is ambiguous (the table's column or the excluded row's), so every cash-out failed
// there: found by the crash harness's -kill floor.
func TestNextEpochOnBothStores(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		ctx := context.Background()
		for want := int64(1); want <= 3; want++ {
			var got int64
			err := l.Update(ctx, now, func(tx *Tx) error {
				if err := tx.NextEpoch("T01"); err != nil {
					return err
				}
				var err error
				got, err = tx.Epoch("T01")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("epoch after %d closes: %d", want, got)
			}
		}
	})
}
