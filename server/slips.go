package server

import (
	"time"

	"github.com/tablegames/ats/proto/wire"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
)

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
func (t *Table) UpdateSlip(terminal string, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.updateSlip(t.now(), terminal, req.RoundId, req.Version, req.Wagers)
}

// updateSlip checks and prices a slip under the table's lock and installs it as the terminal's
// acknowledged slip of the round.
func (t *Table) updateSlip(now time.Time, terminal, roundID string, version uint64, wagers []*pb.Wager) (*pb.UpdateSlipResponse, error) {
	if t.frozen {
		return nil, failed("accounts are frozen while a result is corrected")
	}
	r, err := t.current(roundID)
	if err != nil {
		return nil, err
	}
	// Rule 3.7: nothing placed, changed or withdrawn after the period expires. The server's
	// clock decides.
	if r.phase != pb.Phase_PHASE_WAGERING || !now.Before(r.deadline) {
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
		spec, err := wire.SpecOf(w)
		if err != nil {
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
	return &pb.UpdateSlipResponse{Slip: slipPB(r.id, sl), Balance: balance - sl.total}, nil
}
