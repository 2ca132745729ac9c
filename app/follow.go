package app

import (
	"context"
	"slices"
	"time"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Following the table: every event the link delivers is recorded (when it must be, before the
// screen shows it) and applied to the view. After a reconnect a Snapshot restates everything.

// Recorder keeps the terminal's durable game records (rules 9.7–9.9): recall.Writer on a real
// terminal. A slip acknowledgement and a settlement are written before the screen shows them.
type Recorder interface {
	SlipAcked(ctx context.Context, layout roulette.Layout, ack table.SlipAck) error
	Settled(ctx context.Context, s table.Settled) error
	// BuyInAccepted journals the player's acceptance of a dealer buy-in, with the idempotency
	// key of the request that tells the table, before the table is told; BuyInDone records the
	// table's answer. A crash between the two leaves the buy-in open (OpenBuyIns) and the next
	// start asks again with the same key: the table credits it once and answers the same,
	// and the journal counts it once.
	BuyInAccepted(ctx context.Context, b table.AcceptedBuyIn) error
	// BuyInDone closes an accepted buy-in: credited is what the table credited, or refused
	// says why the table would not (then nothing was credited).
	BuyInDone(ctx context.Context, b table.AcceptedBuyIn, credited int64, refused string) error
	// OpenBuyIns are the buy-ins accepted and not yet done, oldest first.
	OpenBuyIns(ctx context.Context) ([]table.AcceptedBuyIn, error)
	// DealerCashOut records an account the dealer closed and paid at the table, once per
	// close (c.ID) however often it is told: live, and again in every snapshot after it.
	DealerCashOut(ctx context.Context, c table.AccountClosed) error
}

// record writes a settlement to the game records before the screen shows it; a snapshot's last
// settlement too, in case the terminal was down when it was told (the reader drops repeats).
func (t *Terminal) record(ctx context.Context, ev table.Event) {
	rec := t.records
	if rec == nil {
		return
	}
	var s *table.Settled
	switch e := ev.(type) {
	case table.Settled:
		s = &e
	case table.WagerRefused:
		// 003 §9.12: the slip without the refused wagers is the slip the table will settle;
		// recorded, as every acknowledged slip is, before the screen shows it.
		t.mu.Lock()
		layout := t.view.Config.Layout
		t.mu.Unlock()
		if err := rec.SlipAcked(ctx, layout, e.Slip); err != nil {
			t.log.Error("game records: slip after a refusal not recorded", "round", e.Slip.RoundID, "version", e.Slip.Version, "err", err)
		}
		return
	case table.SlipCarried:
		// The carried winners are a slip the table acknowledged for this terminal (004 §3.6(b)):
		// recorded, as every acknowledged slip is, before the screen shows it (rules 9.7–9.9).
		t.mu.Lock()
		layout := t.view.Config.Layout
		t.mu.Unlock()
		if err := rec.SlipAcked(ctx, layout, e.Slip); err != nil {
			t.log.Error("game records: carried slip not recorded", "round", e.Slip.RoundID, "version", e.Slip.Version, "err", err)
		}
		return
	case table.Snapshot:
		s = e.LastSettled
		// Closes at the console the terminal may have missed (it was down, or off the stream,
		// when they were made): the money left through the dealer all the same. Oldest first,
		// as they happened; each one already recorded is recorded no more.
		for i := len(e.DealerCloses) - 1; i >= 0; i-- {
			t.recordDealerCashOut(ctx, rec, e.DealerCloses[i])
		}
	case table.AccountClosed:
		if e.Ticket != nil {
			return // the player's own cash-out to a ticket: the cashier records that
		}
		// The dealer closed the account and paid the balance at the table.
		t.recordDealerCashOut(ctx, rec, e)
	}
	if s == nil {
		return
	}
	if err := rec.Settled(ctx, *s); err != nil {
		// The server's ledger holds the settlement; the terminal's copy is missing, which an
		// auditor must learn of, but the player is still shown what the server paid.
		t.log.Error("game records: settlement not recorded", "round", s.RoundID, "err", err)
	}
}

func (t *Terminal) recordDealerCashOut(ctx context.Context, rec Recorder, c table.AccountClosed) {
	if err := rec.DealerCashOut(ctx, c); err != nil {
		// The server's ledger holds the close; the next snapshot offers it again.
		t.log.Error("game records: dealer cash-out not recorded", "close", c.ID, "amount", c.Amount, "err", err)
		return
	}
	if c.ID == "" {
		return
	}
	// Recorded (now or before): the table may stop telling it. Off the event loop, which must
	// not wait on a link that may be down; an acknowledgement lost is only a close told again,
	// which the records drop as a repeat, and acknowledged at the next snapshot.
	t.spawn(func() {
		actx, cancel := context.WithTimeout(ctx, ackTimeout)
		defer cancel()
		if err := t.link.AckDealerClose(actx, c.ID); err != nil && ctx.Err() == nil {
			t.log.Warn("dealer close not acknowledged to the table; it will be told again", "close", c.ID, "err", err)
		}
	})
}

// ackTimeout bounds one acknowledgement of a dealer close, retries included.
const ackTimeout = 10 * time.Second

func (t *Terminal) apply(ev table.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch e := ev.(type) {
	case table.Connection:
		t.view.Connected = e.Up
		if !e.Up && t.view.Phase == table.PhaseWagering && !t.view.Locked {
			// Lost the table before the deadline: the server voids this terminal's wagers
			// (rule 9.7.1, 9.8.1), so the screen says so rather than pretend they stand —
			// when there were some: a cash-out with an empty layout closes the stream too, and
			// the player must not read of wagers voided that never were (issue 32).
			if t.slip.Total(t.view.Config.Layout)+dealerTotal(t.view.DealerStakes, t.view.Config.Layout) > 0 {
				t.voidLocked(msg.New("Connection to the table lost before the end of betting: your wagers are void"))
			}
			t.slip.reset(nil)
			t.view.DealerStakes = nil
			t.view.Locked = true
		}
	case table.Snapshot:
		t.fromSnapshot(e)
		t.serviceOwedLocked() // a new connection: the table may have lost or kept an old report
		if e.Card != nil {
			t.cardStateLocked(*e.Card)
		} else {
			t.cards.st = nil
		}
		t.cardOwedLocked() // the card in the reader, which a restarted table may not hold
	case table.CardStateChanged:
		t.cardStateLocked(e.State)
	case table.PhaseChanged:
		t.onPhase(e)
	case table.OutcomeEntered:
		o := e.Outcome
		t.cueLocked(SoundNumber)
		if o.Corrected {
			t.correctionFromLocked(o)
			if t.correctHistoryLocked(o) {
				break
			}
		}
		t.tournamentOutcomeLocked(o)
		t.view.LastOutcome = &o
		t.view.History = append([]table.Outcome{o}, t.view.History...)
		if len(t.view.History) > 50 {
			t.view.History = t.view.History[:50]
		}
	case table.Settled:
		if e.Correction {
			t.sayCorrectionLocked(e)
		}
		t.wins.settled(e)
		if e.Correction && e.RoundID != t.view.RoundID {
			// An earlier round corrected (001 §9.4): its difference is in the balance; the
			// layout and the result shown are this round's and stay as they are.
			t.view.Balance = e.Balance
			break
		}
		if !e.Recognised && !e.Correction {
			// 004 §4.3(c), 001 §4.3.3: wagers totalling less than the aggregate minimum are not
			// recognised for the spin — returned, not settled — and the player is told why.
			if total := t.slip.Total(t.view.Config.Layout); total > 0 {
				t.voidLocked(msg.New("Your wagers of %s were below the table minimum of %s: not recognised for this spin and returned to your balance",
					money.Amount(total), money.Amount(t.view.Limits.AggregateMin)))
			}
		}
		s := e
		if e.Returned > 0 && !e.Correction {
			t.cueLocked(SoundWin)
		}
		t.view.LastWin, t.view.Balance = &s, e.Balance
		if !e.Correction {
			t.lastRound = slices.Clone(t.slip.Stakes())
		}
		t.view.Result = nil
		if e.Recognised {
			// The dealer's wagers settle with the player's: the result shows both. Repeat puts
			// back only the player's own (lastRound).
			t.view.Result = resultOf(withDealer(t.lastRound, t.view.DealerStakes), t.view.Config.Layout, e.Number, t.view.LuckyBall)
		}
		t.slip.reset(nil)
		t.view.DealerStakes = nil
	case table.BalanceChanged:
		t.view.Balance = e.Balance
		t.view.AccountOpen = true
	case table.LimitsChanged:
		t.signLimits, t.view.Pending = e.Limits, e.Pending
		if e.Warning > 0 {
			// The dealer set the warning time with the limits (000 §10.6.2): from the next
			// wagering period, as the table applies it.
			t.view.Config.Warning = e.Warning
		}
		t.limitsLocked()
	case table.PlayerLimitsChanged:
		t.ownLimits = e.Limits
		t.limitsLocked()
	case table.FrozenChanged:
		t.frozenLocked(e.Frozen)
	case table.RoundVoided:
		// The table's reason is its own words (the pit boss's, for an invalidation).
		t.voidLocked(msg.New("Wagers void and refunded: %s", e.Reason))
		t.view.Balance = e.Balance
		t.view.DealerStakes = nil
	case table.BuyInOffered:
		if !t.answered[e.ID] {
			b := e
			t.view.BuyIn = &b
		}
	case table.AccountClosed:
		t.view.AccountOpen, t.view.Balance = false, 0
		t.slip.reset(nil)
		t.view.DealerStakes = nil
		if e.Ticket == nil {
			// Closed at the console (001 §6.5.2): the money is paid at the table, not by a
			// ticket from this terminal, so the screen must say where it went.
			t.sayLocked(msg.New("The dealer closed your account: %s paid at the table", money.Amount(e.Amount)), MoneyNews)
		}
	case table.LuckyBallDrawn:
		d := e.Draw
		t.view.LuckyBall = &d
		if d.Void && e.RoundID == t.view.RoundID {
			// 003 §8.11: the display showing the numbers malfunctioned; the round's Lucky Ball
			// wagers are void and come back when it settles.
			t.board.set("lucky-ball", msg.New("Lucky Ball display out of order: Lucky Ball wagers void and returned"), TableNews)
		}
	case table.DealerWagerPlaced:
		t.onDealerWagerLocked(e)
	case table.TableClosing:
		t.setClosingLocked(e.At)
	case table.SlipCarried:
		t.carriedLocked(e.Slip)
	case table.WagerRefused:
		t.refusedLocked(e)
	case table.JackpotMeter:
		t.view.Jackpot = e.Amount
	case table.JackpotWon:
		w := e
		if w.Void {
			// 001 §8.8: the hit's round was invalidated before the pit boss confirmed it.
			if t.view.JackpotWon != nil && t.view.JackpotWon.RoundID == w.RoundID {
				t.view.JackpotWon, t.view.JackpotMine = nil, false
			}
			t.sayLocked(msg.New("The jackpot of %s is void: its round was invalidated and the amount is back on the meter",
				money.Amount(w.Amount)), TableNews)
			break
		}
		t.view.JackpotWon, t.view.JackpotMine = &w, w.TerminalID == t.terminalID
	case table.TournamentChanged:
		t.onTournament(e.Tournament)
	}
	// The favourites are the player's: forgotten when the account closes.
	t.favs.Seen(t.view)
	t.greetLocked()
	t.changedLocked()
}

// limitsLocked puts the limits in force for this player in the view: their own (000 §4.3,
// 003 §4.6) over the table's sign. The touch is checked against them (betting.go), as the
// table checks the slip.
func (t *Terminal) limitsLocked() {
	t.view.Limits, t.view.PersonalLimits = t.signLimits, false
	if t.ownLimits != nil {
		t.view.Limits, t.view.PersonalLimits = *t.ownLimits, true
	}
}

func (t *Terminal) fromSnapshot(s table.Snapshot) {
	v := &t.view
	v.Config, v.Phase, v.RoundID, v.Deadline = s.Config, s.Phase, s.RoundID, s.Deadline
	t.signLimits, t.ownLimits = s.Limits, s.PlayerLimits
	t.limitsLocked()
	v.Pending, v.Balance, v.AccountOpen = s.Pending, s.Balance, s.AccountOpen
	t.serverFrozen = s.Frozen
	t.releaseFrozenLocked()
	v.History, v.LuckyBall, v.BuyIn, v.LastWin = s.History, s.LuckyBall, s.PendingBuyIn, s.LastSettled
	if v.BuyIn != nil && t.answered[v.BuyIn.ID] {
		v.BuyIn = nil // the snapshot was taken before the table had this terminal's answer
	}
	v.Jackpot, t.terminalID = s.Jackpot, s.TerminalID
	if s.LastSettled != nil {
		t.wins.settled(*s.LastSettled) // what a correction of it will say it was
	}
	t.onTournament(s.Tournament)
	if len(s.History) > 0 {
		o := s.History[0]
		v.LastOutcome = &o
	}
	if v.Chip == 0 && len(s.Config.Chips) > 0 {
		v.Chip = s.Config.Chips[0]
	}
	// The server's acknowledged slip is the truth after a reconnect or a restart: the screen
	// comes back exactly as the server will settle it.
	var stakes []Stake
	var dealer []DealerStake
	t.version = 0
	if s.Slip != nil && s.Slip.RoundID == s.RoundID {
		t.version = s.Slip.Version
		stakes, dealer = splitAck(s.Slip, s.Config.Layout)
	}
	v.DealerStakes = dealer
	if s.LastSettled != nil && s.LastSettled.RoundID == s.RoundID {
		// The slip has settled (the server keeps it until the next round): as after a Settled
		// event, its chips are off the layout — the balance already counts them — and are
		// what Repeat puts back.
		if len(stakes) > 0 {
			t.lastRound = stakes
		}
		v.Result = nil
		if s.LastSettled.Recognised {
			v.Result = resultOf(withDealer(stakes, dealer), s.Config.Layout, s.LastSettled.Number, s.LuckyBall)
		}
		stakes, v.DealerStakes = nil, nil
	}
	if r := t.restarted; r != nil {
		// The first snapshot since the terminal started. If its journal holds wagers on this
		// round that the server no longer holds, the terminal went down before the deadline
		// and the server voided them (rule 9.7.1): say so, as when the link is lost.
		t.restarted = nil
		settled := s.LastSettled != nil && s.LastSettled.RoundID == s.RoundID
		if r.round == s.RoundID && r.total > 0 && stakes == nil && !settled && s.AccountOpen {
			t.voidLocked(msg.New("the terminal restarted before the end of betting: its wagers on this spin are void"))
		}
	}
	t.slip.reset(stakes)
	v.Acked = true
	t.schedulePeriodLocked()
	t.setClosingLocked(s.ClosingAt)
}

func (t *Terminal) onPhase(e table.PhaseChanged) {
	v := &t.view
	if e.Phase == table.PhaseWagering && e.RoundID != v.RoundID {
		t.slip.reset(nil)
		t.view.DealerStakes = nil
		t.version = 0
		t.voidLocked(msg.Msg{})
		// The answers to touches of the last period ("No more bets", a refusal) are about it:
		// none of them is shown, or waits to be, in the new one (issue 32).
		t.board.drop(Answer)
		t.releaseFrozenLocked() // a correction's frozen state shown: the new round is open
		// The dealer may have changed the period since the snapshot (001 §5.1.1), which the
		// table does not announce: a round opens with its whole period left, so that is the
		// period now, and the countdown bar's full length (issue 32). Whole seconds: the
		// event's time on the link is not part of the period.
		if left := e.Deadline.Sub(t.link.ServerNow()).Round(time.Second); left > 0 {
			v.Config.WageringPeriod = left
		}
		v.Acked, v.LuckyBall, v.Result = true, nil, nil
		v.Tournament.Secret = false
		if v.JackpotWon != nil && v.JackpotWon.Confirmed {
			v.JackpotWon, v.JackpotMine = nil, false
		}
	}
	if e.NoSpin {
		// 001 §9.1–9.2, 003 §8.1–8.9: the no spin is announced; the spin has no effect and the
		// wagers stand for the valid spin that follows. The period stays as it was.
		t.board.set("round", msg.New("No spin: the ball will be spun again. Your wagers stand"), TableNews)
		e.BallDropping = v.BallDropping
	}
	v.Phase, v.RoundID, v.Deadline, v.BallDropping = e.Phase, e.RoundID, e.Deadline, e.BallDropping
	t.schedulePeriodLocked()
	if e.Phase == table.PhaseNoMoreBets {
		t.noMoreBetsLocked() // the dealer's call came before this terminal's own lock
	}
}

// carriedLocked shows the winning wagers the table carried to the new round (004 §3.6(b)): the
// chips on the layout are exactly the table's slip, so what settles is what the screen shows
// (§3.4), and the terminal's next change is a newer version than the table's, so a touch that
// withdraws them (§3.7) is taken, never refused as stale. A touch made before the table's word
// arrived was sent as a version the table will refuse: the version moves past it, so that
// refusal is not told, and the table's slip stands on the screen.
func (t *Terminal) carriedLocked(ack table.SlipAck) {
	if ack.RoundID != t.view.RoundID {
		return // a round already gone: the snapshot of the new one says what stands
	}
	layout := t.view.Config.Layout
	var stakes []Stake
	for i, b := range ack.Bets {
		if i >= len(ack.Results) {
			break
		}
		if per := ack.Results[i].Accepted / max(units(b.Bet, layout), 1); per > 0 {
			stakes = append(stakes, Stake{Bet: b.Bet, Amount: per})
		}
	}
	t.slip.reset(stakes)
	if t.version >= ack.Version {
		t.version++
	} else {
		t.version = ack.Version
	}
	t.view.Acked = true
	if len(stakes) > 0 {
		t.sayLocked(msg.New("Your winning wagers stay on the layout for this spin: touch them to withdraw"), TableNews)
	}
}

// correctHistoryLocked puts a corrected outcome in place of the round's entry in the history
// (and the last outcome, if it is that round's), rather than as a new spin; false if the round
// is not in the history shown.
func (t *Terminal) correctHistoryLocked(o table.Outcome) bool {
	for i, h := range t.view.History {
		if h.RoundID == o.RoundID {
			hist := slices.Clone(t.view.History)
			hist[i] = o
			t.view.History = hist
			if t.view.LastOutcome != nil && t.view.LastOutcome.RoundID == o.RoundID {
				t.view.LastOutcome = &o
			}
			return true
		}
	}
	return false
}

// greetLocked keeps the greeting standing while there is no money on the account and the
// terminal can take some: what to do first, said where the player looks.
func (t *Terminal) greetLocked() {
	var m msg.Msg
	noMoney := t.view.Connected && t.view.Phase != table.PhaseClosed && t.view.BuyIn == nil &&
		(!t.view.AccountOpen || t.view.Balance == 0) && !t.tournamentOnLocked()
	switch {
	case noMoney && t.view.Config.DealerCashOnly:
		// 004 §6.2, 000 §11.7.2: the buy-in is by tendering to the dealer, never at the terminal.
		m = msg.New("Buy in at the dealer: the dealer credits your account and you confirm it here")
	case noMoney && t.cashier != nil:
		m = msg.New("Insert notes or a ticket to buy in")
	}
	t.board.set("greeting", m, Hint)
}

// voidLocked sets (or, with a zero m, clears) why the round's wagers are void: a standing
// message until the next round opens.
func (t *Terminal) voidLocked(m msg.Msg) {
	t.view.Void = m
	t.board.set("round", m, TableNews)
}

// spawn runs fn on a goroutine Close waits for.
func (t *Terminal) spawn(fn func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.goLocked(fn)
}
