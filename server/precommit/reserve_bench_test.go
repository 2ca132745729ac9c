package precommit

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

// BenchmarkReserve500Seats is what a round's open adds on a carded table of 500 seats each
// holding a card (server/carded.go reserveCards): one transaction reserving every seat's
// allowance (LedgerStore.ReserveIn), on a SQLite ledger as a table alone has. It reports the
// transaction's p50 and p99 besides the mean; each round's reservations are released (as the
// settlement would) outside the timing.
func BenchmarkReserve500Seats(b *testing.B) {
	const seats = 500
	l, err := ledger.OpenWith(filepath.Join(b.TempDir(), "t.db"), "")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	s := &LedgerStore{L: l}
	holds := make([]Hold, seats)
	for i := range holds {
		holds[i] = Hold{Card: fmt.Sprintf("C%04d", i), Table: "T1", Terminal: fmt.Sprintf("T%03d", i+1)}
		if _, err := s.Register(ctx, holds[i].Card, Registered, "cashier C1: passport X1", t0); err != nil {
			b.Fatal(err)
		}
		if _, err := s.SetLimits(ctx, holds[i].Card, Limits{Loss: 100000, Time: 3 * time.Hour, Bar: BarDay}, t0); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Claim(ctx, holds[i].Card, holds[i].Seat(), t0); err != nil {
			b.Fatal(err)
		}
	}
	var took []time.Duration
	b.ResetTimer()
	for n := range b.N {
		round := fmt.Sprintf("R%06d", n+1)
		now := t0.Add(time.Duration(n) * time.Minute)
		start := time.Now()
		err := l.Update(ctx, now, func(tx *ledger.Tx) error {
			for _, h := range holds {
				h.Round = round
				if _, amount, err := s.ReserveIn(tx, h, now); err != nil || amount != 100000 {
					return fmt.Errorf("%s: reserved %d: %v", h.Key(), amount, err)
				}
			}
			return nil
		})
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := l.Update(ctx, now, func(tx *ledger.Tx) error {
			for _, h := range holds {
				h.Round = round
				if _, err := s.VoidIn(tx, h, Played{}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	slices.Sort(took)
	q := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}
