package ledger

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// The seal reads and writes its MACs many rows to a statement (batches). A transaction that
// writes 341 rows of one table (256 + 64 + 16 + 4 + 1: every batch size), then one that changes
// some, deletes others and adds more, leaves a ledger that verifies, counts every live row
// once, and still catches a row edited behind its back.
func TestSealInBatches(t *testing.T) {
	for _, n := range []int{0, 1, 5, 255, 256, 341, 700} {
		sizes, sum := batches(n), 0
		for _, s := range sizes {
			if s != 256 && s != 64 && s != 16 && s != 4 && s != 1 {
				t.Errorf("batches(%d) has a statement of %d rows", n, s)
			}
			sum += s
		}
		if sum != n {
			t.Errorf("batches(%d) = %v: %d rows", n, sizes, sum)
		}
	}
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		ctx := context.Background()
		base, err := l.Verify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		update := func(fn func(tx *Tx) error) {
			t.Helper()
			if err := l.Update(ctx, time.Now(), fn); err != nil {
				t.Fatal(err)
			}
		}
		update(func(tx *Tx) error {
			for i := range 341 {
				if err := tx.PutSlip(Slip{Round: "R1", Terminal: fmt.Sprintf("T%03d", i), Version: 1, Wagers: []byte("[]"), Total: int64(i)}); err != nil {
					return err
				}
			}
			return nil
		})
		update(func(tx *Tx) error {
			for i := range 100 { // changed
				if err := tx.PutSlip(Slip{Round: "R1", Terminal: fmt.Sprintf("T%03d", i), Version: 2, Wagers: []byte("[]"), Total: int64(i + 1)}); err != nil {
					return err
				}
			}
			for i := 100; i < 120; i++ { // deleted
				if err := tx.DeleteSlip("R1", fmt.Sprintf("T%03d", i)); err != nil {
					return err
				}
			}
			for i := range 17 { // added
				if err := tx.PutSlip(Slip{Round: "R2", Terminal: fmt.Sprintf("T%03d", i), Version: 1, Wagers: []byte("[]"), Total: 1}); err != nil {
					return err
				}
			}
			return nil
		})
		rows, err := l.Verify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := base + 341 - 20 + 17; rows != want {
			t.Errorf("%d rows sealed, want %d", rows, want)
		}
		s.edit(t, `UPDATE slips SET total = 999 WHERE round = 'R1' AND terminal = 'T200'`)
		if _, err := l.Verify(ctx); !errors.Is(err, ErrTampered) {
			t.Errorf("a slip edited behind the ledger's back: %v", err)
		}
	})
}
