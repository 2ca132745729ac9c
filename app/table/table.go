// Package table is the table's data model as every part of the system speaks it: the phase of
// the round, the table's configuration and limits, a terminal's snapshot of the table, the
// events that change it, settlements, money replies and the table's refusals, and the statistics
// of recent outcomes a board shows (stats.go). The client
// returns these, the server keeps its state in them, the terminal and the screen read them.
//
// It holds no I/O and no protobuf: proto/wire converts these to and from the wire, so the
// generated code stays at the edge and a rule (the limits of app/roulette, the phase names
// here) has one home that a newcomer finds in one hop.
package table

import (
	"errors"
	"time"

	"github.com/tablegames/ats/app/roulette"
)

// Phase is where the table's round is.
type Phase int

// The phases, as the server reports them.
const (
	PhaseUnknown Phase = iota
	PhaseClosed
	PhaseIdle
	PhaseWagering
	PhaseNoMoreBets
	PhaseResult
)

func (p Phase) String() string {
	return [...]string{"unknown", "closed", "idle", "wagering", "no-more-bets", "result"}[min(int(p), 5)]
}

// Event is something the table told this terminal. Events arrive in the server's order; after
// a reconnect a Snapshot restates everything, and the consumer rebuilds its state from it.
type Event interface{ isEvent() }

// Connection reports the link going up (after its snapshot) or down.
type Connection struct {
	Up  bool
	Err error
}

// TableConfig is the game in force at the table.
type TableConfig struct {
	TableID            string
	Layout             roulette.Layout
	RulesProfile       string
	Chips              []int64
	WageringPeriod     time.Duration
	Warning            time.Duration
	LuckyBall          bool
	LuckyBallVersion   roulette.LuckyBallVersion
	Racetrack          bool // call bets on the racetrack are offered
	Jackpot            bool
	PlayerCardRequired bool
	IDPadRequired      bool
	Venue, Currency    string
	// DealerCashOnly: money in and out only through the dealer (004 §6.2, §6.6; 000 §11.7.2,
	// §11.7.6) — no note, no ticket in, no ticket printed; the dealer buys in and pays the
	// balance in chips. The table decides it from its rules profile (DealerCashOnly below).
	DealerCashOnly bool
	// Carded: the table plays carded (SPEC §10): no registered card with limits set, no wager.
	// RealityCheck is the reality check's interval (0: none); Helpline the gambling helpline
	// Help shows (operator settings).
	Carded       bool
	RealityCheck time.Duration
	Helpline     string
}

// DealerCashOnly reports whether a rules profile takes money only through the dealer: the
// Victorian ATS rules (004 §6.2 buy-in by tendering to the dealer, §6.6 payout in chips) and the
// TouchTable Player Display (000 §11.7.2, §11.7.6). The Crown Rapid Roulette ATS (001 §6.2,
// §6.6) and The Star take notes and tickets and print the cash-out ticket.
func DealerCashOnly(profile string) bool { return rulesOf(profile).DealerCashOnly }

// The rules profiles a table may run (server Config.RulesProfile).
const (
	ProfileCrown      = "crown"      // 001 Crown Rapid Roulette: the default
	ProfileVic1999    = "vic-1999"   // 004 Victoria 1999 Rapid Roulette (the original ATS rules)
	ProfileStar       = "star"       // 003 The Star Sydney
	ProfileTouchTable = "touchtable" // 000 §11 TouchTable Player Display
)

// WinnersRide reports whether a profile keeps winning wagers on the layout for the next spin
// until the player withdraws them (004 §3.6(b), §3.7).
func WinnersRide(profile string) bool { return rulesOf(profile).WinnersRide }

// PendingLimits is an announced change and when it takes effect.
type PendingLimits struct {
	Limits roulette.Limits
	At     time.Time
}

// Outcome is a winning number of a round.
type Outcome struct {
	RoundID     string
	Number      roulette.Number
	At          time.Time
	Corrected   bool
	Invalidated bool
}

// SlipBet is one wager of a slip: a bet and the amount attempted (per piece for a call bet).
// Card is the player card it was placed with (003 §3.4, §9.1), "" when the seat has none in.
type SlipBet struct {
	Bet    roulette.Bet
	Amount int64
	Card   string
	// PlacedBy is the dealer who placed this wager for the seat (an oral call bet, 002 §3.2B),
	// "" for the player's own. The player's slip updates never carry these: the table keeps them.
	PlacedBy string
}

// BetResult is what the server accepted of one wager (rule 4.3), total over pieces.
type BetResult struct {
	Accepted int64
	Reason   string
}

// SlipAck is the server's acknowledgement of a slip version.
type SlipAck struct {
	RoundID   string
	Version   uint64
	Bets      []SlipBet
	Results   []BetResult
	Total     int64
	Available int64 // balance less the slip (only in replies to UpdateSlip)
}

// Snapshot is the whole state of the table for this terminal.
type Snapshot struct {
	TerminalID   string
	Config       TableConfig
	Phase        Phase
	RoundID      string
	Deadline     time.Time // server time
	Limits       roulette.Limits
	Pending      *PendingLimits
	Balance      int64
	AccountOpen  bool
	Frozen       bool
	History      []Outcome // most recent first
	Slip         *SlipAck
	LuckyBall    *roulette.LuckyBallDraw
	Jackpot      int64
	PendingBuyIn *BuyInOffered
	LastSettled  *Settled
	// DealerCloses are this terminal's latest account closes at the dealer's console, newest
	// first: what a terminal that was down when one was made records, once each by its ID.
	DealerCloses []AccountClosed
	// Tournament is the table's tournament (tournament.go), nil if none was ever configured.
	Tournament *Tournament
	// PlayerLimits are this seat's own limits (000 §4.3, 003 §4.6), which replace Limits for its
	// player; nil when the player plays to the table's limit sign.
	PlayerLimits *roulette.Limits
	// ClosingAt is the announced closure of the table (001 §12.7), zero for none.
	ClosingAt time.Time
	// Card is the seat's player card under carded play (card.go), nil for none.
	Card *CardState
}

// PhaseChanged is a new phase; Deadline is set while wagering (server time).
type PhaseChanged struct {
	Phase        Phase
	RoundID      string
	Deadline     time.Time
	BallDropping bool
	// NoSpin: the dealer announced a no spin (001 §9.1–9.2, 003 §8.1–8.9): the spin has no
	// effect, the wagers stand, the ball is spun again. Every terminal announces it.
	NoSpin bool
}

// OutcomeEntered is a winning number shown on every terminal (001 §5.5.1).
type OutcomeEntered struct{ Outcome Outcome }

// Settled is this terminal's settlement of a round.
type Settled struct {
	RoundID          string
	Number           roulette.Number
	Recognised       bool
	Staked, Returned int64
	Balance          int64
	ReturnedPerBet   []int64
	Correction       bool
	SlipVersion      uint64
}

// BalanceChanged is money in or out.
type BalanceChanged struct {
	Balance, Delta int64
	Reason         string
}

// LimitsChanged carries the limits in force and any announced change.
type LimitsChanged struct {
	Limits  roulette.Limits
	Pending *PendingLimits
	// Warning is the warning time the dealer set with the limits (000 §10.6.2), from the next
	// wagering period; 0 leaves the table's as it was.
	Warning time.Duration
}

// PlayerLimitsChanged: this seat's own limits were set (Limits non-nil) or cleared (000 §4.3,
// 003 §4.6). Told only to that seat.
type PlayerLimitsChanged struct {
	Limits *roulette.Limits
}

// FrozenChanged: accounts frozen while a result is corrected (rule 9.4), or unfrozen.
type FrozenChanged struct {
	Frozen bool
	Reason string
}

// RoundVoided: this terminal's wagers of a round were refunded.
type RoundVoided struct {
	RoundID, Reason   string
	Refunded, Balance int64
}

// BuyInOffered is a dealer buy-in the player must confirm (004 §6.3(c)).
type BuyInOffered struct {
	ID     string
	Amount int64
}

// Ticket is a cash-out ticket.
type Ticket struct {
	Validation string
	Amount     int64
	Number     int64
	Issued     time.Time
	Expires    time.Time
	TerminalID string
	Venue      string
	State      string
}

// AccountClosed: the account was cashed out (Ticket set) or closed by the dealer (ID set).
type AccountClosed struct {
	Reason string
	Amount int64
	Ticket *Ticket
	ID     string    // a close at the dealer's console: unique, the same in every snapshot
	At     time.Time // server time, for a dealer close
}

// LuckyBallDrawn is the draw of the round, and at no more bets its Super or Mega colour.
type LuckyBallDrawn struct {
	RoundID string
	Draw    roulette.LuckyBallDraw
}

// DealerWagerPlaced is the seat's slip after the dealer placed a wager on it for the player
// (002 §3.2B): the player's own wagers and the dealer-placed ones, as the table will settle them.
type DealerWagerPlaced struct{ Slip SlipAck }

// TableClosing is the sign of the table's closure (001 §12.7, 003 §9.9): the time it closes,
// zero when the closure is called off.
type TableClosing struct{ At time.Time }

// JackpotMeter is the jackpot meter's amount.
type JackpotMeter struct{ Amount int64 }

// JackpotWon is a jackpot hit in a round: Confirmed once the pit boss has confirmed it and the
// prize is in the winner's chip account; Void when the round was invalidated before that, and
// the amount went back on the meter (001 §8.8).
type JackpotWon struct {
	RoundID, TerminalID string
	Amount              int64
	Confirmed           bool
	Void                bool
}

// SlipCarried is this terminal's winning wagers of the last round, carried by the table to the
// new round (004 §3.6(b)): the slip it holds and its version. The screen shows exactly these
// chips — what will settle unless the player withdraws them (§3.7) — and its next change is a
// newer version.
type SlipCarried struct{ Slip SlipAck }

// WagerRefused is the casino supervisor's refusal of wagers on this terminal's slip before "no
// more bets" (003 §9.12): the slip as it now stands (a newer version, without them), the wagers
// removed, the supervisor's grounds, and who refused them. The screen shows exactly the slip's
// chips and tells the player why the others went.
type WagerRefused struct {
	Slip    SlipAck
	Refused []SlipBet
	Reason  string
	By      string
}

func (Connection) isEvent()          {}
func (Snapshot) isEvent()            {}
func (PhaseChanged) isEvent()        {}
func (OutcomeEntered) isEvent()      {}
func (Settled) isEvent()             {}
func (BalanceChanged) isEvent()      {}
func (LimitsChanged) isEvent()       {}
func (FrozenChanged) isEvent()       {}
func (RoundVoided) isEvent()         {}
func (BuyInOffered) isEvent()        {}
func (AccountClosed) isEvent()       {}
func (LuckyBallDrawn) isEvent()      {}
func (JackpotMeter) isEvent()        {}
func (JackpotWon) isEvent()          {}
func (PlayerLimitsChanged) isEvent() {}
func (TableClosing) isEvent()        {}
func (DealerWagerPlaced) isEvent()   {}
func (SlipCarried) isEvent()         {}
func (WagerRefused) isEvent()        {}

// Money is the table's reply to a money call.
type Money struct {
	Balance  int64
	Amount   int64
	Replayed bool // the table had seen this idempotency key: nothing moved this time
}

// Refusal is the table's final answer to a request: asking again with the same request cannot
// succeed (no such buy-in, already declined, invalid). Any other error — no answer, a timeout,
// the server's own trouble — may be overcome by asking again with the same idempotency key, so
// a money step that met one stays open rather than being written off.
type Refusal struct{ Err error }

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// NoteClaimRefused begins the table's refusal of a note credit it has no record of (the note was
// never reported in escrow, or with another amount): final, and an attendant's to look into —
// not a refusal that passes, like a closed table's.
const NoteClaimRefused = "note claim refused"

// NoteNotAccepted begins the table's refusal of a note its currency table does not know at that
// value: final too, asked again or not.
const NoteNotAccepted = "note not accepted"

// TicketAboveMaximum begins the table's refusal of a ticket whose hold would take the terminal
// above the table's maximum balance: its balance, the tickets it holds and this one. Final:
// the acceptor returns the ticket, which stays its bearer's money.
const TicketAboveMaximum = "ticket above the maximum balance"

// TicketAlreadyInEscrow begins the table's refusal of a ticket while the terminal already
// holds another: its acceptor has one ticket in escrow at a time. Final for this ticket.
const TicketAlreadyInEscrow = "another ticket in escrow"

// TicketStopped begins the table's refusal of a ticket stopped on the floor's stop list: an
// open overpayment's money left in it, or a supervisor stopped it (lost, stolen, disputed).
// Final: the acceptor returns it and the player sees a casino supervisor.
const TicketStopped = "ticket held for a supervisor"

// Refused reports whether err is, or wraps, the table's refusal.
func Refused(err error) bool {
	var r *Refusal
	return errors.As(err, &r)
}

// AcceptedBuyIn is a dealer buy-in the player accepted on the screen: the terminal journals it, with the
// idempotency key of the request that tells the table, before the table is told.
type AcceptedBuyIn struct {
	ID     string // the table's buy-in id
	Key    string // the idempotency key of the ConfirmBuyIn request, the same on every retry
	Amount int64  // as offered
}

// SeatService is a seat a field technician has taken out of play (technician mode, SPEC §8), as
// its terminal reported it to the table (TerminalService.SetInService) and the table shows it to
// the dealer. A terminal in play has none (nil).
type SeatService struct {
	Technician string    // who has the terminal, as the terminal reported it
	Since      time.Time // server time the table first heard of it; zero in a terminal's report
	Reason     string    // the terminal's words, e.g. "technician mode"
}

// MaxServiceReason is the longest reason a terminal may give for being in service, in characters.
const MaxServiceReason = 200
