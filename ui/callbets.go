package ui

import (
	"github.com/tablegames/ats/app/roulette"
)

// callsOnFelt is what the call bets placed show on the felt and the racetrack (issue 32 point
// 5): each piece with what it carries, and the numbers they cover. A call bet's amount is per
// piece; a piece of two units (voisins' trio and corner) carries twice it.
type callsOnFelt struct {
	pieces  map[roulette.Spot]int64
	covered roulette.Mask
}

// add adds a call bet of perPiece a piece on layout l. A bet the rules cannot decompose was
// refused before it was placed: it adds nothing here, and its cost stays its amount (callCost).
func (c *callsOnFelt) add(b roulette.Bet, perPiece int64, l roulette.Layout) {
	ps, err := b.Pieces(l)
	if err != nil {
		return
	}
	if c.pieces == nil {
		c.pieces = map[roulette.Spot]int64{}
	}
	for _, p := range ps {
		c.pieces[p.Spot] += perPiece * p.Units
		c.covered |= p.Spot.Mask
	}
}
