// Command loadgen drives a table with headless terminals and measures it: slip round-trip
// latency under load, the time from the outcome to every terminal's settled balance, how early
// each terminal locks before the server's deadline (with optional jitter injected on each
// terminal's link), and a soak of auto-dealt rounds that checks the ledger is conserved.
//
// The table server runs in-process on a loopback TCP socket with real mutual TLS and a real
// ledger — a SQLite file, or with -db postgres://… (or -pg-temp, a throwaway durable cluster)
// the table's schema of a PostgreSQL database; every terminal is a real client.Client over its
// own connection.
//
//	go run ./cmd/loadgen -terminals 100 -rate 10 -period 30s -rounds 1 -soak 1000
//
// -terminal-procs N runs the measured terminals in N processes of their own (termproc.go): in
// one process the terminals' own TLS and gRPC take as much CPU as the server, and their figures
// are then the machine's, not the server's. The machine's cores are still shared.
//
//	go run ./cmd/loadgen -terminals 500 -rate 10 -period 20s -rounds 2 -terminal-procs 2
//
// -tables N runs a floor (floor.go): N table servers on one PostgreSQL, every round at once at
// each, and -redemptions R races terminals of two other tables for each of R tickets printed at
// the first, checking each is paid exactly once and every ledger, and the floor's, is conserved.
//
//	go run ./cmd/loadgen -tables 10 -terminals 100 -rate 5 -period 15s -rounds 1 -pg-temp -redemptions 200
//
// -abuse N adds N abusive terminals (abuse.go) that flood the table with maximal and oversized
// slips, several at once, while the others are measured; -abuse-process runs each in its own
// process (abuseproc.go).
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
	"github.com/tablegames/ats/server/precommit"
)

type options struct {
	console    int // -console: rounds dealt from the dealer's console (console.go)
	terminals  int
	rate       float64
	period     time.Duration
	rounds     int
	soak       int
	soakPeriod time.Duration
	jitter     time.Duration
	abuse      int
	// abuseProcess runs each abusive terminal as its own process (abuseproc.go), with
	// GOMAXPROCS abuseProcs when positive.
	abuseProcess bool
	abuseProcs   int
	// terminalProcs, when positive, runs the measured terminals in that many processes of their
	// own (termproc.go), so this process's CPU is the server's alone.
	terminalProcs int
	// db is the ledger's store: "" for a SQLite file in the run's directory, or a postgres://
	// DSN (the table's rows in schema table_t1, the floor's in floor). pgTemp starts a
	// throwaway PostgreSQL cluster for the run instead (internal/pgtest).
	db     string
	pgTemp bool
	// tables, when more than 1, runs a floor (floor.go): that many table servers sharing the
	// one PostgreSQL database, each with terminals terminals; redemptions tickets printed at
	// the first are raced for by terminals of two others.
	tables, redemptions int
	hostile             abuseOpts // how each abusive terminal behaves
	noCutoff            bool      // the server never cuts a terminal off (to measure without the cut-off)
	// callRate and callBurst, when positive, replace the server's per-terminal call rate: a
	// test under the race detector lowers it so its slowed abuser still crosses it.
	callRate, callBurst float64
	// strikes and strikeRate, when positive, replace the server's cut-off strikes and the
	// refusals a second it forgives (server.WithCutoffStrikes), for the same reason.
	strikes, strikeRate float64
	// cpuProfile is the server's CPU profile file (-cpuprofile); each terminal process of
	// -terminal-procs writes its own beside it (FILE.T1-terminals-1, …).
	cpuProfile string
	// slowReport reports what the slowest 1 % of slips have in common (slow.go).
	slowReport bool
	// carded runs the table carded (SPEC §10, server/carded.go): each terminal's slips carry
	// a card of its own, registered with limits no slip of the run reaches, so every slip is
	// staked on its card: the cost of binding pre-commitment on the slip's round trip. Each
	// terminal presents its card when it connects, as the kiosk does when the player inserts
	// it, so the seats hold their cards when the first measured round opens.
	carded bool

	// wheel ends each measured period with the emulated wheel's ball-drop (wheel.go).
	wheel bool
}

func main() {
	// The table server's collector settings, as cmd/tableserver runs it (server.TuneGC; GOGC
	// and GOMEMLIMIT override them). The terminal processes run with them too: 500 terminals
	// in one process are a heap no kiosk has, and their collections would be counted as the
	// table's slip latency.
	server.TuneGC()
	if len(os.Args) > 1 && os.Args[1] == terminalChildFlag {
		if err := terminalChild(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen terminals:", err)
			os.Exit(1)
		}
		return
	}
	var o options
	flag.IntVar(&o.terminals, "terminals", 100, "headless terminals")
	flag.Float64Var(&o.rate, "rate", 10, "slip updates per second per terminal")
	flag.DurationVar(&o.period, "period", 30*time.Second, "wagering period of the measured rounds")
	flag.IntVar(&o.rounds, "rounds", 1, "measured rounds")
	flag.IntVar(&o.soak, "soak", 0, "auto-dealt rounds to soak after the measured rounds")
	flag.DurationVar(&o.soakPeriod, "soak-period", 400*time.Millisecond, "wagering period of the soak rounds")
	flag.DurationVar(&o.jitter, "jitter", 0, "random delay up to this on each direction of every terminal's link")
	flag.IntVar(&o.abuse, "abuse", 0, "abusive terminals sending maximal and oversized slips in parallel through each measured period")
	flag.BoolVar(&o.abuseProcess, "abuse-process", false, "run each abusive terminal as a separate process (as a hostile cabinet on its own machine would be), not in this one")
	flag.IntVar(&o.abuseProcs, "abuse-gomaxprocs", 0, "GOMAXPROCS of each abusive terminal's process with -abuse-process (0: Go's default)")
	flag.BoolVar(&o.hostile.redial, "abuse-redial", false, "an abusive terminal cut off (or disconnected) reconnects at once, again and again, ignoring gRPC's backoff")
	flag.Float64Var(&o.hostile.rate, "abuse-rate", 0, "slips a second each abusive terminal sends (0: as fast as it can); 60 keeps one just under the server's cut-off (its rate of 50 a second and 10 refusals a second forgiven)")
	flag.BoolVar(&o.noCutoff, "no-cutoff", false, "the server never cuts off a terminal that keeps calling over its rate (its calls over the rate are still refused): to measure without the cut-off")
	flag.IntVar(&o.terminalProcs, "terminal-procs", 0, "run the measured terminals in this many processes of their own (0: in this one), so the server's figures are not the terminals' own TLS and gRPC; not with -soak")
	flag.StringVar(&o.db, "db", "", "the ledger: a postgres:// DSN of an empty database (default: a SQLite file in a temporary directory)")
	flag.BoolVar(&o.pgTemp, "pg-temp", false, "start a throwaway PostgreSQL cluster (initdb and pg_ctl in a temporary directory; durable: fsync on) and put the ledger in it")
	flag.IntVar(&o.tables, "tables", 1, "table servers on one floor (more than 1: each with -terminals terminals and its own port, all on the one PostgreSQL of -db or -pg-temp)")
	flag.IntVar(&o.redemptions, "redemptions", 0, "with -tables 3 or more: tickets printed at table T1, each redeemed at once by terminals of two other tables (exactly one must be paid)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of this process (the server, and the terminals unless -terminal-procs) to this file; with -terminal-procs each terminal process writes its own to FILE.T1-terminals-N")
	flag.BoolVar(&o.carded, "carded", false, "run the table carded: every terminal presents a registered card under its limits on connecting and its slips carry it (not with -tables or -soak)")
	flag.BoolVar(&o.slowReport, "slow-report", false, "report when the slowest 1% of slips were sent: by second of the period, in flight across a GC of the server or of a terminal process, bunched in 10-ms windows")
	flag.BoolVar(&o.wheel, "wheel", false, "end each measured period half-way with the emulated wheel's ball-drop over a pty (the real driver, the table following it) and measure ball-drop to every terminal locked; the number is read by both sensors and confirmed")
	flag.IntVar(&o.console, "console", 0, "deal this many rounds from the dealer's console (console/model, its WatchTable stream attached) instead of the measured rounds, and time each action to every terminal having heard it (issue 28)")
	child := flag.Bool("abuse-child", false, "internal: run as the abusive terminal process of -abuse-process")
	childAddr := flag.String("abuse-addr", "", "internal: the table server's address, with -abuse-child")
	childCerts := flag.String("abuse-certs", "", "internal: the directory of the abuser's certificate, with -abuse-child")
	childID := flag.String("abuse-id", "", "internal: the abuser's terminal id, with -abuse-child")
	flag.Parse()
	o.cpuProfile = *cpuProfile
	if *child {
		if err := abuseChild(*childAddr, *childCerts, *childID, o.hostile, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen abuser:", err)
			os.Exit(1)
		}
		return
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(o, os.Stdout); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// jitterConn delays each write and each read by a random time up to max, so both directions of
// the link see jitter.
type jitterConn struct {
	net.Conn
	max time.Duration
}

func (c jitterConn) delay() {
	if c.max > 0 {
		time.Sleep(time.Duration(rand.Int64N(int64(c.max))))
	}
}

func (c jitterConn) Write(b []byte) (int, error) { c.delay(); return c.Conn.Write(b) }
func (c jitterConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.delay()
	return n, err
}

type stats struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *stats) add(d time.Duration) { s.mu.Lock(); s.d = append(s.d, d); s.mu.Unlock() }

func (s *stats) addAll(d []time.Duration) { s.mu.Lock(); s.d = append(s.d, d...); s.mu.Unlock() }

// values is a copy of the samples.
func (s *stats) values() []time.Duration { s.mu.Lock(); defer s.mu.Unlock(); return slices.Clone(s.d) }

func (s *stats) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.d) == 0 {
		return "no samples"
	}
	slices.Sort(s.d)
	q := func(p float64) time.Duration { return s.d[min(len(s.d)-1, int(p*float64(len(s.d))))] }
	return fmt.Sprintf("n=%d min=%v p50=%v p95=%v p99=%v max=%v", len(s.d), s.d[0], q(0.50), q(0.95), q(0.99), s.d[len(s.d)-1])
}

// settleBreakdown says where one round's outcome → settled time went, each time from the
// dealer's EnterOutcome call: the table's lock taken, the settlement transaction begun, its
// rows written, sealed, committed; every Settled event queued; the call returned; the first
// and last event written to its stream by the server; the first and last terminal to receive
// its own.
func settleBreakdown(start time.Time, returned time.Duration, tr *server.SettleTrace, received []time.Duration) string {
	ms := func(at time.Time) string { return fmt.Sprintf("%.1f", float64(at.Sub(start).Microseconds())/1000) }
	sent, first, last := tr.Sent()
	slices.Sort(received)
	recv := "none"
	if len(received) > 0 {
		recv = fmt.Sprintf("%.1f–%.1f", float64(received[0].Microseconds())/1000, float64(received[len(received)-1].Microseconds())/1000)
	}
	return fmt.Sprintf("settlement ms from the outcome: locked %s, tx begun %s, rows written %s (%s), sealed %s (%s), committed %s (%s), "+
		"queued %s, call returned %.1f; sent %d of %d: first %s, last %s; received %s",
		ms(tr.Locked), ms(tr.Ledger.Begin), ms(tr.Ledger.Written), dur(tr.Ledger.Written.Sub(tr.Ledger.Begin)),
		ms(tr.Ledger.Sealed), dur(tr.Ledger.Sealed.Sub(tr.Ledger.Written)), ms(tr.Ledger.Committed), dur(tr.Ledger.Committed.Sub(tr.Ledger.Sealed)),
		ms(tr.Queued), float64(returned.Microseconds())/1000, sent, tr.Events, ms(first), ms(last), recv)
}

func dur(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func run(o options, out io.Writer) error {
	if o.terminalProcs > 0 && o.soak > 0 {
		return fmt.Errorf("-soak drives the terminals of this process: it cannot be combined with -terminal-procs")
	}
	if o.wheel && (o.terminalProcs > 0 || o.tables > 1) {
		return fmt.Errorf("-wheel measures the terminals of this process at one table: not with -terminal-procs or -tables")
	}
	if o.tables > 1 {
		return runFloor(o, out)
	}
	if o.redemptions > 0 {
		return fmt.Errorf("-redemptions: tickets are redeemed across the tables of a floor (-tables 3 or more)")
	}
	dir, err := mkRunDir()
	if err != nil {
		return err
	}
	defer removeRunDir(dir)
	dsn, stopStore, err := o.store()
	if err != nil {
		return err
	}
	defer stopStore()
	led, err := openLedger(dsn, dir, "T1")
	if err != nil {
		return err
	}
	defer led.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := server.DefaultConfig()
	cfg.Period, cfg.SpinTime, cfg.ResultTime = o.period, 20*time.Millisecond, 20*time.Millisecond
	cfg.Limits.AggregateMin = 100
	// Each load terminal buys in once with one "load" note of 100,000.00: the table credits only
	// notes of its currency table, so the load test's note is in it.
	cfg.Notes = server.DefaultNotes()
	cfg.Notes["load"], cfg.MaxBalance = 10_000_000, 10_000_000
	cfg.Carded = o.carded
	if o.carded && (o.tables > 1 || o.soak > 0) {
		return errors.New("-carded runs one table, no soak")
	}
	tb, err := server.NewTable(context.Background(), cfg, led, time.Now, quiet)
	if err != nil {
		return err
	}
	m, err := pki.NewMemory()
	if err != nil {
		return err
	}
	tlsCfg, err := m.ServerTLS()
	if err != nil {
		return err
	}
	cutoff := server.CutoffBase
	if o.noCutoff {
		cutoff = 0
	}
	serverOpts := []server.Option{server.WithCutoff(cutoff)}
	if o.callRate > 0 {
		serverOpts = append(serverOpts, server.WithCallRate(o.callRate, o.callBurst))
	}
	if o.strikes > 0 {
		serverOpts = append(serverOpts, server.WithCutoffStrikes(o.strikes, o.strikeRate))
	}
	addr, stop, err := server.Listen(tb, tlsCfg, "127.0.0.1:0", serverOpts...)
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go tb.Run(ctx)
	if _, err := tb.OpenTable("dealer:loadgen", false); err != nil {
		return err
	}

	where := "in this process"
	if o.terminalProcs > 0 {
		where = fmt.Sprintf("in %d terminal processes", o.terminalProcs)
	}
	fmt.Fprintf(out, "loadgen: %d terminals (%s), %.0f slip updates/s each, period %v, jitter %v, server %s, ledger on %s\n", o.terminals, where, o.rate, o.period, o.jitter, addr, storeName(dsn))
	rec := &recorder{out: out}
	if o.wheel {
		if rec.wheel, err = startWheel(ctx, tb, roulette.SingleZero); err != nil {
			return err
		}
		defer rec.wheel.Close()
	}
	var dropLock, dropAll stats // -wheel: ball-drop to each terminal locked, and to the last of a round's
	var terms []*terminal
	var procs []*termProc
	if o.terminalProcs > 0 {
		if o.carded { // each child's terminals wager with the card registered for them here
			for i := range o.terminals {
				if err := registerLoadCard(led, loadCard(fmt.Sprintf("T%03d", i+1))); err != nil {
					return err
				}
			}
		}
		procs, err = startTermProcs(m, dir, addr, o)
		for _, p := range procs {
			defer p.Close()
		}
		if err != nil {
			return err
		}
	} else {
		for i := range o.terminals {
			id := fmt.Sprintf("T%03d", i+1)
			ccfg, err := m.ClientTLS(pki.RoleTerminal, id)
			if err != nil {
				return err
			}
			if o.carded {
				if err := registerLoadCard(led, loadCard(id)); err != nil {
					return err
				}
			}
			t, err := dialTerminal(ctx, id, addr, ccfg, o.jitter, quiet)
			if err != nil {
				return err
			}
			defer t.c.Close()
			if o.carded {
				t.card = loadCard(id)
				if err := t.presentCard(ctx); err != nil {
					return err
				}
			}
			terms = append(terms, t)
		}
	}

	if o.console > 0 {
		if o.terminalProcs > 0 {
			return errors.New("-console times the terminals of this process: not with -terminal-procs")
		}
		return consoleRounds(ctx, o.console, m, addr, tb, terms, out)
	}

	var abusers []abuseRunner
	for i := range o.abuse {
		id := fmt.Sprintf("X%03d", i+1)
		var a abuseRunner
		if o.abuseProcess {
			a, err = startAbuseProc(m, dir, id, addr, o.abuseProcs, o.hostile)
		} else {
			var ccfg *tls.Config
			if ccfg, err = m.ClientTLS(pki.RoleTerminal, id); err == nil {
				a, err = newAbuser(ctx, id, addr, ccfg, o.hostile)
			}
		}
		if err != nil {
			return err
		}
		defer a.Close()
		abusers = append(abusers, a)
	}

	layout := roulette.Layout{Wheel: roulette.SingleZero}
	spots := layout.Spots()
	var settleLat stats
	// The CPU this process spends on the measured rounds: the server, the measured terminals
	// (unless they run in their own processes) and an in-process abuser. Unlike the latencies
	// it hardly depends on what else the machine runs, so it shows what an abuser costs even
	// on a busy machine.
	var gc *gcWatch
	var periods []period
	if o.slowReport {
		gc = watchGC()
		defer gc.Stop()
	}
	cpuBefore := cpuTime()
	var childCPU time.Duration
	// The round's open: under -carded it reserves every seat's allowance on its card in the
	// transaction that opens the round (server/carded.go); the seats hold their cards from
	// connecting (presentCard).
	var openLat stats
	for round := range o.rounds {
		slipsBefore := len(rec.slipRTT.values())
		opening := time.Now()
		st, err := tb.StartRound("dealer:loadgen")
		if err != nil {
			return err
		}
		openLat.add(time.Since(opening))
		deadline := time.Unix(0, st.DeadlineUnixNanos)
		periods = append(periods, period{deadline.Add(-o.period).UnixNano(), deadline.UnixNano()})
		var abuseWG sync.WaitGroup
		for _, a := range abusers {
			abuseWG.Add(1)
			go func() { defer abuseWG.Done(); a.run(ctx, st.RoundId, deadline) }()
		}
		for _, p := range procs {
			if err := p.startRound(st.RoundId, deadline); err != nil {
				return err
			}
		}
		type dropped struct {
			at  time.Time
			err error
		}
		drop := make(chan dropped, 1)
		if rec.wheel != nil {
			for _, t := range terms {
				t.dropHeard.Store(0)
			}
			if err := rec.wheel.launch(); err != nil {
				return err
			}
			go func() {
				time.Sleep(o.period / 2)
				at, err := rec.wheel.drop()
				drop <- dropped{at, err}
			}()
		}
		wagerAll(ctx, terms, st.RoundId, deadline, o.rate, spots, rec)
		if rec.wheel != nil {
			d := <-drop
			if d.err != nil {
				return d.err
			}
			var last time.Duration
			for _, t := range terms {
				heard := t.dropHeard.Load()
				if heard == 0 {
					rec.fail("%s: the period of %s ended without the ball-drop", t.id, st.RoundId)
					continue
				}
				l := time.Unix(0, heard).Sub(d.at)
				dropLock.add(l)
				last = max(last, l)
			}
			dropAll.add(last)
		}
		for _, p := range procs {
			if err := p.awaitWagered(); err != nil {
				return err
			}
		}
		abuseWG.Wait()
		n := layout.Wheel.Order()[rand.IntN(37)]
		start := time.Now()
		if rec.wheel != nil {
			if start, err = rec.wheel.settle(tb, st.RoundId, n); err != nil {
				return err
			}
		} else if _, err := tb.EnterOutcome("dealer:loadgen", st.RoundId, n.String()); err != nil {
			return err
		}
		returned := time.Since(start)
		var roundLat stats
		for _, t := range terms {
			if at, ok := t.awaitSettled(10 * time.Second); ok {
				roundLat.add(at.Sub(start))
			} else {
				rec.fail("%s: no settlement of %s", t.id, st.RoundId)
			}
		}
		for _, p := range procs {
			r, err := p.awaitResult()
			if err != nil {
				return err
			}
			r.mergeInto(rec, &roundLat, start)
			childCPU += r.CPU
		}
		settleLat.addAll(roundLat.values())
		fmt.Fprintf(out, "round %d (%s) opened in %v, outcome %v settled\n", round+1, st.RoundId, openLat.values()[round].Round(10*time.Microsecond), n)
		roundSlips := stats{d: rec.slipRTT.values()[slipsBefore:]}
		fmt.Fprintf(out, "  its slips' round-trip: %v\n", &roundSlips)
		if tr := tb.LastSettleTrace(); tr != nil && tr.Round == st.RoundId {
			fmt.Fprintf(out, "  %s\n", settleBreakdown(start, returned, tr, roundLat.values()))
		}
	}
	serverCPU := cpuTime() - cpuBefore
	fmt.Fprintf(out, "cpu of this process over the measured rounds: %v\n", serverCPU.Round(time.Millisecond))
	if len(procs) > 0 {
		fmt.Fprintf(out, "cpu of the terminal processes over the measured rounds: %v\n", childCPU.Round(time.Millisecond))
		// Per slip acknowledged: every CPU second of the measured rounds (settlement, Watch
		// and clock syncs included) divided by the slips, so before/after compare like for like.
		if n := len(rec.slipRTT.values()); n > 0 {
			fmt.Fprintf(out, "cpu per slip: %.0f µs this process (the table server), %.0f µs the terminal processes\n",
				float64(serverCPU.Microseconds())/float64(n), float64(childCPU.Microseconds())/float64(n))
		}
	}
	fmt.Fprintf(out, "slip round-trip:                 %v\n", &rec.slipRTT)
	fmt.Fprintf(out, "outcome to settled balance:      %v\n", &settleLat)
	fmt.Fprintf(out, "round open (StartRound):         %v\n", &openLat)
	fmt.Fprintf(out, "lock before the server deadline: %v\n", &rec.lockEarly)
	if rec.wheel != nil {
		fmt.Fprintf(out, "ball-drop to terminal locked:    %v\n", &dropLock)
		fmt.Fprintf(out, "ball-drop to every terminal locked (the last of each round): %v\n", &dropAll)
	}
	if gc != nil {
		at, rtt := rec.slips.values()
		slowReport(out, at, rtt, periods, gc.Ends(), rec.childGC)
	}
	for _, a := range abusers {
		fmt.Fprintf(out, "abusive terminal %v\n", a)
	}

	if o.soak > 0 {
		if err := soak(ctx, o, tb, terms, spots, out, &rec.errors); err != nil {
			return err
		}
	}
	c, err := tb.Conservation()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "ledger: %v (conserved: %v)\n", c, c.Holds())
	fmt.Fprintf(out, "errors: %d\n", rec.errors.Load())
	if !c.Holds() || rec.errors.Load() > 0 {
		return fmt.Errorf("%d errors, conserved %v", rec.errors.Load(), c.Holds())
	}
	return nil
}

// soak lets the auto-dealer run o.soak short rounds; every terminal bets once per round.
func soak(ctx context.Context, o options, tb *server.Table, terms []*terminal, spots []roulette.Spot, out io.Writer, errs *atomic.Int64) error {
	if _, err := tb.SetWageringPeriod("dealer:loadgen", o.soakPeriod); err != nil {
		return err
	}
	for _, t := range terms {
		for len(t.settled) > 0 {
			<-t.settled
		}
	}
	begin := time.Now()
	if _, err := tb.OpenTable("dealer:loadgen", true); err != nil {
		return err
	}
	var wg sync.WaitGroup
	var settledRounds atomic.Int64
	for _, t := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := 0
			for done < o.soak {
				select {
				case ph := <-t.phases:
					if ph.Phase != table.PhaseWagering {
						continue
					}
					bets := []table.SlipBet{{Bet: roulette.Bet{Spot: spots[rand.IntN(len(spots))]}, Amount: 100},
						{Bet: roulette.Bet{Call: roulette.Tier}, Amount: 100}}
					if _, err := t.c.UpdateSlip(ctx, ph.RoundID, 1, bets); err != nil {
						errs.Add(1)
						fmt.Fprintf(out, "%s: soak slip %s: %v\n", t.id, ph.RoundID, err)
					}
				case <-t.settled:
					done++
					settledRounds.Add(1)
				case <-time.After(30 * time.Second):
					errs.Add(1)
					fmt.Fprintf(out, "%s: soak stalled after %d rounds\n", t.id, done)
					return
				}
			}
		}()
	}
	wg.Wait()
	c, err := tb.Conservation()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "soak: %d auto-dealt rounds with %d terminals in %v; %d settlements; conserved %v\n",
		o.soak, len(terms), time.Since(begin).Round(time.Millisecond), settledRounds.Load(), c.Holds())
	return nil
}

// mkRunDir makes the run's directory (ledger files, keys, certificates), under $LOADGEN_DIR if
// set; removeRunDir removes it.
func mkRunDir() (string, error) { return os.MkdirTemp(os.Getenv("LOADGEN_DIR"), "loadgen") }

func removeRunDir(dir string) { os.RemoveAll(dir) }

// store is the DSN of the run's ledgers ("" for SQLite files in the run's directory) and what
// stops it when the run ends.
func (o options) store() (string, func(), error) {
	switch {
	case o.pgTemp && o.db != "":
		return "", nil, fmt.Errorf("-db and -pg-temp: one or the other")
	case o.pgTemp:
		dsn, stop, err := pgtest.Temp()
		if err != nil {
			return "", nil, fmt.Errorf("-pg-temp: %w", err)
		}
		return dsn, stop, nil
	case o.db != "" && !ledger.IsPostgres(o.db):
		return "", nil, fmt.Errorf("-db %q: a postgres:// DSN (SQLite, the default, needs no -db)", o.db)
	}
	return o.db, func() {}, nil
}

// openLedger opens table tableID's ledger: a SQLite file in dir, or its schema of the
// PostgreSQL database dsn, the floor's rows sealed under one key shared by the floor's tables.
func openLedger(dsn, dir, tableID string) (*ledger.Ledger, error) {
	if dsn == "" {
		name := "table.db"
		if tableID != "T1" {
			name = strings.ToLower(tableID) + ".db"
		}
		return ledger.Open(filepath.Join(dir, name))
	}
	return ledger.OpenStore(context.Background(), ledger.StoreConfig{DSN: dsn, TableID: tableID,
		KeyPath: filepath.Join(dir, tableID+".key"), FloorKeyPath: filepath.Join(dir, "floor.key")})
}

func storeName(dsn string) string {
	if dsn == "" {
		return "SQLite"
	}
	return "PostgreSQL"
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// registerLoadCard registers a load terminal's card with limits no run reaches.
// loadCard is the player card terminal id's wagers carry under -carded.
func loadCard(id string) string { return "LOAD-" + id }

func registerLoadCard(led *ledger.Ledger, card string) error {
	s := &precommit.LedgerStore{L: led}
	now := time.Now()
	if _, err := s.Register(context.Background(), card, precommit.Registered, "loadgen", now); err != nil {
		return err
	}
	_, err := s.SetLimits(context.Background(), card, precommit.Limits{Loss: 1 << 40, Time: 1000 * time.Hour, Bar: precommit.BarDay}, now)
	return err
}
