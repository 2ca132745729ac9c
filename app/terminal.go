// Package app is the terminal's brain: one player terminal's view of the table and the rules it
// applies at the touch — the bet slip with undo, repeat and double, the limits (rule 4.3), the
// lock at the deadline on the server's clock — kept in sync with the table through a Link. It
// never imports Fyne: the UI renders View and calls the intents.
package app

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
)

// Link is what the terminal needs of its table. client.Client is the real one; tests use a fake.
type Link interface {
	Events() <-chan table.Event
	UpdateSlip(ctx context.Context, roundID string, version uint64, bets []table.SlipBet) (*table.SlipAck, error)
	LockAt(deadline time.Time) time.Time
	ServerNow() time.Time
	ConfirmBuyIn(ctx context.Context, key, buyInID string, accept bool) (table.Money, error)
	// AckDealerClose tells the table a dealer close is recorded here, so it stops telling it.
	AckDealerClose(ctx context.Context, closeID string) error
}

// View is everything the screen shows, as one immutable value.
type View struct {
	Connected    bool
	Config       table.TableConfig
	Phase        table.Phase
	RoundID      string
	Deadline     time.Time // server time
	Locked       bool      // no more bets on this terminal (rule 3.7)
	BallDropping bool
	Limits       roulette.Limits
	Pending      *table.PendingLimits

	Balance   int64 // the chip account
	SlipTotal int64
	Available int64 // balance less the slip: what more chips may use
	Stakes    []Stake
	Acked     bool // the server has acknowledged the slip as shown
	Chip      int64

	History     []table.Outcome
	LastOutcome *table.Outcome
	LastWin     *table.Settled
	Frozen      bool
	Void        msg.Msg // why the round's wagers are void, if they are
	AccountOpen bool
	BuyIn       *table.BuyInOffered
	LuckyBall   *roulette.LuckyBallDraw
	Jackpot     int64             // the jackpot meter, when the table has a jackpot
	JackpotWon  *table.JackpotWon // the latest hit at the table, until the next round
	JackpotMine bool              // ...and it is this terminal's

	Message msg.Msg // the last feedback for the player (limits, locks); zero for none
}

// Feedback is the answer to a touch on the layout.
type Feedback struct {
	Accepted int64           // the stake on the bet now (per piece for a call bet)
	Reason   roulette.Reason // why it differs from what was tried
	Message  msg.Msg
}

// ErrLocked refuses a change after the period (rule 3.7).
var ErrLocked = msg.Err("no more bets")

// Other refusals of a change to the slip.
var (
	ErrNotConnected   = msg.Err("not connected to the table")
	ErrFrozen         = msg.Err("accounts are frozen while a result is corrected")
	ErrNothingToPlace = msg.Err("nothing to place")
)

// reasonMsg is rule 4.3's reason for a changed wager, as the player is told it.
func reasonMsg(r roulette.Reason) msg.Msg { return msg.New(r.Message()) }

// Terminal is one player terminal. Its methods are safe for concurrent use; OnChange is called
// after every change, from whichever goroutine made it.
type Terminal struct {
	link Link
	now  func() time.Time
	log  *slog.Logger

	mu         sync.Mutex
	view       View
	slip       Slip
	lastRound  []Stake // the stakes of the last settled round, for Repeat
	version    uint64  // slip version sent to the server
	dirty      chan struct{}
	onChange   func(View)
	told       []View // views not yet told to onChange, oldest first
	telling    bool   // a goroutine is telling views to onChange (changedLocked)
	lockTimer  *time.Timer
	gate       Gate
	records    Recorder
	terminalID string        // this terminal, as the table knows it (from the snapshot)
	restarted  *recordedSlip // until the first snapshot: the last slip recorded before the start
	// answered holds the dealer buy-ins the player has answered here (or accepted before a
	// restart, still being finished): a snapshot taken before the table had the answer still
	// offers one, and must not put it back on the screen.
	answered map[string]bool
}

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
	BuyInAccepted(ctx context.Context, b AcceptedBuyIn) error
	// BuyInDone closes an accepted buy-in: credited is what the table credited, or refused
	// says why the table would not (then nothing was credited).
	BuyInDone(ctx context.Context, b AcceptedBuyIn, credited int64, refused string) error
	// OpenBuyIns are the buy-ins accepted and not yet done, oldest first.
	OpenBuyIns(ctx context.Context) ([]AcceptedBuyIn, error)
	// DealerCashOut records an account the dealer closed and paid at the table, once per
	// close (c.ID) however often it is told: live, and again in every snapshot after it.
	DealerCashOut(ctx context.Context, c table.AccountClosed) error
}

// AcceptedBuyIn is a dealer buy-in the player accepted on the screen.
type AcceptedBuyIn struct {
	ID     string // the table's buy-in id
	Key    string // the idempotency key of the ConfirmBuyIn request, the same on every retry
	Amount int64  // as offered
}

// buyInKey is the idempotency key of the answer to buy-in id: derived from the id alone, so a
// second touch, a retry and a restart all send the same one.
func buyInKey(id string) string { return "buy-in-" + id }

// SetRecorder sets where acknowledged slips and settlements are recorded. Call before Run.
func (t *Terminal) SetRecorder(r Recorder) {
	t.mu.Lock()
	t.records = r
	t.mu.Unlock()
}

// New returns a terminal on the link. now is the local clock.
func New(link Link, now func() time.Time, log *slog.Logger) *Terminal {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Terminal{link: link, now: now, log: log, dirty: make(chan struct{}, 1), answered: map[string]bool{}}
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
	v.SlipTotal = t.slip.Total(v.Config.Layout)
	v.Available = v.Balance - v.SlipTotal
	return v
}

// changedLocked publishes the view to onChange. Called with t.mu held; it may release the lock
// and take it again before it returns.
func (t *Terminal) changedLocked() {
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

// Run follows the table's events and keeps the server's copy of the slip current, until ctx ends.
func (t *Terminal) Run(ctx context.Context) {
	t.mu.Lock()
	rec := t.records
	t.mu.Unlock()
	if h, ok := rec.(SlipHistory); ok {
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
	if rec != nil {
		// Read before the first snapshot is applied: an offer the player accepted before the
		// restart is not offered again while it is being finished.
		open, err := rec.OpenBuyIns(ctx)
		if err != nil {
			t.log.Error("game records: open dealer buy-ins not readable", "err", err)
		}
		t.mu.Lock()
		for _, a := range open {
			t.answered[a.ID] = true
		}
		t.mu.Unlock()
		go t.recoverBuyIns(ctx, rec, open)
	}
	go t.syncLoop(ctx)
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

// record writes a settlement to the game records before the screen shows it; a snapshot's last
// settlement too, in case the terminal was down when it was told (the reader drops repeats).
func (t *Terminal) record(ctx context.Context, ev table.Event) {
	t.mu.Lock()
	rec := t.records
	t.mu.Unlock()
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
	go func() {
		actx, cancel := context.WithTimeout(ctx, ackTimeout)
		defer cancel()
		if err := t.link.AckDealerClose(actx, c.ID); err != nil && ctx.Err() == nil {
			t.log.Warn("dealer close not acknowledged to the table; it will be told again", "close", c.ID, "err", err)
		}
	}()
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
			t.view.Void = msg.New("connection to the table lost before the end of betting: wagers void")
			t.slip.reset(nil)
			t.view.Locked = true
		}
	case table.Snapshot:
		t.fromSnapshot(e)
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
		t.view.Void, t.view.Balance = msg.New("Wagers void and refunded: %s", e.Reason), e.Balance
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
			t.view.Message = msg.New("The dealer closed your account: %s paid at the table", money.Decimal(e.Amount))
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
		stakes = nil
	}
	if r := t.restarted; r != nil {
		// The first snapshot since the terminal started. If its journal holds wagers on this
		// round that the server no longer holds, the terminal went down before the deadline
		// and the server voided them (rule 9.7.1): say so, as when the link is lost.
		t.restarted = nil
		settled := s.LastSettled != nil && s.LastSettled.RoundID == s.RoundID
		if r.round == s.RoundID && r.total > 0 && stakes == nil && !settled && s.AccountOpen {
			v.Void = msg.New("the terminal restarted before the end of betting: its wagers on this spin are void")
		}
	}
	t.slip.reset(stakes)
	v.Acked = true
	t.scheduleLockLocked()
}

func (t *Terminal) onPhase(e table.PhaseChanged) {
	v := &t.view
	if e.Phase == table.PhaseWagering && e.RoundID != v.RoundID {
		t.slip.reset(nil)
		t.version = 0
		v.Void, v.Message, v.Acked, v.LuckyBall = msg.Msg{}, msg.Msg{}, true, nil
		if v.JackpotWon != nil && v.JackpotWon.Confirmed {
			v.JackpotWon, v.JackpotMine = nil, false
		}
	}
	v.Phase, v.RoundID, v.Deadline, v.BallDropping = e.Phase, e.RoundID, e.Deadline, e.BallDropping
	t.scheduleLockLocked()
}

// scheduleLockLocked sets Locked now or arms a timer for the lock time the link computes from
// its server-clock estimate: never after the server's deadline.
func (t *Terminal) scheduleLockLocked() {
	if t.lockTimer != nil {
		t.lockTimer.Stop()
		t.lockTimer = nil
	}
	if t.view.Phase != table.PhaseWagering {
		t.view.Locked = true
		return
	}
	at := t.link.LockAt(t.view.Deadline)
	wait := at.Sub(t.now())
	if at.IsZero() || wait <= 0 {
		t.view.Locked = true
		return
	}
	t.view.Locked = false
	round := t.view.RoundID
	t.lockTimer = time.AfterFunc(wait, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.view.RoundID == round && !t.view.Locked {
			t.view.Locked = true
			t.changedLocked()
		}
	})
}

// Remaining is the wagering time left on the server's clock.
func (t *Terminal) Remaining() time.Duration {
	t.mu.Lock()
	deadline, phase := t.view.Deadline, t.view.Phase
	t.mu.Unlock()
	if phase != table.PhaseWagering {
		return 0
	}
	return max(deadline.Sub(t.link.ServerNow()), 0)
}

// SelectChip selects the chip value the next touches place.
func (t *Terminal) SelectChip(amount int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.view.Chip = amount
	t.changedLocked()
}

func (t *Terminal) canChangeLocked() error {
	switch {
	case !t.view.Connected:
		return ErrNotConnected
	case t.view.Frozen:
		return ErrFrozen
	case t.view.Phase != table.PhaseWagering || t.view.Locked || !t.now().Before(t.link.LockAt(t.view.Deadline)):
		t.view.Locked = t.view.Phase == table.PhaseWagering || t.view.Locked
		return ErrLocked
	case t.view.Config.IDPadRequired && (t.gate == nil || !t.gate.Touched()):
		return ErrPadNotTouched
	case t.view.Config.PlayerCardRequired && !t.hasCard():
		return ErrNoPlayerCard
	}
	return nil
}

// Gate is this seat's player-ID pad and card reader (devices/idpad gives one per seat).
type Gate interface {
	Touched() bool
	Card() (string, bool)
}

// Refusals when the table's profile requires the pad or a player card (000 §11.4.2(a), 003 §3.4).
var (
	ErrPadNotTouched = msg.Err("touch your player pad to bet")
	ErrNoPlayerCard  = msg.Err("insert your player card to bet")
)

// SetGate connects the seat's ID pad; without one, a table that requires the pad takes no wager.
func (t *Terminal) SetGate(g Gate) {
	t.mu.Lock()
	t.gate = g
	t.mu.Unlock()
}

func (t *Terminal) hasCard() bool {
	if t.gate == nil {
		return false
	}
	_, ok := t.gate.Card()
	return ok
}

// placeLocked applies rule 4.3 to putting `want` on b, with what the balance covers beyond the
// other stakes. It returns the amount the screen shows.
func (t *Terminal) placeLocked(b roulette.Bet, want int64) (Feedback, error) {
	layout := t.view.Config.Layout
	pieces, err := b.Pieces(layout)
	if err != nil {
		return Feedback{}, err
	}
	current := t.slip.On(b)
	available := t.view.Balance - t.slip.Total(layout) + current*roulette.Units(pieces)
	got, _, why := t.view.Limits.PlaceBet(pieces, b.IsCall(), want, available)
	fb := Feedback{Accepted: got, Reason: why}
	if why != roulette.ReasonNone {
		fb.Message = msg.New("%v: %s", b, reasonMsg(why))
	}
	return fb, nil
}

// Place adds the selected chip to bet b. Below the minimum no chip appears (rule 4.3.1); over
// the maximum or off the unit the stake shows the next lowest permitted amount (4.3.2).
func (t *Terminal) Place(b roulette.Bet) (Feedback, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canChangeLocked(); err != nil {
		t.view.Message = msg.Of(err)
		t.changedLocked()
		return Feedback{Message: msg.Of(err)}, err
	}
	current := t.slip.On(b)
	fb, err := t.placeLocked(b, current+t.view.Chip)
	if err != nil {
		return Feedback{}, err
	}
	if fb.Accepted < current && fb.Reason != roulette.ReasonBelowMinimum {
		// A touch never takes chips away: keep what was there.
		fb.Accepted = current
	}
	if fb.Reason == roulette.ReasonBelowMinimum && current > 0 {
		fb.Accepted = current
	}
	if fb.Accepted != current {
		t.slip.set(b, fb.Accepted)
		t.touchedLocked()
	}
	t.view.Message = fb.Message
	t.changedLocked()
	return fb, nil
}

// Remove takes the whole stake off bet b (a chip dragged off the layout).
func (t *Terminal) Remove(b roulette.Bet) error {
	return t.edit(func() bool {
		if t.slip.On(b) == 0 {
			return false
		}
		t.slip.set(b, 0)
		return true
	})
}

// Move moves the stake from one bet to another (a chip dragged across the layout); the
// destination's limits apply.
func (t *Terminal) Move(from, to roulette.Bet) (Feedback, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canChangeLocked(); err != nil {
		return Feedback{Message: msg.Of(err)}, err
	}
	amount := t.slip.On(from)
	if amount == 0 || from == to {
		return Feedback{Accepted: t.slip.On(to)}, nil
	}
	t.slip.set(from, 0)
	fb, err := t.placeLocked(to, t.slip.On(to)+amount)
	if err != nil || fb.Accepted == 0 {
		t.slip.Undo()
		if err == nil {
			err = &msg.Error{Msg: fb.Message}
		}
		return fb, err
	}
	t.slip.set(to, fb.Accepted)
	t.slip.undo = t.slip.undo[:len(t.slip.undo)-1] // one move is one undo step
	t.touchedLocked()
	t.view.Message = fb.Message
	t.changedLocked()
	return fb, nil
}

// Undo is "remove last": as many steps back as the player likes.
func (t *Terminal) Undo() error { return t.edit(t.slip.Undo) }

// Clear is "remove all".
func (t *Terminal) Clear() error {
	return t.edit(func() bool {
		if len(t.slip.Stakes()) == 0 {
			return false
		}
		t.slip.replace(nil)
		return true
	})
}

// Repeat puts the last settled round's bets back, each through the limits and the balance.
func (t *Terminal) Repeat() error {
	return t.rebuild(func(s Stake) int64 {
		return s.Amount
	}, t.lastRound)
}

// Double doubles every stake, each through the limits and the balance.
func (t *Terminal) Double() error {
	return t.rebuild(func(s Stake) int64 { return 2 * s.Amount }, nil)
}

// rebuild replaces the slip with from (or the current stakes) rescaled by amount, placing each
// through rule 4.3 in order, as one undo step.
func (t *Terminal) rebuild(amount func(Stake) int64, from []Stake) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canChangeLocked(); err != nil {
		return err
	}
	if from == nil {
		from = t.slip.Stakes()
	}
	if len(from) == 0 {
		return ErrNothingToPlace
	}
	old := slices.Clone(t.slip.Stakes())
	t.slip.stakes = nil // price each stake as if the layout were empty; history untouched
	var said msg.Msg
	for _, s := range from {
		fb, err := t.placeLocked(s.Bet, amount(s))
		if err != nil {
			continue
		}
		if fb.Accepted > 0 {
			t.slip.stakes = append(t.slip.stakes, Stake{Bet: s.Bet, Amount: fb.Accepted})
		}
		if !fb.Message.IsZero() {
			said = fb.Message
		}
	}
	newStakes := t.slip.stakes
	t.slip.stakes = old
	t.slip.replace(newStakes)
	t.view.Message = said
	t.touchedLocked()
	t.changedLocked()
	return nil
}

func (t *Terminal) edit(change func() bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canChangeLocked(); err != nil {
		return err
	}
	if change() {
		t.view.Message = msg.Msg{}
		t.touchedLocked()
		t.changedLocked()
	}
	return nil
}

// touchedLocked marks the slip changed and wakes the sync loop.
func (t *Terminal) touchedLocked() {
	t.version++
	t.view.Acked = false
	select {
	case t.dirty <- struct{}{}:
	default:
	}
}

// syncLoop sends the newest slip version whenever it changes. Versions in between are skipped:
// the server keeps the last version it acknowledged before the deadline, so only the newest
// matters (rule 3.6).
func (t *Terminal) syncLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.dirty:
		}
		t.mu.Lock()
		round, version := t.view.RoundID, t.version
		stakes := slices.Clone(t.slip.Stakes())
		t.mu.Unlock()
		bets := make([]table.SlipBet, len(stakes))
		for i, s := range stakes {
			bets[i] = table.SlipBet{Bet: s.Bet, Amount: s.Amount}
		}
		ack, err := t.link.UpdateSlip(ctx, round, version, bets)
		t.mu.Lock()
		rec, layout := t.records, t.view.Config.Layout
		t.mu.Unlock()
		if err == nil && rec != nil {
			// Recorded before the screen shows the slip as accepted; if it cannot be, the
			// player is told the wagers are not confirmed on this terminal.
			if rerr := rec.SlipAcked(ctx, layout, *ack); rerr != nil {
				t.log.Error("game records: slip not recorded", "round", round, "version", version, "err", rerr)
				err = &msg.Error{Msg: msg.New("the terminal could not record it: %s", rerr.Error())}
			}
		}
		t.mu.Lock()
		if t.view.RoundID == round && t.version == version {
			if err != nil {
				t.view.Message = msg.New("the table did not accept the last change: %s", msg.Of(err))
				t.log.Warn("slip update", "round", round, "version", version, "err", err)
			} else {
				t.adoptAckLocked(ack)
			}
			t.changedLocked()
		}
		t.mu.Unlock()
	}
}

// adoptAckLocked takes the server's accepted amounts: the server is authoritative, and if it
// accepted less (limits changed under the player) the screen must show what will settle.
func (t *Terminal) adoptAckLocked(ack *table.SlipAck) {
	layout := t.view.Config.Layout
	var stakes []Stake
	for i, b := range ack.Bets {
		if i >= len(ack.Results) {
			break
		}
		per := ack.Results[i].Accepted / max(units(b.Bet, layout), 1)
		if per > 0 {
			stakes = append(stakes, Stake{Bet: b.Bet, Amount: per})
		}
	}
	if !slices.Equal(stakes, t.slip.Stakes()) {
		t.slip.stakes = stakes
		t.view.Message = msg.New("the table adjusted your wagers to its limits")
	}
	t.view.Acked = true
}

// ConfirmBuyIn answers a dealer buy-in offer. An acceptance is journalled (with the key the
// table is asked with) before the table is asked, and the table's answer after: money the table
// credits is never missing from the terminal's records, nor counted twice.
func (t *Terminal) ConfirmBuyIn(ctx context.Context, accept bool) error {
	t.mu.Lock()
	b, rec := t.view.BuyIn, t.records
	t.mu.Unlock()
	if b == nil {
		return msg.Err("no buy-in to confirm")
	}
	if !accept {
		// Declining moves no money: there is nothing to journal.
		if _, err := t.link.ConfirmBuyIn(ctx, buyInKey(b.ID), b.ID, false); err != nil {
			return err
		}
		t.buyInAnswered(b.ID)
		return nil
	}
	a := AcceptedBuyIn{ID: b.ID, Key: buyInKey(b.ID), Amount: b.Amount}
	if rec != nil {
		if err := rec.BuyInAccepted(ctx, a); err != nil {
			t.log.Error("game records: dealer buy-in acceptance not recorded", "buy-in", b.ID, "err", err)
			return msg.Err("the terminal could not record the buy-in: %s", err.Error())
		}
	}
	return t.finishBuyIn(ctx, rec, a)
}

// finishBuyIn asks the table to credit an accepted buy-in and records its answer. An error
// that is not the table's refusal leaves the buy-in open, to be asked again with the same key.
func (t *Terminal) finishBuyIn(ctx context.Context, rec Recorder, a AcceptedBuyIn) error {
	m, err := t.link.ConfirmBuyIn(ctx, a.Key, a.ID, true)
	if err != nil && !table.Refused(err) {
		return err
	}
	if rec != nil {
		credited, why := m.Amount, ""
		if err != nil {
			credited, why = 0, err.Error()
		}
		if rerr := rec.BuyInDone(ctx, a, credited, why); rerr != nil {
			// The table has answered; the journal still holds the acceptance open, so the next
			// start asks again with the same key, gets the same answer and records it then.
			t.log.Error("game records: dealer buy-in outcome not recorded", "buy-in", a.ID, "err", rerr)
		}
	}
	t.buyInAnswered(a.ID)
	return err
}

// buyInAnswered takes the offer off the screen once the table has its answer, for good.
func (t *Terminal) buyInAnswered(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.answered[id] = true
	if t.view.BuyIn != nil && t.view.BuyIn.ID == id {
		t.view.BuyIn = nil
		t.changedLocked()
	}
}

// recoverBuyIns finishes the buy-ins the player accepted before the terminal went down and
// whose answer from the table was never recorded (open): each is asked for again with its own
// key, until the table answers or ctx ends.
func (t *Terminal) recoverBuyIns(ctx context.Context, rec Recorder, open []AcceptedBuyIn) {
	for _, a := range open {
		for attempt := 0; ; attempt++ {
			err := t.finishBuyIn(ctx, rec, a)
			if err == nil || table.Refused(err) {
				break
			}
			t.log.Warn("dealer buy-in accepted before the restart: the table has not answered yet", "buy-in", a.ID, "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(min(time.Duration(attempt+1)*500*time.Millisecond, 5*time.Second)):
			}
		}
	}
}
