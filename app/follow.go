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
			// (rule 9.7.1, 9.8.1), so the screen says so rather than pretend they stand.
			t.voidLocked(msg.New("connection to the table lost before the end of betting: wagers void"))
			t.slip.reset(nil)
			t.view.Locked = true
		}
	case table.Snapshot:
		t.fromSnapshot(e)
		t.serviceOwedLocked() // a new connection: the table may have lost or kept an old report
	case table.PhaseChanged:
		t.onPhase(e)
	case table.OutcomeEntered:
		o := e.Outcome
		t.view.LastOutcome = &o
		t.view.History = append([]table.Outcome{o}, t.view.History...)
		if len(t.view.History) > 50 {
			t.view.History = t.view.History[:50]
		}
	case table.Settled:
		s := e
		t.view.LastWin, t.view.Balance = &s, e.Balance
		if !e.Correction {
			t.lastRound = slices.Clone(t.slip.Stakes())
		}
		t.view.Result = nil
		if e.Recognised {
			t.view.Result = resultOf(t.lastRound, t.view.Config.Layout, e.Number, t.view.LuckyBall)
		}
		t.slip.reset(nil)
	case table.BalanceChanged:
		t.view.Balance = e.Balance
		t.view.AccountOpen = true
	case table.LimitsChanged:
		t.view.Limits, t.view.Pending = e.Limits, e.Pending
	case table.FrozenChanged:
		t.view.Frozen = e.Frozen
	case table.RoundVoided:
		// The table's reason is its own words (the pit boss's, for an invalidation).
		t.voidLocked(msg.New("Wagers void and refunded: %s", e.Reason))
		t.view.Balance = e.Balance
	case table.BuyInOffered:
		if !t.answered[e.ID] {
			b := e
			t.view.BuyIn = &b
		}
	case table.AccountClosed:
		t.view.AccountOpen, t.view.Balance = false, 0
		t.slip.reset(nil)
		if e.Ticket == nil {
			// Closed at the console (001 §6.5.2): the money is paid at the table, not by a
			// ticket from this terminal, so the screen must say where it went.
			t.sayLocked(msg.New("The dealer closed your account: %s paid at the table", money.Decimal(e.Amount)), MoneyNews)
		}
	case table.LuckyBallDrawn:
		d := e.Draw
		t.view.LuckyBall = &d
	case table.JackpotMeter:
		t.view.Jackpot = e.Amount
	case table.JackpotWon:
		w := e
		t.view.JackpotWon, t.view.JackpotMine = &w, w.TerminalID == t.terminalID
	}
	// The favourites are the player's: forgotten when the account closes.
	t.favs.Seen(t.view)
	t.greetLocked()
	t.changedLocked()
}

func (t *Terminal) fromSnapshot(s table.Snapshot) {
	v := &t.view
	v.Config, v.Phase, v.RoundID, v.Deadline = s.Config, s.Phase, s.RoundID, s.Deadline
	v.Limits, v.Pending, v.Balance, v.AccountOpen, v.Frozen = s.Limits, s.Pending, s.Balance, s.AccountOpen, s.Frozen
	v.History, v.LuckyBall, v.BuyIn, v.LastWin = s.History, s.LuckyBall, s.PendingBuyIn, s.LastSettled
	if v.BuyIn != nil && t.answered[v.BuyIn.ID] {
		v.BuyIn = nil // the snapshot was taken before the table had this terminal's answer
	}
	v.Jackpot, t.terminalID = s.Jackpot, s.TerminalID
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
	t.version = 0
	if s.Slip != nil && s.Slip.RoundID == s.RoundID {
		t.version = s.Slip.Version
		for i, b := range s.Slip.Bets {
			amount := b.Amount
			if i < len(s.Slip.Results) {
				amount = s.Slip.Results[i].Accepted / max(units(b.Bet, s.Config.Layout), 1)
			}
			if amount > 0 {
				stakes = append(stakes, Stake{Bet: b.Bet, Amount: amount})
			}
		}
	}
	if s.LastSettled != nil && s.LastSettled.RoundID == s.RoundID {
		// The slip has settled (the server keeps it until the next round): as after a Settled
		// event, its chips are off the layout — the balance already counts them — and are
		// what Repeat puts back.
		if len(stakes) > 0 {
			t.lastRound = stakes
		}
		v.Result = nil
		if s.LastSettled.Recognised {
			v.Result = resultOf(stakes, s.Config.Layout, s.LastSettled.Number, s.LuckyBall)
		}
		stakes = nil
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
}

func (t *Terminal) onPhase(e table.PhaseChanged) {
	v := &t.view
	if e.Phase == table.PhaseWagering && e.RoundID != v.RoundID {
		t.slip.reset(nil)
		t.version = 0
		t.voidLocked(msg.Msg{})
		v.Acked, v.LuckyBall, v.Result = true, nil, nil
		if v.JackpotWon != nil && v.JackpotWon.Confirmed {
			v.JackpotWon, v.JackpotMine = nil, false
		}
	}
	v.Phase, v.RoundID, v.Deadline, v.BallDropping = e.Phase, e.RoundID, e.Deadline, e.BallDropping
	t.schedulePeriodLocked()
}

// greetLocked keeps the greeting standing while there is no money on the account and the
// terminal can take some: what to do first, said where the player looks.
func (t *Terminal) greetLocked() {
	var m msg.Msg
	if t.cashier != nil && t.view.Connected && t.view.Phase != table.PhaseClosed && t.view.BuyIn == nil &&
		(!t.view.AccountOpen || t.view.Balance == 0) {
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
