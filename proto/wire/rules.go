package wire

import (
	"errors"
	"fmt"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
)

// The conversions between wire messages and the rules engine, shared by the server and the
// client so both ends read a wager and a limit sign the same way. Hand-written: buf generates
// the other files.

// SpecOf converts a wire wager to the rules engine's written form (checked by roulette.ParseBet).
func SpecOf(w *pb.Wager) (roulette.BetSpec, error) {
	name, ok := BetName(w.Kind)
	if !ok {
		return roulette.BetSpec{}, fmt.Errorf("unknown bet kind %v", w.Kind)
	}
	s := roulette.BetSpec{Name: name, Numbers: w.Numbers, Colour: w.Colour}
	switch name {
	case "column", "dozen":
		which := int(w.Which)
		s.Which = &which
	case "neighbours":
		if w.Spread != 0 {
			spread := int(w.Spread)
			s.Spread = &spread
		}
	}
	return s, nil
}

// AsianGroupsPB writes the groups of a table's Asian racetrack (002 §3.2); none without one.
func AsianGroupsPB(g roulette.AsianGroups) []*pb.AsianGroup {
	var out []*pb.AsianGroup
	for _, ns := range g.Strings() {
		out = append(out, &pb.AsianGroup{Numbers: ns})
	}
	return out
}

// AsianGroupsOf reads the groups of a table's Asian racetrack, checking them for wheel w.
func AsianGroupsOf(w roulette.Wheel, in []*pb.AsianGroup) (roulette.AsianGroups, error) {
	gs := make([][]string, len(in))
	for i, g := range in {
		gs[i] = g.GetNumbers()
	}
	return roulette.ParseAsianGroups(w, gs)
}

// WagerOf writes a bet spec and an amount as a wire wager.
func WagerOf(s roulette.BetSpec, amount int64) *pb.Wager {
	kind, _ := BetKindOf(s.Name)
	w := &pb.Wager{Kind: kind, Numbers: s.Numbers, Colour: s.Colour, Amount: amount}
	if s.Which != nil {
		w.Which = int32(*s.Which)
	}
	if s.Spread != nil {
		w.Spread = int32(*s.Spread)
	}
	return w
}

// LimitsOf converts wire limits, checking them. nil is an error: a table always has limits.
func LimitsOf(in *pb.Limits) (roulette.Limits, error) {
	if in == nil {
		return roulette.Limits{}, errors.New("limits are required")
	}
	l := roulette.Limits{TableMax: in.TableMax, AggregateMin: in.AggregateMin}
	if d := in.Default; d != nil {
		l.Default = roulette.Limit{Min: d.Min, Max: d.Max, Unit: d.Unit}
	}
	for name, v := range in.PerBet {
		k, err := roulette.ParseKind(name)
		if err != nil {
			return l, fmt.Errorf("per_bet: %w", err)
		}
		if l.PerKind == nil {
			l.PerKind = map[roulette.Kind]roulette.Limit{}
		}
		l.PerKind[k] = roulette.Limit{Min: v.Min, Max: v.Max, Unit: v.Unit}
	}
	return l, l.Validate()
}
