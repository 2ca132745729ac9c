package demo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/pki"
)

// The demo's dealer on stdin, beside the device commands (devices.go): what a dealer and a
// supervisor do at a table's console, typed on the kiosk's stdin so a journey through the real
// window (cmd/kioskprobe) can choose an outcome, correct it, hold a result on the screen or run
// a tournament instead of waiting for the demo's clock. Each goes through the embedded table's
// own dealer calls (the auto-dealer's, the console's), never around them, and is audited under
// the demo's dealer (DealerActor) or supervisor (SupervisorActor): the table's audit log says
// the demo's stdin did it.
//
//	outcome N              the wheel's sensors read N at the next read (0, 00, 1–36)
//	outcome red|green|…    … the number of that colour's Lucky Ball in this round's draw
//	spin                   the ball drops now: no more bets; the wheel reads half a spin later
//	hold                   the auto-dealer stops: the result stays until deal
//	deal                   the auto-dealer deals again: the next round opens now
//	correct N              the supervisor corrects the result showing to N (001 §9.4)
//	draw                   the round's Lucky Ball numbers and their odds
//	tournament open [R]    the demo tournament (demoTournament) of R rounds (1), on this seat
//	tournament close       the Director concludes (or cancels) it
//
// The words are the dealer's: a note acceptor command ("note 2000", "jam"…) is none of them.

// The actors the demo's dealer commands are audited as.
const (
	DealerActor     = pki.RoleDealer + ":demo-dealer"
	SupervisorActor = pki.RoleSupervisor + ":" + Supervisor
)

// dealerCmd is one parsed dealer command.
type dealerCmd struct {
	verb   string          // outcome, spin, hold, deal, correct, draw, tournament
	number roulette.Number // outcome, correct: the number
	colour string          // outcome: the Lucky Ball colour whose number is read ("" a number)
	action string          // tournament: open | close
	rounds int             // tournament open: its rounds
	reason string          // tournament close: why
}

// dealerVerbs are the first words of the dealer's commands.
var dealerVerbs = map[string]bool{"outcome": true, "spin": true, "hold": true, "deal": true, "correct": true, "draw": true, "tournament": true}

// parseDealer parses line as a dealer command on wheel w. ok is false when the line is not one
// (its first word is not a dealer's: a device's command); err says what is wrong with one.
func parseDealer(line string, w roulette.Wheel) (c dealerCmd, ok bool, err error) {
	f := strings.Fields(line)
	if len(f) == 0 || !dealerVerbs[f[0]] {
		return dealerCmd{}, false, nil
	}
	c.verb = f[0]
	args := f[1:]
	want := func(n int, usage string) error {
		if len(args) != n {
			return fmt.Errorf("%s: usage: %s", c.verb, usage)
		}
		return nil
	}
	number := func(s string) (roulette.Number, error) {
		n, err := roulette.ParseNumber(s)
		if err != nil || !w.Has(n) {
			return 0, fmt.Errorf("%s: %q is not a number of this %v wheel", c.verb, s, w)
		}
		return n, nil
	}
	switch c.verb {
	case "outcome":
		if err := want(1, "outcome N (a number of the wheel) or outcome red|green|blue|yellow (the Lucky Ball's)"); err != nil {
			return c, true, err
		}
		if _, err := roulette.ParseBallColour(args[0]); err == nil {
			c.colour = args[0]
			return c, true, nil
		}
		c.number, err = number(args[0])
		return c, true, err
	case "correct":
		if err := want(1, "correct N (the number the result is corrected to)"); err != nil {
			return c, true, err
		}
		c.number, err = number(args[0])
		return c, true, err
	case "spin", "hold", "deal", "draw":
		return c, true, want(0, c.verb+" (no arguments)")
	case "tournament":
		if len(args) == 0 {
			return c, true, errors.New("tournament: usage: tournament open [ROUNDS] | tournament close [REASON]")
		}
		c.action = args[0]
		switch c.action {
		case "open":
			c.rounds = 1
			if len(args) > 2 {
				return c, true, errors.New("tournament open: usage: tournament open [ROUNDS]")
			}
			if len(args) == 2 {
				n, err := strconv.Atoi(args[1])
				if err != nil || n < 1 || n > table.MaxTournamentRounds {
					return c, true, fmt.Errorf("tournament open: %q rounds: want 1 to %d", args[1], table.MaxTournamentRounds)
				}
				c.rounds = n
			}
			return c, true, nil
		case "close":
			c.reason = strings.Join(args[1:], " ")
			if c.reason == "" {
				c.reason = "the demo's dealer closed it"
			}
			return c, true, nil
		}
		return c, true, fmt.Errorf("tournament: unknown action %q (open, close)", c.action)
	}
	return c, true, fmt.Errorf("%s: not a dealer command", c.verb)
}

// dealer runs c at the demo's table and says what it did.
func (d *Demo) dealer(c dealerCmd) (string, error) {
	t := d.table.Table
	switch c.verb {
	case "outcome":
		n := c.number
		if c.colour != "" {
			draw, ok := t.CurrentDraw()
			if !ok {
				return "", fmt.Errorf("outcome %s: this round has no Lucky Ball draw (a star table draws it as the round opens)", c.colour)
			}
			col, _ := roulette.ParseBallColour(c.colour)
			n = draw.Numbers[col]
		}
		d.croupier.setNext(n)
		if c.colour != "" {
			return fmt.Sprintf("the wheel reads %s next (the %s ball's number)", n, c.colour), nil
		}
		return fmt.Sprintf("the wheel reads %s next", n), nil
	case "spin":
		id, ph := t.CurrentRound()
		if ph != table.PhaseWagering {
			return "", fmt.Errorf("spin: no round is taking bets (round %q is %v)", id, ph)
		}
		d.croupier.spinNow(id)
		return "the ball drops in round " + id, nil
	case "hold":
		if _, err := t.OpenTable(DealerActor, false); err != nil {
			return "", fmt.Errorf("hold: %w", err)
		}
		return "the auto-dealer holds: the result stays until deal", nil
	case "deal":
		if _, err := t.OpenTable(DealerActor, true); err != nil {
			return "", fmt.Errorf("deal: %w", err)
		}
		return "the auto-dealer deals", nil
	case "correct":
		id, _ := t.CurrentRound()
		if _, err := t.CorrectOutcome(SupervisorActor, "", c.number.String()); err != nil {
			return "", fmt.Errorf("correct: %w", err)
		}
		return fmt.Sprintf("round %s corrected to %s", id, c.number), nil
	case "draw":
		draw, ok := t.CurrentDraw()
		if !ok {
			return "", errors.New("draw: this round has no Lucky Ball draw")
		}
		return describeDraw(draw), nil
	case "tournament":
		return d.tournament(c)
	}
	return "", fmt.Errorf("%s: not a dealer command", c.verb)
}

// describeDraw says a draw's numbers and what each colour pays: "red 14 at 5:1, …".
func describeDraw(draw roulette.LuckyBallDraw) string {
	parts := make([]string, 0, 4)
	for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
		parts = append(parts, fmt.Sprintf("%s %s at %d:1", c, draw.Numbers[c], draw.Odds(c)))
	}
	return strings.Join(parts, ", ")
}

// demoTournament is the demo tournament's terms, of rounds rounds: one seat may play it alone
// (and take the whole pool), every wager at least 10 chips of its 1,000.
func demoTournament(rounds int, now time.Time) table.TournamentTerms {
	return table.TournamentTerms{
		// An id the ledger has not recorded (a demo may run many): the time it was opened.
		ID: "DEMO-" + now.UTC().Format("20060102-150405.000"), Name: "Demo Cup",
		Terms:    "The demo's tournament: every seat starts with 1,000 chips; wager at least 10 chips a round; the most chips after the last round wins the whole prize pool.",
		EntryFee: 5000, AddedPrize: 5000, StartingChips: 100000, Rounds: rounds, Minimums: []int64{1000},
		Prizes: []int64{100}, MinPlayers: 1, MaxPlayers: 8,
	}
}

// tournament opens or closes the demo tournament on the demo's seat.
func (d *Demo) tournament(c dealerCmd) (string, error) {
	t := d.table.Table
	switch c.action {
	case "open":
		terms := demoTournament(c.rounds, time.Now())
		if _, err := t.ConfigureTournament(SupervisorActor, terms); err != nil {
			return "", fmt.Errorf("tournament open: %w", err)
		}
		if _, err := t.OpenTournament(SupervisorActor, []string{d.terminal}); err != nil {
			// Not left configured: the next open configures afresh.
			_, _ = t.CloseTournament(SupervisorActor, "the demo's open failed: "+err.Error())
			return "", fmt.Errorf("tournament open: %w", err)
		}
		return fmt.Sprintf("tournament %s open on %s: %d rounds, 1,000 chips, prize pool 100.00", terms.ID, d.terminal, c.rounds), nil
	case "close":
		tr, err := t.CloseTournament(SupervisorActor, c.reason)
		if err != nil {
			return "", fmt.Errorf("tournament close: %w", err)
		}
		return fmt.Sprintf("tournament %s %s", tr.Terms.ID, tr.Status), nil
	}
	return "", fmt.Errorf("tournament: unknown action %q", c.action)
}
