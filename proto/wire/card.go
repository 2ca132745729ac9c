package wire

// The seat's player card under carded play (SPEC §10, issue 31), both ways: CardStatePB is what
// the server sends, CardStateOf reads it back and refuses what a player could not have set (a
// negative amount or time, a bar period that is neither a day nor a week).

import (
	"fmt"
	"time"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The bar periods a player may choose (SPEC §10).
const (
	barDay  = 24 * time.Hour
	barWeek = 7 * 24 * time.Hour
)

// BarPB writes a bar period: a day or a week; anything else is unspecified.
func BarPB(d time.Duration) pb.BarPeriod {
	switch d {
	case barDay:
		return pb.BarPeriod_BAR_PERIOD_DAY
	case barWeek:
		return pb.BarPeriod_BAR_PERIOD_WEEK
	}
	return pb.BarPeriod_BAR_PERIOD_UNSPECIFIED
}

// BarOf reads a bar period; unspecified is 0 (none set), any other value an error.
func BarOf(b pb.BarPeriod) (time.Duration, error) {
	switch b {
	case pb.BarPeriod_BAR_PERIOD_UNSPECIFIED:
		return 0, nil
	case pb.BarPeriod_BAR_PERIOD_DAY:
		return barDay, nil
	case pb.BarPeriod_BAR_PERIOD_WEEK:
		return barWeek, nil
	}
	return 0, fmt.Errorf("bar period %d: neither a day nor a week", b)
}

// CardLimitsOf reads a player's limits as sent in a SetCardLimits request: each must be set
// (a loss limit and time limit above zero, a bar of a day or a week).
func CardLimitsOf(req *pb.SetCardLimitsRequest) (table.CardLimits, error) {
	bar, err := BarOf(req.GetBar())
	switch {
	case err != nil:
		return table.CardLimits{}, err
	case req.GetLossLimit() <= 0:
		return table.CardLimits{}, fmt.Errorf("loss limit %d cents: must be above zero", req.GetLossLimit())
	case req.GetTimeLimitSeconds() <= 0:
		return table.CardLimits{}, fmt.Errorf("time limit %d seconds: must be above zero", req.GetTimeLimitSeconds())
	case req.GetTimeLimitSeconds() > int64(barWeek/time.Second):
		return table.CardLimits{}, fmt.Errorf("time limit %d seconds: more than a week", req.GetTimeLimitSeconds())
	case bar == 0:
		return table.CardLimits{}, fmt.Errorf("bar period not chosen: 24 hours or 7 days")
	}
	return table.CardLimits{Loss: req.GetLossLimit(), Time: time.Duration(req.GetTimeLimitSeconds()) * time.Second, Bar: bar}, nil
}

// SetCardLimitsPB writes the request setting card's limits.
func SetCardLimitsPB(card string, l table.CardLimits) *pb.SetCardLimitsRequest {
	return &pb.SetCardLimitsRequest{Card: card, LossLimit: l.Loss, TimeLimitSeconds: int64(l.Time / time.Second), Bar: BarPB(l.Bar)}
}

// CardStatePB writes the seat's card state.
func CardStatePB(c table.CardState) *pb.CardState {
	return &pb.CardState{Card: c.Card, State: c.State, NeedsLimits: c.NeedsLimits,
		LossLimit: c.Limits.Loss, TimeLimitSeconds: int64(c.Limits.Time / time.Second), Bar: BarPB(c.Limits.Bar),
		NextLossLimit: c.Next.Loss, NextTimeLimitSeconds: int64(c.Next.Time / time.Second), NextBar: BarPB(c.Next.Bar),
		NextFromUnixNanos: TimeNanos(c.NextFrom), PeriodStartUnixNanos: TimeNanos(c.PeriodStart),
		NetLoss: c.NetLoss, LossLeft: c.LossLeft, TimeUpUnixNanos: TimeNanos(c.TimeUp),
		BarredUntilUnixNanos: TimeNanos(c.BarredUntil), BarredFor: c.BarredFor,
		BreakUntilUnixNanos: TimeNanos(c.BreakUntil), BreakDueUnixNanos: TimeNanos(c.BreakDue),
		SessionResult: c.SessionResult, SessionStartUnixNanos: TimeNanos(c.SessionStart),
		Refusal: c.Refusal, RefusalUntilUnixNanos: TimeNanos(c.RefusalUntil), RefusalWords: c.RefusalWords,
		ServerTimeUnixNanos: TimeNanos(c.At)}
}

// CardStateOf reads the seat's card state.
func CardStateOf(in *pb.CardState) (table.CardState, error) {
	if in == nil {
		return table.CardState{}, fmt.Errorf("card state: none")
	}
	bar, err := BarOf(in.Bar)
	if err != nil {
		return table.CardState{}, fmt.Errorf("card %s: %w", in.Card, err)
	}
	nextBar, err := BarOf(in.NextBar)
	if err != nil {
		return table.CardState{}, fmt.Errorf("card %s: next %w", in.Card, err)
	}
	if in.LossLimit < 0 || in.TimeLimitSeconds < 0 || in.NextLossLimit < 0 || in.NextTimeLimitSeconds < 0 || in.LossLeft < 0 {
		return table.CardState{}, fmt.Errorf("card %s: a negative limit or loss left", in.Card)
	}
	return table.CardState{Card: in.Card, State: in.State, NeedsLimits: in.NeedsLimits,
		Limits:   table.CardLimits{Loss: in.LossLimit, Time: time.Duration(in.TimeLimitSeconds) * time.Second, Bar: bar},
		Next:     table.CardLimits{Loss: in.NextLossLimit, Time: time.Duration(in.NextTimeLimitSeconds) * time.Second, Bar: nextBar},
		NextFrom: Time(in.NextFromUnixNanos), PeriodStart: Time(in.PeriodStartUnixNanos),
		NetLoss: in.NetLoss, LossLeft: in.LossLeft, TimeUp: Time(in.TimeUpUnixNanos),
		BarredUntil: Time(in.BarredUntilUnixNanos), BarredFor: in.BarredFor,
		BreakUntil: Time(in.BreakUntilUnixNanos), BreakDue: Time(in.BreakDueUnixNanos),
		SessionResult: in.SessionResult, SessionStart: Time(in.SessionStartUnixNanos),
		Refusal: in.Refusal, RefusalUntil: Time(in.RefusalUntilUnixNanos), RefusalWords: in.RefusalWords,
		At: Time(in.ServerTimeUnixNanos)}, nil
}
