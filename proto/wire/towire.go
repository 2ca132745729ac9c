package wire

import (
	"fmt"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The table's events and state, from the model to the wire: what the server sends. Each …PB
// function writes what the matching …Of function (events.go) reads back, so a message makes
// the round trip model → wire → model unchanged (events_test.go holds every event to that).
// Nothing here checks: the model the server holds is already valid, and a reader checks what
// it receives.

// TimeNanos is a time as a wire timestamp: Unix nanoseconds, 0 for the zero time (which
// time.Time.UnixNano would make a large negative number). Time reads it back.
func TimeNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// LimitsPB writes a table's limits.
func LimitsPB(l roulette.Limits) *pb.Limits {
	out := &pb.Limits{Default: &pb.Limit{Min: l.Default.Min, Max: l.Default.Max, Unit: l.Default.Unit},
		TableMax: l.TableMax, AggregateMin: l.AggregateMin, PerBet: make(map[string]*pb.Limit, len(l.PerKind))}
	for k, v := range l.PerKind {
		out.PerBet[k.String()] = &pb.Limit{Min: v.Min, Max: v.Max, Unit: v.Unit}
	}
	return out
}

// PendingPB writes an announced change of limits; nil stays nil.
func PendingPB(p *table.PendingLimits) *pb.PendingLimits {
	if p == nil {
		return nil
	}
	return &pb.PendingLimits{Limits: LimitsPB(p.Limits), EffectiveAtUnixNanos: TimeNanos(p.At)}
}

// ConfigPB writes the game in force at a table.
func ConfigPB(c table.TableConfig) *pb.TableConfig {
	return &pb.TableConfig{
		TableId: c.TableID, Wheel: wheelPB(c.Layout.Wheel), LayoutProfile: c.Layout.Profile.String(), RulesProfile: c.RulesProfile,
		ChipDenominations: c.Chips, WageringPeriodMs: c.WageringPeriod.Milliseconds(), WarningMs: c.Warning.Milliseconds(),
		LuckyBall: c.LuckyBall, LuckyBallVersion: c.LuckyBallVersion.String(), Racetrack: c.Racetrack, Jackpot: c.Jackpot,
		IdPadRequired: c.IDPadRequired, PlayerCardRequired: c.PlayerCardRequired, Venue: c.Venue, Currency: c.Currency,
		AsianGroups:    AsianGroupsPB(c.Layout.Asian),
		DealerCashOnly: c.DealerCashOnly,
		Carded:         c.Carded, RealityCheckSeconds: int64(c.RealityCheck / time.Second), Helpline: c.Helpline,
	}
}

// OutcomePB writes a winning number of a round.
func OutcomePB(o table.Outcome) *pb.Outcome {
	return &pb.Outcome{RoundId: o.RoundID, Number: o.Number.String(), AtUnixNanos: TimeNanos(o.At),
		Corrected: o.Corrected, Invalidated: o.Invalidated}
}

// OutcomesPB writes a table's history, most recent first as held.
func OutcomesPB(h []table.Outcome) []*pb.Outcome {
	if len(h) == 0 {
		return nil
	}
	out := make([]*pb.Outcome, len(h))
	for i, o := range h {
		out[i] = OutcomePB(o)
	}
	return out
}

// DrawPB writes a Lucky Ball draw; its Super or Mega colour only once drawn.
func DrawPB(d roulette.LuckyBallDraw) *pb.LuckyBallDraw {
	out := &pb.LuckyBallDraw{Version: d.Version.String(),
		Red: d.Numbers[roulette.BallRed].String(), Green: d.Numbers[roulette.BallGreen].String(),
		Blue: d.Numbers[roulette.BallBlue].String(), Yellow: d.Numbers[roulette.BallYellow].String()}
	if d.HasSuper {
		out.Super = d.Super.String()
	}
	if d.HasMega {
		out.Mega = d.Mega.String()
	}
	out.Void = d.Void
	return out
}

// SlipPB writes an acknowledged slip: each wager as attempted and what was accepted of it.
// Available is not part of it: a reply to UpdateSlip carries it beside the slip.
func SlipPB(s *table.SlipAck) *pb.Slip {
	out := SlipResultsPB(s)
	if out != nil && len(s.Bets) > 0 {
		out.Wagers = make([]*pb.Wager, len(s.Bets))
		for i, b := range s.Bets {
			out.Wagers[i] = WagerOfBet(b)
		}
	}
	return out
}

// SlipResultsPB writes an acknowledged slip without its wagers: a reply on the Slips stream
// whose wagers are exactly those the terminal sent (wagers_as_sent), read back by SlipOfSent.
func SlipResultsPB(s *table.SlipAck) *pb.Slip {
	if s == nil {
		return nil
	}
	out := &pb.Slip{RoundId: s.RoundID, Version: s.Version, Total: s.Total}
	if len(s.Results) > 0 {
		out.Results = make([]*pb.WagerResult, len(s.Results))
		for i, r := range s.Results {
			out.Results[i] = &pb.WagerResult{Accepted: r.Accepted, Reason: r.Reason}
		}
	}
	return out
}

// SettledPB writes a terminal's settlement of a round.
func SettledPB(s table.Settled) *pb.Settled {
	return &pb.Settled{RoundId: s.RoundID, Number: s.Number.String(), Recognised: s.Recognised, Staked: s.Staked,
		Returned: s.Returned, Balance: s.Balance, ReturnedPerWager: s.ReturnedPerBet, Correction: s.Correction,
		SlipVersion: s.SlipVersion}
}

// TicketPB writes a cash-out ticket; nil stays nil.
func TicketPB(t *table.Ticket) *pb.Ticket {
	if t == nil {
		return nil
	}
	return &pb.Ticket{ValidationNumber: t.Validation, Amount: t.Amount, TicketNumber: t.Number,
		IssuedUnixNanos: TimeNanos(t.Issued), ExpiresUnixNanos: TimeNanos(t.Expires), TerminalId: t.TerminalID,
		Venue: t.Venue, State: t.State}
}

// ClosedPB writes an account close: a cash-out with its ticket, or a close at the dealer's
// console with its id and time.
func ClosedPB(c table.AccountClosed) *pb.AccountClosed {
	return &pb.AccountClosed{Reason: c.Reason, Amount: c.Amount, Ticket: TicketPB(c.Ticket), CloseId: c.ID,
		AtUnixNanos: TimeNanos(c.At)}
}

// JackpotWonPB writes a jackpot hit.
func JackpotWonPB(j table.JackpotWon) *pb.JackpotWon {
	return &pb.JackpotWon{RoundId: j.RoundID, TerminalId: j.TerminalID, Amount: j.Amount, Confirmed: j.Confirmed, Void: j.Void}
}

// MoneyPB writes the reply to a money call.
func MoneyPB(m table.Money) *pb.MoneyResponse {
	return &pb.MoneyResponse{Balance: m.Balance, Amount: m.Amount, Replayed: m.Replayed}
}

// SnapshotPB writes the whole state of the table for one terminal.
func SnapshotPB(s table.Snapshot) *pb.Snapshot {
	out := &pb.Snapshot{TerminalId: s.TerminalID, Config: ConfigPB(s.Config), Phase: pb.Phase(s.Phase),
		RoundId: s.RoundID, DeadlineUnixNanos: TimeNanos(s.Deadline), Limits: LimitsPB(s.Limits),
		PendingLimits: PendingPB(s.Pending), Balance: s.Balance, AccountOpen: s.AccountOpen, Frozen: s.Frozen,
		History: OutcomesPB(s.History), Slip: SlipPB(s.Slip), JackpotMeter: s.Jackpot,
		ClosingAtUnixNanos: TimeNanos(s.ClosingAt)}
	if s.LuckyBall != nil {
		out.LuckyBall = DrawPB(*s.LuckyBall)
	}
	if s.PlayerLimits != nil {
		out.PlayerLimits = LimitsPB(*s.PlayerLimits)
	}
	if s.Card != nil {
		out.Card = CardStatePB(*s.Card)
	}
	if b := s.PendingBuyIn; b != nil {
		out.PendingBuyIn = &pb.BuyInOffered{BuyInId: b.ID, Amount: b.Amount}
	}
	if s.LastSettled != nil {
		out.LastSettled = SettledPB(*s.LastSettled)
	}
	out.Tournament = TournamentPB(s.Tournament)
	if len(s.DealerCloses) > 0 {
		out.DealerCloses = make([]*pb.AccountClosed, len(s.DealerCloses))
		for i, c := range s.DealerCloses {
			out.DealerCloses[i] = ClosedPB(c)
		}
	}
	return out
}

// EventPB writes a table event. The caller sets its place in the table's order (Seq) and the
// server time (ServerTimeUnixNanos): the model's events do not carry them. An event that never
// crosses the wire (Connection, the client's own report of its link) is an error.
func EventPB(ev table.Event) (*pb.TableEvent, error) {
	out := &pb.TableEvent{}
	switch e := ev.(type) {
	case table.Snapshot:
		out.Event = &pb.TableEvent_Snapshot{Snapshot: SnapshotPB(e)}
	case table.PhaseChanged:
		out.Event = &pb.TableEvent_Phase{Phase: &pb.PhaseChanged{Phase: pb.Phase(e.Phase), RoundId: e.RoundID,
			DeadlineUnixNanos: TimeNanos(e.Deadline), BallDropping: e.BallDropping, NoSpin: e.NoSpin}}
	case table.OutcomeEntered:
		out.Event = &pb.TableEvent_Outcome{Outcome: &pb.OutcomeEntered{Outcome: OutcomePB(e.Outcome)}}
	case table.Settled:
		out.Event = &pb.TableEvent_Settled{Settled: SettledPB(e)}
	case table.BalanceChanged:
		out.Event = &pb.TableEvent_Balance{Balance: &pb.BalanceChanged{Balance: e.Balance, Delta: e.Delta, Reason: e.Reason}}
	case table.LimitsChanged:
		out.Event = &pb.TableEvent_Limits{Limits: &pb.LimitsChanged{Limits: LimitsPB(e.Limits), Pending: PendingPB(e.Pending), WarningMs: e.Warning.Milliseconds()}}
	case table.CardStateChanged:
		out.Event = &pb.TableEvent_CardState{CardState: CardStatePB(e.State)}
	case table.PlayerLimitsChanged:
		pl := &pb.PlayerLimitsChanged{}
		if e.Limits != nil {
			pl.Limits = LimitsPB(*e.Limits)
		}
		out.Event = &pb.TableEvent_PlayerLimits{PlayerLimits: pl}
	case table.FrozenChanged:
		out.Event = &pb.TableEvent_Frozen{Frozen: &pb.FrozenChanged{Frozen: e.Frozen, Reason: e.Reason}}
	case table.RoundVoided:
		out.Event = &pb.TableEvent_Voided{Voided: &pb.RoundVoided{RoundId: e.RoundID, Reason: e.Reason,
			Refunded: e.Refunded, Balance: e.Balance}}
	case table.BuyInOffered:
		out.Event = &pb.TableEvent_BuyIn{BuyIn: &pb.BuyInOffered{BuyInId: e.ID, Amount: e.Amount}}
	case table.AccountClosed:
		out.Event = &pb.TableEvent_AccountClosed{AccountClosed: ClosedPB(e)}
	case table.LuckyBallDrawn:
		out.Event = &pb.TableEvent_LuckyBall{LuckyBall: &pb.LuckyBallDrawn{RoundId: e.RoundID, Draw: DrawPB(e.Draw)}}
	case table.JackpotMeter:
		out.Event = &pb.TableEvent_Jackpot{Jackpot: &pb.JackpotMeter{Amount: e.Amount}}
	case table.JackpotWon:
		out.Event = &pb.TableEvent_JackpotWon{JackpotWon: JackpotWonPB(e)}
	case table.TournamentChanged:
		out.Event = &pb.TableEvent_Tournament{Tournament: TournamentPB(e.Tournament)}
	case table.DealerWagerPlaced:
		s := e.Slip
		out.Event = &pb.TableEvent_DealerWager{DealerWager: SlipPB(&s)}
	case table.TableClosing:
		out.Event = &pb.TableEvent_Closing{Closing: &pb.TableClosing{CloseAtUnixNanos: TimeNanos(e.At)}}
	case table.SlipCarried:
		s := e.Slip
		out.Event = &pb.TableEvent_SlipCarried{SlipCarried: &pb.SlipCarried{Slip: SlipPB(&s)}}
	case table.WagerRefused:
		s := e.Slip
		w := &pb.WagerRefused{Slip: SlipPB(&s), Reason: e.Reason, By: e.By}
		for _, b := range e.Refused {
			w.Refused = append(w.Refused, WagerOfBet(b))
		}
		out.Event = &pb.TableEvent_WagerRefused{WagerRefused: w}
	default:
		return nil, fmt.Errorf("wire: %T is not a table event on the wire", ev)
	}
	return out, nil
}

// BatchPB writes events already on the wire, each with its own Seq and server time, as one
// message (EventBatch) for a stream that reads batches. They are shared, not copied: the
// server's broadcast events are written for the wire once and sent on every stream. A batch
// of none, or holding a snapshot or a batch, is an error (EventsOf would refuse it).
func BatchPB(evs []*pb.TableEvent) (*pb.TableEvent, error) {
	if err := checkBatch(evs); err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	return &pb.TableEvent{Event: &pb.TableEvent_Batch{Batch: &pb.EventBatch{Events: evs}}}, nil
}
