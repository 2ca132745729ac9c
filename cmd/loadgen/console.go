package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/console/model"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// -console N (issue 28): the dealer's console drives N rounds at the table, each action a
// touch would send (console/model, over its own mutual-TLS connection with a dealer's
// certificate, its WatchTable stream attached as on a real console), and each is timed from
// the call to every terminal having heard it: Start the round → each terminal's wagering
// phase; No more bets → each terminal's "no more bets"; the outcome → each terminal's result
// phase (the outcome on its screen). The figures are every terminal's (all), and the last terminal's of each action
// (the dealer's "every terminal shows it").
func consoleRounds(ctx context.Context, n int, m *pki.Memory, addr string, tb *server.Table, terms []*terminal, out io.Writer) error {
	tlsCfg, err := m.ClientTLS(pki.RoleDealer, "console")
	if err != nil {
		return err
	}
	con, err := model.Dial(model.Config{Addr: addr, TLS: tlsCfg, CallTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	defer con.Close()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go con.Run(cctx)
	for deadline := time.Now().Add(10 * time.Second); !con.View().Up; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("-console: the console's stream did not start: %s", con.View().Lost)
		}
	}
	var all, last [3]stats // start, no more bets, outcome
	names := [3]string{"start the round", "no more bets", "outcome"}
	// heard waits for every terminal to hear what pred accepts, and records each one's time
	// from start.
	heard := func(i int, start time.Time, pred func(table.PhaseChanged) bool) error {
		var ds []time.Duration
		for _, t := range terms {
			select {
			case ph := <-t.phases:
				for !pred(ph) {
					select {
					case ph = <-t.phases:
					case <-time.After(10 * time.Second):
						return fmt.Errorf("%s: %s not heard", t.id, names[i])
					}
				}
				ds = append(ds, time.Since(start))
			case <-time.After(10 * time.Second):
				return fmt.Errorf("%s: %s not heard", t.id, names[i])
			}
		}
		all[i].addAll(ds)
		last[i].add(slices.Max(ds))
		return nil
	}
	for range n {
		for _, t := range terms { // what the rounds before left unread
			drainPhases(t)
		}
		start := time.Now()
		if err := con.StartRound(ctx); err != nil {
			return fmt.Errorf("-console: start: %s", model.Refusal(err))
		}
		var round string
		if err := heard(0, start, func(ph table.PhaseChanged) bool { round = ph.RoundID; return ph.Phase == table.PhaseWagering }); err != nil {
			return err
		}
		for deadline := time.Now().Add(5 * time.Second); con.View().RoundID != round; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				return fmt.Errorf("-console: the console never showed the round")
			}
		}
		start = time.Now()
		if err := con.NoMoreBets(ctx); err != nil {
			return fmt.Errorf("-console: no more bets: %s", model.Refusal(err))
		}
		if err := heard(1, start, func(ph table.PhaseChanged) bool { return ph.Phase == table.PhaseNoMoreBets }); err != nil {
			return err
		}
		start = time.Now()
		if err := con.Outcome(ctx, fmt.Sprint(time.Now().UnixNano()%37)); err != nil {
			return fmt.Errorf("-console: outcome: %s", model.Refusal(err))
		}
		// Every terminal is told the result phase after the outcome (with its settlement, if
		// it had wagers): the outcome is on its screen then.
		if err := heard(2, start, func(ph table.PhaseChanged) bool { return ph.Phase == table.PhaseResult }); err != nil {
			return err
		}
	}
	c, err := tb.Conservation()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "console: %d rounds dealt from the console at %d terminals; the ledger conserved: %v\n", n, len(terms), c.Holds())
	for i := range names {
		fmt.Fprintf(out, "console: %-18s every terminal: %v\n", names[i], &all[i])
		fmt.Fprintf(out, "console: %-18s last terminal:  %v\n", names[i], &last[i])
	}
	if !c.Holds() {
		return fmt.Errorf("-console: the ledger does not conserve: %v", c)
	}
	return nil
}

func drainPhases(t *terminal) {
	for {
		select {
		case <-t.phases:
		default:
			return
		}
	}
}
