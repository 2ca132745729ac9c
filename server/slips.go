package server

import (
	"slices"
	"sync"
	"time"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/server/ledger"

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
	Card   string // the player card it was sent with (003 §3.4, §9.1)
	Err    error
}

// ack is a slip as acknowledged to its terminal: each wager as attempted, what was accepted.
func (sl *slip) ack(roundID string) *table.SlipAck {
	a := &table.SlipAck{RoundID: roundID, Version: sl.version, Total: sl.total,
		Bets: make([]table.SlipBet, len(sl.bets)), Results: make([]table.BetResult, len(sl.bets))}
	for i, b := range sl.bets {
		a.Bets[i] = table.SlipBet{Bet: b.bet, Amount: b.Attempt, Card: b.Card, PlacedBy: b.PlacedBy}
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
	return t.UpdateSlipSecret(terminal, roundID, version, wagers, false)
}

// UpdateSlipSecret is UpdateSlip with the slip marked as an undisclosed tournament wager when
// secret (003 §10.8, tournament.go): refused outside a tournament round or when the player has
// none left.
func (t *Table) UpdateSlipSecret(terminal, roundID string, version uint64, wagers []SlipWager, secret bool) (*table.SlipAck, error) {
	ack, _, err := t.updateSlipSent(terminal, roundID, version, wagers, secret)
	return ack, err
}

// updateSlipSent is UpdateSlipSecret, also telling whether the acknowledged slip's wagers are
// exactly those sent (slip.asSent).
func (t *Table) updateSlipSent(terminal, roundID string, version uint64, wagers []SlipWager, secret bool) (ack *table.SlipAck, sent bool, err error) {
	if len(wagers) > MaxSlipWagers {
		return nil, false, invalid("a slip holds at most %d wagers, not %d", MaxSlipWagers, len(wagers))
	}
	if secret {
		if err := t.checkSecret(terminal, roundID); err != nil {
			return nil, false, err
		}
	}
	card, err := t.slipCard(wagers) // 003 §3.4, §9.1: refused here, not only on the screen
	if err != nil {
		return nil, false, err
	}
	// Carded play (carded.go): the seat's lock, its card claimed, and the card the slip's
	// total is staked on — the slip's, or for a slip withdrawn to nothing the seat's own.
	var staked string
	if t.cards != nil && !secret {
		seat := t.cards.seat(terminal)
		seat.mu.Lock()
		defer seat.mu.Unlock()
		if err := t.claim(seat, terminal, roundID, card); err != nil {
			t.tellCard(terminal) // the refusal on the seat's card state too (cardseat.go)
			return nil, false, err
		}
		staked = seat.card
		// A slip refused after its allowance was taken may have lost a race with the round's
		// settlement: what the allowance reserved is released (dropLateHold).
		defer func() {
			if err != nil && staked != "" {
				t.dropLateHold(staked, terminal, roundID)
			}
		}()
	}
	for range 3 {
		t.mu.Lock()
		in, err := t.slipInputs(t.now(), terminal, roundID, version, len(wagers), card)
		if err == nil {
			err = t.buyInBlocks(terminal, in.r, wagers)
		}
		t.mu.Unlock()
		if err != nil {
			return nil, false, err
		}
		sl, err := t.priceSlip(in, version, wagers)
		if err != nil {
			return nil, false, err
		}
		sl.secret = secret
		if staked != "" && !in.tour {
			// Never one wager past a limit (SPEC §10): the slip's whole total, the dealer's
			// wagers on it included, reserved on the card before the table takes it.
			if err := t.allowCard(staked, terminal, in.r.id, sl.total+in.dealerTotal); err != nil {
				t.tellCard(terminal)
				return nil, false, err
			}
		}
		t.mu.Lock()
		now := t.now()
		cur, err := t.slipInputs(now, terminal, roundID, version, len(wagers), card)
		if err == nil {
			err = t.buyInBlocks(terminal, cur.r, wagers)
		}
		if err == nil && cur.same(in) {
			ack := t.storeSlip(now, terminal, cur, sl)
			sent := sl.asSent // read under the lock: the stored slip is the table's now
			t.mu.Unlock()
			return ack, sent, nil
		}
		t.mu.Unlock()
		if err != nil {
			return nil, false, err
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, err := t.current(roundID); err == nil {
		if err := t.buyInBlocks(terminal, r, wagers); err != nil {
			return nil, false, err
		}
	}
	if staked != "" {
		// The rare slip that lost the race three times is priced, staked and stored under
		// the table's lock: one database round trip inside it, not an unbounded loop.
		in, err := t.slipInputs(t.now(), terminal, roundID, version, len(wagers), card)
		if err != nil {
			return nil, false, err
		}
		sl, err := t.priceSlip(in, version, wagers)
		if err != nil {
			return nil, false, err
		}
		if !in.tour {
			if err := t.allowCard(staked, terminal, in.r.id, sl.total+in.dealerTotal); err != nil {
				t.tellCardLocked(t.now(), terminal)
				return nil, false, err
			}
		}
		ack := t.storeSlip(t.now(), terminal, in, sl)
		return ack, sl.asSent, nil
	}
	ack, sl, err := t.updateSlipStored(t.now(), terminal, roundID, version, wagers, secret)
	if err != nil {
		return nil, false, err
	}
	return ack, sl.asSent, nil
}

// buyInBlocks refuses a slip that places a further wager while a dealer buy-in offered to the
// terminal awaits the player's confirmation (004 §6.3(c), §6.4(b)): the dealer "must not allow
// the player to place a further wager until the player has confirmed". Withdrawing is not
// placing, so a slip that only takes wagers off (or lowers them) is taken: every wager of it
// must be on a bet the acknowledged slip already holds, at no more than was attempted there.
// The carried winners of 004 §3.6(b) are not placed by the player and are not checked here.
func (t *Table) buyInBlocks(terminal string, r *round, wagers []SlipWager) error {
	// Every buy-in the table has seen is in t.buyins, and this runs twice for every slip under
	// the table's lock: the loop copies no buy-in to the heap (a pointer to its loop variable
	// did, every iteration: kilobytes a slip for the collector on a busy table).
	var offered ledger.BuyIn
	found := false
	for _, b := range t.buyins {
		if b.Terminal == terminal && b.State == "offered" {
			offered, found = b, true
			break
		}
	}
	if !found || len(wagers) == 0 {
		return nil
	}
	var prev *slip
	if r != nil {
		prev = r.slip(terminal)
	}
	held := map[roulette.Bet]int64{}
	if prev != nil {
		for _, b := range prev.bets {
			held[b.bet] = b.Attempt
		}
	}
	for _, w := range wagers {
		if w.Err != nil {
			return nil // the pricing refuses it for what it is
		}
		bet, err := roulette.ParseBet(t.layout, w.Spec)
		if err != nil {
			return nil
		}
		if was, ok := held[bet]; !ok || w.Amount > was {
			return failed("a further wager is refused until the player confirms the dealer's buy-in of %s (004 §6.4(b))",
				money.Decimal(offered.Amount))
		}
	}
	return nil
}

// pricing is what pricing a slip depends on, read under the lock. Two readings are equal when
// nothing a price depends on changed in between.
type pricing struct {
	r         *round
	balance   int64
	limitsGen uint64          // t.limitsGen when read: limits change only with it
	limits    roulette.Limits // a copy; its map is replaced, never changed in place
	tour      bool            // a tournament round: balance is the player's tournament chips
	inTurn    bool            // an order of wagering (003 §10.9): the slip ends the turn, so it must count
	card      string          // the slip's player card (003 §3.4), whose own limits may apply
	// dealer are the wagers the dealer placed on this seat's slip (dealerwager.go), which a
	// slip update from the terminal keeps: they are priced first, and the terminal's own
	// wagers get what balance and table maximum they leave.
	dealer      []acceptedBet
	dealerTotal int64
	// luckyDown: the Lucky Ball display is out of order, so no Lucky Ball wager is taken
	// (003 §8.11). Changing it bumps limitsGen, so a slip priced across the change is priced again.
	luckyDown bool
	// prev is the terminal's acknowledged slip of the round, if any: its bets, already parsed,
	// spare parsing them again (parsed). A stored slip is never changed, only replaced, so it
	// is read without the lock; what it is used for depends only on the table's fixed layout,
	// so it needs no place in same.
	prev *slip
}

func (p pricing) same(o pricing) bool {
	return p.r == o.r && p.balance == o.balance && p.limitsGen == o.limitsGen &&
		p.dealerTotal == o.dealerTotal && len(p.dealer) == len(o.dealer)
}

// slipInputs checks a slip update may be made now and reads what pricing it depends on.
func (t *Table) slipInputs(now time.Time, terminal, roundID string, version uint64, n int, card string) (pricing, error) {
	r, err := t.wageringRound(now, roundID)
	if err != nil {
		return pricing{}, err
	}
	if svc := t.service[terminal]; svc != nil && n > 0 {
		// The terminal refuses bets in technician mode itself; this is the table's own check,
		// should a terminal out of play still send wagers. Withdrawing them (an empty slip) is
		// always taken.
		return pricing{}, failed("terminal %s is in service (technician %s): no wagers until it is back in play", terminal, svc.Technician)
	}
	tp, tour, err := t.tournamentPricing(r, terminal)
	if err != nil {
		return pricing{}, err
	}
	prev := r.slips[terminal]
	if tour {
		prev = t.tour.slips[terminal]
	}
	if prev != nil && version <= prev.version {
		return pricing{}, failed("slip version %d is not newer than the acknowledged version %d", version, prev.version)
	}
	if tour {
		// Out of turn, or altering a wager made in turn, is refused (003 §10.9.4–10.9.5).
		if err := t.tour.turnRefusal(terminal, n); err != nil {
			return pricing{}, err
		}
		return tp, nil
	}
	a := t.accounts[terminal]
	if n > 0 && (a == nil || !a.open) {
		return pricing{}, failed("no open chip account on this terminal")
	}
	// The player's own limits when they have them (000 §4.3, 003 §4.6), else the table's.
	p := pricing{r: r, limitsGen: t.limitsGen, limits: t.limitsFor(terminal, card), card: card, luckyDown: t.luckyDown, prev: prev}
	if a != nil {
		p.balance = a.balance
	}
	if prev != nil {
		for _, b := range prev.bets {
			if b.PlacedBy != "" {
				p.dealer = append(p.dealer, b)
				p.dealerTotal += b.Total
			}
		}
	}
	return p, nil
}

// wageringRound is round roundID while its wagering period is open: what a slip, a dealer's
// wager or a supervisor's refusal may change. Rule 3.7: nothing placed, changed or withdrawn
// after the period expires, and the server's clock decides; nor while accounts are frozen for a
// correction. Called with t.mu held.
func (t *Table) wageringRound(now time.Time, roundID string) (*round, error) {
	if t.frozen {
		return nil, failed("accounts are frozen while a result is corrected")
	}
	r, err := t.current(roundID)
	if err != nil {
		return nil, err
	}
	if r.phase != table.PhaseWagering || !now.Before(r.deadline) {
		return nil, failed("no more bets: the wagering period of %s has ended", r.id)
	}
	return r, nil
}

// updateSlip checks, prices and installs a slip all under the table's lock (the auto-dealer's
// carried winners, and a slip that lost the race to store three times).
func (t *Table) updateSlip(now time.Time, terminal, roundID string, version uint64, wagers []SlipWager) (*table.SlipAck, error) {
	return t.updateSlipSecret(now, terminal, roundID, version, wagers, false)
}

func (t *Table) updateSlipSecret(now time.Time, terminal, roundID string, version uint64, wagers []SlipWager, secret bool) (*table.SlipAck, error) {
	ack, _, err := t.updateSlipStored(now, terminal, roundID, version, wagers, secret)
	return ack, err
}

// updateSlipStored is updateSlipSecret, also giving the slip it stored.
func (t *Table) updateSlipStored(now time.Time, terminal, roundID string, version uint64, wagers []SlipWager, secret bool) (*table.SlipAck, *slip, error) {
	card, err := t.slipCard(wagers)
	if err != nil {
		return nil, nil, err
	}
	in, err := t.slipInputs(now, terminal, roundID, version, len(wagers), card)
	if err != nil {
		return nil, nil, err
	}
	sl, err := t.priceSlip(in, version, wagers)
	if err != nil {
		return nil, nil, err
	}
	sl.secret = secret
	return t.storeSlip(now, terminal, in, sl), sl, nil
}

// storeSlip installs a priced slip as the terminal's acknowledged slip of the round.
func (t *Table) storeSlip(now time.Time, terminal string, in pricing, sl *slip) *table.SlipAck {
	t.changed() // the seat's stake, on the dealer's console (watch.go)
	if in.tour {
		sl.asSent = false // a tournament slip is answered in full
		return t.storeTournamentSlip(terminal, in, sl)
	}
	sl.asSent = sl.asSent && len(in.dealer) == 0 // the dealer's wagers were not sent by the terminal
	sl.bets = append(sl.bets, in.dealer...)
	sl.total += in.dealerTotal
	in.r.slips[terminal] = sl
	t.seenCard(now, terminal, in.card)
	ack := sl.ack(in.r.id)
	ack.Available = in.balance - sl.total
	return ack
}

// pricers keeps the pricers of slips being priced: a slip is priced on every change a player
// makes, and a pricer that comes back keeps the memory of its spots.
var pricers = sync.Pool{New: func() any { return new(roulette.Pricer) }}

// priceSlip parses and prices a slip's wagers against the balance and limits read in in. It
// reads only in and the table's fixed configuration (layout, Lucky Ball), so it runs without
// the lock.
func (t *Table) priceSlip(in pricing, version uint64, wagers []SlipWager) (*slip, error) {
	limits := in.limits
	// One pricing for the slip, spot by spot (SPEC §3.7): the dealer's wagers for the seat are
	// held first, as placed, then the terminal's wagers in the slip's order, each against what
	// is already on its spots, the balance and the table maximum (app/roulette, pricer.go).
	pricer := pricers.Get().(*roulette.Pricer)
	defer pricers.Put(pricer)
	pricer.Reset(limits, in.balance)
	for i := range in.dealer {
		pricer.Hold(in.dealer[i].pieces, in.dealer[i].PerPiece)
	}
	sl := &slip{version: version, bets: make([]acceptedBet, 0, len(wagers))}
	var known parsed
	if in.prev != nil {
		known.prev = in.prev.bets
	}
	for i, w := range wagers {
		if err := w.Err; err != nil {
			return nil, invalid("wager %d: %v", i, err)
		}
		if w.Amount <= 0 || w.Amount > roulette.MaxStake {
			return nil, invalid("wager %d: amount %d: must be positive", i, w.Amount)
		}
		spec, bet, pieces, ok := known.find(w.Spec)
		if !ok {
			var err error
			if bet, err = roulette.ParseBet(t.layout, w.Spec); err != nil {
				return nil, invalid("wager %d: %v", i, err)
			}
			if pieces, err = bet.Pieces(t.layout); err != nil {
				return nil, invalid("wager %d: %v", i, err)
			}
			spec = bet.Spec()
		}
		if bet.Spot.Kind == roulette.LuckyBall && !t.cfg.LuckyBall {
			return nil, invalid("wager %d: this table has no Lucky Ball", i)
		}
		if bet.Spot.Kind == roulette.LuckyBall && in.luckyDown {
			return nil, failed("wager %d: Lucky Ball is not offered until its display works again (003 §8.11)", i)
		}
		if bet.IsCall() && t.cfg.OralRacetrack {
			// 002 §3.2B: a player's own wager on the racetrack is void; the dealer places it.
			sl.bets = append(sl.bets, acceptedBet{Spec: spec, Attempt: w.Amount, Reason: ReasonDealerOnly, bet: bet, pieces: pieces})
			continue
		}
		pr := pricer.Place(pieces, bet.IsCall(), w.Amount)
		sl.total += pr.Total
		sl.bets = append(sl.bets, acceptedBet{Spec: spec, Attempt: w.Amount, PerPiece: pr.PerPiece, Total: pr.Total,
			Reason: pr.Why.String(), Card: w.Card, bet: bet, pieces: pieces})
	}
	// As sent: each wager as the table writes it back is the one the terminal wrote. A wager
	// found in the previous slip matched it exactly; a new one is the same written bet if its
	// canonical form (bet.Spec) is what was sent.
	sl.asSent = len(sl.bets) == len(wagers)
	for i := range sl.bets {
		if !sl.asSent {
			break
		}
		b, w := &sl.bets[i], &wagers[i]
		sl.asSent = b.Attempt == w.Amount && b.Card == w.Card && b.PlacedBy == "" && sameSpec(b.Spec, w.Spec)
	}
	if in.inTurn && len(wagers) > 0 && !limits.Recognised(sl.total) {
		// A slip that ends the player's turn is final (003 §10.9.5): one that would not count
		// as a wager (below the round's minimum, 003 §10.6.4) is refused, not taken.
		return nil, failed("your wagers total %d, below the round's minimum of %d: a wager made in turn is final, so make it at least the minimum", sl.total, limits.AggregateMin)
	}
	return sl, nil
}

// parsed finds a wager's bet among the bets of the terminal's acknowledged slip. A slip update
// resends the whole slip, so a player adding a chip to a slip of 20 wagers sends 19 the table
// has already parsed: parsing them again was the largest part of pricing a slip (profile of 500
// terminals × 10 updates a second). Only a wager written exactly as the table writes a bet
// (its Spec) matches, and that spec parses to that bet on this table's layout, so the result is
// the one ParseBet would give. The slip is walked in order from where the first wager is found,
// so finding costs one pass over the previous slip, not one per wager.
type parsed struct {
	prev    []acceptedBet
	next    int  // the previous slip's bet the next wager is expected to be
	aligned bool // next has been found by searching once
}

func (p *parsed) find(spec roulette.BetSpec) (roulette.BetSpec, roulette.Bet, []roulette.Piece, bool) {
	if p.next < len(p.prev) && sameSpec(p.prev[p.next].Spec, spec) {
		b := p.prev[p.next]
		p.next++
		return b.Spec, b.bet, b.pieces, true
	}
	if !p.aligned {
		p.aligned = true
		for j, b := range p.prev {
			if sameSpec(b.Spec, spec) {
				p.next = j + 1
				return b.Spec, b.bet, b.pieces, true
			}
		}
	}
	return roulette.BetSpec{}, roulette.Bet{}, nil, false
}

func sameSpec(a, b roulette.BetSpec) bool {
	return a.Name == b.Name && a.Colour == b.Colour && slices.Equal(a.Numbers, b.Numbers) &&
		sameInt(a.Which, b.Which) && sameInt(a.Spread, b.Spread)
}

func sameInt(a, b *int) bool { return a == b || (a != nil && b != nil && *a == *b) }
