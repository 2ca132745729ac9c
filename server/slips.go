package server

import (
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// SlipWager is one wager of a slip update as the terminal wrote it: the bet and the amount
// attempted (per piece for a call bet). Err is why the edge could not read the bet off the
// wire; the engine refuses the slip for it in the wager's place, so a slip is refused for the
// same reason, in the same order of checks, whatever was wrong with it.
type SlipWager struct {
	Spec   roulette.BetSpec
	Amount int64
	Err    error
}

// ack is a slip as acknowledged to its terminal: each wager as attempted, what was accepted.
func (sl *slip) ack(roundID string) *table.SlipAck {
	a := &table.SlipAck{RoundID: roundID, Version: sl.version, Total: sl.total,
		Bets: make([]table.SlipBet, len(sl.bets)), Results: make([]table.BetResult, len(sl.bets))}
	for i, b := range sl.bets {
		a.Bets[i] = table.SlipBet{Bet: b.bet, Amount: b.Attempt}
		a.Results[i] = table.BetResult{Accepted: b.Total, Reason: b.Reason}
	}
	return a
}

// UpdateSlip replaces a terminal's slip for the current round with a new version. The server
// applies rule 4.3 to every wager in order against the balance — the same rules engine the
// terminal used to forecast — and acknowledges what it accepted. The last acknowledged version
// is what settles (rule 3.6).
//
// Slips are held in memory during the wagering period and written to the ledger, all of them,
// in the synchronous commit that closes it (closeWagering). Writing each version as it comes
// would buy nothing: a server failure before the deadline voids the round's wagers (001
// §9.8.1), and recovery voids a round the ledger still has open, so a slip written before the
// close is never read back. Stakes are not money moved until settlement, which reads the slips
// the close made durable.
//
// The acknowledgement's Available is the balance less the slip.
func (t *Table) UpdateSlip(terminal, roundID string, version uint64, wagers []SlipWager) (*table.SlipAck, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.updateSlip(t.now(), terminal, roundID, version, wagers)
}

// updateSlip checks and prices a slip under the table's lock and installs it as the terminal's
// acknowledged slip of the round.
func (t *Table) updateSlip(now time.Time, terminal, roundID string, version uint64, wagers []SlipWager) (*table.SlipAck, error) {
	if t.frozen {
		return nil, failed("accounts are frozen while a result is corrected")
	}
	r, err := t.current(roundID)
	if err != nil {
		return nil, err
	}
	// Rule 3.7: nothing placed, changed or withdrawn after the period expires. The server's
	// clock decides.
	if r.phase != table.PhaseWagering || !now.Before(r.deadline) {
		return nil, failed("no more bets: the wagering period of %s has ended", r.id)
	}
	prev := r.slips[terminal]
	if prev != nil && version <= prev.version {
		return nil, failed("slip version %d is not newer than the acknowledged version %d", version, prev.version)
	}
	a := t.accounts[terminal]
	if len(wagers) > 0 && (a == nil || !a.open) {
		return nil, failed("no open chip account on this terminal")
	}
	balance := int64(0)
	if a != nil {
		balance = a.balance
	}
	available := balance
	tableRoom := roulette.Unlimited
	if t.limits.TableMax > 0 {
		tableRoom = t.limits.TableMax
	}
	sl := &slip{version: version, bets: make([]acceptedBet, 0, len(wagers))}
	for i, w := range wagers {
		spec := w.Spec
		if err := w.Err; err != nil {
			return nil, invalid("wager %d: %v", i, err)
		}
		if w.Amount <= 0 || w.Amount > roulette.MaxStake {
			return nil, invalid("wager %d: amount %d: must be positive", i, w.Amount)
		}
		bet, err := roulette.ParseBet(t.layout, spec)
		if err != nil {
			return nil, invalid("wager %d: %v", i, err)
		}
		if bet.Spot.Kind == roulette.LuckyBall && !t.cfg.LuckyBall {
			return nil, invalid("wager %d: this table has no Lucky Ball", i)
		}
		pieces, err := bet.Pieces(t.layout)
		if err != nil {
			return nil, invalid("wager %d: %v", i, err)
		}
		cap := available
		if tableRoom >= 0 && tableRoom < cap {
			cap = tableRoom
		}
		per, total, why := t.limits.PlaceBet(pieces, bet.IsCall(), w.Amount, cap)
		if why == roulette.ReasonBalance && tableRoom >= 0 && tableRoom < available {
			why = roulette.ReasonTableMax
		}
		available -= total
		if tableRoom >= 0 {
			tableRoom -= total
		}
		sl.total += total
		sl.bets = append(sl.bets, acceptedBet{Spec: bet.Spec(), Attempt: w.Amount, PerPiece: per, Total: total,
			Reason: why.String(), bet: bet, pieces: pieces})
	}
	r.slips[terminal] = sl
	ack := sl.ack(r.id)
	ack.Available = balance - sl.total
	return ack, nil
}
