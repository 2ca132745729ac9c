package server

import (
	"context"
	"encoding/json"
	"time"

	pb "github.com/tablegames/ats/client/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/server/ledger"
)

// UpdateSlip replaces a terminal's slip for the current round with a new version. The server
// applies rule 4.3 to every wager in order against the balance — the same rules engine the
// terminal used to forecast — and acknowledges what it accepted once it is written to the
// ledger. The last acknowledged version is what settles (rule 3.6). Slip writes are not fsynced
// one by one: the close of the wagering period fsyncs them all (see ledger.UpdateGrouped),
// because a server failure before the deadline voids the round's wagers anyway (001 §9.8.1).
func (t *Table) UpdateSlip(terminal string, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	t.mu.Lock()
	res, write, err := t.acceptSlip(t.now(), terminal, req.RoundId, req.Version, req.Wagers)
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	// The write is grouped with other terminals' into one transaction, outside the table's
	// lock, so a hundred terminals updating at once do not queue behind each other.
	if err := write(); err != nil {
		return nil, err
	}
	return res, nil
}

// updateSlip accepts and writes a slip under the table's lock (used inside the engine).
func (t *Table) updateSlip(now time.Time, terminal, roundID string, version uint64, wagers []*pb.Wager) (*pb.UpdateSlipResponse, error) {
	res, write, err := t.acceptSlip(now, terminal, roundID, version, wagers)
	if err != nil {
		return nil, err
	}
	return res, write()
}

// acceptSlip checks and prices a slip under the table's lock and installs it in memory; the
// returned write records it in the ledger and must be called exactly once. Only after write returns nil
// may the slip be acknowledged.
func (t *Table) acceptSlip(now time.Time, terminal, roundID string, version uint64, wagers []*pb.Wager) (*pb.UpdateSlipResponse, func() error, error) {
	if t.frozen {
		return nil, nil, failed("accounts are frozen while a result is corrected")
	}
	r, err := t.current(roundID)
	if err != nil {
		return nil, nil, err
	}
	// Rule 3.7: nothing placed, changed or withdrawn after the period expires. The server's
	// clock decides.
	if r.phase != pb.Phase_PHASE_WAGERING || !now.Before(r.deadline) {
		return nil, nil, failed("no more bets: the wagering period of %s has ended", r.id)
	}
	prev := r.slips[terminal]
	if prev != nil && version <= prev.version {
		return nil, nil, failed("slip version %d is not newer than the acknowledged version %d", version, prev.version)
	}
	a := t.accounts[terminal]
	if len(wagers) > 0 && (a == nil || !a.open) {
		return nil, nil, failed("no open chip account on this terminal")
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
	sl := &slip{version: version}
	for i, w := range wagers {
		spec, err := pb.SpecOf(w)
		if err != nil {
			return nil, nil, invalid("wager %d: %v", i, err)
		}
		if w.Amount <= 0 || w.Amount > roulette.MaxStake {
			return nil, nil, invalid("wager %d: amount %d: must be positive", i, w.Amount)
		}
		bet, err := roulette.ParseBet(t.layout, spec)
		if err != nil {
			return nil, nil, invalid("wager %d: %v", i, err)
		}
		if bet.Spot.Kind == roulette.LuckyBall && !t.cfg.LuckyBall {
			return nil, nil, invalid("wager %d: this table has no Lucky Ball", i)
		}
		pieces, err := bet.Pieces(t.layout)
		if err != nil {
			return nil, nil, invalid("wager %d: %v", i, err)
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
	body, err := json.Marshal(sl.bets)
	if err != nil {
		return nil, nil, ledgerErr(err)
	}
	sl.prev = prev
	r.slips[terminal] = sl
	r.inflight.Add(1)
	write := func() error {
		defer r.inflight.Done()
		err := t.led.UpdateGrouped(context.Background(), now, func(tx *ledger.Tx) error {
			return tx.PutSlip(ledger.Slip{Round: r.id, Terminal: terminal, Version: version, Wagers: body, Total: sl.total})
		})
		if err != nil {
			sl.failed.Store(true) // never acknowledged: the previous slip stands
			return ledgerErr(err)
		}
		sl.durable.Store(true)
		return nil
	}
	return &pb.UpdateSlipResponse{Slip: slipPB(r.id, sl), Balance: balance - sl.total}, write, nil
}
