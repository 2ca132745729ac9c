// Package server is the reference table game server: the round engine (wagering period,
// deadline, outcome, settlement of every terminal's last acknowledged slip), the chip accounts
// and tickets kept in the ledger, and the gRPC services terminals and the dealer console call.
//
// The server is authoritative: the terminals forecast, the server decides. Every decision that
// moves money is committed to the ledger before it is acknowledged or broadcast. It trusts
// nothing it can check: a note is credited only at its value in the currency table, money in is
// capped per account, every money sum is overflow-checked (app/money), a chip account never goes
// below zero (a correction's overpayment is recorded for the operator, overpay.go), a ticket
// hold lapses, and a terminal guessing validation numbers is throttled (redeem.go).
//
// A ticket is the floor's: printed at one table, it may be redeemed at another table's terminal
// or paid in cash at the cage, once. A hold is a table's and a terminal's (terminal ids repeat
// across tables). The cage's service (cage.go) is the cashiers': look-up, payment, shift totals
// and the floor report.
//
// The player at a seat is known by the card each wager carries where the profile requires one
// (003 §3.4, §9.1), and may play to limits of their own (000 §4.3, 003 §4.6): players.go.
// Where the table plays carded (SPEC §10, Config.Carded) the card is held for the seat's
// session and every slip is bound by its pre-commitment limits, floor-wide: carded.go and
// server/precommit.
//
// The engine keeps its state and makes its events in the table model (app/table, app/roulette),
// the same types the terminal reads, so a rule or a phase has one meaning on both sides. The
// wire stays at the edge: service.go turns requests into model calls and model events into
// protobuf through proto/wire, once per event however many streams it goes to; a terminal
// that asks for batches gets the events waiting for it as one message (the outcome, the result
// phase and its settlement at once: deliverOutcome, Watch). TuneGC (gctune.go) is the table
// server's collector setting, which cmd/tableserver applies. The money calls
// and the dealer's status still take and give protobuf messages, because the ledger stores each
// money reply as its wire bytes for an idempotent replay (money.go).
//
// The edge is also the gate (service.go, roles.go): every call needs a certificate of the
// table's CA that is not revoked, whose role the role table allows for the method (terminal,
// dealer, supervisor, technician); every caller is bounded (request size, Watch streams and
// calls in progress per identity, a terminal's call rate; a terminal that keeps calling over
// it is cut off, cutoff.go), and a slip is priced outside the table's lock, so one terminal
// cannot stall the others. A terminal sends its slips on one long-lived Slips stream
// (slipstream.go): the same checks, rate and cut-off per message as the unary UpdateSlip, at a
// fraction of a unary call's cost. Every audit event records who did it
// (the certificate's role:id, "system" for the table itself).
//
// The table and seat rules (closure.go): a closure announced 20 minutes ahead (001 §12.7), the
// seat abstaining three rounds (§12.8), the dealer console's Dispute Button and red/green light
// (000 §10.9.1–2), a player's call (001 §9.5); the dealer's oral call bets on a seat's slip
// (dealerwager.go, 002 §3.2B); the casino supervisor's refusal of a seat's wagers before no
// more bets (refusewager.go, 003 §9.12).
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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// Config is a table's configuration.
type Config struct {
	TableID       string
	Wheel         roulette.Wheel
	LayoutProfile roulette.Profile
	RulesProfile  string // "crown", "vic-1999", "star", "touchtable" (app/table's Profile…)
	Period        time.Duration
	Warning       time.Duration
	Limits        roulette.Limits
	Chips         []int64
	LuckyBall     bool
	LuckyMega     bool
	Jackpot       *JackpotConfig // nil: no jackpot
	// The player must touch their ID pad, or have a player card in its reader, to wager.
	IDPadRequired, PlayerCardRequired bool
	// AsianGroups are the groups of the Asian racetrack (002 §3.2); the zero value is a table
	// without one. roulette.DefaultAsianGroups gives the default twelve.
	AsianGroups roulette.AsianGroups
	// OralRacetrack: racetrack wagers are declared orally and placed only by the dealer
	// (002 §3.2B); a call bet a terminal places itself is void (accepted nothing).
	OralRacetrack bool
	Venue         string
	Currency      string
	TicketExpiry  time.Duration
	History       int

	// Auto-dealer timing: the pause from the deadline to the outcome, and the time the result
	// stays on screen before the next round opens.
	SpinTime   time.Duration
	ResultTime time.Duration
	// WheelDeals: the auto-dealer opens the rounds and ends their periods, and the wheel gives
	// their outcomes (server/wheelfollow with AutoOutcome, the demo's emulated wheel): it never
	// draws one itself. A round the wheel gives no outcome waits for the dealer.
	WheelDeals bool

	// Money in. The server credits only what it can check: Notes is the note acceptors'
	// currency table (note code → value in cents, DefaultNotes when nil); a CreditNote whose
	// code is not in it, or whose amount is not that code's value, is refused. MaxBalance
	// caps a chip account: a note, ticket or dealer buy-in that would take a balance above it
	// is refused (DefaultMaxBalance when 0).
	Notes      map[string]int64
	MaxBalance int64

	// TicketHold is how long a terminal's hold on a ticket (RedeemTicket) stands without a
	// commit or cancel; after it another terminal may redeem the ticket. DefaultTicketHold
	// when 0. The dealer may release a hold at any time (ReleaseTicketHold).
	TicketHold time.Duration

	// Failed ticket validations (no such ticket, not a validation number) are throttled per
	// terminal: after RedeemFailures in RedeemWindow, RedeemTicket is refused
	// (ResourceExhausted) for RedeemCooldown, doubling with each lockout within an hour up to
	// an hour, and an alarm is raised. Defaults when 0: 5 in 1 min, 30 s.
	RedeemFailures int
	RedeemWindow   time.Duration
	RedeemCooldown time.Duration

	// Carded: no card, no wager, and every wager bound by its card's pre-commitment limits
	// (SPEC §10, carded.go): under Crown's rules by default at the table server
	// (cmd/tableserver -carded), or wherever the operator turns it on. Cards is the card store
	// (nil: the table's ledger, floor-wide on a floor's PostgreSQL); Precommit its settings.
	Carded    bool
	Cards     precommit.Store
	Precommit precommit.Settings
	// RealityCheck is how often a carded player's terminal shows the reality check between
	// rounds (0: DefaultRealityCheck; negative: none); Helpline the gambling helpline its Help
	// shows (cardseat.go). Both reach the terminal in its TableConfig.
	RealityCheck time.Duration
	Helpline     string

	// ReportingThreshold is the cash payment at the cage (cents) at or over which the patron's
	// identity and a second person's approval are recorded before the cash is handed over (the
	// AML/CTF Act's threshold transaction, A$10,000). DefaultReportingThreshold when 0.
	ReportingThreshold int64

	// CashCap is the most of a cash-out ticket the cage pays in cash (cents); the rest is paid
	// by electronic transfer or cheque with the patron's identity recorded (issue 31: Crown's
	// A$1,000, DefaultCashCap, which cmd/tableserver -cash-cap sets by default). 0: no cap.
	CashCap int64
}

// DefaultCashCap is the cash cap cmd/tableserver sets unless told otherwise: A$1,000.00.
const DefaultCashCap = 100_000

// DefaultReportingThreshold is the default Config.ReportingThreshold: 10,000.00.
const DefaultReportingThreshold = 1_000_000

// DefaultTicketHold is the default time a ticket hold stands (Config.TicketHold): far longer
// than any acceptor needs from escrow to stacked, short enough that an abandoned hold does not
// keep a player from their money.
const DefaultTicketHold = 2 * time.Minute

// DefaultMaxBalance is the default cap on a chip account (Config.MaxBalance): 100,000.00.
const DefaultMaxBalance = 10_000_000

// DefaultNotes is the default currency table (Config.Notes): Australian notes, under both the
// names the acceptors send. The terminal's cashier sends the ID-003 denomination code in hex
// ("63"), as the emulated acceptor (devices/emulator DefaultCurrency) and the demo use them:
// 61 = 1.00, 63 = 5.00, 64 = 10.00, 65 = 20.00, 66 = 50.00, 67 = 100.00 (the emulator's table
// keeps a 1.00 note, code 61, which the tests use; a real AUD acceptor has none and never
// sends it). grpcurl and the guides (docs/guides) use the names: AUD5 … AUD100.
func DefaultNotes() map[string]int64 {
	return map[string]int64{
		"61": 100, "63": 500, "64": 1000, "65": 2000, "66": 5000, "67": 10000,
		"AUD5": 500, "AUD10": 1000, "AUD20": 2000, "AUD50": 5000, "AUD100": 10000,
	}
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

// subscriberBuffer bounds the entries queued for one Watch stream: an entry is one event, or
// the few an outcome queues for a terminal at once (deliverOutcome). A terminal that falls this
// far behind is cut off and must resubscribe, which gives it a fresh snapshot: the engine never
// waits for a slow terminal.
const subscriberBuffer = 256

type subscriber struct {
	terminal string
	// ch carries the snapshot first, then the table's events in order, an entry at a time:
	// the events of an entry were queued together, in order, and are shared with other
	// streams (read-only).
	ch      chan []*event
	dropped chan struct{} // closed when the engine cut the subscriber off
	once    sync.Once
}

// event is one event in the table's order, as the engine hands it to the Watch streams: the
// model event, its sequence number and the server time. A broadcast is one *event shared by
// every stream, so the edge writes it for the wire once (event.wire in service.go), not once
// per terminal, and outside the table's lock.
type event struct {
	seq uint64
	at  time.Time
	ev  table.Event
	enc encoded // its wire form, made by the first stream to send it
	// trace, on a Settled event, is its settlement's SettleTrace, told when it is sent.
	trace *SettleTrace
}

type acceptedBet struct {
	Spec     roulette.BetSpec `json:"spec"`
	Attempt  int64            `json:"attempt"`
	PerPiece int64            `json:"per_piece"`
	Total    int64            `json:"total"`
	Reason   string           `json:"reason"`
	Card     string           `json:"card,omitempty"` // the player card it was placed with (003 §3.4, §9.1)
	// PlacedBy is the dealer who placed the wager for the seat (dealerwager.go), "" for the
	// player's own; kept in the slip's ledger record, so it survives a restart.
	PlacedBy string `json:"placed_by,omitempty"`
	bet      roulette.Bet
	pieces   []roulette.Piece
}

type slip struct {
	version uint64
	bets    []acceptedBet
	total   int64
	secret  bool // an undisclosed tournament wager (tournament.go)
	// asSent: when it was stored, its wagers were exactly the terminal's request's, in order
	// (the same written bet, amount and card; none the dealer's), so a reply on the Slips
	// stream may leave them out (slipstream.go).
	asSent bool
}

type round struct {
	id       string
	seq      int64
	phase    table.Phase // stored in the ledger by its number, which is also the wire's
	opened   time.Time
	deadline time.Time
	outcome  roulette.Number // the winning number, once decided
	decided  bool
	draw     *roulette.LuckyBallDraw
	status   string
	slips    map[string]*slip // the acknowledged slip of each terminal
}

// slip returns a terminal's acknowledged slip of the round, nil if none.
func (r *round) slip(terminal string) *slip { return r.slips[terminal] }

// slipOrNil is the terminal's slip of round r, nil with no round or no slip.
func (r *round) slipOrNil(terminal string) *slip {
	if r == nil {
		return nil
	}
	return r.slips[terminal]
}

// outcomeText is the winning number as the ledger keeps it, "" before there is one.
func (r *round) outcomeText() string {
	if !r.decided {
		return ""
	}
	return r.outcome.String()
}

// setOutcome decides (or, with ok false, undecides) the round's winning number.
func (r *round) setOutcome(n roulette.Number, ok bool) { r.outcome, r.decided = n, ok }

type account struct {
	balance int64
	open    bool
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

	settleTrace atomic.Pointer[SettleTrace] // the latest settlement's (settletrace.go)

	// What a terminal is told is kept as the model tells it. The slices and pointers among it
	// (history, closes, last settlements, pending limits, the limits' map, the chips) are
	// replaced, never changed in place: snapshots and events handed to the streams share them
	// and are written for the wire outside the lock.
	mu     sync.Mutex
	config table.TableConfig // as the terminals see it; the wagering period changes
	limits roulette.Limits
	// limitsGen counts changes of limits: a slip priced outside the lock is stored only if
	// the limits it was priced against are still the table's.
	limitsGen uint64
	pending   *table.PendingLimits
	// luckyDown: the dealer reported the Lucky Ball display out of order (003 §8.11): no
	// numbers are drawn and no Lucky Ball wager is taken until it is reported working.
	luckyDown bool
	open      bool
	auto      bool
	frozen    bool
	cur       *round
	history   []table.Outcome // most recent first
	accounts  map[string]*account
	buyins    map[string]ledger.BuyIn
	subs      map[string]map[*subscriber]bool
	lastSet   map[string]*table.Settled
	closes    map[string][]table.AccountClosed // each terminal's latest dealer closes, newest first
	service   map[string]*table.SeatService    // the seats a technician has out of play (technician.go)
	// The players' own limits (000 §4.3, 003 §4.6, players.go): by seat, by player card, and
	// the card last used at each seat.
	seatLimits, cardLimits map[string]roulette.Limits
	cardAt                 map[string]string
	nextAuto               time.Time
	seq                    uint64
	wake                   chan struct{}
	jackpot                *jackpotState        // nil without a jackpot
	closingAt              time.Time            // the announced closure (closure.go), zero for none
	abstained              map[string]int       // rounds in a row each open account placed no wager
	fault                  string               // why the console's light is red; "" for green
	calls                  map[string]time.Time // each terminal's last call to the dealer (CallDealer)
	// cashOutAsked holds the terminals whose player selected Cash out at a table that pays in
	// chips at the dealer (004 §6.6, 000 §11.7.6), until the dealer closes the account. Kept
	// in memory: the request is in the audit log, and after a restart the player asks again.
	cashOutAsked map[string]bool
	// known holds the terminals known to the table (ids, as keys): those that presented their
	// certificate, recorded in the ledger. The dealer can credit or close only these. Read
	// without the lock on every terminal call.
	known sync.Map
	// actor is who the action holding the lock is done for ("dealer:D1"), "" when the table
	// acts by itself (deadlines, the auto-dealer). Set by actAs; audit events record it (bg).
	actor string
	// tour is the table's tournament (tournament.go), nil when none was ever configured.
	tour *tournament
	// cards is the table's carded play (carded.go), nil when the table is not carded.
	cards *carded

	// wheel is what the wheel's sensors said of a round (wheelreading.go).
	wheel wheelReading

	// The winning number displays (display.go): their streams' wake-ups, the operator's
	// promotional text, and the latest jackpot won while its message is shown.
	displays   map[*displayWatch]struct{}
	promotion  string
	jackpotWin *table.JackpotWin

	// watchers are the dealer consoles' WatchTable streams (watch.go), told of every change.
	// Their own lock: a ledger commit tells them, with or without the table's lock held.
	watchMu  sync.Mutex
	watchers map[*tableWatcher]struct{}
}

// actAs makes actor the one the action holding the lock is done for, and returns what undoes
// it: `defer t.actAs(actor)()` right after taking the lock.
func (t *Table) actAs(actor string) func() {
	prev := t.actor
	t.actor = actor
	return func() { t.actor = prev }
}

// bg is the context of a ledger transaction made under the lock: it names the actor, so every
// audit event says who did it ("system" when the table acted by itself).
func (t *Table) bg() context.Context {
	return ledger.WithActor(context.Background(), t.actor)
}

// dealerScope is the idempotency scope of a privileged money call: "dealer:" and the actor's
// id (the scope predates roles, and a retry after an upgrade must still find its key).
func dealerScope(actor string) string {
	if i := strings.IndexByte(actor, ':'); i >= 0 {
		actor = actor[i+1:]
	}
	return "dealer:" + actor
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
	if cfg.RulesProfile == "" {
		cfg.RulesProfile = table.ProfileCrown
	}
	rules, err := table.RulesOf(cfg.RulesProfile)
	if err != nil {
		// A misspelt profile would silently run the default's money paths and rules.
		return nil, fmt.Errorf("server: %w", err)
	}
	// One casino's rules on another's felt, or a wheel the rule book does not know, is refused:
	// the terminals would offer, and the table settle, bets that rule book does not have.
	if err := rules.Check(roulette.Layout{Wheel: cfg.Wheel, Profile: cfg.LayoutProfile}); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	// The Star's player card (003 §3.4, §9.1) comes with its rules, not with a separate setting.
	cfg.PlayerCardRequired = cfg.PlayerCardRequired || rules.PlayerCardRequired
	// Carded play is played with a card (SPEC §10): no card, no wager.
	cfg.PlayerCardRequired = cfg.PlayerCardRequired || cfg.Carded
	if cfg.Notes == nil {
		cfg.Notes = DefaultNotes()
	}
	for code, v := range cfg.Notes {
		if v <= 0 {
			return nil, fmt.Errorf("server: note %q: value %d must be positive", code, v)
		}
	}
	if cfg.MaxBalance == 0 {
		cfg.MaxBalance = DefaultMaxBalance
	}
	if cfg.MaxBalance < 0 {
		return nil, fmt.Errorf("server: maximum balance %d must be positive", cfg.MaxBalance)
	}
	if cfg.TicketHold <= 0 {
		cfg.TicketHold = DefaultTicketHold
	}
	if cfg.ReportingThreshold == 0 {
		cfg.ReportingThreshold = DefaultReportingThreshold
	}
	if cfg.ReportingThreshold < 0 {
		return nil, fmt.Errorf("server: reporting threshold %d must be positive", cfg.ReportingThreshold)
	}
	if cfg.CashCap < 0 {
		return nil, fmt.Errorf("server: cash cap %d cents: 0 (none) or positive", cfg.CashCap)
	}
	if cfg.RedeemFailures <= 0 {
		cfg.RedeemFailures = 5
	}
	if cfg.RedeemWindow <= 0 {
		cfg.RedeemWindow = time.Minute
	}
	if cfg.RedeemCooldown <= 0 {
		cfg.RedeemCooldown = 30 * time.Second
	}
	t := &Table{
		cfg: cfg, layout: roulette.Layout{Wheel: cfg.Wheel, Profile: cfg.LayoutProfile, Asian: cfg.AsianGroups},
		led: led, now: now, log: log,
		limits:   cfg.Limits,
		accounts: map[string]*account{}, buyins: map[string]ledger.BuyIn{},
		subs: map[string]map[*subscriber]bool{}, lastSet: map[string]*table.Settled{},
		closes: map[string][]table.AccountClosed{}, service: map[string]*table.SeatService{}, wake: make(chan struct{}, 1),
		seatLimits: map[string]roulette.Limits{}, cardLimits: map[string]roulette.Limits{}, cardAt: map[string]string{},
		abstained: map[string]int{}, calls: map[string]time.Time{}, cashOutAsked: map[string]bool{},
	}
	t.config = table.TableConfig{TableID: cfg.TableID, Layout: t.layout, RulesProfile: cfg.RulesProfile, Chips: cfg.Chips,
		WageringPeriod: cfg.Period, Warning: cfg.Warning, LuckyBall: cfg.LuckyBall, Racetrack: !cfg.OralRacetrack, Jackpot: cfg.Jackpot != nil,
		PlayerCardRequired: cfg.PlayerCardRequired, IDPadRequired: cfg.IDPadRequired, Venue: cfg.Venue, Currency: cfg.Currency,
		DealerCashOnly: table.DealerCashOnly(cfg.RulesProfile)}
	if cfg.Carded {
		t.config.Carded, t.config.RealityCheck, t.config.Helpline = true, realityCheckOf(cfg.RealityCheck), cfg.Helpline
	}
	if cfg.LuckyMega {
		t.config.LuckyBallVersion = roulette.LuckyMega
	}
	if err := cfg.AsianGroups.Validate(cfg.Wheel); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	if !t.layout.Valid() {
		return nil, fmt.Errorf("server: invalid layout %v/%v", cfg.Wheel, cfg.LayoutProfile)
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	// The tickets this table printed are its own in the conservation identity, wherever they
	// are redeemed (ledger.Conservation).
	led.SetTable(cfg.TableID)
	led.OnTampered(t.tamperAlarm)
	led.OnCommit(t.changed)
	st, err := led.Load(ctx, cfg.History)
	if err != nil {
		return nil, err
	}
	if err := t.restoreFault(ctx); err != nil {
		return nil, err
	}
	for id, a := range st.Accounts {
		t.accounts[id] = &account{balance: a.Balance, open: a.Open}
	}
	for _, b := range st.BuyIns {
		t.buyins[b.ID] = b
	}
	for _, c := range st.Closes { // oldest first
		t.rememberClose(c.Terminal, closeOf(c))
	}
	t.luckyDown = st.Meters[meterLuckyBallDown] > 0
	if err := t.loadJackpot(ctx, st); err != nil {
		return nil, err
	}
	for i := len(st.History) - 1; i >= 0; i-- {
		r := st.History[i]
		if r.Outcome != "" {
			n, err := roulette.ParseNumber(r.Outcome)
			if err != nil {
				return nil, fmt.Errorf("server: round %s: outcome: %w", r.ID, err)
			}
			t.pushHistory(table.Outcome{RoundID: r.ID, Number: n, At: r.Deadline,
				Corrected: r.Status == "corrected", Invalidated: r.Status == "invalidated"})
		}
	}
	if c := st.Current; c != nil {
		r := &round{id: c.ID, seq: c.Seq, phase: table.Phase(c.Phase), opened: c.Opened, deadline: c.Deadline,
			status: c.Status, slips: map[string]*slip{}}
		if c.Outcome != "" {
			n, err := roulette.ParseNumber(c.Outcome)
			if err != nil {
				return nil, fmt.Errorf("server: round %s: outcome: %w", c.ID, err)
			}
			r.setOutcome(n, true)
		}
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
		t.open = r.phase != table.PhaseClosed
		if r.phase == table.PhaseWagering {
			// The game system failed before the wagering period expired: every wager of the
			// round is void (001 §9.8.1). Stakes were never debited, so voiding is a refund.
			if err := t.voidRound(ctx, r, "void: the table server restarted during the wagering period"); err != nil {
				return nil, err
			}
		}
	}
	if err := t.loadTournament(ctx); err != nil {
		return nil, err
	}
	if cfg.Carded {
		if t.cards, err = newCarded(cfg.Cards, led, cfg.Precommit); err != nil {
			return nil, err
		}
		if err := t.recoverHolds(ctx); err != nil {
			return nil, err
		}
	}
	ids, err := led.Terminals(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		t.known.Store(id, true)
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
		r.phase, r.status = table.PhaseResult, "void"
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

// pushHistory puts an outcome at the head of the history in a new slice: snapshots handed out
// share the old one.
func (t *Table) pushHistory(o table.Outcome) {
	h := make([]table.Outcome, 0, min(len(t.history)+1, t.cfg.History))
	h = append(h, o)
	t.history = append(h, t.history[:min(len(t.history), t.cfg.History-1)]...)
}

// markHistory changes the history's entry of a round (a correction, an invalidation) in a new
// slice, for the same reason.
func (t *Table) markHistory(roundID string, change func(*table.Outcome)) {
	h := append([]table.Outcome(nil), t.history...)
	for i := range h {
		if h[i].RoundID == roundID {
			change(&h[i])
		}
	}
	t.history = h
	// An invalidation is told only to the terminals that played the round (RoundVoided), not
	// broadcast: the displays, which show the history, are woken here.
	t.wakeDisplays()
}

// ---- events -----------------------------------------------------------------------------------

// emit gives an event the next place in the table's order and queues it for every stream of
// one terminal ("" = every terminal).
func (t *Table) emit(now time.Time, terminal string, ev table.Event) {
	t.seq++
	t.send(terminal, &event{seq: t.seq, at: now, ev: ev})
}

// send queues an event for every stream of one terminal ("" = every terminal). A terminal's
// own event goes straight to its streams: a settlement sends one event to each of n terminals,
// and looking each up in turn through every terminal's streams cost n² (1,000 terminals: a
// million steps under the table's lock, tens of milliseconds of the outcome → settled time).
func (t *Table) send(terminal string, ev *event) {
	t.changed()
	entry := []*event{ev} // one entry, shared by every stream it goes to
	if terminal != "" {
		queue(t.subs[terminal], entry)
		return
	}
	t.displayHears(ev) // everyone's event: the displays' too (display.go)
	for _, subs := range t.subs {
		queue(subs, entry)
	}
}

// queue puts an entry (events in order, read-only) on each of one terminal's streams, never
// waiting for a slow one.
func queue(subs map[*subscriber]bool, entry []*event) {
	for s := range subs {
		select {
		case s.ch <- entry:
		default:
			// Too far behind: cut it off; it resubscribes and gets a snapshot.
			s.once.Do(func() { close(s.dropped) })
			delete(subs, s)
		}
	}
}

func (t *Table) broadcastPhase(now time.Time, dropping bool) {
	ph := table.PhaseChanged{Phase: t.phase(), BallDropping: dropping}
	if t.cur != nil {
		ph.RoundID, ph.Deadline = t.cur.id, t.cur.deadline
	}
	t.emit(now, "", ph)
}

func (t *Table) phase() table.Phase {
	switch {
	case !t.open:
		return table.PhaseClosed
	case t.cur == nil:
		return table.PhaseIdle
	}
	return t.cur.phase
}

// ---- snapshot and subscription ---------------------------------------------------------------

// snapshot is the table as one terminal sees it. It shares the engine's slices (history,
// closes), which are replaced and never changed in place; the round's draw, which is, is copied.
func (t *Table) snapshot(terminal string) table.Snapshot {
	a := t.accounts[terminal]
	s := table.Snapshot{
		TerminalID: terminal, Config: t.config, Phase: t.phase(), Limits: t.limits, Pending: t.pending,
		Frozen: t.frozen, History: t.history, LastSettled: t.lastSet[terminal], DealerCloses: t.closes[terminal],
		PlayerLimits: t.personal(terminal),
		ClosingAt:    t.closingAt,
		Card:         t.cardState(terminal, t.now()),
	}
	if t.jackpot != nil {
		s.Jackpot = t.jackpot.meter
	}
	if a != nil {
		s.Balance, s.AccountOpen = a.balance, a.open
	}
	if t.cur != nil {
		s.RoundID, s.Deadline = t.cur.id, t.cur.deadline
		if sl := t.cur.slip(terminal); sl != nil {
			s.Slip = sl.ack(t.cur.id)
		}
		if t.cur.draw != nil {
			d := *t.cur.draw
			s.LuckyBall = &d
		}
	}
	s.Tournament = t.tournamentView(false)
	for _, b := range t.buyins {
		if b.Terminal == terminal && b.State == "offered" {
			s.PendingBuyIn = &table.BuyInOffered{ID: b.ID, Amount: b.Amount}
		}
	}
	return s
}

// closeOf is a dealer close as the terminal is told of it.
func closeOf(c ledger.Close) table.AccountClosed {
	return table.AccountClosed{Reason: c.Reason, Amount: c.Amount, ID: c.ID, At: c.At}
}

// rememberClose keeps a dealer close for the snapshots of its terminal until the terminal
// acknowledges it: a terminal that was down when its account was closed records the close from
// there. The slice is replaced, never changed in place: snapshots already handed to streams
// share it.
func (t *Table) rememberClose(terminal string, c table.AccountClosed) {
	old := t.closes[terminal]
	next := make([]table.AccountClosed, 0, len(old)+1)
	next = append(next, c)
	t.closes[terminal] = append(next, old...)
}

// AckDealerClose records that a terminal has journalled one of its dealer closes, so its later
// snapshots leave it out (and a terminal starting on a new journal is not told of it again).
func (t *Table) AckDealerClose(terminal, id string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs("terminal:" + terminal)()
	found := false
	err := t.led.Update(t.bg(), t.now(), func(tx *ledger.Tx) error {
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
	next := make([]table.AccountClosed, 0, len(old))
	for _, c := range old {
		if c.ID != id {
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

// Subscribe registers a Watch stream for a terminal. The snapshot that starts the stream is
// the first event queued on it, and is returned too; it and the events after it are consistent
// because both are taken under the lock.
func (t *Table) Subscribe(terminal string) (*subscriber, table.Snapshot) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// One more place than the buffer: the snapshot does not count against the stream's lag.
	s := &subscriber{terminal: terminal, ch: make(chan []*event, subscriberBuffer+1), dropped: make(chan struct{})}
	if t.subs[terminal] == nil {
		t.subs[terminal] = map[*subscriber]bool{}
	}
	t.subs[terminal][s] = true
	t.changed() // the seat is connected now, on the dealer's console
	snap := t.snapshot(terminal)
	t.seq++
	s.ch <- []*event{{seq: t.seq, at: t.now(), ev: snap}}
	return s, snap
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
	t.changed() // the seat is not connected now
	now := t.now()
	if t.cur != nil && t.cur.phase == table.PhaseWagering && now.Before(t.cur.deadline) {
		t.tournamentTerminalLost(s.terminal, now)
	}
	if err := t.voidSlip(now, s.terminal, "terminal disconnected before the deadline"); err != nil {
		t.log.Error("voiding the slip of a disconnected terminal", "terminal", s.terminal, "err", err)
	}
}

// voidSlip voids a terminal's slip on the current round, with the reason why, if it has one
// and the period is still open: a terminal that lost the table, or that a technician took out
// of play, before the deadline (rule 9.7.1). Called with t.mu held.
func (t *Table) voidSlip(now time.Time, terminal, why string) error {
	if t.cur == nil || t.cur.phase != table.PhaseWagering || !now.Before(t.cur.deadline) || t.cur.slip(terminal) == nil {
		return nil
	}
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		if err := tx.DeleteSlip(t.cur.id, terminal); err != nil {
			return err
		}
		return tx.Event("slip-void", terminal, t.cur.id, 0, why)
	})
	if err != nil {
		return err
	}
	delete(t.cur.slips, terminal)
	t.log.Info("wagers void before the deadline", "terminal", terminal, "round", t.cur.id, "why", why)
	return nil
}

// RegisterTerminal makes a terminal known to the table before it first connects, for a table
// that issued the terminal's certificate itself (the demo's embedded table).
func (t *Table) RegisterTerminal(id string) error { return t.noteTerminal(id) }

// noteTerminal makes a terminal known to the table the first time it presents its certificate.
func (t *Table) noteTerminal(id string) error {
	if _, ok := t.known.Load(id); ok {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.known.Load(id); ok {
		return nil
	}
	err := t.led.Update(ledger.WithActor(context.Background(), "terminal:"+id), t.now(), func(tx *ledger.Tx) error {
		if err := tx.NoteTerminal(id); err != nil {
			return err
		}
		return tx.Event("terminal-first-seen", id, "", 0, "")
	})
	if err != nil {
		return ledgerErr(err)
	}
	t.known.Store(id, true)
	t.log.Debug("terminal first seen", "terminal", id)
	return nil
}

// knownTerminal refuses a dealer action on a terminal the table has never seen: a typo or a
// made-up id ("T-GHOST") would otherwise take a buy-in no cabinet can confirm, or close an
// account that does not exist. A terminal is known once it has connected with a terminal
// certificate of the table's CA (so it has one, and it is on this table).
func (t *Table) knownTerminal(id string) error {
	if id == "" {
		return invalid("a terminal id is required")
	}
	if IsGuest(id) {
		return nil // a guest account is the console's own (guest.go)
	}
	if err := guestIDErr(id); err != nil {
		return err
	}
	if _, ok := t.known.Load(id); !ok {
		return status.Errorf(codes.NotFound, "terminal %q is not known to this table: a terminal becomes known when it first connects with its certificate", id)
	}
	return nil
}

// AuditLog is the latest n entries of the audit log, newest first.
func (t *Table) AuditLog(n int) ([]ledger.AuditEvent, error) {
	evs, err := t.led.Events(context.Background(), "", n)
	return evs, ledgerErr(err)
}

// Connected reports whether a terminal has a live Watch stream.
func (t *Table) Connected(terminal string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.subs[terminal]) > 0
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
	if errors.Is(err, ledger.ErrTampered) {
		// A row the decision read or wrote fails its seal: refused, never retried; the
		// alarm is raised by the ledger's OnTampered hook (tamperAlarm).
		return status.Errorf(codes.DataLoss, "refused: %v", err)
	}
	return status.Errorf(codes.Internal, "ledger: %v", err)
}
