package wire

import (
	"errors"
	"fmt"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The winning number display's state (DisplayService.Watch), model ⇄ wire: DisplayPB writes
// what the server sends, DisplayOf reads and checks it at the display.

// wheelPB writes a wheel.
func wheelPB(w roulette.Wheel) pb.Wheel {
	if w == roulette.DoubleZero {
		return pb.Wheel_WHEEL_DOUBLE_ZERO
	}
	return pb.Wheel_WHEEL_SINGLE_ZERO
}

func countsPB(cs []table.NumberCount) []*pb.DisplayNumberCount {
	out := make([]*pb.DisplayNumberCount, len(cs))
	for i, c := range cs {
		out[i] = &pb.DisplayNumberCount{Number: c.Number.String(), Count: int32(c.Count)}
	}
	return out
}

// DisplayPB writes a display's state.
func DisplayPB(d table.Display) *pb.DisplayState {
	s := d.Splits
	out := &pb.DisplayState{
		TableId: d.TableID, Venue: d.Venue, Currency: d.Currency, Wheel: wheelPB(d.Wheel), Phase: pb.Phase(d.Phase),
		History: OutcomesPB(d.History), Hot: countsPB(d.Hot), Cold: countsPB(d.Cold),
		Splits: &pb.DisplaySplits{Sample: int32(s.Sample), Zeros: int32(s.Zeros), Red: int32(s.Red), Black: int32(s.Black),
			Odd: int32(s.Odd), Even: int32(s.Even), Low: int32(s.Low), High: int32(s.High),
			Dozens: []int32{int32(s.Dozens[0]), int32(s.Dozens[1]), int32(s.Dozens[2])}},
		Limits: LimitsPB(d.Limits), ClosingAtUnixNanos: TimeNanos(d.ClosingAt), Jackpot: d.Jackpot, JackpotMeter: d.JackpotMeter,
		Promotion: d.Promotion, ServerTimeUnixNanos: TimeNanos(d.At),
	}
	if w := d.JackpotWin; w != nil {
		out.JackpotWin = &pb.DisplayJackpotWin{RoundId: w.RoundID, Seat: w.Seat, Amount: w.Amount, ShownUntilUnixNanos: TimeNanos(w.Until)}
	}
	return out
}

// wheelOf reads a wheel; an unknown one is an error.
func wheelOf(w pb.Wheel) (roulette.Wheel, error) {
	switch w {
	case pb.Wheel_WHEEL_SINGLE_ZERO:
		return roulette.SingleZero, nil
	case pb.Wheel_WHEEL_DOUBLE_ZERO:
		return roulette.DoubleZero, nil
	}
	return 0, fmt.Errorf("unknown wheel %v", w)
}

// countsOf reads hot or cold numbers, each on the wheel, with a count no less than zero.
func countsOf(what string, w roulette.Wheel, in []*pb.DisplayNumberCount) ([]table.NumberCount, error) {
	if len(in) > table.DisplayHotCold {
		return nil, fmt.Errorf("display: %d %s numbers, at most %d", len(in), what, table.DisplayHotCold)
	}
	var out []table.NumberCount
	for _, c := range in {
		n, err := numberFrom(c.GetNumber())
		if err != nil || !w.Has(n) {
			return nil, fmt.Errorf("display: %s number %q is not on a %s wheel", what, c.GetNumber(), w)
		}
		if c.GetCount() < 0 {
			return nil, fmt.Errorf("display: %s number %s counted %d times", what, n, c.GetCount())
		}
		out = append(out, table.NumberCount{Number: n, Count: int(c.GetCount())})
	}
	return out, nil
}

// DisplayOf reads a display's state, checking what the screen would otherwise draw wrongly: a
// wheel, a phase and numbers it knows, at most the history and the counts a display shows, and
// no negative amount.
func DisplayOf(in *pb.DisplayState) (table.Display, error) {
	if in == nil {
		return table.Display{}, errors.New("display: no state")
	}
	d := table.Display{TableID: in.GetTableId(), Venue: in.GetVenue(), Currency: in.GetCurrency(), Phase: table.Phase(in.GetPhase()),
		ClosingAt: Time(in.GetClosingAtUnixNanos()), Jackpot: in.GetJackpot(), JackpotMeter: in.GetJackpotMeter(),
		Promotion: in.GetPromotion(), At: Time(in.GetServerTimeUnixNanos())}
	var err error
	if d.Wheel, err = wheelOf(in.GetWheel()); err != nil {
		return d, fmt.Errorf("display: %w", err)
	}
	if in.GetPhase() <= pb.Phase_PHASE_UNSPECIFIED || in.GetPhase() > pb.Phase_PHASE_RESULT {
		return d, fmt.Errorf("display: unknown phase %v", in.GetPhase())
	}
	if len(in.GetHistory()) > table.DisplayHistory {
		return d, fmt.Errorf("display: %d outcomes, at most %d", len(in.GetHistory()), table.DisplayHistory)
	}
	for _, o := range in.GetHistory() {
		out, err := outcomeFrom(o)
		if err != nil {
			return d, fmt.Errorf("display: %w", err)
		}
		if !d.Wheel.Has(out.Number) {
			return d, fmt.Errorf("display: outcome %s is not on a %s wheel", out.Number, d.Wheel)
		}
		d.History = append(d.History, out)
	}
	if d.Hot, err = countsOf("hot", d.Wheel, in.GetHot()); err != nil {
		return d, err
	}
	if d.Cold, err = countsOf("cold", d.Wheel, in.GetCold()); err != nil {
		return d, err
	}
	if s := in.GetSplits(); s != nil {
		if len(s.GetDozens()) != 3 {
			return d, fmt.Errorf("display: %d dozens, want 3", len(s.GetDozens()))
		}
		d.Splits = table.Splits{Sample: int(s.Sample), Zeros: int(s.Zeros), Red: int(s.Red), Black: int(s.Black),
			Odd: int(s.Odd), Even: int(s.Even), Low: int(s.Low), High: int(s.High),
			Dozens: [3]int{int(s.Dozens[0]), int(s.Dozens[1]), int(s.Dozens[2])}}
		for _, v := range []int32{s.Sample, s.Zeros, s.Red, s.Black, s.Odd, s.Even, s.Low, s.High, s.Dozens[0], s.Dozens[1], s.Dozens[2]} {
			if v < 0 {
				return d, fmt.Errorf("display: a split counted %d", v)
			}
		}
	}
	if d.Limits, err = LimitsOf(in.GetLimits()); err != nil {
		return d, fmt.Errorf("display: %w", err)
	}
	if d.JackpotMeter < 0 {
		return d, fmt.Errorf("display: jackpot meter %d", d.JackpotMeter)
	}
	if w := in.GetJackpotWin(); w != nil {
		if w.GetAmount() <= 0 {
			return d, fmt.Errorf("display: jackpot won of %d", w.GetAmount())
		}
		d.JackpotWin = &table.JackpotWin{RoundID: w.GetRoundId(), Seat: w.GetSeat(), Amount: w.GetAmount(), Until: Time(w.GetShownUntilUnixNanos())}
	}
	return d, nil
}
