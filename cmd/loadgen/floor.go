package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// A floor (-tables N): N table servers in this process, each on its own port with its own
// -terminals terminals, their ledgers in one PostgreSQL database (each table's rows in its
// schema, the tickets the floor's). Every measured round runs at every table at once. Then
// -redemptions R: R tickets printed at table T1 are each redeemed at a terminal of another
// table while a terminal of a third table tries to redeem the same ticket at the same moment;
// exactly one of the two must be paid, every ticket must be paid once, and the ledgers must
// be conserved, each table's and the floor's.
//
// Terminal ids are unique across the floor here (T001… at T1, T101… at T2 with 100 terminals),
// which makes the report's lines easy to follow; the ledger would tell two tables' T001 apart
// anyway (a hold is the table's and the terminal's).

type floorTable struct {
	// paidIn is what the table paid its terminals for tickets other tables printed, paidOut
	// what other tables paid for tickets this one printed, as this tool saw them: the ledger's
	// own TicketsIn and TicketsOut must agree.
	paidIn, paidOut atomic.Int64
	id              string
	tb              *server.Table
	led             *ledger.Ledger
	terms           []*terminal
	procs           []*termProc
}

func runFloor(o options, out io.Writer) error {
	switch {
	case o.soak > 0 || o.abuse > 0:
		return errors.New("-tables: -soak and -abuse drive one table; not with a floor")
	case o.redemptions > 0 && o.tables < 3:
		return errors.New("-redemptions races two other tables for each ticket: it needs -tables 3 or more")
	case o.redemptions > 0 && o.redemptions > 2*o.terminals:
		return fmt.Errorf("-redemptions %d: T1's %d terminals print at most two tickets each", o.redemptions, o.terminals)
	case o.redemptions > 0 && 2*((o.redemptions+o.tables-2)/(o.tables-1)) > o.terminals:
		return fmt.Errorf("-redemptions %d: each ticket's two attempts need a terminal each, and %d tables of %d terminals have too few", o.redemptions, o.tables-1, o.terminals)
	}
	dsn, stopStore, err := o.store()
	if err != nil {
		return err
	}
	defer stopStore()
	if dsn == "" {
		return errors.New("-tables: a floor shares one PostgreSQL database (-db postgres://… or -pg-temp)")
	}
	dir, err := mkRunDir()
	if err != nil {
		return err
	}
	defer removeRunDir(dir)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	m, err := pki.NewMemory()
	if err != nil {
		return err
	}
	tlsCfg, err := m.ServerTLS()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recorder{out: out}
	tables := make([]*floorTable, o.tables)
	for i := range tables {
		ft := &floorTable{id: fmt.Sprintf("T%d", i+1)}
		tables[i] = ft
		if ft.led, err = openLedger(dsn, dir, ft.id); err != nil {
			return fmt.Errorf("table %s: %w", ft.id, err)
		}
		defer ft.led.Close()
		cfg := server.DefaultConfig()
		cfg.TableID = ft.id
		cfg.Period, cfg.SpinTime, cfg.ResultTime = o.period, 20*time.Millisecond, 20*time.Millisecond
		cfg.Limits.AggregateMin = 100
		// Room for a redeemed ticket on top of a terminal's own buy-in.
		cfg.Notes = server.DefaultNotes()
		cfg.Notes["load"], cfg.MaxBalance = 10_000_000, 100_000_000
		if ft.tb, err = server.NewTable(ctx, cfg, ft.led, time.Now, quiet); err != nil {
			return fmt.Errorf("table %s: %w", ft.id, err)
		}
		addr, stop, err := server.Listen(ft.tb, tlsCfg, "127.0.0.1:0", server.WithCutoff(server.CutoffBase))
		if err != nil {
			return err
		}
		defer stop()
		go ft.tb.Run(ctx)
		if _, err := ft.tb.OpenTable("dealer:loadgen", false); err != nil {
			return err
		}
		first := i * o.terminals
		if o.terminalProcs > 0 {
			ft.procs, err = startTermProcsFrom(m, dir, addr, o, first, ft.id)
			for _, p := range ft.procs {
				defer p.Close()
			}
			if err != nil {
				return err
			}
			continue
		}
		for j := range o.terminals {
			id := fmt.Sprintf("T%03d", first+j+1)
			ccfg, err := m.ClientTLS(pki.RoleTerminal, id)
			if err != nil {
				return err
			}
			t, err := dialTerminal(ctx, id, addr, ccfg, o.jitter, quiet)
			if err != nil {
				return fmt.Errorf("table %s: %w", ft.id, err)
			}
			defer t.c.Close()
			ft.terms = append(ft.terms, t)
		}
	}
	fmt.Fprintf(out, "loadgen: a floor of %d tables × %d terminals, %.0f slip updates/s each, period %v, ledgers on %s\n",
		o.tables, o.terminals, o.rate, o.period, storeName(dsn))

	spots := roulette.Layout{Wheel: roulette.SingleZero}.Spots()
	var settleLat stats
	cpuBefore := cpuTime()
	var childCPU atomic.Int64
	for round := range o.rounds {
		var wg sync.WaitGroup
		errs := make([]error, len(tables))
		for i, ft := range tables {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cpu, err := ft.round(ctx, o, spots, rec, &settleLat)
				childCPU.Add(int64(cpu))
				errs[i] = err
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		fmt.Fprintf(out, "round %d settled at %d tables\n", round+1, len(tables))
	}
	fmt.Fprintf(out, "cpu of this process over the measured rounds: %v\n", (cpuTime() - cpuBefore).Round(time.Millisecond))
	if o.terminalProcs > 0 {
		fmt.Fprintf(out, "cpu of the terminal processes over the measured rounds: %v\n", time.Duration(childCPU.Load()).Round(time.Millisecond))
	}
	fmt.Fprintf(out, "slip round-trip:                 %v\n", &rec.slipRTT)
	fmt.Fprintf(out, "outcome to settled balance:      %v\n", &settleLat)
	fmt.Fprintf(out, "lock before the server deadline: %v\n", &rec.lockEarly)

	if o.redemptions > 0 {
		if o.terminalProcs > 0 {
			return errors.New("-redemptions uses the terminals of this process: not with -terminal-procs")
		}
		if err := redeemAcross(ctx, tables, o.redemptions, out, rec); err != nil {
			return err
		}
	}

	// Each table's ledger counts the tickets that crossed tables itself (TicketsIn, TicketsOut);
	// what this tool saw its terminals paid is the independent check on those counts.
	var all []ledger.Conservation
	conserved := true
	for _, ft := range tables {
		c, err := ft.tb.Conservation()
		if err != nil {
			return err
		}
		counted := c.TicketsIn == ft.paidIn.Load() && c.TicketsOut == ft.paidOut.Load()
		fmt.Fprintf(out, "ledger %s: %v (conserved: %v); tickets paid across tables seen here +%d in, −%d out (the ledger's counts agree: %v)\n",
			ft.id, c, c.Holds(), ft.paidIn.Load(), ft.paidOut.Load(), counted)
		conserved = conserved && c.Holds() && counted
		all = append(all, c)
	}
	floor, err := ledger.Sum(all...)
	if err != nil {
		return fmt.Errorf("the floor's books: %w", err)
	}
	fmt.Fprintf(out, "ledger of the floor: %v (conserved: %v)\n", floor, floor.Holds())
	conserved = conserved && floor.Holds()
	fmt.Fprintf(out, "errors: %d\n", rec.errors.Load())
	if !conserved || rec.errors.Load() > 0 {
		return fmt.Errorf("%d errors, conserved %v", rec.errors.Load(), conserved)
	}
	return nil
}

// round runs one measured round at the table; it returns the CPU its terminal processes spent.
func (ft *floorTable) round(ctx context.Context, o options, spots []roulette.Spot, rec *recorder, settle *stats) (time.Duration, error) {
	st, err := ft.tb.StartRound("dealer:loadgen")
	if err != nil {
		return 0, fmt.Errorf("table %s: %w", ft.id, err)
	}
	deadline := time.Unix(0, st.DeadlineUnixNanos)
	for _, p := range ft.procs {
		if err := p.startRound(st.RoundId, deadline); err != nil {
			return 0, err
		}
	}
	wagerAll(ctx, ft.terms, st.RoundId, deadline, o.rate, spots, rec)
	for _, p := range ft.procs {
		if err := p.awaitWagered(); err != nil {
			return 0, err
		}
	}
	n := roulette.SingleZero.Order()[rand.IntN(37)]
	start := time.Now()
	if _, err := ft.tb.EnterOutcome("dealer:loadgen", st.RoundId, n.String()); err != nil {
		return 0, fmt.Errorf("table %s: %w", ft.id, err)
	}
	for _, t := range ft.terms {
		if at, ok := t.awaitSettled(10 * time.Second); ok {
			settle.add(at.Sub(start))
		} else {
			rec.fail("%s at %s: no settlement of %s", t.id, ft.id, st.RoundId)
		}
	}
	var cpu time.Duration
	for _, p := range ft.procs {
		r, err := p.awaitResult()
		if err != nil {
			return cpu, err
		}
		r.mergeInto(rec, settle, start)
		cpu += r.CPU
	}
	return cpu, nil
}

// redeemAcross prints n tickets at the floor's first table (each of its terminals cashes out,
// buys in again and cashes out again as needed) and has each redeemed by two terminals of two
// other tables at once. Exactly one of each pair must be paid the ticket's amount; the other
// must be refused.
func redeemAcross(ctx context.Context, tables []*floorTable, n int, out io.Writer, rec *recorder) error {
	type ticket struct {
		validation string
		amount     int64
	}
	issuer := tables[0]
	var tickets []ticket
	for cycle := 0; len(tickets) < n; cycle++ {
		for _, t := range issuer.terms {
			if len(tickets) == n {
				break
			}
			if cycle > 0 {
				key := fmt.Sprintf("rebuy-%d", cycle)
				if err := t.c.ReportNoteEscrow(ctx, key, 10_000_000, "load"); err != nil {
					return fmt.Errorf("%s: note escrow: %w", t.id, err)
				}
				if _, err := t.c.CreditNote(ctx, key, 10_000_000, "load"); err != nil {
					return fmt.Errorf("%s: credit: %w", t.id, err)
				}
			}
			tk, err := t.c.CashOut(ctx, fmt.Sprintf("cash-out-%d", cycle))
			if err != nil {
				return fmt.Errorf("%s: cash out: %w", t.id, err)
			}
			if _, err := t.c.TicketPrinted(ctx, fmt.Sprintf("printed-%d", cycle), tk.Validation); err != nil {
				return fmt.Errorf("%s: ticket printed: %w", t.id, err)
			}
			tickets = append(tickets, ticket{tk.Validation, tk.Amount})
		}
	}
	others := tables[1:]
	var paid, refused atomic.Int64
	wins := make([]atomic.Int64, len(tickets))
	var lat stats
	var wg sync.WaitGroup
	startAll := make(chan struct{})
	// Each attempt has a terminal of its own: a terminal redeems one ticket at a time, and one
	// refused for holding another ticket would not be the race this measures.
	next := make([]int, len(others))
	pick := func(j int) (*terminal, error) {
		if next[j] == len(others[j].terms) {
			return nil, fmt.Errorf("-redemptions %d: %s has too few terminals for an attempt each", len(tickets), others[j].id)
		}
		next[j]++
		return others[j].terms[next[j]-1], nil
	}
	for k, tk := range tickets {
		// Two terminals of two different tables, neither the issuer.
		a, b := k%len(others), (k+1)%len(others)
		ta, err := pick(a)
		if err != nil {
			return err
		}
		tb, err := pick(b)
		if err != nil {
			return err
		}
		at := map[*terminal]*floorTable{ta: others[a], tb: others[b]}
		for _, who := range []*terminal{ta, tb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-startAll
				start := time.Now()
				amount, err := who.c.RedeemTicket(ctx, "redeem-"+tk.validation, tk.validation)
				if err != nil {
					refused.Add(1) // the other terminal holds it, or has been paid it
					return
				}
				if amount != tk.amount {
					rec.fail("%s: ticket %s of %d offered for %d", who.id, tk.validation, tk.amount, amount)
				}
				if _, err := who.c.CommitRedeem(ctx, "commit-"+tk.validation, tk.validation); err != nil {
					rec.fail("%s: commit redeem of %s: %v", who.id, tk.validation, err)
					return
				}
				lat.add(time.Since(start))
				at[who].paidIn.Add(tk.amount)
				issuer.paidOut.Add(tk.amount)
				wins[k].Add(1)
				paid.Add(1)
			}()
		}
	}
	close(startAll)
	wg.Wait()
	twice := 0
	for k := range wins {
		if w := wins[k].Load(); w != 1 {
			rec.fail("ticket %s was paid %d times", tickets[k].validation, w)
			if w > 1 {
				twice++
			}
		}
	}
	fmt.Fprintf(out, "redemptions: %d tickets printed at %s, each raced by terminals of two other tables: %d paid, %d refused, %d paid twice\n",
		len(tickets), issuer.id, paid.Load(), refused.Load(), twice)
	fmt.Fprintf(out, "ticket redemption (redeem + commit): %v\n", &lat)
	if paid.Load() != int64(len(tickets)) {
		rec.fail("%d tickets paid of %d", paid.Load(), len(tickets))
	}
	return nil
}
