package client

import (
	"fmt"
	"time"

	pb "github.com/tablegames/ats/client/proto/ats/table/v1"

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
	Jackpot            bool
	PlayerCardRequired bool
	IDPadRequired      bool
	Venue, Currency    string
}

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
type SlipBet struct {
	Bet    roulette.Bet
	Amount int64
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
}

// PhaseChanged is a new phase; Deadline is set while wagering (server time).
type PhaseChanged struct {
	Phase        Phase
	RoundID      string
	Deadline     time.Time
	BallDropping bool
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

// JackpotMeter is the jackpot meter's amount.
type JackpotMeter struct{ Amount int64 }

// JackpotWon is a jackpot hit in a round: Confirmed once the pit boss has confirmed it and the
// prize is in the winner's chip account.
type JackpotWon struct {
	RoundID, TerminalID string
	Amount              int64
	Confirmed           bool
}

func (Connection) isEvent()     {}
func (Snapshot) isEvent()       {}
func (PhaseChanged) isEvent()   {}
func (OutcomeEntered) isEvent() {}
func (Settled) isEvent()        {}
func (BalanceChanged) isEvent() {}
func (LimitsChanged) isEvent()  {}
func (FrozenChanged) isEvent()  {}
func (RoundVoided) isEvent()    {}
func (BuyInOffered) isEvent()   {}
func (AccountClosed) isEvent()  {}
func (LuckyBallDrawn) isEvent() {}
func (JackpotMeter) isEvent()   {}
func (JackpotWon) isEvent()     {}

// ---- conversion from the wire -----------------------------------------------------------------

func nanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func limitsFrom(in *pb.Limits) (roulette.Limits, error) {
	if in == nil {
		return roulette.Limits{}, nil // an event without limits changes none
	}
	return pb.LimitsOf(in)
}

func pendingFrom(in *pb.PendingLimits) (*PendingLimits, error) {
	if in == nil {
		return nil, nil
	}
	l, err := limitsFrom(in.Limits)
	if err != nil {
		return nil, err
	}
	return &PendingLimits{Limits: l, At: nanos(in.EffectiveAtUnixNanos)}, nil
}

func numberFrom(s string) (roulette.Number, error) { return roulette.ParseNumber(s) }

func outcomeFrom(in *pb.Outcome) (Outcome, error) {
	n, err := numberFrom(in.GetNumber())
	if err != nil {
		return Outcome{}, fmt.Errorf("outcome of %s: %w", in.GetRoundId(), err)
	}
	return Outcome{RoundID: in.RoundId, Number: n, At: nanos(in.AtUnixNanos), Corrected: in.Corrected, Invalidated: in.Invalidated}, nil
}

func drawFrom(in *pb.LuckyBallDraw) (*roulette.LuckyBallDraw, error) {
	if in == nil {
		return nil, nil
	}
	d := &roulette.LuckyBallDraw{}
	v, err := roulette.ParseLuckyBallVersion(in.Version)
	if err != nil {
		return nil, err
	}
	d.Version = v
	for i, s := range []string{in.Red, in.Green, in.Blue, in.Yellow} {
		n, err := numberFrom(s)
		if err != nil {
			return nil, fmt.Errorf("lucky ball: %w", err)
		}
		d.Numbers[i] = n
	}
	if in.Super != "" {
		if d.Super, err = roulette.ParseBallColour(in.Super); err != nil {
			return nil, err
		}
		d.HasSuper = true
	}
	if in.Mega != "" {
		if d.Mega, err = roulette.ParseBallColour(in.Mega); err != nil {
			return nil, err
		}
		d.HasMega = true
	}
	return d, nil
}

func settledFrom(in *pb.Settled) (*Settled, error) {
	if in == nil {
		return nil, nil
	}
	n, err := numberFrom(in.Number)
	if err != nil {
		return nil, fmt.Errorf("settlement of %s: %w", in.RoundId, err)
	}
	return &Settled{RoundID: in.RoundId, Number: n, Recognised: in.Recognised, Staked: in.Staked, Returned: in.Returned,
		Balance: in.Balance, ReturnedPerBet: in.ReturnedPerWager, Correction: in.Correction, SlipVersion: in.SlipVersion}, nil
}

func ticketFrom(in *pb.Ticket) *Ticket {
	if in == nil {
		return nil
	}
	return &Ticket{Validation: in.ValidationNumber, Amount: in.Amount, Number: in.TicketNumber, Issued: nanos(in.IssuedUnixNanos),
		Expires: nanos(in.ExpiresUnixNanos), TerminalID: in.TerminalId, Venue: in.Venue, State: in.State}
}

func configFrom(in *pb.TableConfig) (TableConfig, error) {
	c := TableConfig{TableID: in.GetTableId(), RulesProfile: in.GetRulesProfile(), Chips: in.GetChipDenominations(),
		WageringPeriod: time.Duration(in.GetWageringPeriodMs()) * time.Millisecond, Warning: time.Duration(in.GetWarningMs()) * time.Millisecond,
		LuckyBall: in.GetLuckyBall(), Jackpot: in.GetJackpot(), PlayerCardRequired: in.GetPlayerCardRequired(),
		IDPadRequired: in.GetIdPadRequired(), Venue: in.GetVenue(), Currency: in.GetCurrency()}
	switch in.GetWheel() {
	case pb.Wheel_WHEEL_SINGLE_ZERO:
		c.Layout.Wheel = roulette.SingleZero
	case pb.Wheel_WHEEL_DOUBLE_ZERO:
		c.Layout.Wheel = roulette.DoubleZero
	default:
		return c, fmt.Errorf("table config: unknown wheel %v", in.GetWheel())
	}
	var err error
	if c.Layout.Profile, err = roulette.ParseProfile(in.GetLayoutProfile()); err != nil {
		return c, err
	}
	if in.GetLuckyBallVersion() != "" {
		if c.LuckyBallVersion, err = roulette.ParseLuckyBallVersion(in.GetLuckyBallVersion()); err != nil {
			return c, err
		}
	}
	return c, nil
}

// slipFrom converts a slip; the bets are parsed on the table's layout.
func slipFrom(in *pb.Slip, layout roulette.Layout) (*SlipAck, error) {
	if in == nil {
		return nil, nil
	}
	out := &SlipAck{RoundID: in.RoundId, Version: in.Version, Total: in.Total,
		Bets: make([]SlipBet, 0, len(in.Wagers)), Results: make([]BetResult, 0, len(in.Results))}
	for i, w := range in.Wagers {
		b, err := betFrom(w, layout)
		if err != nil {
			return nil, fmt.Errorf("slip wager %d: %w", i, err)
		}
		out.Bets = append(out.Bets, SlipBet{Bet: b, Amount: w.Amount})
	}
	for _, r := range in.Results {
		out.Results = append(out.Results, BetResult{Accepted: r.Accepted, Reason: r.Reason})
	}
	return out, nil
}

// convert turns a wire event into a typed one. layout is the table's, from the last snapshot.
func convert(ev *pb.TableEvent, layout roulette.Layout) (Event, error) {
	switch e := ev.Event.(type) {
	case *pb.TableEvent_Snapshot:
		s := e.Snapshot
		cfg, err := configFrom(s.Config)
		if err != nil {
			return nil, err
		}
		out := Snapshot{TerminalID: s.TerminalId, Config: cfg, Phase: Phase(s.Phase), RoundID: s.RoundId,
			Deadline: nanos(s.DeadlineUnixNanos), Balance: s.Balance, AccountOpen: s.AccountOpen, Frozen: s.Frozen, Jackpot: s.JackpotMeter}
		if out.Limits, err = limitsFrom(s.Limits); err != nil {
			return nil, err
		}
		if out.Pending, err = pendingFrom(s.PendingLimits); err != nil {
			return nil, err
		}
		for _, o := range s.History {
			oc, err := outcomeFrom(o)
			if err != nil {
				return nil, err
			}
			out.History = append(out.History, oc)
		}
		if out.Slip, err = slipFrom(s.Slip, cfg.Layout); err != nil {
			return nil, err
		}
		if out.LuckyBall, err = drawFrom(s.LuckyBall); err != nil {
			return nil, err
		}
		if b := s.PendingBuyIn; b != nil {
			out.PendingBuyIn = &BuyInOffered{ID: b.BuyInId, Amount: b.Amount}
		}
		if out.LastSettled, err = settledFrom(s.LastSettled); err != nil {
			return nil, err
		}
		for _, c := range s.DealerCloses {
			// Each is recorded by its id, as money out: one without an id could be recorded
			// again from every snapshot, and a negative one is no payment.
			if c.GetCloseId() == "" || c.GetAmount() < 0 {
				return nil, fmt.Errorf("client: snapshot: dealer close %q of %d cents: want an id and an amount of at least 0", c.GetCloseId(), c.GetAmount())
			}
			out.DealerCloses = append(out.DealerCloses, closedFrom(c))
		}
		return out, nil
	case *pb.TableEvent_Phase:
		return PhaseChanged{Phase: Phase(e.Phase.Phase), RoundID: e.Phase.RoundId, Deadline: nanos(e.Phase.DeadlineUnixNanos), BallDropping: e.Phase.BallDropping}, nil
	case *pb.TableEvent_Outcome:
		o, err := outcomeFrom(e.Outcome.GetOutcome())
		return OutcomeEntered{Outcome: o}, err
	case *pb.TableEvent_Settled:
		s, err := settledFrom(e.Settled)
		if err != nil {
			return nil, err
		}
		return *s, nil
	case *pb.TableEvent_Balance:
		return BalanceChanged{Balance: e.Balance.Balance, Delta: e.Balance.Delta, Reason: e.Balance.Reason}, nil
	case *pb.TableEvent_Limits:
		l, err := limitsFrom(e.Limits.Limits)
		if err != nil {
			return nil, err
		}
		p, err := pendingFrom(e.Limits.Pending)
		return LimitsChanged{Limits: l, Pending: p}, err
	case *pb.TableEvent_Frozen:
		return FrozenChanged{Frozen: e.Frozen.Frozen, Reason: e.Frozen.Reason}, nil
	case *pb.TableEvent_Voided:
		return RoundVoided{RoundID: e.Voided.RoundId, Reason: e.Voided.Reason, Refunded: e.Voided.Refunded, Balance: e.Voided.Balance}, nil
	case *pb.TableEvent_BuyIn:
		return BuyInOffered{ID: e.BuyIn.BuyInId, Amount: e.BuyIn.Amount}, nil
	case *pb.TableEvent_AccountClosed:
		return closedFrom(e.AccountClosed), nil
	case *pb.TableEvent_LuckyBall:
		d, err := drawFrom(e.LuckyBall.Draw)
		if err != nil || d == nil {
			return nil, fmt.Errorf("lucky ball event: %v", err)
		}
		return LuckyBallDrawn{RoundID: e.LuckyBall.RoundId, Draw: *d}, nil
	case *pb.TableEvent_Jackpot:
		return JackpotMeter{Amount: e.Jackpot.Amount}, nil
	case *pb.TableEvent_JackpotWon:
		w := e.JackpotWon
		if w.Amount <= 0 || w.TerminalId == "" {
			return nil, fmt.Errorf("jackpot won event: amount %d terminal %q", w.Amount, w.TerminalId)
		}
		return JackpotWon{RoundID: w.RoundId, TerminalID: w.TerminalId, Amount: w.Amount, Confirmed: w.Confirmed}, nil
	}
	return nil, fmt.Errorf("unknown table event %T", ev.Event)
}

func closedFrom(c *pb.AccountClosed) AccountClosed {
	return AccountClosed{Reason: c.GetReason(), Amount: c.GetAmount(), Ticket: ticketFrom(c.GetTicket()), ID: c.GetCloseId(),
		At: nanos(c.GetAtUnixNanos())}
}
