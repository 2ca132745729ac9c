package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// The dealer's calls answer with the table's status as the dealer console reads it, a wire
// message written here from the engine's model state through proto/wire: Status is also how
// tests and tools in this process look at a table.

// Status is the dealer's view of the table, conservation included.
func (t *Table) Status() (*pb.TableStatus, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status()
}

func (t *Table) status() (*pb.TableStatus, error) {
	c, err := t.led.Conserve(t.bg())
	if err != nil {
		return nil, ledgerErr(err)
	}
	s := &pb.TableStatus{Config: wire.ConfigPB(t.config), Phase: pb.Phase(t.phase()), Limits: wire.LimitsPB(t.limits),
		AutoDealer: t.auto, Frozen: t.frozen, History: wire.OutcomesPB(t.history), PendingLimits: wire.PendingPB(t.pending), MoneyIn: c.MoneyIn, MoneyOut: c.MoneyOut, Balances: c.Balances,
		OpenTickets: c.OpenTickets, HouseResult: c.HouseResult, Overpaid: c.Overpaid, Underpaid: c.Underpaid, Conserved: c.Holds()}
	ops, err := t.led.Overpayments(context.Background(), true)
	if err != nil {
		return nil, ledgerErr(err)
	}
	for _, o := range ops {
		s.Overpayments = append(s.Overpayments, overpaymentPB(o))
	}
	if s.TicketHolds, err = t.ticketHolds(); err != nil {
		return nil, ledgerErr(err)
	}
	if s.Alarms, err = t.alarms(statusAlarms); err != nil {
		return nil, ledgerErr(err)
	}
	if t.jackpot != nil {
		s.JackpotMeter = t.jackpot.meter
		s.JackpotClosure = t.jackpot.closure.pb()
		if len(t.jackpot.pending) > 0 {
			s.PendingJackpot = wire.JackpotWonPB(jackpotWon(t.jackpot.pending[0]))
		}
	}
	if t.cur != nil {
		s.RoundId, s.DeadlineUnixNanos = t.cur.id, t.cur.deadline.UnixNano()
	}
	s.ClosingAtUnixNanos = wire.TimeNanos(t.closingAt)
	s.Fault = t.fault
	if s.Fault == "" && !s.Conserved {
		s.Fault = "the money does not conserve"
	}
	s.RedLight = s.Fault != ""
	t.wheelStatus(s)
	awaiting := map[string]int64{} // dealer buy-ins the player has yet to confirm (004 §6.3(c))
	for _, b := range t.buyins {
		if b.State == "offered" {
			awaiting[b.Terminal] += b.Amount
		}
	}
	ids := map[string]bool{}
	for id := range awaiting { // a seat bought in before it ever had an account
		ids[id] = true
	}
	for id := range t.accounts {
		ids[id] = true
	}
	for id := range t.subs {
		ids[id] = true
	}
	for id := range t.service {
		ids[id] = true
	}
	var standing map[string]table.TournamentStanding
	if tv := t.tournamentView(false); tv != nil && !tv.Status.Final() {
		standing = make(map[string]table.TournamentStanding, len(tv.Standings))
		for _, p := range tv.Standings {
			standing[p.Terminal] = p
		}
	}
	now := t.now()
	for _, id := range sortedKeys(ids) {
		ts := &pb.TerminalStatus{TerminalId: id, Connected: len(t.subs[id]) > 0, InService: wire.SeatServicePB(t.service[id])}
		if a := t.accounts[id]; a != nil {
			ts.Balance, ts.AccountOpen = a.balance, a.open
		}
		if ts.AccountOpen {
			ts.Abstained = int32(min(t.abstained[id], 1<<30))
			ts.Vacatable, _ = t.vacatable(id)
		}
		if sl := t.cur.slipOrNil(id); sl != nil {
			ts.SlipTotal = sl.total
			if !sl.secret {
				ts.Slip = wire.SlipPB(sl.ack(t.cur.id))
			}
		}
		if l := t.personal(id); l != nil { // the dealer sees which seats play to their own limits
			ts.PlayerLimits = wire.LimitsPB(*l)
		}
		ts.PlayerCard = t.cardAt[id]
		ts.CashOutRequested = t.cashOutAsked[id]
		ts.Guest = IsGuest(id)
		ts.BuyinAwaiting = awaiting[id]
		if at, ok := t.calls[id]; ok && now.Sub(at) < playerCallQuiet {
			ts.CallUnixNanos = at.UnixNano()
		}
		if p, ok := standing[id]; ok {
			ts.TournamentRank, ts.TournamentChips = int32(p.Rank), p.Chips
		}
		s.Terminals = append(s.Terminals, ts)
	}
	return s, nil
}

// statusAlarms is how many of the newest alarms the table status carries.
const statusAlarms = 10

// Conservation checks the money identity on the ledger.
func (t *Table) Conservation() (ledger.Conservation, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.led.Conserve(t.bg())
}

// do runs a dealer action for actor under the lock and answers with the table status. Every
// audit event the action writes records actor (t.bg).
func (t *Table) do(actor string, fn func(now time.Time) error) (*pb.TableStatus, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	if err := fn(t.now()); err != nil {
		return nil, err
	}
	t.poke()
	return t.status()
}

// OpenTable opens the table; with auto the server deals rounds itself.
func (t *Table) OpenTable(actor string, auto bool) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		t.open, t.auto = true, auto
		t.nextAuto = now
		t.broadcastPhase(now, false)
		return nil
	})
}

// CloseTable closes the table between rounds.
func (t *Table) CloseTable(actor string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if ph := t.phase(); ph == table.PhaseWagering || ph == table.PhaseNoMoreBets {
			return failed("round %s is in play; close the table after its result", t.cur.id)
		}
		if err := t.mayCloseNow(now); err != nil {
			return err
		}
		if !t.closingAt.IsZero() {
			t.closingAt = time.Time{}
			t.emit(now, "", table.TableClosing{})
		}
		t.open, t.auto = false, false
		t.broadcastPhase(now, false)
		return nil
	})
}

// SetWageringPeriod sets the period of the next rounds (001 §5.1.1).
func (t *Table) SetWageringPeriod(actor string, d time.Duration) (*pb.TableStatus, error) {
	return t.do(actor, func(time.Time) error {
		// Short periods are for soak tests of the engine; a casino sets seconds to minutes.
		if d < 100*time.Millisecond || d > 10*time.Minute {
			return invalid("wagering period %v: must be 100 ms to 10 min", d)
		}
		t.config.WageringPeriod = d
		return nil
	})
}

// raisesMinimum reports whether next raises any minimum of cur.
func raisesMinimum(cur, next roulette.Limits) bool {
	if next.AggregateMin > cur.AggregateMin {
		return true
	}
	for k := roulette.Straight; int(k) < roulette.NumKinds; k++ {
		if next.For(k).Min > cur.For(k).Min {
			return true
		}
	}
	return false
}

// SetLimits announces new limits. A higher minimum takes effect only after it has been shown for
// 20 minutes (001 §4.1 fn, s.66(2)); other changes take effect from the next round.
func (t *Table) SetLimits(actor string, l roulette.Limits) (*pb.TableStatus, error) {
	return t.SetTableLimits(actor, l, 0)
}

// SetTableLimits is SetLimits with the warning time before the end of the wagering period
// (000 §10.6.2; 0 leaves it as it is): everything the dealer's "limits" command sets. It is
// validated whole — a bad limit or warning changes nothing — and audited with the actor.
func (t *Table) SetTableLimits(actor string, l roulette.Limits, warning time.Duration) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if err := l.Validate(); err != nil {
			return invalid("%v", err)
		}
		if warning < 0 || warning >= t.config.WageringPeriod {
			return invalid("warning %v: must be shorter than the wagering period %v", warning, t.config.WageringPeriod)
		}
		at := now
		if raisesMinimum(t.limits, l) {
			at = now.Add(minimumRaiseNotice)
		}
		detail := describeLimits(l)
		if warning > 0 {
			detail += fmt.Sprintf("; warning %v", warning)
		}
		if at.After(now) {
			detail += "; a higher minimum, in force from " + at.UTC().Format(time.RFC3339)
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("limits", "", "", 0, detail)
		}); err != nil {
			return ledgerErr(err)
		}
		if warning > 0 {
			t.config.Warning = warning
		}
		t.pending = &table.PendingLimits{Limits: l, At: at}
		if t.phase() != table.PhaseWagering && !now.Before(at) {
			t.limits, t.pending = l, nil
			t.limitsGen++
		}
		t.emit(now, "", table.LimitsChanged{Limits: t.limits, Pending: t.pending, Warning: warning})
		return nil
	})
}

// StartRound opens a wagering period.
func (t *Table) StartRound(actor string) (*pb.TableStatus, error) { return t.do(actor, t.startRound) }

// SpinStarted: the dealer has spun the ball (Lucky Ball numbers are drawn now).
func (t *Table) SpinStarted(actor, roundID string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if err := t.gameMayGoOn(); err != nil {
			return err
		}
		return t.spinStarted(now, roundID)
	})
}

// LuckyBallDisplay records the Lucky Ball display out of order (working false) or working again
// (003 §8.11). Out of order: the current round's Lucky Ball wagers are void and returned when
// it settles (its draw, if any, marked void and shown so), and no Lucky Ball wager is taken
// nor numbers drawn until it works again. A round already settled is not touched: its numbers
// were shown.
func (t *Table) LuckyBallDisplay(actor string, working bool, reason string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if !t.cfg.LuckyBall {
			return failed("this table has no Lucky Ball")
		}
		if len(reason) > 200 {
			return invalid("reason: at most 200 bytes")
		}
		if working == !t.luckyDown {
			return failed("the Lucky Ball display is already reported %s", map[bool]string{true: "working", false: "out of order"}[working])
		}
		r := t.cur
		voiding := !working && r != nil && (r.phase == table.PhaseWagering || r.phase == table.PhaseNoMoreBets) && r.draw != nil
		what := "lucky-ball-display-working"
		if !working {
			what = "lucky-ball-display-fault"
		}
		err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			round := ""
			if voiding {
				round = r.id
				r.draw.Void = true
				if err := t.persistRound(tx, r); err != nil {
					return err
				}
			}
			// Kept in the ledger, so a restarted table still offers no Lucky Ball (§8.11).
			delta := int64(1)
			if working {
				delta = -1
			}
			if _, err := tx.AddMeter(meterLuckyBallDown, delta); err != nil {
				return err
			}
			return tx.Event(what, "", round, 0, reason)
		})
		if err != nil {
			if voiding {
				r.draw.Void = false
			}
			return ledgerErr(err)
		}
		t.luckyDown = !working
		t.limitsGen++ // a slip priced before the change is priced again (pricing.luckyDown)
		if voiding {
			t.emit(now, "", table.LuckyBallDrawn{RoundID: r.id, Draw: *r.draw})
		}
		return nil
	})
}

// meterLuckyBallDown is 1 while the Lucky Ball display is reported out of order, 0 otherwise.
const meterLuckyBallDown = "lucky_ball_display_down"

// BallDropping ends the wagering period at once (001 §5.1.3).
func (t *Table) BallDropping(actor, roundID string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if _, err := t.current(roundID); err != nil {
			return err
		}
		return t.closeWagering(now, true)
	})
}

// EnterOutcome enters the winning number and settles.
func (t *Table) EnterOutcome(actor, roundID, number string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if err := t.gameMayGoOn(); err != nil {
			return err
		}
		return t.enterOutcome(now, roundID, number, OutcomeByDealer)
	})
}

// NoSpin: the spin has no effect; wagers stay as they are until a valid spin (001 §9.1–9.2).
func (t *Table) NoSpin(actor, roundID string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		r, err := t.current(roundID)
		if err != nil {
			return err
		}
		if r.phase != table.PhaseNoMoreBets {
			return failed("no spin applies while waiting for the outcome (round %s is %v)", r.id, r.phase)
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("no-spin", "", r.id, 0, "")
		}); err != nil {
			return ledgerErr(err)
		}
		t.wheel = wheelReading{} // the next spin's reading is its own
		// Announced on every terminal (003 §8.1–8.9 "shall announce"): the wagers stand.
		t.emit(now, "", table.PhaseChanged{Phase: r.phase, RoundID: r.id, Deadline: r.deadline, NoSpin: true})
		return nil
	})
}

// CorrectOutcome applies rule 9.4: every account is frozen, the round is re-settled on the true
// outcome, the earlier settlement reversed — once — and the accounts unfrozen. The round may be
// the current one or an earlier one (001 §9.4 names no round: the dealer may find the mistake
// a round or more later). An earlier round is corrected between rounds — the current one
// settled or none in play — so no wager stands on a balance the correction changes. Each
// account's difference is applied once through adjust: never below zero, an overpayment the
// account cannot cover, or one of an account closed since, recorded for the operator
// (overpay.go).
func (t *Table) CorrectOutcome(actor, roundID, number string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		r, earlier, err := t.roundToCorrect(roundID)
		if err != nil {
			return err
		}
		if err := t.tournamentFixed(r.id); err != nil {
			return err
		}
		if r.phase != table.PhaseResult || r.status != "settled" {
			return failed("round %s has no settled outcome to correct (%s)", r.id, r.status)
		}
		n, err := roulette.ParseNumber(number)
		if err != nil || !t.layout.Wheel.Has(n) {
			return invalid("outcome %q is not on this %v wheel", number, t.layout.Wheel)
		}
		if r.decided && n == r.outcome {
			return failed("round %s already settled on %s", r.id, r.outcomeText())
		}
		t.setFrozen(now, true, "correcting the result of "+r.id)
		defer t.setFrozen(now, false, "")
		old := r.outcome
		var settled []settledFor
		why := fmt.Sprintf("correction %s -> %s", old, n)
		err = t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			prior, err := t.reverse(tx, r)
			if err != nil {
				return err
			}
			r.setOutcome(n, true)
			r.status = "corrected"
			if err := t.persistRound(tx, r); err != nil {
				return err
			}
			settled, err = t.settle(tx, r, n, 2, true, prior, why)
			if err != nil {
				return err
			}
			return tx.Event("correction", "", r.id, 0, fmt.Sprintf("%s -> %s", old, n))
		})
		if err != nil {
			r.setOutcome(old, true)
			r.status = "settled"
			return ledgerErr(err)
		}
		t.markHistory(r.id, func(h *table.Outcome) { h.Number, h.Corrected = n, true })
		t.emit(now, "", table.OutcomeEntered{Outcome: table.Outcome{RoundID: r.id, Number: n, At: now, Corrected: true}})
		if earlier {
			// The balances change and each terminal is told its own correction; the last
			// settlement a terminal shows (the snapshot's) stays the current round's.
			for _, s := range settled {
				t.account(s.terminal).balance = s.ev.Balance
				t.emit(now, s.terminal, s.ev)
			}
			return nil
		}
		t.applySettled(now, settled)
		return nil
	})
}

// roundToCorrect is the round a correction names: the current one (roundID "" or its id), or an
// earlier one read back from the ledger, which may be corrected only between rounds.
func (t *Table) roundToCorrect(roundID string) (r *round, earlier bool, err error) {
	if roundID == "" || (t.cur != nil && roundID == t.cur.id) {
		r, err := t.current(roundID)
		return r, false, err
	}
	if ph := t.phase(); ph == table.PhaseWagering || ph == table.PhaseNoMoreBets {
		return nil, false, failed("round %s is in play: correct %s after its result, before the next round opens", t.cur.id, roundID)
	}
	if len(roundID) > 64 {
		return nil, false, invalid("round id: at most 64 bytes")
	}
	var lr ledger.Round
	var slips []ledger.Slip
	found := false
	err = t.led.Update(t.bg(), t.now(), func(tx *ledger.Tx) error {
		var err error
		if lr, found, err = tx.RoundByID(roundID); err != nil || !found {
			return err
		}
		slips, err = tx.Slips(roundID)
		return err
	})
	if err != nil {
		return nil, false, ledgerErr(err)
	}
	if !found {
		return nil, false, status.Errorf(codes.NotFound, "no round %s at this table", roundID)
	}
	r = &round{id: lr.ID, seq: lr.Seq, phase: table.Phase(lr.Phase), opened: lr.Opened, deadline: lr.Deadline,
		status: lr.Status, slips: map[string]*slip{}}
	if lr.Outcome != "" {
		n, err := roulette.ParseNumber(lr.Outcome)
		if err != nil {
			return nil, false, fmt.Errorf("server: round %s: outcome: %w", lr.ID, err)
		}
		r.setOutcome(n, true)
	}
	if len(lr.Draw) > 0 {
		var d roulette.LuckyBallDraw
		if err := json.Unmarshal(lr.Draw, &d); err != nil {
			return nil, false, fmt.Errorf("server: round %s: lucky ball draw: %w", lr.ID, err)
		}
		r.draw = &d
	}
	for _, s := range slips {
		sl, err := t.decodeSlip(s)
		if err != nil {
			return nil, false, fmt.Errorf("server: round %s: %w", lr.ID, err)
		}
		r.slips[s.Terminal] = sl
	}
	return r, true, nil
}

// reverse marks the live settlements of a round reversed in tx and takes their result off the
// house meter. It leaves the accounts to the caller, which charges each the net difference
// once (adjust), and returns the reversed settlements by terminal.
func (t *Table) reverse(tx *ledger.Tx, r *round) (map[string]ledger.Settlement, error) {
	sets, err := tx.Settlements(r.id)
	if err != nil {
		return nil, err
	}
	out := make(map[string]ledger.Settlement, len(sets))
	for _, s := range sets {
		house, err := money.Sub(s.Returned, s.Staked)
		if err != nil {
			return nil, err
		}
		if _, err := tx.AddMeter(ledger.MeterHouseResult, house); err != nil {
			return nil, err
		}
		s.Reversed = true
		if err := tx.PutSettlement(s); err != nil {
			return nil, err
		}
		out[s.Terminal] = s
	}
	return out, nil
}

func (t *Table) setFrozen(now time.Time, frozen bool, reason string) {
	t.frozen = frozen
	t.emit(now, "", table.FrozenChanged{Frozen: frozen, Reason: reason})
}

// InvalidateRound refunds every wager of the current round (001 §12.3–12.4): a settled round's
// settlements are reversed; an unsettled round's slips are void.
func (t *Table) InvalidateRound(actor, roundID, reason string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		r, err := t.current(roundID)
		if err != nil {
			return err
		}
		if err := t.tournamentFixed(r.id); err != nil {
			return err
		}
		if r.status == "invalidated" {
			return failed("round %s is already invalidated", r.id)
		}
		prevStatus := r.status
		if r.phase == table.PhaseWagering {
			return failed("round %s is still open for wagering", r.id)
		}
		was := r.phase
		refunded := map[string]int64{}
		balances := map[string]int64{}
		var jackpot jackpotState
		var voidHit *ledger.Jackpot
		var tour *tournament // a tournament round in play stays on the tournament's record
		err = t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			prior, err := t.reverse(tx, r)
			if err != nil {
				return err
			}
			if tour, err = t.invalidateTournamentRound(tx, r, reason, now); err != nil {
				return err
			}
			// A hit in this round not yet confirmed is void, its amount back on the meter (001
			// §8.8); a confirmed one stands (§9.10).
			if jackpot, voidHit, err = t.voidJackpot(tx, r.id); err != nil {
				return err
			}
			for _, id := range sortedKeys(keysOf(prior)) {
				s := prior[id]
				refund, err := money.Sub(s.Staked, s.Returned)
				if err != nil {
					return err
				}
				bal, applied, err := t.adjust(tx, r.id, id, refund, s.Epoch, "invalidated: "+reason)
				if err != nil {
					return err
				}
				// The card's count loses the wager: refunded, it was never play.
				if err := t.recountCards(tx, r, id, r.slip(id), s, 0, 0, "invalidated: "+reason); err != nil {
					return err
				}
				refunded[id], balances[id] = applied, bal
			}
			r.status, r.phase = "invalidated", table.PhaseResult
			if err := t.persistRound(tx, r); err != nil {
				return err
			}
			return tx.Event("invalidated", "", r.id, 0, reason)
		})
		if err != nil {
			r.status, r.phase = prevStatus, was // the ledger kept the round as it was
			return ledgerErr(err)
		}
		for id, bal := range balances {
			t.account(id).balance = bal
		}
		if voidHit != nil {
			*t.jackpot = jackpot
		}
		if tour != nil {
			t.tour = tour
			t.emitTournament(now)
		}
		t.markHistory(r.id, func(h *table.Outcome) { h.Invalidated = true })
		for id := range r.slips {
			t.emit(now, id, table.RoundVoided{RoundID: r.id, Reason: "invalidated: " + reason,
				Refunded: refunded[id], Balance: t.account(id).balance})
		}
		if voidHit != nil {
			// After the refunds: the void of the jackpot is the news the players read last.
			t.log.Info("jackpot void", "round", r.id, "terminal", voidHit.Terminal, "amount", voidHit.Amount)
			t.emit(now, "", jackpotWon(*voidHit))
			t.emit(now, "", table.JackpotMeter{Amount: t.jackpot.meter})
		}
		if was != r.phase {
			// Voided from "no more bets" (after a no-spin, or before any outcome): the round
			// is over, so say so, as enterOutcome does, or every terminal that watched it keeps
			// showing NO MORE BETS until the next round opens.
			t.broadcastPhase(now, false)
		}
		return nil
	})
}

// CreditPlayer offers a dealer buy-in to a terminal; the player confirms it (004 §6.3(c)).
func (t *Table) CreditPlayer(actor string, req *pb.CreditPlayerRequest) (*pb.CreditPlayerResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	if req.Amount <= 0 || req.Amount > roulette.MaxStake || req.Amount > t.cfg.MaxBalance {
		return nil, invalid("amount %d: must be positive and at most the table's maximum balance %s", req.Amount, money.Decimal(t.cfg.MaxBalance))
	}
	if err := t.knownTerminal(req.TerminalId); err != nil {
		return nil, err
	}
	request := fmt.Sprintf("credit %s %d", req.TerminalId, req.Amount)
	res, _, err := moneyCall(t, dealerScope(actor), req.IdempotencyKey, request, func() *pb.CreditPlayerResponse { return &pb.CreditPlayerResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.CreditPlayerResponse, func(), error) {
			if err := t.moneyInAllowed(); err != nil {
				return nil, nil, err
			}
			if err := t.tournamentMoneyRefusal("a dealer buy-in"); err != nil {
				return nil, nil, err
			}
			if IsGuest(req.TerminalId) {
				return t.guestBuyIn(tx, now, req.TerminalId, req.Amount)
			}
			b := ledger.BuyIn{ID: newID("B"), Terminal: req.TerminalId, Amount: req.Amount, State: "offered"}
			if err := tx.PutBuyIn(b); err != nil {
				return nil, nil, err
			}
			return &pb.CreditPlayerResponse{BuyInId: b.ID}, func() {
				t.buyins[b.ID] = b
				t.emit(now, req.TerminalId, table.BuyInOffered{ID: b.ID, Amount: b.Amount})
			}, tx.Event("buy-in-offered", req.TerminalId, "", req.Amount, b.ID)
		})
	return res, err
}

// ClosePlayerAccount is a dealer-facilitated cash-out or a player directed to leave (001 §6.5.2):
// the balance is paid by the dealer and the account closed.
func (t *Table) ClosePlayerAccount(actor string, req *pb.ClosePlayerAccountRequest) (*pb.ClosePlayerAccountResponse, error) {
	// The player has left: the seat's card is free (carded.go), released after the table's lock.
	left := false
	defer func() {
		if left {
			t.releaseCard(req.TerminalId)
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	reason := req.Reason
	if reason == "" {
		reason = "dealer"
	}
	if reason != "dealer" && reason != "directed-to-leave" && reason != ReasonVacated {
		return nil, invalid("reason %q: dealer, directed-to-leave or %s", reason, ReasonVacated)
	}
	if err := t.knownTerminal(req.TerminalId); err != nil {
		return nil, err
	}
	if reason == ReasonVacated {
		// 001 §12.8: only a player who has abstained three rounds while every other seat is
		// in use; the balance is paid at the table as in any dealer close.
		if ok, why := t.vacatable(req.TerminalId); !ok {
			return nil, failed("%s may not be asked to vacate: %s", req.TerminalId, why)
		}
	}
	res, _, err := moneyCall(t, dealerScope(actor), req.IdempotencyKey, "close "+req.TerminalId, func() *pb.ClosePlayerAccountResponse { return &pb.ClosePlayerAccountResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.ClosePlayerAccountResponse, func(), error) {
			voidRound, err := t.slipBlocksCashOut(req.TerminalId)
			if err != nil {
				return nil, nil, err
			}
			bal, _, err := tx.Account(req.TerminalId)
			if err != nil {
				return nil, nil, err
			}
			if voidRound != "" {
				if err := tx.DeleteSlip(voidRound, req.TerminalId); err != nil {
					return nil, nil, err
				}
			}
			// The card's hold of the round: the voided slip's, or the seat's reservation.
			if err := t.voidCardHold(tx, voidRound, req.TerminalId); err != nil {
				return nil, nil, err
			}
			if err := tx.SetAccount(req.TerminalId, 0, false); err != nil {
				return nil, nil, err
			}
			if err := tx.NextEpoch(req.TerminalId); err != nil { // the player has left (overpay.go)
				return nil, nil, err
			}
			if _, err := tx.AddMeter(ledger.MeterMoneyOut, bal); err != nil {
				return nil, nil, err
			}
			if err := tx.Event("account-closed", req.TerminalId, "", bal, reason); err != nil {
				return nil, nil, err
			}
			// Kept apart from the audit log so the terminal's snapshot can carry it: a terminal
			// down at this moment records the dealer's cash-out when it comes back.
			c := ledger.Close{ID: newID("C"), Terminal: req.TerminalId, Amount: bal, Reason: reason, At: now}
			if err := tx.PutClose(c); err != nil {
				return nil, nil, err
			}
			return &pb.ClosePlayerAccountResponse{Amount: bal}, func() {
				a := t.account(req.TerminalId)
				a.balance, a.open = 0, false
				left = true
				delete(t.abstained, req.TerminalId)
				delete(t.cashOutAsked, req.TerminalId) // paid: the player's request is met
				if voidRound != "" && t.cur != nil {
					delete(t.cur.slips, req.TerminalId)
				}
				t.rememberClose(req.TerminalId, closeOf(c))
				t.emit(now, req.TerminalId, closeOf(c))
			}, nil
		})
	return res, err
}

// Handpay pays a ticket that could not be printed by hand; it can then never be redeemed.
// Cash by hand is cash: the cage's rules hold, the reporting threshold (threshold.go) and the
// cash cap (cashcap.go: over the cap, cash up to it and the rest by transfer or cheque with the
// patron's identity, in the parts the supervisor gives).
func (t *Table) Handpay(actor string, req *pb.HandpayRequest) (*pb.HandpayResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	patron, idErr := patronOf(req.Patron)
	if req.Patron != nil && idErr != nil {
		return nil, invalid("the patron's identity: %s", status.Convert(idErr).Message())
	}
	parts, err := readParts(req.Parts)
	if err != nil {
		return nil, err
	}
	// The request as the key remembers it: a retry with other parts is another request.
	request := "handpay " + req.ValidationNumber
	if len(req.Parts) > 0 {
		request += " parts " + partsKey(req.Parts)
	}
	res, _, err := moneyCall(t, dealerScope(actor), req.IdempotencyKey, request, func() *pb.HandpayResponse { return &pb.HandpayResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.HandpayResponse, func(), error) {
			// The ticket is its printing table's money (ledger.Conservation): that table's pit
			// boss, where the printer failed, pays it. Another table's is answered as a number
			// that is no ticket (redeem.go, notTheirs).
			tk, err := t.ownTicket(tx, req.ValidationNumber, "printed at this table", func(tk ledger.Ticket) bool {
				return tk.IssuerTable == "" || tk.IssuerTable == t.cfg.TableID
			})
			if err != nil {
				return nil, nil, err
			}
			if tk.State != ledger.TicketIssued && tk.State != ledger.TicketPrintFailed {
				return nil, nil, status.Errorf(codes.FailedPrecondition, "ticket %s is %s: it cannot be hand-paid", tk.Validation, tk.State)
			}
			// A stopped ticket is paid nowhere, by hand neither (stops.go): an overpaid cash-out
			// whose printer failed waits for its overpayment to be resolved.
			stops, err := openStops(tx, tk.Validation)
			if err != nil {
				return nil, nil, err
			}
			if len(stops) > 0 {
				return nil, nil, failed("ticket %s cannot be hand-paid: %s", tk.Validation, stopText(stops[0]))
			}
			// Cash by hand is cash: at or over the reporting threshold, the patron's identity and a
			// second person's approval, recorded here (threshold.go).
			payment := newID("H")
			threshold, err := t.handpayThreshold(tx, tk, actor, payment, req.Patron != nil, patron, idErr, now)
			if err != nil {
				return nil, nil, err
			}
			// How it is handed over: cash up to the cap, the rest by transfer or cheque with the
			// patron's identity (cashcap.go), recorded with the hand payment.
			paid, err := t.payParts(tk, &pb.CageTicket{ValidationNumber: tk.Validation, Amount: tk.Amount, CashCap: t.cfg.CashCap, OverCashCap: t.overCap(tk.Amount)}, parts, patron, idErr)
			if err != nil {
				return nil, nil, err
			}
			if err := tx.PutPaymentParts(payment, paid); err != nil {
				return nil, nil, err
			}
			// Who paid it by hand, where and when: the cage tells a cashier shown a copy (issue 33).
			tk.State, tk.RedeemedWhere, tk.RedeemedBy, tk.RedeemedAt = ledger.TicketHandpaid, t.cfg.TableID, actor, now
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			if _, err := tx.AddMeter(ledger.MeterMoneyOut, tk.Amount); err != nil {
				return nil, nil, err
			}
			return &pb.HandpayResponse{Ticket: wire.TicketPB(ticketOf(tk, t.cfg.Venue)), Threshold: threshold, Parts: partsPB(paid), Cash: cashOf(paid), PaymentId: payment},
				nil, tx.Event("handpay", tk.Terminal, "", tk.Amount, fmt.Sprintf("%s paid by hand %s by %s, payment %s", tk.Validation, t.handedOver(paid), actor, payment))
		})
	return res, t.guessAfter(dealerScope(actor), req.ValidationNumber, err)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
