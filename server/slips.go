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

// MaxSlipWagers is the most wagers one slip may hold. A layout has about 150 spots and a
// racetrack a few call bets, so no honest slip comes near it; without a cap one terminal's slip
// of 100,000 wagers took the table's time from every other terminal (issue 13).
const MaxSlipWagers = 200

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
// The slip is priced outside the table's lock, so one terminal's slip never holds up the
// others': a short critical section reads what pricing depends on (the round, the balance, the
// limits), the wagers are parsed and priced against that, and a second short one checks that
// none of it changed (and that the period is still open and the version still newer) before it
// stores the slip. If something did change in between — a credit, new limits — the slip is
// priced again; after a few such races it is priced under the lock, so it always ends.
//
// The acknowledgement's Available is the balance less the slip.
func (t *Table) UpdateSlip(terminal, roundID string, version uint64, wagers []SlipWager) (*table.SlipAck, error) {
	if len(wagers) > MaxSlipWagers {
		return nil, invalid("a slip holds at most %d wagers, not %d", MaxSlipWagers, len(wagers))
	}
	for range 3 {
		t.mu.Lock()
		in, err := t.slipInputs(t.now(), terminal, roundID, version, len(wagers))
		t.mu.Unlock()
		if err != nil {
			return nil, err
		}
		sl, err := t.priceSlip(in, version, wagers)
		if err != nil {
			return nil, err
		}
		t.mu.Lock()
		now := t.now()
		cur, err := t.slipInputs(now, terminal, roundID, version, len(wagers))
		if err != nil {
			t.mu.Unlock()
			return nil, err
		}
		if cur.same(in) {
			ack := t.storeSlip(terminal, cur, sl)
			t.mu.Unlock()
			return ack, nil
		}
		t.mu.Unlock()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.updateSlip(t.now(), terminal, roundID, version, wagers)
}

// pricing is what pricing a slip depends on, read under the lock. Two readings are equal when
// nothing a price depends on changed in between.
type pricing struct {
	r         *round
	balance   int64
	limitsGen uint64          // t.limitsGen when read: limits change only with it
	limits    roulette.Limits // a copy; its map is replaced, never changed in place
}

func (p pricing) same(o pricing) bool {
	return p.r == o.r && p.balance == o.balance && p.limitsGen == o.limitsGen
}

// slipInputs checks a slip update may be made now and reads what pricing it depends on.
func (t *Table) slipInputs(now time.Time, terminal, roundID string, version uint64, n int) (pricing, error) {
	if t.frozen {
		return pricing{}, failed("accounts are frozen while a result is corrected")
	}
	r, err := t.current(roundID)
	if err != nil {
		return pricing{}, err
	}
	// Rule 3.7: nothing placed, changed or withdrawn after the period expires. The server's
	// clock decides.
	if r.phase != table.PhaseWagering || !now.Before(r.deadline) {
		return pricing{}, failed("no more bets: the wagering period of %s has ended", r.id)
	}
	if svc := t.service[terminal]; svc != nil && n > 0 {
		// The terminal refuses bets in technician mode itself; this is the table's own check,
		// should a terminal out of play still send wagers. Withdrawing them (an empty slip) is
		// always taken.
		return pricing{}, failed("terminal %s is in service (technician %s): no wagers until it is back in play", terminal, svc.Technician)
	}
	prev := r.slips[terminal]
	if prev != nil && version <= prev.version {
		return pricing{}, failed("slip version %d is not newer than the acknowledged version %d", version, prev.version)
	}
	a := t.accounts[terminal]
	if n > 0 && (a == nil || !a.open) {
		return pricing{}, failed("no open chip account on this terminal")
	}
	p := pricing{r: r, limitsGen: t.limitsGen, limits: t.limits}
	if a != nil {
		p.balance = a.balance
	}
	return p, nil
}

// updateSlip checks, prices and installs a slip all under the table's lock (the auto-dealer's
// carried winners, and a slip that lost the race to store three times).
func (t *Table) updateSlip(now time.Time, terminal, roundID string, version uint64, wagers []SlipWager) (*table.SlipAck, error) {
	in, err := t.slipInputs(now, terminal, roundID, version, len(wagers))
	if err != nil {
		return nil, err
	}
	sl, err := t.priceSlip(in, version, wagers)
	if err != nil {
		return nil, err
	}
	return t.storeSlip(terminal, in, sl), nil
}

// storeSlip installs a priced slip as the terminal's acknowledged slip of the round.
func (t *Table) storeSlip(terminal string, in pricing, sl *slip) *table.SlipAck {
	in.r.slips[terminal] = sl
	ack := sl.ack(in.r.id)
	ack.Available = in.balance - sl.total
	return ack
}

// priceSlip parses and prices a slip's wagers against the balance and limits read in in. It
// reads only in and the table's fixed configuration (layout, Lucky Ball), so it runs without
// the lock.
func (t *Table) priceSlip(in pricing, version uint64, wagers []SlipWager) (*slip, error) {
	limits := in.limits
	available := in.balance
	tableRoom := roulette.Unlimited
	if limits.TableMax > 0 {
		tableRoom = limits.TableMax
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
		per, total, why := limits.PlaceBet(pieces, bet.IsCall(), w.Amount, cap)
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
	return sl, nil
}
