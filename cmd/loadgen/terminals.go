package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
)

// A load terminal and what it does in a measured round, shared by the terminals run in
// loadgen's own process and those run in terminal processes (termproc.go), so that both
// measure the same thing the same way.

type terminal struct {
	id   string
	card string // the player card its wagers carry ("" none; -carded)
	c    *client.Client
	// settled is signalled with the receive time of each Settled event.
	settled chan time.Time
	phases  chan table.PhaseChanged
	// dropHeard is when the terminal heard the ball-drop end the period (unix nanoseconds), 0
	// before it: -wheel's measure, reset each round.
	dropHeard atomic.Int64
}

// presentCard tells the table that the player's card (-carded) was read at the seat, as the
// kiosk does when the player inserts it on sitting down (app/card.go): the seat holds the card
// from then on, so each round opened after it reserves the seat's allowance on the card
// (server/carded.go) and the seat's first slip of a round makes no store call.
func (t *terminal) presentCard(ctx context.Context) error {
	if t.card == "" {
		return nil
	}
	st, err := t.c.PresentCard(ctx, t.card)
	switch {
	case err != nil:
		return fmt.Errorf("%s: presenting card %s: %w", t.id, t.card, err)
	case st.Card != t.card:
		return fmt.Errorf("%s: card %s not held at the seat: %s", t.id, t.card, st.RefusalWords)
	}
	return nil
}

// dialTerminal connects a terminal (over mutual TLS, with jitter on its link if asked), waits
// for its Watch stream and buys in with one "load" note of 100,000.00.
func dialTerminal(ctx context.Context, id, addr string, tlsCfg *tls.Config, jitter time.Duration, log *slog.Logger) (*terminal, error) {
	var dialOpts []grpc.DialOption
	if jitter > 0 {
		dialOpts = append(dialOpts, grpc.WithContextDialer(func(ctx context.Context, a string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", a)
			if err != nil {
				return nil, err
			}
			return jitterConn{c, jitter}, nil
		}))
	}
	c, err := client.Dial(client.Config{Addr: addr, TLS: tlsCfg, Logger: log, DialOptions: dialOpts, CallTimeout: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	t := &terminal{id: id, c: c, settled: make(chan time.Time, 4096), phases: make(chan table.PhaseChanged, 4096)}
	go func() {
		for ev := range c.Events() {
			switch e := ev.(type) {
			case table.Settled:
				t.settled <- time.Now()
			case table.PhaseChanged:
				if e.BallDropping && e.Phase == table.PhaseNoMoreBets {
					t.dropHeard.Store(time.Now().UnixNano())
				}
				t.phases <- e
			}
		}
	}()
	for !c.Connected() {
		time.Sleep(2 * time.Millisecond)
	}
	if err := c.ReportNoteEscrow(ctx, "buy-in", 10_000_000, "load"); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: note escrow: %w", id, err)
	}
	if _, err := c.CreditNote(ctx, "buy-in", 10_000_000, "load"); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: credit: %w", id, err)
	}
	return t, nil
}

// recorder collects what the terminals of one process measure.
type recorder struct {
	slipRTT, lockEarly stats
	slips              slipLog // each slip's send time beside its round trip (-slow-report)
	childGC            []int64 // the terminal processes' GC completions (-slow-report), merged by one goroutine
	errors             atomic.Int64
	mu                 sync.Mutex
	out                io.Writer // error lines, written one at a time
	wheel              *wheelRig // -wheel: the emulated wheel ending the period early, nil without
}

func (r *recorder) fail(format string, a ...any) {
	r.errors.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.out, format+"\n", a...)
}

// wager waits for round roundID's wagering period and sends slip updates at rate a second,
// each a slip of up to 20 wagers, until the terminal locks; then waits for "no more bets".
// deadline is the server's, read by the caller off the round it started: how early the
// terminal locks before it is exact because every process here reads the machine's one clock.
func (t *terminal) wager(ctx context.Context, roundID string, deadline time.Time, rate float64, spots []roulette.Spot, rec *recorder) {
	ph := <-t.phases
	for ph.Phase != table.PhaseWagering || ph.RoundID != roundID {
		ph = <-t.phases
	}
	lock := t.c.LockAt(ph.Deadline)
	rec.lockEarly.add(deadline.Sub(lock))
	interval := time.Duration(float64(time.Second) / rate)
	next := time.Now().Add(time.Duration(rand.Int64N(int64(interval))))
	var bets []table.SlipBet
	for version := uint64(1); ; version++ {
		time.Sleep(time.Until(next))
		next = next.Add(interval)
		if !time.Now().Before(lock) || t.dropHeard.Load() != 0 {
			break // the period has ended: at the deadline, or at the wheel's ball-drop
		}
		bets = append(bets, table.SlipBet{Bet: roulette.Bet{Spot: spots[rand.IntN(len(spots))]}, Amount: 100, Card: t.card})
		if len(bets) > 20 {
			bets = bets[1:]
		}
		start := time.Now()
		_, err := t.c.UpdateSlip(ctx, roundID, version, bets)
		if err != nil {
			if time.Now().Before(deadline) && !rec.wheel.refusedByDrop() {
				rec.fail("%s: slip v%d: %v", t.id, version, err)
			}
			continue
		}
		rtt := time.Since(start)
		rec.slipRTT.add(rtt)
		rec.slips.add(start, rtt)
	}
}

// awaitNoMoreBets waits for the terminal to hear that the wagering period has ended.
func (t *terminal) awaitNoMoreBets() {
	for ph := <-t.phases; ph.Phase != table.PhaseNoMoreBets; ph = <-t.phases {
	}
}

// awaitSettled is when the terminal received its Settled event; false if none came in time.
func (t *terminal) awaitSettled(timeout time.Duration) (time.Time, bool) {
	select {
	case at := <-t.settled:
		return at, true
	case <-time.After(timeout):
		return time.Time{}, false
	}
}

// wagerAll runs one round's wagering on every terminal at once and returns once each has heard
// "no more bets".
func wagerAll(ctx context.Context, terms []*terminal, roundID string, deadline time.Time, rate float64, spots []roulette.Spot, rec *recorder) {
	var wg sync.WaitGroup
	for _, t := range terms {
		wg.Add(1)
		go func() { defer wg.Done(); t.wager(ctx, roundID, deadline, rate, spots, rec) }()
	}
	wg.Wait()
	for _, t := range terms {
		t.awaitNoMoreBets()
	}
}
