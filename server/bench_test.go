package server

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

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
		if _, err := creditNote(ctx, terms[i], &pb.CreditNoteRequest{IdempotencyKey: "fund", Amount: 1_000_000}); err != nil {
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
