// Package app is the terminal's brain: one player terminal's view of the table and the rules it
// applies at the touch, kept in sync with the table through a Link. It never imports Fyne: the
// screen renders View, is told of each new one, and calls the actions. Everything the screen
// needs comes from here, through one Terminal; the decisions are made here too — which
// message the player reads (Notice, board), which period state the table is in (Period) — so
// the screen holds no policy.
//
// The Terminal's parts, one job each:
//   - terminal.go: construction with every dependency, the View, the change notice, Run/Close;
//   - follow.go: following the table's events (the round, the account, the snapshot);
//   - period.go: the lock at the deadline and the warning before it (001 §3.7, 000 §10.6.2),
//     on the injected clock;
//   - betting.go: the bet slip at the touch (rule 4.3), and keeping the table's copy current;
//   - buyin.go: the dealer buy-in the player confirms (004 §6.3(c));
//   - money.go: cash-out and the money devices' status, and the game records;
//   - notice.go: the one message on screen, with its priority and minimum time;
//   - correct.go: a corrected result (001 §9.4) told with what it was and is, and the frozen
//     state it is made under held on screen long enough to be seen;
//   - closing.go: the sign of the table's announced closure, counted down (001 §12.7);
//   - dealerwager.go: the wagers the dealer placed for the seat (002 §3.2B), shown apart, and
//     the player's call to the dealer (001 §9.5), and the casino supervisor's refusal of the
//     seat's wagers, which takes their chips off the layout and says why (003 §9.12);
//   - technician.go: technician mode, which takes the terminal out of play (SPEC §8);
//   - sounds.go: which cue sounds when (a chip, a refusal, the countdown, no more bets, the
//     number, a win), through the Sounds port, on the injected clock; the player's mute;
//   - the statistics of the recent outcomes a casino's board shows are in app/table (stats.go:
//     SplitsOf: colour, parity, halves, dozens; HotCold), pure functions of a history and its
//     wheel, shared with the table server's winning number display (server/display.go).
package app

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Link is what the terminal needs of its table. client.Client is the real one; apptest.Link
// is the fake.
type Link interface {
	Events() <-chan table.Event
	UpdateSlip(ctx context.Context, roundID string, version uint64, bets []table.SlipBet) (*table.SlipAck, error)
	LockAt(deadline time.Time) time.Time
	ServerNow() time.Time
	ConfirmBuyIn(ctx context.Context, key, buyInID string, accept bool) (table.Money, error)
	// AckDealerClose tells the table a dealer close is recorded here, so it stops telling it.
	AckDealerClose(ctx context.Context, closeID string) error
	// CallDealer raises the player's call on the dealer console (dealerwager.go's CallDealer).
	CallDealer(ctx context.Context, reason string) error
	// SetInService tells the table the terminal's technician mode: s out of play, nil back in
	// play (technician.go reports it at every change and every connection).
	SetInService(ctx context.Context, s *table.SeatService) (time.Time, error)
}

// Config is everything a Terminal depends on, given once at construction.
type Config struct {
	Link    Link        // the table; required
	Clock   clock.Clock // nil: the machine's clock
	Log     *slog.Logger
	Records Recorder      // the game records (recall.Writer); nil for none
	Gate    Gate          // the seat's player-ID pad; nil for none
	Cashier Cashier       // cash-out; nil on a terminal without a printer
	Recall  Recall        // the game records read back for the screen; nil for none
	Service ServiceConfig // technician mode (technician.go); zero for none
	Sounds  Sounds        // the cues the terminal sounds (sounds.go); nil for a silent terminal
}

// View is everything the screen shows, as one immutable value.
type View struct {
	Connected    bool
	Config       table.TableConfig
	Phase        table.Phase
	Period       Period // the period state as the player must see it
	RoundID      string
	Deadline     time.Time // server time
	Locked       bool      // no more bets on this terminal (rule 3.7)
	BallDropping bool
	// Limits are the limits in force for this player: their own when the dealer or supervisor
	// agreed some for this seat or their player card (000 §4.3, 003 §4.6), else the table's
	// limit sign. PersonalLimits says which: the screen then shows the distinctive marker and
	// the player's own limit sign.
	Limits         roulette.Limits
	PersonalLimits bool
	Pending        *table.PendingLimits

	Balance int64 // the chip account as the table holds it: what Cash out prints, the records' figure
	// ShownBalance is the BALANCE the player reads: the chip account less the chips on the
	// layout, which the rules say make "a corresponding change" to the amount shown as standing
	// to the player's credit (001 §3.2.2, 000 §10.4.2, §11.4.2). Never below zero; the table's
	// Balance again once the round settles and the layout is cleared. In a tournament round the
	// slip is tournament chips, so the chip account shows whole.
	ShownBalance int64
	SlipTotal    int64
	Available    int64 // balance less the slip: what more chips may use
	Stakes       []Stake
	// DealerStakes are the wagers the dealer placed for this seat on the round (oral call bets,
	// 002 §3.2B), shown marked as the dealer's; the player cannot change them from the screen.
	// SlipTotal and Available count them.
	DealerStakes []DealerStake
	Acked        bool // the server has acknowledged the slip as shown
	Chip         int64

	History     []table.Outcome
	LastOutcome *table.Outcome
	LastWin     *table.Settled
	Result      []ResultStake // the last settled round's wagers, until the next round opens
	Frozen      bool
	Void        msg.Msg // why the round's wagers are void, if they are
	AccountOpen bool
	BuyIn       *table.BuyInOffered
	LuckyBall   *roulette.LuckyBallDraw
	ClosingAt   time.Time         // the table's announced closure (001 §12.7), zero for none
	Closing     msg.Msg           // its sign: the time and the minutes left, counted down (closing.go)
	Jackpot     int64             // the jackpot meter, when the table has a jackpot
	JackpotWon  *table.JackpotWon // the latest hit at the table, until the next round
	JackpotMine bool              // ...and it is this terminal's

	Money      MoneyStatus // the money devices, when the terminal has them
	CanCashOut bool        // Cash out would print a ticket now: a printer ready, money to cash, a ticket table
	// CashOutAtDealer: the balance is paid in chips by the dealer (004 §6.6, 000 §11.7.6) and
	// there is money to pay; Cash out tells the player to ask the dealer, printing nothing.
	CashOutAtDealer bool
	Favourites      []Favourite // the player's saved slips, oldest first

	Message Notice // the one message for the player, chosen by priority and time (notice.go)

	Service ServiceView // technician mode (technician.go)

	// Muted is the player's mute (SetMuted): the terminal sounds no cue.
	Muted bool

	Tournament TournamentView // tournament play (tournament.go); its Tournament nil when none
	// Pad is the seat's player-ID pad as the player must see it (pad.go).
	Pad PadView
	// Chips are the chips the tray offers: the table's denominations, less those a tournament
	// round's minimum puts out of reach (tournament.go, chipsOfferedLocked).
	Chips []int64
	// Card is the seat's player card under carded play (card.go).
	Card CardView
}

// Feedback is the answer to a touch on the layout.
type Feedback struct {
	Accepted int64           // the stake on the bet now (per piece for a call bet)
	Reason   roulette.Reason // why it differs from what was tried
	Message  msg.Msg
}

// Terminal is one player terminal. Its methods are safe for concurrent use; the function given
// to OnChange is told every new View, in order, never with the terminal's lock held.
type Terminal struct {
	link    Link
	clk     clock.Clock
	log     *slog.Logger
	records Recorder
	gate    Gate
	cashier Cashier
	recall  Recall
	svc     ServiceConfig
	sounds  Sounds

	mu         sync.Mutex
	view       View
	slip       Slip
	lastRound  []Stake // the stakes of the last settled round, for Repeat
	version    uint64  // slip version sent to the server
	dirty      chan struct{}
	onChange   func(View)
	told       []View // views not yet told to onChange, oldest first
	telling    bool   // a goroutine is telling views to onChange (changedLocked)
	period     periodTimers
	sound      soundState   // the countdown's ticks and the round's cues (sounds.go)
	closing    closingTimer // the countdown of the table's announced closure (closing.go)
	board      *board
	favs       Favourites
	terminalID string        // this terminal, as the table knows it (from the snapshot)
	restarted  *recordedSlip // until the first snapshot: the last slip recorded before the start
	// answered holds the dealer buy-ins the player has answered here (or accepted before a
	// restart, still being finished): a snapshot taken before the table had the answer still
	// offers one, and must not put it back on the screen.
	answered map[string]bool
	money    MoneyStatus // as last told by the cashier (MoneyChanged)
	// The table's limit sign and this player's own limits (nil: none), from which View.Limits
	// is made (limitsLocked).
	signLimits roulette.Limits
	ownLimits  *roulette.Limits
	// slipDue says the slip changed since syncLoop last sent it; serviceDue that the table is
	// owed a report of technician mode (technician.go), which serviceGen counts the changes of.
	slipDue    bool
	serviceDue bool
	serviceGen uint64
	// The accounts' frozen state (001 §9.4), as the table says it (serverFrozen) and as the
	// screen shows it (view.Frozen): held for minFrozen at the least (correct.go).
	serverFrozen bool
	frozenAt     time.Time
	frozenHold   clock.Timer
	// correcting is the outcome a correction replaces, until its settlement is told; wins are
	// the recent rounds' wins, so a correction can say what a win was (correct.go).
	correcting *correction
	wins       recentWins
	// padTouched is the seat's player-ID pad as its last event said (PadTouched, pad.go).
	padTouched bool
	// turnEnded is the round whose turn the player ended under an order of wagering (EndTurn,
	// tournament.go): no further change to its wagers.
	turnEnded string
	// cards is carded play at the seat (card.go).
	cards cardState

	ctx    context.Context // Run's; cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the terminal starts
	closed bool
}

// New returns a terminal with its dependencies. Run starts it; Close stops it.
func New(cfg Config) *Terminal {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &Terminal{link: cfg.Link, clk: cfg.Clock, log: cfg.Log, records: cfg.Records, gate: cfg.Gate,
		cashier: cfg.Cashier, recall: cfg.Recall, svc: cfg.Service, sounds: cfg.Sounds, dirty: make(chan struct{}, 1), answered: map[string]bool{},
		ctx: ctx, cancel: cancel}
	t.board = newBoard(t.clk, t.timerFired(func() { t.board.tick() }))
	t.view.Money.Cashier = cfg.Cashier != nil
	return t
}

// timerFired wraps a timer's work: under the lock, never after Close, and the view told.
func (t *Terminal) timerFired(work func()) func() {
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.closed {
			return
		}
		work()
		t.changedLocked()
	}
}

// OnChange registers the function told about every new View.
func (t *Terminal) OnChange(fn func(View)) {
	t.mu.Lock()
	t.onChange = fn
	t.mu.Unlock()
}

// View returns the current view.
func (t *Terminal) View() View {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snapshotLocked()
}

func (t *Terminal) snapshotLocked() View {
	v := t.view
	v.Stakes = slices.Clone(t.slip.Stakes())
	v.DealerStakes = slices.Clone(v.DealerStakes)
	v.SlipTotal = t.slip.Total(v.Config.Layout) + dealerTotal(v.DealerStakes, v.Config.Layout)
	v.Available = v.Balance - v.SlipTotal
	v.ShownBalance = max(v.Available, 0)
	v.Period = periodOf(v, t.period.warned)
	v.Money = t.money
	v.Money.Cashier = t.cashier != nil
	// No ticket where the rules pay out in chips at the dealer (004 §6.6, 000 §11.7.6).
	v.CanCashOut = v.Money.Cashier && !v.Money.PrinterDown && !v.Money.CashingOut && v.AccountOpen && v.Balance > 0 &&
		!v.Config.DealerCashOnly
	v.CashOutAtDealer = v.Config.DealerCashOnly && v.AccountOpen && v.Balance > 0
	v.Favourites = t.favs.List()
	v.Message = t.board.notice()
	t.tournamentViewLocked(&v)
	v.Chips = t.chipsOfferedLocked()
	v.Pad = PadView{Required: v.Config.IDPadRequired, Touched: t.padTouched}
	v.Card = t.cardViewLocked(v.SlipTotal)
	if v.Tournament.Playing {
		v.ShownBalance = v.Balance
	}
	return v
}

// changedLocked publishes the view to onChange. Called with t.mu held; it may release the lock
// and take it again before it returns.
func (t *Terminal) changedLocked() {
	t.minimumLocked()
	t.told = append(t.told, t.snapshotLocked())
	if t.telling {
		return // the goroutine telling now tells this view too, after the ones before it
	}
	// The function is called without the lock (it may call back into the terminal), so two
	// goroutines that each changed the view would race to tell theirs: the screen could be
	// left showing the older one. One goroutine at a time tells every view, in order.
	t.telling = true
	for len(t.told) > 0 {
		views, fn := t.told, t.onChange
		t.told = nil
		t.mu.Unlock()
		if fn != nil {
			for _, v := range views {
				fn(v)
			}
		}
		t.mu.Lock()
	}
	t.telling = false
}

// say tells the player m at priority p (the board decides when it shows). Called with t.mu held.
func (t *Terminal) sayLocked(m msg.Msg, p Priority) { t.board.say(m, p) }

// go runs fn on a goroutine Close waits for.
func (t *Terminal) goLocked(fn func()) {
	if t.closed {
		return
	}
	t.wg.Add(1)
	go func() { defer t.wg.Done(); fn() }()
}

// SlipHistory is a Recorder that can say which slip it recorded last (recall.Writer can): a
// terminal that restarts reads it to tell the player what became of wagers it had shown.
type SlipHistory interface {
	// LastSlip is the round and total of the last acknowledged slip recorded; ok is false if
	// none was.
	LastSlip(ctx context.Context) (round string, total int64, ok bool, err error)
}

// recordedSlip is the last slip the terminal recorded before it (re)started.
type recordedSlip struct {
	round string
	total int64
}

// Run follows the table's events and keeps the server's copy of the slip current, until ctx
// ends or Close is called; it returns once every goroutine it started has ended.
func (t *Terminal) Run(ctx context.Context) {
	stop := context.AfterFunc(ctx, t.cancel)
	defer stop()
	ctx = t.ctx
	defer t.wg.Wait()
	if h, ok := t.records.(SlipHistory); ok {
		round, total, ok, err := h.LastSlip(ctx)
		switch {
		case err != nil:
			t.log.Error("game records: last slip not readable", "err", err)
		case ok:
			t.mu.Lock()
			t.restarted = &recordedSlip{round: round, total: total}
			t.mu.Unlock()
		}
	}
	if t.records != nil {
		// Read before the first snapshot is applied: an offer the player accepted before the
		// restart is not offered again while it is being finished.
		open, err := t.records.OpenBuyIns(ctx)
		if err != nil {
			t.log.Error("game records: open dealer buy-ins not readable", "err", err)
		}
		t.mu.Lock()
		for _, a := range open {
			t.answered[a.ID] = true
		}
		t.goLocked(func() { t.recoverBuyIns(ctx, open) })
		t.mu.Unlock()
	}
	t.mu.Lock()
	t.goLocked(func() { t.syncLoop(ctx) })
	t.mu.Unlock()
	events := t.link.Events()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			t.record(ctx, ev)
			t.apply(ev)
		}
	}
}

// Close stops the terminal: Run returns once its goroutines have ended, and no timer tells a
// view after Close returns.
func (t *Terminal) Close() {
	t.cancel()
	t.mu.Lock()
	t.closed = true
	t.period.stop()
	t.sound.stop()
	t.closing.stop()
	t.cards.stop()
	t.board.stop()
	t.stopFrozenHoldLocked()
	t.mu.Unlock()
	t.wg.Wait()
}
