package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// Run drives the table's clock: it wakes at the next deadline or auto-dealer step and calls
// Advance, until ctx ends.
func (t *Table) Run(ctx context.Context) {
	for {
		t.mu.Lock()
		next := t.nextWake()
		t.mu.Unlock()
		wait := time.Hour
		if !next.IsZero() {
			wait = max(next.Sub(t.now()), 0)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-t.wake:
			timer.Stop()
		case <-timer.C:
		}
		t.Advance(t.now())
	}
}

func (t *Table) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// nextWake is when Advance next has something to do.
func (t *Table) nextWake() time.Time {
	if t.cur != nil && t.cur.phase == table.PhaseWagering {
		return t.cur.deadline
	}
	if t.auto && t.open {
		return t.nextAuto
	}
	return time.Time{}
}

// Advance makes the time-driven transitions due at now: the deadline closes the wagering period;
// the auto-dealer spins, enters a random outcome and opens the next round.
func (t *Table) Advance(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil && t.cur.phase == table.PhaseWagering && !now.Before(t.cur.deadline) {
		if err := t.closeWagering(now, false); err != nil {
			t.log.Error("closing the wagering period", "err", err)
		}
		if t.auto {
			t.nextAuto = now.Add(t.cfg.SpinTime)
		}
	}
	t.closeAsAnnounced(now)
	if !t.auto || !t.open || now.Before(t.nextAuto) || t.fault != "" {
		return
	}
	switch t.phase() {
	case table.PhaseNoMoreBets:
		if t.cfg.WheelDeals {
			return // the wheel's reading settles the round (wheelreading.go)
		}
		n := t.layout.Wheel.Order()[randInt(int64(len(t.layout.Wheel.Order())))]
		if err := t.enterOutcome(now, t.cur.id, n.String(), OutcomeByAutoDealer); err != nil {
			t.log.Error("auto-dealer outcome", "err", err)
		}
		t.nextAuto = now.Add(t.cfg.ResultTime)
	case table.PhaseIdle, table.PhaseResult:
		if err := t.startRound(now); err != nil {
			t.log.Error("auto-dealer start", "err", err)
		}
		if t.cfg.LuckyBall && t.cur != nil {
			if err := t.spinStarted(now, t.cur.id); err != nil {
				t.log.Error("auto-dealer spin", "err", err)
			}
		}
	}
}

// ---- the round ---------------------------------------------------------------------------------

func (t *Table) persistRound(tx *ledger.Tx, r *round) error {
	var draw []byte
	if r.draw != nil {
		var err error
		if draw, err = json.Marshal(r.draw); err != nil {
			return err
		}
	}
	return tx.PutRound(ledger.Round{ID: r.id, Seq: r.seq, Phase: int(r.phase), Opened: r.opened,
		Deadline: r.deadline, Outcome: r.outcomeText(), Draw: draw, Status: r.status})
}

// startRound opens a wagering period. An announced higher minimum takes effect here once its
// notice has run.
func (t *Table) startRound(now time.Time) error {
	if !t.open {
		return failed("the table is closed")
	}
	if t.closureDue(now) {
		return failed("the table closes as announced: no new round")
	}
	if err := t.gameMayGoOn(); err != nil {
		return err
	}
	if ph := t.phase(); ph == table.PhaseWagering || ph == table.PhaseNoMoreBets {
		return failed("round %s is still in play", t.cur.id)
	}
	if err := t.receiveJackpotTransfers(now); err != nil { // jackpotclose.go
		return err
	}
	limitsChanged := false
	if t.pending != nil && !now.Before(t.pending.At) {
		t.limits, t.pending, limitsChanged = t.pending.Limits, nil, true
		t.limitsGen++
	}
	r := &round{phase: table.PhaseWagering, opened: now, deadline: now.Add(t.config.WageringPeriod), slips: map[string]*slip{}}
	var tour *tournament
	var reserved []reservation
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		seq, err := tx.AddMeter(ledger.MeterRoundSeq, 1)
		if err != nil {
			return err
		}
		r.seq, r.id = seq, fmt.Sprintf("R%06d", seq)
		if err := t.persistRound(tx, r); err != nil {
			return err
		}
		if tour, err = t.tournamentRoundStarted(tx, r, now); err != nil || tour != nil {
			return err // a tournament round wagers chips, not on the cards (slips.go)
		}
		// Each carded seat's allowance for the round, before any slip (carded.go).
		reserved, err = t.reserveCards(tx, r.id, now)
		return err
	})
	if err != nil {
		return ledgerErr(err)
	}
	t.reserved(reserved)
	if tour != nil {
		t.tour = tour
		defer t.emitTournament(now)
	}
	// vic-1999 (004 §3.6(b)): winning wagers stay on the layout for the next spin unless withdrawn.
	var carried map[string]*table.SlipAck
	if table.WinnersRide(t.cfg.RulesProfile) && t.cur != nil {
		carried = t.carryWinners(now, r)
	}
	t.cur = r
	if limitsChanged {
		t.emit(now, "", table.LimitsChanged{Limits: t.limits})
	}
	t.broadcastPhase(now, false)
	// Each terminal is told its carried slip after the new round's phase (which clears its
	// layout): its screen shows exactly the chips that will settle (004 §3.4) and its next
	// change is a newer version than the table's (§3.7, the winners withdrawn by a touch).
	for _, id := range slices.Sorted(maps.Keys(carried)) {
		t.emit(now, id, table.SlipCarried{Slip: *carried[id]})
	}
	t.poke()
	return nil
}

// carryWinners re-places each terminal's winning bets of the last round on the new round, as
// far as the balance and limits allow, and returns the slips it made by terminal. A terminal
// with no live stream has nothing carried: its screen cannot show the chips, and a wager is
// settled only as the screen showed it (004 §3.4) — the winnings are in its balance.
func (t *Table) carryWinners(now time.Time, next *round) map[string]*table.SlipAck {
	prev := t.cur
	if !prev.decided || prev.status == "invalidated" || prev.status == "void" {
		return nil // no outcome, or one invalidated (001 §12.3): nothing won
	}
	rd := roulette.Round{Outcome: prev.outcome, Draw: prev.draw}
	out := map[string]*table.SlipAck{}
	for _, id := range sortedTerminals(prev.slips) {
		var specs []SlipWager
		sl := prev.slip(id)
		if sl == nil || len(t.subs[id]) == 0 {
			continue
		}
		if set := t.lastSet[id]; set == nil || set.RoundID != prev.id || !set.Recognised {
			continue // not recognised (004 §4.3(c)): nothing settled, nothing won
		}
		for _, b := range sl.bets {
			won := false
			for _, p := range b.pieces {
				if rd.Returned(roulette.Wager{Spot: p.Spot, Amount: p.Units * b.PerPiece}) > 0 {
					won = true
				}
			}
			if won {
				specs = append(specs, SlipWager{Spec: b.Spec, Amount: b.PerPiece, Card: b.Card})
			}
		}
		if len(specs) == 0 {
			continue
		}
		saved := t.cur
		t.cur = next
		ack, err := t.updateSlip(now, id, next.id, 1, specs)
		t.cur = saved
		if err != nil {
			t.log.Warn("carrying winning wagers", "terminal", id, "err", err)
			continue
		}
		out[id] = ack
	}
	return out
}

// closeWagering ends the wagering period: at the deadline, or at once when the wheel sensor sees
// the ball about to drop (001 §5.1.3). The acknowledged slips are what settles (rule 3.6).
func (t *Table) closeWagering(now time.Time, dropping bool) error {
	if t.cur == nil || t.cur.phase != table.PhaseWagering {
		return failed("no wagering period is open")
	}
	r := t.cur
	r.phase = table.PhaseNoMoreBets
	if dropping && now.Before(r.deadline) {
		r.deadline = now
	}
	// The ball is spun by the end of the period at the latest (001 §5.3.2, 004 §5.4(b)), so a
	// round whose spin nobody reported (a dealer who never pressed "spin", a failed auto-dealer
	// spin) has its numbers drawn now, however the round is driven (003 §7.4). With the display
	// out of order there is no draw, and the round's Lucky Ball wagers are returned (§8.11).
	drewNow := false
	if t.cfg.LuckyBall && r.draw == nil && !t.luckyDown {
		r.draw, drewNow = t.drawLucky(), true
	}
	enhancedNow := false
	if r.draw != nil && !r.draw.Void && !r.draw.HasSuper && !r.draw.HasMega {
		enhancedNow = true
		c := roulette.BallColour(randInt(4))
		if r.draw.Version == roulette.LuckyMega && randInt(2) == 0 {
			r.draw.Mega, r.draw.HasMega = c, true
		} else {
			r.draw.Super, r.draw.HasSuper = c, true
		}
	}
	// Every acknowledged slip and the end of the period in one synchronous commit: from here the
	// wagers survive a power loss and settle from the ledger (001 §9.8.2).
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		for terminal, sl := range r.slips {
			body, err := json.Marshal(sl.bets)
			if err != nil {
				return err
			}
			if err := tx.PutSlip(ledger.Slip{Round: r.id, Terminal: terminal, Version: sl.version, Wagers: body, Total: sl.total}); err != nil {
				return err
			}
		}
		if err := t.tournamentWageringClosed(tx, r, now); err != nil {
			return err
		}
		if dropping {
			// Who saw the ball drop (the wheel's sensor, or the dealer) ended the period early.
			if err := tx.Event("ball-dropping", "", r.id, 0, ""); err != nil {
				return err
			}
		}
		return t.persistRound(tx, r)
	})
	if err != nil {
		r.phase = table.PhaseWagering
		if drewNow {
			r.draw = nil
		} else if enhancedNow {
			r.draw.HasSuper, r.draw.HasMega = false, false
		}
		return ledgerErr(err)
	}
	t.countAbstentions(r)
	t.broadcastPhase(now, dropping)
	if r.draw != nil {
		t.emit(now, "", table.LuckyBallDrawn{RoundID: r.id, Draw: *r.draw})
	}
	return nil
}

// spinStarted draws the Lucky Ball numbers when the table has Lucky Ball (003 §7.4): once the
// ball is spun the display shows them. A draw that cannot be recorded is not shown: the round
// then has no draw, and its Lucky Ball wagers are returned (roulette.Round.Returned).
func (t *Table) spinStarted(now time.Time, roundID string) error {
	r, err := t.current(roundID)
	if err != nil {
		return err
	}
	if !t.cfg.LuckyBall || r.draw != nil || t.luckyDown || r.phase != table.PhaseWagering {
		return nil
	}
	r.draw = t.drawLucky()
	if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error { return t.persistRound(tx, r) }); err != nil {
		r.draw = nil
		return ledgerErr(err)
	}
	t.emit(now, "", table.LuckyBallDrawn{RoundID: r.id, Draw: *r.draw})
	return nil
}

// drawLucky draws four distinct numbers of the wheel, one a colour.
func (t *Table) drawLucky() *roulette.LuckyBallDraw {
	order := t.layout.Wheel.Order()
	d := &roulette.LuckyBallDraw{}
	if t.cfg.LuckyMega {
		d.Version = roulette.LuckyMega
	}
	var used roulette.Mask
	for c := range d.Numbers {
		for {
			n := order[randInt(int64(len(order)))]
			if !used.Has(n) {
				used |= roulette.MaskOf(n)
				d.Numbers[c] = n
				break
			}
		}
	}
	return d
}

func (t *Table) current(roundID string) (*round, error) {
	if t.cur == nil {
		return nil, failed("no round")
	}
	if roundID != "" && roundID != t.cur.id {
		return nil, failed("round %s is not the current round (%s)", roundID, t.cur.id)
	}
	return t.cur, nil
}

// enterOutcome settles every acknowledged slip of the round on the outcome (001 §5.5).
// enterOutcome settles round roundID on number; by says who read it (OutcomeBy…), recorded
// in the same commit as the outcome.
func (t *Table) enterOutcome(now time.Time, roundID, number, by string) error {
	r, err := t.current(roundID)
	if err != nil {
		return err
	}
	if r.phase == table.PhaseWagering {
		return failed("the wagering period of %s has not ended", r.id)
	}
	if r.phase != table.PhaseNoMoreBets {
		return failed("round %s already has its outcome %s", r.id, r.outcomeText())
	}
	n, err := roulette.ParseNumber(number)
	if err != nil || !t.layout.Wheel.Has(n) {
		return invalid("outcome %q is not on this %v wheel", number, t.layout.Wheel)
	}
	r.setOutcome(n, true)
	r.phase, r.status = table.PhaseResult, "settled"
	trace := &SettleTrace{Round: r.id, Locked: time.Now()}
	var settled []settledFor
	var tour *tournament
	var jackpot jackpotState
	var hit *ledger.Jackpot
	err = t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		tx.Time(&trace.Ledger)
		if err := t.persistRound(tx, r); err != nil {
			return err
		}
		// Who entered the winning number is the audit's first question (the actor: the dealer,
		// or "system" for the auto-dealer).
		if err := tx.Event("outcome", "", r.id, 0, n.String()); err != nil {
			return err
		}
		if err := tx.Event(AuditOutcomeSource, "", r.id, 0, by); err != nil {
			return err
		}
		var err error
		if settled, err = t.settle(tx, r, n, 1, false, nil, ""); err != nil {
			return err
		}
		// A tournament round's slips settle in tournament chips, by the same rules engine.
		if tour, err = t.settleTournament(tx, r, n, now); err != nil {
			return err
		}
		if t.jackpot != nil {
			// The round's wagers qualify once its outcome is confirmed (§3.13); a correction
			// re-settles but does not contribute again.
			jackpot, hit, err = t.contribute(tx, r.id, settled)
		}
		return err
	})
	if err != nil {
		t.tellSettledCards(now, false)
		r.setOutcome(0, false)
		r.phase, r.status = table.PhaseNoMoreBets, ""
		return ledgerErr(err)
	}
	if t.jackpot != nil {
		*t.jackpot = jackpot
		defer t.announceJackpot(now, hit)
	}
	out := table.Outcome{RoundID: r.id, Number: n, At: now}
	t.pushHistory(out)
	t.deliverOutcome(now, out, settled, trace)
	t.tellSettledCards(now, true) // after the settlements: each seat's card as they left it
	trace.Queued = time.Now()
	t.settleTrace.Store(trace)
	if tour != nil {
		t.tour = tour
		t.emitTournament(now)
	}
	return nil
}

// settle computes and records every slip's settlement of round r on outcome n, generation gen,
// moving balances and the house result in tx. It returns the events to send once committed;
// in-memory balances are updated by applySettled.
//
// prior, for a correction, holds the settlements just reversed (reverse): each account is
// charged the difference between the two once, through adjust, so a correction that finds a
// player was overpaid never takes the account below zero nor reaches the next player's money.
// why says what found the difference, for the overpayment records.
func (t *Table) settle(tx *ledger.Tx, r *round, n roulette.Number, gen int, correction bool,
	prior map[string]ledger.Settlement, why string) ([]settledFor, error) {
	rd := roulette.Round{Outcome: n, Draw: r.draw}
	var out []settledFor
	var house int64 // the round's house result: what the slips staked less what they returned
	played := false
	ids := sortedTerminals(r.slips)
	for id := range prior {
		if r.slip(id) == nil {
			ids = append(ids, id) // settled once, its slip since gone: only the reversal applies
		}
	}
	// Every account in one read, and the accounts and settlements written a batch at a time
	// after the loop (ledger/bulk.go): one statement per row was 4,000 statements for 1,000
	// terminals, each a round trip on PostgreSQL. Each terminal is settled once, so what the
	// loop reads of its account is what the transaction holds until the writes.
	accounts, err := tx.Accounts(ids)
	if err != nil {
		return nil, err
	}
	var balances []ledger.AccountBalance
	var settlements []ledger.Settlement
	for _, id := range ids {
		sl := r.slip(id)
		var staked, returned int64
		var per []int64
		recognised := false
		if sl != nil {
			// 001 §4.3.3 by the player's own aggregate minimum when they have one (000 §4.3)
			recognised = t.limitsFor(id, sl.card()).Recognised(sl.total)
			if p, ok := prior[id]; ok {
				// A correction re-settles the play as it stood: recognised or not under the
				// limits of its own round (4.3.3), whatever the limits are now.
				recognised = p.Recognised
			}
			per = make([]int64, len(sl.bets))
		}
		if sl != nil && recognised {
			staked = sl.total
			for i, b := range sl.bets {
				for _, p := range b.pieces {
					stake, err := money.Mul(p.Units, b.PerPiece)
					if err != nil {
						return nil, fmt.Errorf("settling %s of %s: %w", r.id, id, err)
					}
					if per[i], err = money.Add(per[i], rd.Returned(roulette.Wager{Spot: p.Spot, Amount: stake})); err != nil {
						return nil, fmt.Errorf("settling %s of %s: %w", r.id, id, err)
					}
				}
				var err error
				if returned, err = money.Add(returned, per[i]); err != nil {
					return nil, fmt.Errorf("settling %s of %s: %w", r.id, id, err)
				}
			}
		}
		delta, err := money.Sub(returned, staked)
		if err != nil {
			return nil, fmt.Errorf("settling %s of %s: %w", r.id, id, err)
		}
		acct := accounts[id]
		epoch := acct.Epoch
		if p, ok := prior[id]; ok {
			// The same play settled again: it belongs to the epoch it first settled in.
			epoch = p.Epoch
			was, err := money.Sub(p.Returned, p.Staked)
			if err == nil {
				delta, err = money.Sub(delta, was)
			}
			if err != nil {
				return nil, fmt.Errorf("correcting %s of %s: %w", r.id, id, err)
			}
		}
		bal, write, err := t.adjusted(tx, r.id, id, delta, epoch, acct, why)
		if err != nil {
			return nil, err
		}
		if write {
			balances = append(balances, ledger.AccountBalance{Terminal: id, Balance: bal, Open: acct.Open})
		}
		if sl == nil {
			continue
		}
		played = true
		if p, again := prior[id]; !again {
			// The card's play counted in the settlement's own transaction (carded.go).
			if err := t.settleCards(tx, r.id, id, sl, staked, returned); err != nil {
				return nil, err
			}
		} else if err := t.recountCards(tx, r, id, sl, p, staked, returned, why); err != nil {
			// A correction: the card's count follows the result as it is now.
			return nil, err
		}
		h, err := money.Sub(staked, returned)
		if err == nil {
			house, err = money.Add(house, h)
		}
		if err != nil {
			return nil, fmt.Errorf("settling %s of %s: %w", r.id, id, err)
		}
		settlements = append(settlements, ledger.Settlement{Round: r.id, Terminal: id, Generation: gen, Staked: staked,
			Returned: returned, Recognised: recognised, Outcome: n.String(), Epoch: epoch})
		out = append(out, settledFor{id, table.Settled{RoundID: r.id, Number: n, Recognised: recognised, Staked: staked,
			Returned: returned, Balance: bal, ReturnedPerBet: per, Correction: correction, SlipVersion: sl.version}})
	}
	if err := tx.SetAccounts(balances); err != nil {
		return nil, err
	}
	if err := t.releaseAllowances(tx, r); err != nil { // carded.go: seats that placed no slip
		return nil, err
	}
	if err := tx.PutSettlements(settlements); err != nil {
		return nil, err
	}
	// The round's house result in one write, not one per slip: the meter is one row, and
	// writing (and sealing) it a thousand times in a settlement of 1,000 terminals was a
	// quarter of the statements of the transaction every Settled event waits for.
	if played {
		if _, err := tx.AddMeter(ledger.MeterHouseResult, house); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// settledFor is one terminal's settlement, to deliver once its transaction has committed.
type settledFor struct {
	terminal string
	ev       table.Settled
}

// applySettled updates the in-memory balances from committed settlements and tells each
// terminal its own.
func (t *Table) applySettled(now time.Time, settled []settledFor) {
	for _, s := range t.settledEvents(now, settled, nil) {
		t.send(s.terminal, s.ev)
	}
}

type ownEvent struct {
	terminal string
	ev       *event
}

// settledEvents applies committed settlements to the in-memory balances and numbers their
// events; trace, when not nil, is told as each is sent.
func (t *Table) settledEvents(now time.Time, settled []settledFor, trace *SettleTrace) []ownEvent {
	out := make([]ownEvent, len(settled))
	for i, s := range settled {
		t.account(s.terminal).balance = s.ev.Balance
		t.lastSet[s.terminal] = &s.ev
		t.seq++
		out[i] = ownEvent{s.terminal, &event{seq: t.seq, at: now, ev: s.ev, trace: trace}}
	}
	return out
}

// deliverOutcome tells every stream the outcome, then the result phase, then its terminal's
// settlement: the events emit, broadcastPhase and applySettled would queue one after another,
// with the same sequence numbers and in the same order on each stream, but queued as one entry
// per stream. Queued an event at a time, every Watch handler woke for the outcome, again for the
// phase and again for its settlement, each wake a write of its own on its connection and a read
// at its terminal: 3,000 of each for 1,000 terminals, and 3,000 channel sends under the table's
// lock. As one entry, each stream is woken once and a handler whose terminal reads batches
// sends the three as one message (service.go Watch).
func (t *Table) deliverOutcome(now time.Time, out table.Outcome, settled []settledFor, trace *SettleTrace) {
	t.seq++
	outcome := &event{seq: t.seq, at: now, ev: table.OutcomeEntered{Outcome: out}}
	// The round is in its result phase now: say so, or a terminal that watched the round shows
	// "no more bets" until the next one while a terminal that (re)started now shows the result.
	ph := table.PhaseChanged{Phase: t.phase()}
	if t.cur != nil {
		ph.RoundID, ph.Deadline = t.cur.id, t.cur.deadline
	}
	t.seq++
	phase := &event{seq: t.seq, at: now, ev: ph}
	own := make(map[string]*event, len(settled))
	for _, s := range t.settledEvents(now, settled, trace) {
		own[s.terminal] = s.ev
	}
	// Everyone's news, queued here rather than through send: the displays are woken here too.
	t.wakeDisplays()
	shared := []*event{outcome, phase} // for every terminal without a settlement of its own
	for terminal, subs := range t.subs {
		ev := own[terminal]
		if ev == nil {
			queue(subs, shared)
			continue
		}
		queue(subs, []*event{outcome, phase, ev})
		if trace != nil {
			trace.Events += len(subs)
		}
	}
}
