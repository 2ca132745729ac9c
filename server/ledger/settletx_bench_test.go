package ledger

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
)

// BenchmarkSettleTx1000 is the settlement's transaction alone, as server.settle writes it, on
// each store: 1,000 accounts read, each balance written, 1,000 settlements added and the house
// result's meter moved, then sealed and committed. It reports the transaction's parts, p50 over
// the iterations (Timing): rows-ms (the writes), seal-ms, commit-ms and tx-ms, their sum.
func BenchmarkSettleTx1000(b *testing.B) {
	benchStores(b, func(b *testing.B, l *Ledger) { benchSettleTx(b, l, 1000) })
}

// benchStores is stores for a benchmark.
func benchStores(b *testing.B, fn func(b *testing.B, l *Ledger)) {
	b.Run("sqlite", func(b *testing.B) {
		s := &store{name: "sqlite", dsn: b.TempDir() + "/table.db", tableID: "T1"}
		s.keyPath = KeyPath(s.dsn)
		fn(b, openBench(b, s))
	})
	b.Run("postgres", func(b *testing.B) {
		s := &store{name: "postgres", dsn: pgtest.DSN(b), keyPath: b.TempDir() + "/ledger.key", tableID: "T1"}
		fn(b, openBench(b, s))
	})
}

func openBench(b *testing.B, s *store) *Ledger {
	l, err := s.try()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	return l
}

func benchSettleTx(b *testing.B, l *Ledger, n int) {
	ctx := context.Background()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("T%04d", i)
	}
	if err := l.Update(ctx, time.Now(), func(tx *Tx) error {
		as := make([]AccountBalance, n)
		for i, id := range ids {
			as[i] = AccountBalance{Terminal: id, Balance: 1_000_000, Open: true}
		}
		return tx.SetAccounts(as)
	}); err != nil {
		b.Fatal(err)
	}
	var rows, seal, commit, total []time.Duration
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		var tm Timing
		round := fmt.Sprintf("R%06d", it)
		if err := l.Update(ctx, time.Now(), func(tx *Tx) error {
			tx.Time(&tm)
			accts, err := tx.Accounts(ids)
			if err != nil {
				return err
			}
			as := make([]AccountBalance, 0, n)
			ss := make([]Settlement, 0, n)
			var house int64
			for i, id := range ids {
				a := accts[id]
				delta := int64(-500)
				if (i+it)%7 == 0 {
					delta = 1200
				}
				house -= delta
				as = append(as, AccountBalance{Terminal: id, Balance: a.Balance + delta, Open: a.Open})
				ss = append(ss, Settlement{Round: round, Terminal: id, Generation: 1, Staked: 500, Returned: 500 + delta,
					Recognised: true, Outcome: "17", Epoch: a.Epoch})
			}
			if err := tx.SetAccounts(as); err != nil {
				return err
			}
			if err := tx.PutSettlements(ss); err != nil {
				return err
			}
			_, err = tx.AddMeter(MeterHouseResult, house)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		rows = append(rows, tm.Written.Sub(tm.Begin))
		seal = append(seal, tm.Sealed.Sub(tm.Written))
		commit = append(commit, tm.Committed.Sub(tm.Sealed))
		total = append(total, tm.Committed.Sub(tm.Begin))
	}
	b.StopTimer()
	p50 := func(ds []time.Duration) float64 {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	b.ReportMetric(p50(rows), "rows-ms")
	b.ReportMetric(p50(seal), "seal-ms")
	b.ReportMetric(p50(commit), "commit-ms")
	b.ReportMetric(p50(total), "tx-ms")
}
