package server

import (
	"encoding/json"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server/ledger"
)

// Dealer-placed wagers (issue 17, item 11). On a table with a racetrack the player declares a
// call bet orally and the dealer places it (002 §3.2B); here the dealer places it at the console
// on the seat's slip. The table checks it as it checks any wager, and the seat's terminal shows
// it, marked as the dealer's:
//
//   - only while the wagering period is open on the table's clock: an oral wager is accepted
//     only if the dealer can place it before "no more bets" (002, oral wagers);
//   - against the seat's balance less its slip, and the table maximum;
//   - below the minimum it is void even though the dealer placed it: refused, nothing stays on
//     the slip (002 irregularities); off the unit or over the maximum it is void to the extent
//     it exceeds the next lowest permitted amount: that amount stays, the answer says why;
//   - recorded in the audit log with the dealer's identity, and kept on the slip with it
//     (acceptedBet.PlacedBy), so the slip's ledger record at the close says who placed it.
//
// The terminal's own slip updates keep the dealer's wagers (pricing.dealer): the player can
// neither withdraw nor change them from the screen, as a player may not handle a wager the
// dealer placed on the layout; they settle with the slip, exactly once.

// ReasonDealerOnly is why a terminal's own call bet accepted nothing on a table whose racetrack
// wagers are placed only by the dealer (Config.OralRacetrack).
const ReasonDealerOnly = "racetrack-dealer-only"

// PlaceWager places a call bet w for the seat terminal on round roundID, as actor.
func (t *Table) PlaceWager(actor, terminal, roundID string, w SlipWager) (*pb.PlaceWagerResponse, error) {
	if err := t.knownTerminal(terminal); err != nil {
		return nil, err
	}
	if w.Err != nil {
		return nil, invalid("wager: %v", w.Err)
	}
	if w.Amount <= 0 || w.Amount > roulette.MaxStake {
		return nil, invalid("wager: amount %d: must be positive", w.Amount)
	}
	bet, err := roulette.ParseBet(t.layout, w.Spec)
	if err != nil {
		return nil, invalid("wager: %v", err)
	}
	// Which bets the dealer places: the call bets a player declares (002 §3.2B) everywhere;
	// under the TouchTable rules any bet the player announces (000 §11.4.2(b)); and for a
	// guest, who has no screen, any bet at all (000 §11.3.1 guest players "place bets via the
	// Dealer").
	if !bet.IsCall() && !IsGuest(terminal) && !table.AnnouncedBets(t.cfg.RulesProfile) {
		return nil, invalid("wager %s: under the %s rules the dealer places call bets (the racetrack); the player places the others on the screen", bet.Spec().Name, t.cfg.RulesProfile)
	}
	pieces, err := bet.Pieces(t.layout)
	if err != nil {
		return nil, invalid("wager: %v", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	now := t.now()
	r, err := t.wageringRound(now, roundID)
	if err != nil {
		return nil, err
	}
	a := t.accounts[terminal]
	if a == nil || !a.open {
		return nil, failed("seat %s has no open chip account", terminal)
	}
	prev := r.slips[terminal]
	// The seat's slip as it stands is held, and the dealer's wager is priced after it, spot by
	// spot (SPEC §3.7): its pieces add to what the seat already has on their spots.
	pricer := t.limits.NewPricer(a.balance, 0)
	if prev != nil {
		for i := range prev.bets {
			pricer.Hold(prev.bets[i].pieces, prev.bets[i].PerPiece)
		}
	}
	pr := pricer.Place(pieces, true, w.Amount)
	per, total, why := pr.PerPiece, pr.Total, pr.Why
	if total <= 0 {
		return nil, failed("void: %s wager of %d per piece: %s", bet.Spec().Name, w.Amount, why.String())
	}
	if t.cards != nil {
		// Carded play (carded.go): the dealer's wager is the player's, on the player's card,
		// checked against its limits as the player's own are.
		need := total
		if prev != nil {
			need += prev.total
		}
		al, ok := t.cards.allowanceOf(terminal)
		if !ok || al.round != r.id || !al.used() { // a reservation unused: the player has not wagered
			return nil, failed("seat %s plays carded: the player wagers with their card this round before the dealer places a wager for them", terminal)
		}
		if err := t.allowCard(al.card, terminal, r.id, need); err != nil {
			return nil, err
		}
	}
	ab := acceptedBet{Spec: bet.Spec(), Attempt: w.Amount, PerPiece: per, Total: total, Reason: why.String(),
		PlacedBy: actor, bet: bet, pieces: pieces}
	if err := t.auditJSON(now, "dealer-wager", terminal, r.id, total, ab); err != nil {
		return nil, err
	}
	sl := &slip{total: total}
	if prev != nil {
		sl.version, sl.total = prev.version, prev.total+total
		sl.bets = append(sl.bets, prev.bets...)
	}
	sl.bets = append(sl.bets, ab)
	r.slips[terminal] = sl
	ack := sl.ack(r.id)
	ack.Available = a.balance - sl.total
	t.emit(now, terminal, table.DealerWagerPlaced{Slip: *ack})
	return &pb.PlaceWagerResponse{Accepted: total, Reason: ab.Reason, Slip: wire.SlipPB(ack)}, nil
}

// auditJSON records a dealer's or supervisor's change to a seat's slip in the audit log, with
// what changed as JSON in the detail (the actor is the one t.actAs set), before the change is
// made: a change the log cannot take is not made.
func (t *Table) auditJSON(now time.Time, kind, terminal, roundID string, amount int64, what any) error {
	detail, err := json.Marshal(what)
	if err != nil {
		return err
	}
	if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		return tx.Event(kind, terminal, roundID, amount, string(detail))
	}); err != nil {
		return ledgerErr(err)
	}
	return nil
}
