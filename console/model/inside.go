package model

import (
	"fmt"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// Layout is the table's betting layout as its status tells it: the wheel and the double-zero
// felt's profile (the main game's spots do not depend on the Asian racetrack).
func (v View) Layout() roulette.Layout { return roulette.Layout{Wheel: v.Wheel, Profile: v.Profile} }

// InsideBet is the inside bet a set of numbers touched on the grid makes at this table (a
// split, a street or trio, a corner or basket, a five- or six-line, a straight up), decided by
// the rules engine the table itself parses wagers with (roulette.Layout.InsideOf), so the
// console offers exactly what the table takes. An error says why the set is no bet of this
// table; nothing is placed then.
func (v View) InsideBet(numbers []string) (roulette.Spot, error) {
	if v.BadProfile != "" {
		return roulette.Spot{}, fmt.Errorf("the table's layout profile %q is unknown to this console", v.BadProfile)
	}
	ns := make([]roulette.Number, len(numbers))
	for i, s := range numbers {
		n, err := roulette.ParseNumber(s)
		if err != nil {
			return roulette.Spot{}, err
		}
		ns[i] = n
	}
	return v.Layout().InsideOf(ns)
}

// InsideWager is the wager for an inside bet of cents, written as the rules engine writes the
// bet (its kind, its numbers in layout order), as PlaceWager sends it.
func InsideWager(s roulette.Spot, cents int64) *pb.Wager {
	return wire.WagerOf(roulette.Bet{Spot: s}.Spec(), cents)
}
