package server

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// BenchmarkOutcomeFanoutCPU: 500 terminals, each watching over its own mutual-TLS connection
// and reading its events as the client does (wire.EventsOf), each with a slip; from the dealer's
// outcome to every terminal holding its Settled event. Reports the process's CPU for it per
// terminal (cpu-µs/terminal: the settlement transaction, the fan-out, gRPC and TLS on both
// ends, the terminals' decoding; server and terminals share this process, so only the
// difference between the two modes is the fan-out's), and the time to the last terminal
// (last-ms). "one-by-one" is a terminal that does not ask for batches (each event a message),
// "batches" one that does (the outcome, result phase and settlement as one message).
func BenchmarkOutcomeFanoutCPU(b *testing.B) {
	for _, mode := range []string{"one-by-one", "batches"} {
		b.Run(mode, func(b *testing.B) {
			const n = 500
			r, ids := newRig(b), make([]string, n)
			if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
				b.Fatal(err)
			}
			settled := make([]chan string, n) // the round of each Settled event a terminal reads
			for i := range ids {
				ids[i] = fmt.Sprintf("T%03d", i)
				c := r.terminal(ids[i])
				if err := r.buyIn(c, ids[i], "fund", 10_000_000); err != nil {
					b.Fatal(err)
				}
				sctx, cancel := context.WithCancel(context.Background())
				b.Cleanup(cancel)
				stream, err := c.Watch(sctx, &pb.WatchRequest{Batches: mode == "batches"})
				if err != nil {
					b.Fatal(err)
				}
				settled[i] = make(chan string, 16)
				go func() {
					layout := roulette.Layout{Wheel: roulette.SingleZero}
					for {
						msg, err := stream.Recv()
						if err != nil {
							return
						}
						evs, err := wire.EventsOf(msg, layout)
						if err != nil {
							b.Error(err)
							return
						}
						for _, ev := range evs {
							if s, ok := ev.(table.Settled); ok {
								settled[i] <- s.RoundID
							}
						}
					}
				}()
			}
			spots := r.table.layout.Spots()
			var cpu, last time.Duration
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				b.StopTimer()
				st, err := r.table.StartRound("dealer:bench")
				if err != nil {
					b.Fatal(err)
				}
				for i, id := range ids {
					w := []SlipWager{{Spec: roulette.Bet{Spot: spots[(i*7)%len(spots)]}.Spec(), Amount: 500}}
					if _, err := r.table.UpdateSlip(id, st.RoundId, 1, w); err != nil {
						b.Fatal(err)
					}
				}
				r.clock.Add(time.Minute)
				r.table.Advance(r.clock.Now())
				time.Sleep(50 * time.Millisecond) // the period's events read, so only the outcome's are measured
				var wg sync.WaitGroup
				arrived := make([]time.Time, n)
				for i := range ids {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for round := range settled[i] {
							if round == st.RoundId {
								arrived[i] = time.Now()
								return
							}
						}
					}()
				}
				b.StartTimer()
				before, start := processCPU(), time.Now()
				if _, err := r.table.EnterOutcome("dealer:bench", st.RoundId, fmt.Sprint(it%37)); err != nil {
					b.Fatal(err)
				}
				wg.Wait()
				cpu += processCPU() - before
				b.StopTimer()
				for _, a := range arrived {
					last = max(last, a.Sub(start))
				}
				r.clock.Add(time.Minute)
				r.table.Advance(r.clock.Now())
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*n), "cpu-µs/terminal")
			b.ReportMetric(float64(last.Microseconds())/1000, "last-ms")
		})
	}
}
