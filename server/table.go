// Package server is the reference table game server: the round engine (wagering period,
// deadline, outcome, settlement of every terminal's last acknowledged slip), the chip accounts
// and tickets kept in the ledger, and the gRPC services terminals and the dealer console call.
//
// The server is authoritative: the terminals forecast, the server decides. Every decision that
// moves money is committed to the ledger before it is acknowledged or broadcast.
package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/tablegames/ats/proto/wire"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/server/ledger"
)

// Config is a table's configuration.
type Config struct {
	TableID       string
	Wheel         roulette.Wheel
	LayoutProfile roulette.Profile
	RulesProfile  string // "crown", "vic-1999", "star"
	Period        time.Duration
	Warning       time.Duration
	Limits        roulette.Limits
	Chips         []int64
	LuckyBall     bool
	LuckyMega     bool
	Jackpot       *JackpotConfig // nil: no jackpot
	// The player must touch their ID pad, or have a player card in its reader, to wager.
	IDPadRequired, PlayerCardRequired bool
	Venue                             string
	Currency                          string
	TicketExpiry                      time.Duration
	History                           int

	// Auto-dealer timing: the pause from the deadline to the outcome, and the time the result
	// stays on screen before the next round opens.
	SpinTime   time.Duration
	ResultTime time.Duration
}

// DefaultConfig is a single-zero table with the rules' defaults: a 30 s wagering period
// (001 §5.1.2) and a warning 5 s before its end.
func DefaultConfig() Config {
	return Config{
		TableID: "T1", Wheel: roulette.SingleZero, RulesProfile: "crown",
		Period: 30 * time.Second, Warning: 5 * time.Second,
		Limits: roulette.Limits{
			Default:      roulette.Limit{Min: 100, Max: 50000, Unit: 100},
			PerKind:      map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 2500, Unit: 100}},
			AggregateMin: 500,
		},
		Chips: []int64{100, 500, 1000, 2500, 10000}, Venue: "Demo Casino", Currency: "AUD",
		TicketExpiry: 90 * 24 * time.Hour, History: 20,
		SpinTime: 4 * time.Second, ResultTime: 5 * time.Second,
	}
}

// minimumRaiseNotice is how long a higher minimum must be shown before it takes effect
// (001 §4.1 footnote, s.66(2); 003 §4.5).
const minimumRaiseNotice = 20 * time.Minute

// subscriberBuffer bounds the events queued for one Watch stream. A terminal that falls this far
// behind is cut off and must resubscribe, which gives it a fresh snapshot: the engine never
// waits for a slow terminal.
const subscriberBuffer = 256

type subscriber struct {
	terminal string
	ch       chan *pb.TableEvent
	dropped  chan struct{} // closed when the engine cut the subscriber off
	once     sync.Once
}

type acceptedBet struct {
	Spec     roulette.BetSpec `json:"spec"`
	Attempt  int64            `json:"attempt"`
	PerPiece int64            `json:"per_piece"`
	Total    int64            `json:"total"`
	Reason   string           `json:"reason"`
	bet      roulette.Bet
	pieces   []roulette.Piece
}

type slip struct {
	version uint64
	bets    []acceptedBet
	total   int64
}

type round struct {
	id       string
	seq      int64
	phase    pb.Phase
	opened   time.Time
	deadline time.Time
	outcome  string
	draw     *roulette.LuckyBallDraw
	status   string
	slips    map[string]*slip // the acknowledged slip of each terminal
}

// slip returns a terminal's acknowledged slip of the round, nil if none.
func (r *round) slip(terminal string) *slip { return r.slips[terminal] }

type account struct {
	balance int64
	open    bool
}

type pendingLimits struct {
	limits roulette.Limits
	at     time.Time
}

// Table is one table's round engine. It is safe for concurrent use; every method takes the
// table's lock for its whole decision, including the ledger write, so the order of events is
// the order of commits.
type Table struct {
	cfg    Config
	layout roulette.Layout
	led    *ledger.Ledger
	now    func() time.Time
	log    *slog.Logger

	mu       sync.Mutex
	limits   roulette.Limits
	pending  *pendingLimits
	period   time.Duration
	open     bool
	auto     bool
	frozen   bool
	cur      *round
	history  []*pb.Outcome
	accounts map[string]*account
	buyins   map[string]ledger.BuyIn
	subs     map[string]map[*subscriber]bool
	lastSet  map[string]*pb.Settled
	closes   map[string][]*pb.AccountClosed // each terminal's latest dealer closes, newest first
	nextAuto time.Time
	seq      uint64
	wake     chan struct{}
	jackpot  *jackpotState // nil without a jackpot
}

// NewTable loads the table's state from the ledger and resumes where it stopped: a round whose
// deadline passed while the server was down goes to no more bets; its acknowledged slips stand.
func NewTable(ctx context.Context, cfg Config, led *ledger.Ledger, now func() time.Time, log *slog.Logger) (*Table, error) {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	if cfg.Period <= 0 {
		cfg.Period = 30 * time.Second
	}
	if cfg.History <= 0 {
		cfg.History = 20
	}
	t := &Table{
		cfg: cfg, layout: roulette.Layout{Wheel: cfg.Wheel, Profile: cfg.LayoutProfile},
		led: led, now: now, log: log,
		limits: cfg.Limits, period: cfg.Period,
		accounts: map[string]*account{}, buyins: map[string]ledger.BuyIn{},
		subs: map[string]map[*subscriber]bool{}, lastSet: map[string]*pb.Settled{},
		closes: map[string][]*pb.AccountClosed{}, wake: make(chan struct{}, 1),
	}
	if !t.layout.Valid() {
		return nil, fmt.Errorf("server: invalid layout %v/%v", cfg.Wheel, cfg.LayoutProfile)
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	st, err := led.Load(ctx, cfg.History)
	if err != nil {
		return nil, err
	}
	for id, a := range st.Accounts {
		t.accounts[id] = &account{balance: a.Balance, open: a.Open}
	}
	for _, b := range st.BuyIns {
		t.buyins[b.ID] = b
	}
	for _, c := range st.Closes { // oldest first
		t.rememberClose(c.Terminal, closePB(c))
	}
	if err := t.loadJackpot(ctx, st); err != nil {
		return nil, err
	}
	for i := len(st.History) - 1; i >= 0; i-- {
		r := st.History[i]
		if r.Outcome != "" {
			t.pushHistory(&pb.Outcome{RoundId: r.ID, Number: r.Outcome, AtUnixNanos: r.Deadline.UnixNano(),
				Corrected: r.Status == "corrected", Invalidated: r.Status == "invalidated"})
		}
	}
	if c := st.Current; c != nil {
		r := &round{id: c.ID, seq: c.Seq, phase: pb.Phase(c.Phase), opened: c.Opened, deadline: c.Deadline,
			outcome: c.Outcome, status: c.Status, slips: map[string]*slip{}}
		if len(c.Draw) > 0 {
			var d roulette.LuckyBallDraw
			if err := json.Unmarshal(c.Draw, &d); err != nil {
				return nil, fmt.Errorf("server: round %s: lucky ball draw: %w", c.ID, err)
			}
			r.draw = &d
		}
		for _, s := range st.Slips {
			sl, err := t.decodeSlip(s)
			if err != nil {
				return nil, fmt.Errorf("server: round %s: %w", c.ID, err)
			}
			r.slips[s.Terminal] = sl
		}
		t.cur = r
		t.open = r.phase != pb.Phase_PHASE_CLOSED
		if r.phase == pb.Phase_PHASE_WAGERING {
			// The game system failed before the wagering period expired: every wager of the
			// round is void (001 §9.8.1). Stakes were never debited, so voiding is a refund.
			if err := t.voidRound(ctx, r, "void: the table server restarted during the wagering period"); err != nil {
				return nil, err
			}
		}
	}
	c, err := led.Conserve(ctx)
	if err != nil {
		return nil, err
	}
	if !c.Holds() {
		return nil, fmt.Errorf("server: the ledger does not balance: %v", c)
	}
	t.Advance(t.now())
	return t, nil
}

// voidRound discards every slip of a round that never closed.
func (t *Table) voidRound(ctx context.Context, r *round, why string) error {
	err := t.led.Update(ctx, t.now(), func(tx *ledger.Tx) error {
		for id := range r.slips {
			if err := tx.DeleteSlip(r.id, id); err != nil {
				return err
			}
		}
		r.phase, r.status = pb.Phase_PHASE_RESULT, "void"
		if err := t.persistRound(tx, r); err != nil {
			return err
		}
		return tx.Event("round-void", "", r.id, 0, why)
	})
	if err != nil {
		return err
	}
	r.slips = map[string]*slip{}
	t.log.Warn("round void", "round", r.id, "why", why)
	return nil
}

func (t *Table) decodeSlip(s ledger.Slip) (*slip, error) {
	var bets []acceptedBet
	if err := json.Unmarshal(s.Wagers, &bets); err != nil {
		return nil, fmt.Errorf("slip of %s: %w", s.Terminal, err)
	}
	for i := range bets {
		b, err := roulette.ParseBet(t.layout, bets[i].Spec)
		if err != nil {
			return nil, fmt.Errorf("slip of %s: wager %d: %w", s.Terminal, i, err)
		}
		p, err := b.Pieces(t.layout)
		if err != nil {
			return nil, err
		}
		bets[i].bet, bets[i].pieces = b, p
	}
	return &slip{version: s.Version, bets: bets, total: s.Total}, nil
}

func (t *Table) pushHistory(o *pb.Outcome) {
	t.history = append([]*pb.Outcome{o}, t.history...)
	if len(t.history) > t.cfg.History {
		t.history = t.history[:t.cfg.History]
	}
}

// ---- events -----------------------------------------------------------------------------------

func (t *Table) newEvent(now time.Time) *pb.TableEvent {
	t.seq++
	return &pb.TableEvent{Seq: t.seq, ServerTimeUnixNanos: now.UnixNano()}
}

// send queues an event for every stream of one terminal ("" = every terminal).
func (t *Table) send(terminal string, ev *pb.TableEvent) {
	for id, subs := range t.subs {
		if terminal != "" && id != terminal {
			continue
		}
		for s := range subs {
			select {
			case s.ch <- ev:
			default:
				// Too far behind: cut it off; it resubscribes and gets a snapshot.
				s.once.Do(func() { close(s.dropped) })
				delete(subs, s)
			}
		}
	}
}

func (t *Table) broadcastPhase(now time.Time, dropping bool) {
	ev := t.newEvent(now)
	ph := &pb.PhaseChanged{Phase: t.phase(), BallDropping: dropping}
	if t.cur != nil {
		ph.RoundId = t.cur.id
		ph.DeadlineUnixNanos = t.cur.deadline.UnixNano()
	}
	ev.Event = &pb.TableEvent_Phase{Phase: ph}
	t.send("", ev)
}

func (t *Table) phase() pb.Phase {
	switch {
	case !t.open:
		return pb.Phase_PHASE_CLOSED
	case t.cur == nil:
		return pb.Phase_PHASE_IDLE
	}
	return t.cur.phase
}

// ---- snapshot and subscription ---------------------------------------------------------------

func (t *Table) snapshot(terminal string) *pb.Snapshot {
	a := t.accounts[terminal]
	s := &pb.Snapshot{
		TerminalId: terminal, Config: t.configPB(), Phase: t.phase(), Limits: limitsPB(t.limits),
		Frozen: t.frozen, History: t.history, LastSettled: t.lastSet[terminal],
	}
	if t.jackpot != nil {
		s.JackpotMeter = t.jackpot.meter
	}
	if a != nil {
		s.Balance, s.AccountOpen = a.balance, a.open
	}
	if t.pending != nil {
		s.PendingLimits = &pb.PendingLimits{Limits: limitsPB(t.pending.limits), EffectiveAtUnixNanos: t.pending.at.UnixNano()}
	}
	if t.cur != nil {
		s.RoundId, s.DeadlineUnixNanos = t.cur.id, t.cur.deadline.UnixNano()
		if sl := t.cur.slip(terminal); sl != nil {
			s.Slip = slipPB(t.cur.id, sl)
		}
		if t.cur.draw != nil {
			s.LuckyBall = drawPB(t.cur.draw)
		}
	}
	for _, b := range t.buyins {
		if b.Terminal == terminal && b.State == "offered" {
			s.PendingBuyIn = &pb.BuyInOffered{BuyInId: b.ID, Amount: b.Amount}
		}
	}
	s.DealerCloses = t.closes[terminal]
	return s
}

// closePB is a dealer close as the terminal is told of it.
func closePB(c ledger.Close) *pb.AccountClosed {
	return &pb.AccountClosed{Reason: c.Reason, Amount: c.Amount, CloseId: c.ID, AtUnixNanos: c.At.UnixNano()}
}

// rememberClose keeps a dealer close for the snapshots of its terminal until the terminal
// acknowledges it: a terminal that was down when its account was closed records the close from
// there. The slice is replaced, never changed in place: snapshots already handed to streams
// share it.
func (t *Table) rememberClose(terminal string, c *pb.AccountClosed) {
	old := t.closes[terminal]
	next := make([]*pb.AccountClosed, 0, len(old)+1)
	next = append(next, c)
	t.closes[terminal] = append(next, old...)
}

// AckDealerClose records that a terminal has journalled one of its dealer closes, so its later
// snapshots leave it out (and a terminal starting on a new journal is not told of it again).
func (t *Table) AckDealerClose(terminal, id string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	found := false
	err := t.led.Update(context.Background(), t.now(), func(tx *ledger.Tx) error {
		var err error
		found, err = tx.AckClose(terminal, id)
		return err
	})
	if err != nil {
		return status.Errorf(codes.Internal, "acknowledging close %s: %v", id, err)
	}
	if !found {
		return status.Errorf(codes.NotFound, "no dealer close %s for this terminal", id)
	}
	old := t.closes[terminal]
	next := make([]*pb.AccountClosed, 0, len(old))
	for _, c := range old {
		if c.CloseId != id {
			next = append(next, c)
		}
	}
	if len(next) == 0 {
		delete(t.closes, terminal)
	} else {
		t.closes[terminal] = next
	}
	return nil
}

// Subscribe registers a Watch stream for a terminal and returns it with the snapshot that
// starts it; the snapshot and the stream's first event are consistent because both are taken
// under the lock.
func (t *Table) Subscribe(terminal string) (*subscriber, *pb.TableEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &subscriber{terminal: terminal, ch: make(chan *pb.TableEvent, subscriberBuffer), dropped: make(chan struct{})}
	if t.subs[terminal] == nil {
		t.subs[terminal] = map[*subscriber]bool{}
	}
	t.subs[terminal][s] = true
	ev := t.newEvent(t.now())
	ev.Event = &pb.TableEvent_Snapshot{Snapshot: t.snapshot(terminal)}
	return s, ev
}

// Unsubscribe ends a Watch stream. When a terminal's last stream ends during the wagering
// period its wagers for the round are void (rule 9.7.1, 9.8.1); after the deadline its
// acknowledged slip stands and settles (rule 9.7.2).
func (t *Table) Unsubscribe(s *subscriber) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.subs[s.terminal], s)
	if len(t.subs[s.terminal]) > 0 {
		return
	}
	delete(t.subs, s.terminal)
	now := t.now()
	if t.cur == nil || t.cur.phase != pb.Phase_PHASE_WAGERING || !now.Before(t.cur.deadline) {
		return
	}
	if t.cur.slip(s.terminal) == nil {
		return
	}
	err := t.led.Update(context.Background(), now, func(tx *ledger.Tx) error {
		if err := tx.DeleteSlip(t.cur.id, s.terminal); err != nil {
			return err
		}
		return tx.Event("slip-void", s.terminal, t.cur.id, 0, "terminal disconnected before the deadline")
	})
	if err != nil {
		t.log.Error("voiding the slip of a disconnected terminal", "terminal", s.terminal, "err", err)
		return
	}
	delete(t.cur.slips, s.terminal)
	t.log.Info("terminal lost before the deadline: wagers void", "terminal", s.terminal, "round", t.cur.id)
}

// Connected reports whether a terminal has a live Watch stream.
func (t *Table) Connected(terminal string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.subs[terminal]) > 0
}

// ---- conversions -------------------------------------------------------------------------------

func (t *Table) configPB() *pb.TableConfig {
	w := pb.Wheel_WHEEL_SINGLE_ZERO
	if t.cfg.Wheel == roulette.DoubleZero {
		w = pb.Wheel_WHEEL_DOUBLE_ZERO
	}
	version := "standard"
	if t.cfg.LuckyMega {
		version = "mega"
	}
	return &pb.TableConfig{
		TableId: t.cfg.TableID, Wheel: w, LayoutProfile: t.cfg.LayoutProfile.String(), RulesProfile: t.cfg.RulesProfile,
		ChipDenominations: t.cfg.Chips, WageringPeriodMs: t.period.Milliseconds(), WarningMs: t.cfg.Warning.Milliseconds(),
		LuckyBall: t.cfg.LuckyBall, LuckyBallVersion: version, Racetrack: true, Jackpot: t.cfg.Jackpot != nil,
		IdPadRequired: t.cfg.IDPadRequired, PlayerCardRequired: t.cfg.PlayerCardRequired, Venue: t.cfg.Venue, Currency: t.cfg.Currency,
	}
}

func limitsPB(l roulette.Limits) *pb.Limits {
	out := &pb.Limits{Default: &pb.Limit{Min: l.Default.Min, Max: l.Default.Max, Unit: l.Default.Unit},
		TableMax: l.TableMax, AggregateMin: l.AggregateMin, PerBet: map[string]*pb.Limit{}}
	for k, v := range l.PerKind {
		out.PerBet[k.String()] = &pb.Limit{Min: v.Min, Max: v.Max, Unit: v.Unit}
	}
	return out
}

func slipPB(roundID string, s *slip) *pb.Slip {
	out := &pb.Slip{RoundId: roundID, Version: s.version, Total: s.total}
	for _, b := range s.bets {
		out.Wagers = append(out.Wagers, wire.WagerOf(b.Spec, b.Attempt))
		out.Results = append(out.Results, &pb.WagerResult{Accepted: b.Total, Reason: b.Reason})
	}
	return out
}

func drawPB(d *roulette.LuckyBallDraw) *pb.LuckyBallDraw {
	out := &pb.LuckyBallDraw{Version: d.Version.String(),
		Red: d.Numbers[roulette.BallRed].String(), Green: d.Numbers[roulette.BallGreen].String(),
		Blue: d.Numbers[roulette.BallBlue].String(), Yellow: d.Numbers[roulette.BallYellow].String()}
	if d.HasSuper {
		out.Super = d.Super.String()
	}
	if d.HasMega {
		out.Mega = d.Mega.String()
	}
	return out
}

// ---- randomness -------------------------------------------------------------------------------

func randInt(n int64) int64 {
	v, err := rand.Int(rand.Reader, big.NewInt(n))
	if err != nil {
		panic("server: crypto/rand failed: " + err.Error()) // the OS RNG failing is unrecoverable
	}
	return v.Int64()
}

// newValidation returns an unguessable 18-digit validation number.
func newValidation() string {
	return fmt.Sprintf("%018d", randInt(1_000_000_000_000_000_000))
}

func newID(prefix string) string { return prefix + strconv.FormatInt(randInt(1<<62), 36) }

func sortedTerminals(m map[string]*slip) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// ---- errors -----------------------------------------------------------------------------------

func failed(format string, a ...any) error {
	return status.Errorf(codes.FailedPrecondition, format, a...)
}

func invalid(format string, a ...any) error {
	return status.Errorf(codes.InvalidArgument, format, a...)
}

// ledgerErr maps a ledger failure to a gRPC status: a reused key is the caller's mistake,
// anything else is ours and must not be retried blindly.
func ledgerErr(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	if errors.Is(err, ledger.ErrKeyReused) {
		return status.Error(codes.AlreadyExists, err.Error())
	}
	return status.Errorf(codes.Internal, "ledger: %v", err)
}
