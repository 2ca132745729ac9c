package server

import (
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/pgtest"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// benchTerminals is the load: 100 terminals on one table.
const benchTerminals = 100

// benchTable opens a table with n funded terminals, each watching (so each is connected), and
// a wagering period that the fake clock never ends.
func benchTable(b *testing.B, n int) (*rig, []pb.TerminalServiceClient, []*watcher, string) {
	b.Helper()
	r := newRig(b)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		b.Fatal(err)
	}
	terms := make([]pb.TerminalServiceClient, n)
	watchers := make([]*watcher, n)
	for i := range terms {
		terms[i] = r.terminal(fmt.Sprintf("T%03d", i))
		if err := r.buyIn(terms[i], fmt.Sprintf("T%03d", i), "fund", 1_000_000); err != nil {
			b.Fatal(err)
		}
		watchers[i] = r.watch(terms[i])
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		b.Fatal(err)
	}
	return r, terms, watchers, st.RoundId
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[int(float64(len(d)-1)*p)]
}

// BenchmarkSlipRoundTrip: 100 terminals over real loopback mutual TLS update their slips at the
// same time; each update is acknowledged only once it is durable in the SQLite file
// (WAL, synchronous=FULL; slips are written by the close of the period). Reports the round-trip p50/p99 seen by the terminals.
func BenchmarkSlipRoundTrip(b *testing.B) {
	r, terms, _, round := benchTable(b, benchTerminals)
	per := max(b.N/len(terms), 1)
	lat := make([][]time.Duration, len(terms))
	var wg sync.WaitGroup
	// Each terminal sends about 10 updates a second, as the load does.
	const interval = 100 * time.Millisecond
	b.ResetTimer()
	for i, c := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * interval / time.Duration(len(terms))) // spread the terminals out
			tick := time.NewTicker(interval)
			defer tick.Stop()
			for v := 1; v <= per; v++ {
				<-tick.C
				start := time.Now()
				_, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: uint64(v),
					Wagers: []*pb.Wager{straight(fmt.Sprint(v%37), 100), {Kind: pb.BetKind_BET_KIND_RED, Amount: int64(100 * (1 + v%5))}}})
				if err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(start))
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	b.ReportMetric(float64(percentile(all, 0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(all, 0.99).Microseconds())/1000, "p99-ms")
	r.conserved()
}

// BenchmarkSettlementFanout: 100 watching terminals with slips; from the dealer's outcome call
// to each terminal's Settled event. Reports p50/p99 over all terminals and rounds.
func BenchmarkSettlementFanout(b *testing.B) {
	r, terms, watchers, round := benchTable(b, benchTerminals)
	var all, calls []time.Duration
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		if n > 0 {
			st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
			if err != nil {
				b.Fatal(err)
			}
			round = st.RoundId
		}
		for _, c := range terms {
			if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1,
				Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 500}}}); err != nil {
				b.Fatal(err)
			}
		}
		r.clock.Add(time.Minute)
		r.table.Advance(r.clock.Now())
		got := make([]time.Duration, len(watchers))
		var wg sync.WaitGroup
		start := time.Now()
		for i, w := range watchers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.until(b, func(ev *pb.TableEvent) bool { return ev.GetSettled().GetRoundId() == round })
				got[i] = time.Since(start)
			}()
		}
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: fmt.Sprint(n % 37)}); err != nil {
			b.Fatal(err)
		}
		calls = append(calls, time.Since(start))
		wg.Wait()
		all = append(all, got...)
		r.clock.Add(time.Minute)
		r.table.Advance(r.clock.Now())
	}
	b.StopTimer()
	b.ReportMetric(float64(percentile(all, 0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(all, 0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(percentile(calls, 0.50).Microseconds())/1000, "outcome-call-p50-ms")
	r.conserved()
}

// engineTable is a table of n funded terminals driven through the engine's own methods, not
// gRPC: what the benchmarks below measure is the table's cost (the ledger and the fan-out onto
// the Watch streams' queues), not the cost of n TLS clients in the benchmark's own process.
// Every terminal has a subscriber whose queue a goroutine drains, as a Watch stream does.
func engineTable(b testing.TB, n int) (*rig, []string, []*subscriber) {
	return engineTableOn(b, n, false)
}

// engineTableOn is engineTable with the ledger on PostgreSQL when pg (internal/pgtest's
// throwaway cluster, which runs without fsync: what it shows is the statements' cost).
func engineTableOn(b testing.TB, n int, pg bool) (*rig, []string, []*subscriber) {
	b.Helper()
	config := func(c *Config) {
		c.Notes = DefaultNotes()
		c.Notes["load"], c.MaxBalance = 10_000_000, 10_000_000
	}
	var r *rig
	if pg {
		r = newPGRig(b, pgtest.DSN(b), filepath.Join(b.TempDir(), "floor.key"), config)
	} else {
		r = newRigWith(b, config)
	}
	if _, err := r.table.OpenTable("dealer:bench", false); err != nil {
		b.Fatal(err)
	}
	ids := make([]string, n)
	subs := make([]*subscriber, n)
	for i := range ids {
		id := fmt.Sprintf("T%04d", i)
		ids[i] = id
		if err := r.table.RegisterTerminal(id); err != nil {
			b.Fatal(err)
		}
		if _, err := r.table.ReportNoteEscrow(id, &pb.NoteEscrowRequest{IdempotencyKey: "buy-in", Amount: 10_000_000, NoteCode: "load"}); err != nil {
			b.Fatal(err)
		}
		if _, err := r.table.CreditNote(id, &pb.CreditNoteRequest{IdempotencyKey: "buy-in", Amount: 10_000_000, NoteCode: "load"}); err != nil {
			b.Fatal(err)
		}
		subs[i], _ = r.table.Subscribe(id)
	}
	b.Cleanup(func() {
		for _, s := range subs {
			r.table.Unsubscribe(s)
		}
	})
	return r, ids, subs
}

// BenchmarkSettle1000: the 1,000 terminals, each with a slip of a few wagers, from the
// dealer's outcome to the last terminal's Settled event on its stream's queue. Reports the
// whole (settled-p50/p99-ms) and its part in EnterOutcome (outcome-call-ms: the one settlement
// transaction, its commit and the fan-out), one round per iteration.
func BenchmarkSettle1000(b *testing.B) { benchSettle(b, 1000, false) }

// BenchmarkSettle1000Postgres is BenchmarkSettle1000 with the ledger on PostgreSQL.
func BenchmarkSettle1000Postgres(b *testing.B) { benchSettle(b, 1000, true) }

func benchSettle(b *testing.B, n int, pg bool) {
	r, ids, subs := engineTableOn(b, n, pg)
	spots := r.table.layout.Spots()
	var last, calls, rows, seal, commit []time.Duration
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		b.StopTimer()
		st, err := r.table.StartRound("dealer:bench")
		if err != nil {
			b.Fatal(err)
		}
		for i, id := range ids {
			w := make([]SlipWager, 5)
			for k := range w {
				w[k] = SlipWager{Spec: roulette.Bet{Spot: spots[(i*7+k*31)%len(spots)]}.Spec(), Amount: 100 * int64(k+1)}
			}
			if _, err := r.table.UpdateSlip(id, st.RoundId, 1, w); err != nil {
				b.Fatal(err)
			}
		}
		r.clock.Add(time.Minute)
		r.table.Advance(r.clock.Now())
		for _, s := range subs { // the period's events, so that only the settlement is waited for
			for len(s.ch) > 0 {
				<-s.ch
			}
		}
		var wg sync.WaitGroup
		arrived := make([]time.Time, n)
		for i, s := range subs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for entry := range s.ch {
					for _, ev := range entry {
						if e, ok := ev.ev.(table.Settled); ok && e.RoundID == st.RoundId {
							arrived[i] = time.Now()
							return
						}
					}
				}
			}()
		}
		b.StartTimer()
		start := time.Now()
		if _, err := r.table.EnterOutcome("dealer:bench", st.RoundId, fmt.Sprint(it%37)); err != nil {
			b.Fatal(err)
		}
		calls = append(calls, time.Since(start))
		wg.Wait()
		b.StopTimer()
		for _, a := range arrived {
			last = append(last, a.Sub(start))
		}
		if tr := r.table.LastSettleTrace(); tr != nil {
			rows = append(rows, tr.Ledger.Written.Sub(tr.Ledger.Begin))
			seal = append(seal, tr.Ledger.Sealed.Sub(tr.Ledger.Written))
			commit = append(commit, tr.Ledger.Committed.Sub(tr.Ledger.Sealed))
		}
		r.clock.Add(time.Minute)
		r.table.Advance(r.clock.Now())
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(percentile(last, 0.50).Microseconds())/1000, "settled-p50-ms")
	b.ReportMetric(float64(percentile(last, 0.99).Microseconds())/1000, "settled-p99-ms")
	// The transaction's parts (ledger.Timing), p50: the rows written, the seal, the commit.
	b.ReportMetric(float64(percentile(rows, 0.50).Microseconds())/1000, "rows-ms")
	b.ReportMetric(float64(percentile(seal, 0.50).Microseconds())/1000, "seal-ms")
	b.ReportMetric(float64(percentile(commit, 0.50).Microseconds())/1000, "commit-ms")
	b.ReportMetric(float64(percentile(calls, 0.50).Microseconds())/1000, "outcome-call-ms")
	r.conserved()
}

// BenchmarkPriceSlip20: pricing loadgen's slip update — 20 wagers, the oldest off the front and
// one more at the end — with the acknowledged slip's parsed bets at hand (reuse, as UpdateSlip
// does) and without (anew, as before).
func BenchmarkPriceSlip20(b *testing.B) {
	r, ids, _ := engineTable(b, 1)
	st, err := r.table.StartRound("dealer:bench")
	if err != nil {
		b.Fatal(err)
	}
	spots := r.table.layout.Spots()
	wagers := make([]SlipWager, 21)
	for i := range wagers {
		wagers[i] = SlipWager{Spec: roulette.Bet{Spot: spots[(i*13)%len(spots)]}.Spec(), Amount: 100}
	}
	if _, err := r.table.UpdateSlip(ids[0], st.RoundId, 1, wagers[:20]); err != nil {
		b.Fatal(err)
	}
	r.table.mu.Lock()
	in, err := r.table.slipInputs(r.table.now(), ids[0], st.RoundId, 2, 20, "")
	r.table.mu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		prev *slip
	}{{"reuse", in.prev}, {"anew", nil}} {
		b.Run(c.name, func(b *testing.B) {
			in := in
			in.prev = c.prev
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.table.priceSlip(in, 2, wagers[1:]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSlipCPU: the CPU a slip update costs over real loopback mutual TLS, by the unary
// UpdateSlip and on the Slips stream, from 20 terminals sending slips of up to 20 wagers (one
// added and the oldest dropped each time, as loadgen's terminals do) one after another. The
// figure, cpu-µs/slip, is this process's user+system CPU per slip: the table server's and the
// 20 raw gRPC clients' together (the terminals' own share of it is small beside the kiosk's
// client, which also decodes the reply). Unlike a latency it hardly moves with the machine's
// load, so unary and stream compare at the same moment.
func BenchmarkSlipCPU(b *testing.B) {
	for _, mode := range []string{"unary", "stream"} {
		b.Run(mode, func(b *testing.B) {
			r := newRigWith(b, nil, WithCallRate(1e9, 1e9))
			if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
				b.Fatal(err)
			}
			const n = 20
			terms := make([]pb.TerminalServiceClient, n)
			for i := range terms {
				id := fmt.Sprintf("T%03d", i)
				terms[i] = r.terminal(id)
				if err := r.buyIn(terms[i], id, "fund", 10_000_000); err != nil {
					b.Fatal(err)
				}
			}
			st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
			if err != nil {
				b.Fatal(err)
			}
			per := max(b.N/n, 1)
			var wg sync.WaitGroup
			b.ResetTimer()
			before := processCPU()
			for _, c := range terms {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var stream pb.TerminalService_SlipsClient
					if mode == "stream" {
						if stream, err = c.Slips(ctx); err != nil {
							b.Error(err)
							return
						}
						defer stream.CloseSend()
					}
					var ws []*pb.Wager
					for v := 1; v <= per; v++ {
						ws = append(ws, straight(fmt.Sprint(v%37), 100))
						if len(ws) > 20 {
							ws = ws[1:]
						}
						req := &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: uint64(v), Wagers: ws}
						var res *pb.UpdateSlipResponse
						if stream == nil {
							res, err = c.UpdateSlip(ctx, req)
						} else if err = stream.Send(req); err == nil {
							res, err = stream.Recv()
						}
						if err != nil || res.Code != 0 {
							b.Errorf("slip v%d: %v %v", v, res, err)
							return
						}
					}
				}()
			}
			wg.Wait()
			cpu := processCPU() - before
			b.StopTimer()
			b.ReportMetric(float64(cpu.Microseconds())/float64(per*n), "cpu-µs/slip")
		})
	}
}

// processCPU is the user and system CPU this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
