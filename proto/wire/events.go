package wire

import (
	"fmt"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The table's events and replies, from the wire to the model. Every message a terminal reads
// is checked here, once: a number that is no number, a wheel or profile unknown, a dealer
// close without an id is an error, never a zero value passed on.

// Time is a wire timestamp (Unix nanoseconds, 0 for none) as a time.
func Time(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func limitsFrom(in *pb.Limits) (roulette.Limits, error) {
	if in == nil {
		return roulette.Limits{}, nil // an event without limits changes none
	}
	return LimitsOf(in)
}

func pendingFrom(in *pb.PendingLimits) (*table.PendingLimits, error) {
	if in == nil {
		return nil, nil
	}
	l, err := limitsFrom(in.Limits)
	if err != nil {
		return nil, err
	}
	return &table.PendingLimits{Limits: l, At: Time(in.EffectiveAtUnixNanos)}, nil
}

func numberFrom(s string) (roulette.Number, error) { return roulette.ParseNumber(s) }

func outcomeFrom(in *pb.Outcome) (table.Outcome, error) {
	n, err := numberFrom(in.GetNumber())
	if err != nil {
		return table.Outcome{}, fmt.Errorf("outcome of %s: %w", in.GetRoundId(), err)
	}
	return table.Outcome{RoundID: in.RoundId, Number: n, At: Time(in.AtUnixNanos), Corrected: in.Corrected, Invalidated: in.Invalidated}, nil
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
	d.Version, d.Void = v, in.Void
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

func settledFrom(in *pb.Settled) (*table.Settled, error) {
	if in == nil {
		return nil, nil
	}
	n, err := numberFrom(in.Number)
	if err != nil {
		return nil, fmt.Errorf("settlement of %s: %w", in.RoundId, err)
	}
	return &table.Settled{RoundID: in.RoundId, Number: n, Recognised: in.Recognised, Staked: in.Staked, Returned: in.Returned,
		Balance: in.Balance, ReturnedPerBet: in.ReturnedPerWager, Correction: in.Correction, SlipVersion: in.SlipVersion}, nil
}

// TicketOf converts a ticket; nil stays nil.
func TicketOf(in *pb.Ticket) *table.Ticket {
	if in == nil {
		return nil
	}
	return &table.Ticket{Validation: in.ValidationNumber, Amount: in.Amount, Number: in.TicketNumber, Issued: Time(in.IssuedUnixNanos),
		Expires: Time(in.ExpiresUnixNanos), TerminalID: in.TerminalId, Venue: in.Venue, State: in.State}
}

func configFrom(in *pb.TableConfig) (table.TableConfig, error) {
	c := table.TableConfig{TableID: in.GetTableId(), RulesProfile: in.GetRulesProfile(), Chips: in.GetChipDenominations(),
		WageringPeriod: time.Duration(in.GetWageringPeriodMs()) * time.Millisecond, Warning: time.Duration(in.GetWarningMs()) * time.Millisecond,
		LuckyBall: in.GetLuckyBall(), Racetrack: in.GetRacetrack(), Jackpot: in.GetJackpot(), PlayerCardRequired: in.GetPlayerCardRequired(),
		IDPadRequired: in.GetIdPadRequired(), Venue: in.GetVenue(), Currency: in.GetCurrency(), DealerCashOnly: in.GetDealerCashOnly(),
		Carded: in.GetCarded(), RealityCheck: time.Duration(max(in.GetRealityCheckSeconds(), 0)) * time.Second, Helpline: in.GetHelpline()}
	var err error
	if c.Layout.Wheel, err = wheelOf(in.GetWheel()); err != nil {
		return c, fmt.Errorf("table config: %w", err)
	}
	if c.Layout.Profile, err = roulette.ParseProfile(in.GetLayoutProfile()); err != nil {
		return c, err
	}
	if c.Layout.Asian, err = AsianGroupsOf(c.Layout.Wheel, in.GetAsianGroups()); err != nil {
		return c, fmt.Errorf("table config: %w", err)
	}
	if in.GetLuckyBallVersion() != "" {
		if c.LuckyBallVersion, err = roulette.ParseLuckyBallVersion(in.GetLuckyBallVersion()); err != nil {
			return c, err
		}
	}
	return c, nil
}

// SlipOf converts a slip; the bets are parsed on the table's layout.
func SlipOf(in *pb.Slip, layout roulette.Layout) (*table.SlipAck, error) {
	if in == nil {
		return nil, nil
	}
	out := &table.SlipAck{RoundID: in.RoundId, Version: in.Version, Total: in.Total,
		Bets: make([]table.SlipBet, 0, len(in.Wagers)), Results: make([]table.BetResult, 0, len(in.Results))}
	for i, w := range in.Wagers {
		b, err := BetOf(w, layout)
		if err != nil {
			return nil, fmt.Errorf("slip wager %d: %w", i, err)
		}
		out.Bets = append(out.Bets, table.SlipBet{Bet: b, Amount: w.Amount, Card: w.PlayerCard, PlacedBy: w.PlacedBy})
	}
	for _, r := range in.Results {
		out.Results = append(out.Results, table.BetResult{Accepted: r.Accepted, Reason: r.Reason})
	}
	return out, nil
}

// SlipOfSent reads a slip written by SlipResultsPB: its wagers are sent, the slip the terminal
// sent, as the table acknowledged them (each as sent, none placed by the dealer), and one
// result for each. A slip that carries wagers, or a result count that is not sent's, is
// refused: the reply is not for this slip.
func SlipOfSent(in *pb.Slip, sent []table.SlipBet) (*table.SlipAck, error) {
	if in == nil {
		return nil, fmt.Errorf("a slip acknowledged as sent without the slip")
	}
	if len(in.Wagers) != 0 || len(in.Results) != len(sent) {
		return nil, fmt.Errorf("a slip acknowledged as sent with %d wagers and %d results, for %d wagers sent", len(in.Wagers), len(in.Results), len(sent))
	}
	out := &table.SlipAck{RoundID: in.RoundId, Version: in.Version, Total: in.Total,
		Bets: make([]table.SlipBet, len(sent)), Results: make([]table.BetResult, len(in.Results))}
	for i, b := range sent {
		out.Bets[i] = table.SlipBet{Bet: b.Bet, Amount: b.Amount, Card: b.Card}
	}
	for i, r := range in.Results {
		out.Results[i] = table.BetResult{Accepted: r.Accepted, Reason: r.Reason}
	}
	return out, nil
}

// EventsOf turns a wire message into the events it carries, in the table's order: the one
// event, or each event of a batch (EventBatch), read as if it had come alone. A batch is all or
// nothing: one event that cannot be read fails the whole message, so a terminal never acts on
// part of it and resyncs from a fresh snapshot as for any malformed event. A batch holds no
// snapshot (which could change the layout its later events are read with) and no batch.
func EventsOf(ev *pb.TableEvent, layout roulette.Layout) ([]table.Event, error) {
	b, ok := ev.Event.(*pb.TableEvent_Batch)
	if !ok {
		one, err := EventOf(ev, layout)
		if err != nil {
			return nil, err
		}
		return []table.Event{one}, nil
	}
	if err := checkBatch(b.Batch.GetEvents()); err != nil {
		return nil, err
	}
	out := make([]table.Event, len(b.Batch.Events))
	for i, inner := range b.Batch.Events {
		var err error
		if out[i], err = EventOf(inner, layout); err != nil {
			return nil, fmt.Errorf("event %d of a batch (seq %d): %w", i+1, inner.Seq, err)
		}
	}
	return out, nil
}

// checkBatch is what a batch may hold: at least one event, none a snapshot or a batch.
func checkBatch(evs []*pb.TableEvent) error {
	if len(evs) == 0 {
		return fmt.Errorf("an empty batch of events")
	}
	for i, e := range evs {
		switch e.GetEvent().(type) {
		case *pb.TableEvent_Snapshot:
			return fmt.Errorf("event %d of a batch is a snapshot: a snapshot travels alone", i+1)
		case *pb.TableEvent_Batch:
			return fmt.Errorf("event %d of a batch is a batch", i+1)
		case nil:
			return fmt.Errorf("event %d of a batch is empty", i+1)
		}
	}
	return nil
}

// EventOf turns a wire event into a typed one. layout is the table's, from the last snapshot.
// A batch is several events: read it with EventsOf.
func EventOf(ev *pb.TableEvent, layout roulette.Layout) (table.Event, error) {
	switch e := ev.Event.(type) {
	case *pb.TableEvent_Snapshot:
		s := e.Snapshot
		cfg, err := configFrom(s.Config)
		if err != nil {
			return nil, err
		}
		out := table.Snapshot{TerminalID: s.TerminalId, Config: cfg, Phase: table.Phase(s.Phase), RoundID: s.RoundId,
			Deadline: Time(s.DeadlineUnixNanos), Balance: s.Balance, AccountOpen: s.AccountOpen, Frozen: s.Frozen, Jackpot: s.JackpotMeter,
			ClosingAt: Time(max(s.ClosingAtUnixNanos, 0))}
		if out.Limits, err = limitsFrom(s.Limits); err != nil {
			return nil, err
		}
		if out.Pending, err = pendingFrom(s.PendingLimits); err != nil {
			return nil, err
		}
		if s.PlayerLimits != nil {
			pl, err := limitsFrom(s.PlayerLimits)
			if err != nil {
				return nil, fmt.Errorf("player limits: %w", err)
			}
			out.PlayerLimits = &pl
		}
		if s.Card != nil {
			c, err := CardStateOf(s.Card)
			if err != nil {
				return nil, err
			}
			out.Card = &c
		}
		for _, o := range s.History {
			oc, err := outcomeFrom(o)
			if err != nil {
				return nil, err
			}
			out.History = append(out.History, oc)
		}
		if out.Slip, err = SlipOf(s.Slip, cfg.Layout); err != nil {
			return nil, err
		}
		if out.LuckyBall, err = drawFrom(s.LuckyBall); err != nil {
			return nil, err
		}
		if b := s.PendingBuyIn; b != nil {
			out.PendingBuyIn = &table.BuyInOffered{ID: b.BuyInId, Amount: b.Amount}
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
		if out.Tournament, err = TournamentOf(s.Tournament); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.TableEvent_Phase:
		return table.PhaseChanged{Phase: table.Phase(e.Phase.Phase), RoundID: e.Phase.RoundId, Deadline: Time(e.Phase.DeadlineUnixNanos), BallDropping: e.Phase.BallDropping, NoSpin: e.Phase.NoSpin}, nil
	case *pb.TableEvent_Outcome:
		o, err := outcomeFrom(e.Outcome.GetOutcome())
		return table.OutcomeEntered{Outcome: o}, err
	case *pb.TableEvent_Settled:
		s, err := settledFrom(e.Settled)
		if err != nil {
			return nil, err
		}
		return *s, nil
	case *pb.TableEvent_Balance:
		return table.BalanceChanged{Balance: e.Balance.Balance, Delta: e.Balance.Delta, Reason: e.Balance.Reason}, nil
	case *pb.TableEvent_Limits:
		l, err := limitsFrom(e.Limits.Limits)
		if err != nil {
			return nil, err
		}
		p, err := pendingFrom(e.Limits.Pending)
		if e.Limits.WarningMs < 0 {
			return nil, fmt.Errorf("limits: warning %d ms is negative", e.Limits.WarningMs)
		}
		return table.LimitsChanged{Limits: l, Pending: p, Warning: time.Duration(e.Limits.WarningMs) * time.Millisecond}, err
	case *pb.TableEvent_CardState:
		c, err := CardStateOf(e.CardState)
		if err != nil {
			return nil, err
		}
		return table.CardStateChanged{State: c}, nil
	case *pb.TableEvent_PlayerLimits:
		if e.PlayerLimits.Limits == nil {
			return table.PlayerLimitsChanged{}, nil
		}
		l, err := limitsFrom(e.PlayerLimits.Limits)
		if err != nil {
			return nil, fmt.Errorf("player limits: %w", err)
		}
		return table.PlayerLimitsChanged{Limits: &l}, nil
	case *pb.TableEvent_Frozen:
		return table.FrozenChanged{Frozen: e.Frozen.Frozen, Reason: e.Frozen.Reason}, nil
	case *pb.TableEvent_Voided:
		return table.RoundVoided{RoundID: e.Voided.RoundId, Reason: e.Voided.Reason, Refunded: e.Voided.Refunded, Balance: e.Voided.Balance}, nil
	case *pb.TableEvent_BuyIn:
		return table.BuyInOffered{ID: e.BuyIn.BuyInId, Amount: e.BuyIn.Amount}, nil
	case *pb.TableEvent_AccountClosed:
		return closedFrom(e.AccountClosed), nil
	case *pb.TableEvent_LuckyBall:
		d, err := drawFrom(e.LuckyBall.Draw)
		if err != nil || d == nil {
			return nil, fmt.Errorf("lucky ball event: %v", err)
		}
		return table.LuckyBallDrawn{RoundID: e.LuckyBall.RoundId, Draw: *d}, nil
	case *pb.TableEvent_DealerWager:
		s, err := SlipOf(e.DealerWager, layout)
		if err != nil || s == nil {
			return nil, fmt.Errorf("dealer wager event: %v", err)
		}
		return table.DealerWagerPlaced{Slip: *s}, nil
	case *pb.TableEvent_Closing:
		at := e.Closing.GetCloseAtUnixNanos()
		if at < 0 {
			return nil, fmt.Errorf("table closing event: time %d", at)
		}
		return table.TableClosing{At: Time(at)}, nil
	case *pb.TableEvent_Jackpot:
		return table.JackpotMeter{Amount: e.Jackpot.Amount}, nil
	case *pb.TableEvent_JackpotWon:
		w := e.JackpotWon
		if w.Amount <= 0 || w.TerminalId == "" {
			return nil, fmt.Errorf("jackpot won event: amount %d terminal %q", w.Amount, w.TerminalId)
		}
		if w.Confirmed && w.Void {
			// 001 §9.10: a confirmed jackpot is never voided; a hit cannot be both.
			return nil, fmt.Errorf("jackpot won event: round %s both confirmed and void", w.RoundId)
		}
		return table.JackpotWon{RoundID: w.RoundId, TerminalID: w.TerminalId, Amount: w.Amount, Confirmed: w.Confirmed, Void: w.Void}, nil
	case *pb.TableEvent_Tournament:
		tr, err := TournamentOf(e.Tournament)
		if err != nil {
			return nil, err
		}
		return table.TournamentChanged{Tournament: tr}, nil
	case *pb.TableEvent_SlipCarried:
		sl, err := SlipOf(e.SlipCarried.GetSlip(), layout)
		if err != nil {
			return nil, fmt.Errorf("slip carried event: %w", err)
		}
		if sl == nil || sl.Version == 0 || sl.RoundID == "" {
			return nil, fmt.Errorf("slip carried event: want a slip with its round and a version")
		}
		return table.SlipCarried{Slip: *sl}, nil
	case *pb.TableEvent_WagerRefused:
		return wagerRefusedOf(e.WagerRefused, layout)
	case *pb.TableEvent_Batch:
		return nil, fmt.Errorf("a batch of %d events where one event was expected", len(e.Batch.GetEvents()))
	}
	return nil, fmt.Errorf("unknown table event %T", ev.Event)
}

// wagerRefusedOf reads a supervisor's refusal (003 §9.12): the slip must name its round and a
// version, as the terminal's next change must be newer than it.
func wagerRefusedOf(e *pb.WagerRefused, layout roulette.Layout) (table.Event, error) {
	sl, err := SlipOf(e.GetSlip(), layout)
	if err != nil {
		return nil, fmt.Errorf("wager refused event: %w", err)
	}
	if sl == nil || sl.Version == 0 || sl.RoundID == "" {
		return nil, fmt.Errorf("wager refused event: want a slip with its round and a version")
	}
	out := table.WagerRefused{Slip: *sl, Reason: e.GetReason(), By: e.GetBy()}
	for i, w := range e.GetRefused() {
		b, err := BetOf(w, layout)
		if err != nil {
			return nil, fmt.Errorf("wager refused event: refused wager %d: %w", i, err)
		}
		out.Refused = append(out.Refused, table.SlipBet{Bet: b, Amount: w.Amount, Card: w.PlayerCard, PlacedBy: w.PlacedBy})
	}
	return out, nil
}

func closedFrom(c *pb.AccountClosed) table.AccountClosed {
	return table.AccountClosed{Reason: c.GetReason(), Amount: c.GetAmount(), Ticket: TicketOf(c.GetTicket()), ID: c.GetCloseId(),
		At: Time(c.GetAtUnixNanos())}
}

// BetOf reads a wire wager as a bet on the table's layout.
func BetOf(w *pb.Wager, layout roulette.Layout) (roulette.Bet, error) {
	s, err := SpecOf(w)
	if err != nil {
		return roulette.Bet{}, err
	}
	return roulette.ParseBet(layout, s)
}

// WagerOfBet writes one wager of a slip for the wire.
// The player card goes with it (003 §3.4, §9.1).
func WagerOfBet(b table.SlipBet) *pb.Wager {
	w := WagerOf(b.Bet.Spec(), b.Amount)
	w.PlayerCard = b.Card
	w.PlacedBy = b.PlacedBy
	return w
}

// MoneyOf converts the reply to a money call.
func MoneyOf(r *pb.MoneyResponse) table.Money {
	return table.Money{Balance: r.Balance, Amount: r.Amount, Replayed: r.Replayed}
}
