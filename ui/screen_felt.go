package ui

import (
	"fmt"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// feltRegion is the betting layout: the chips on it, the call bets' pieces, the winning
// number and what it won, and the layout closed after no more bets. A touch on it places,
// moves, removes or explains a chip through the terminal.
type feltRegion struct {
	felt *Felt
}

func newFeltRegion(s *Screen, geom *diagrams.Geometry) *feltRegion {
	term := s.term
	f := NewFelt(geom)
	// Every answer to a touch — a chip reduced to the limits, a refusal — comes back in the
	// view's message, chosen by the terminal: the screen only draws it.
	f.OnTapped = func(r diagrams.Region) { s.touched(func() { term.Place(roulette.Bet{Spot: r.Spot}) }) }
	f.OnMoved = func(from, to diagrams.Region) {
		s.touched(func() { term.Move(roulette.Bet{Spot: from.Spot}, roulette.Bet{Spot: to.Spot}) })
	}
	f.OnRemoved = func(from diagrams.Region) { s.touched(func() { term.Remove(roulette.Bet{Spot: from.Spot}) }) }
	f.OnHeld = func(r diagrams.Region) { s.touched(func() { term.Explain(roulette.Bet{Spot: r.Spot}) }) }
	return &feltRegion{felt: f}
}

func (r *feltRegion) update(v app.View) {
	laid := chipsOnLayout(v)
	r.felt.SetResult(laid.won)
	r.felt.SetClosed(v.Period == app.PeriodNoMoreBets)
	r.felt.SetStakes(laid.stakes)
	r.felt.SetCalls(laid.onFelt.pieces)
	if o := v.LastOutcome; o != nil && resultShown(v) {
		r.felt.SetWinning(o.Number, true)
	} else {
		r.felt.SetWinning(0, false)
	}
}

// resultShown says the last outcome and win are the result: until the next round opens. While
// the ball spins (no more bets) they are the previous round's, so they are not shown as one.
func resultShown(v app.View) bool {
	return v.Phase != table.PhaseWagering && v.Phase != table.PhaseNoMoreBets
}

// laidChips are the chips a view puts on the felt and the racetrack, and the call-bet line.
type laidChips struct {
	stakes  map[roulette.Spot]int64 // each spot's stake on the felt
	won     map[roulette.Spot]int64 // at the result, what each winning spot won over its stake
	calls   []string                // the call bets' line, the dealer's first
	onTrack map[diagrams.TrackTarget]int64
	onFelt  callsOnFelt
}

// chipsOnLayout is where a view's chips stand: the felt's, the racetrack's, and the call-bet
// line under the spread; the felt, the racetrack and the Lucky Ball panel each draw their part.
func chipsOnLayout(v app.View) laidChips {
	l := laidChips{stakes: map[roulette.Spot]int64{}}
	if resultShown(v) && len(v.Stakes) == 0 {
		// Losing chips are gone; winning chips stay with what they won over the stake (001
		// §3.8): the tab's "+" is added to the chip, so it is the win, not the return (issue 32
		// point 9: "+15" on a 5 dozen was read as a profit of 15).
		for _, r := range v.Result {
			if r.Returned > 0 && !r.Bet.IsCall() {
				if l.won == nil {
					l.won = map[roulette.Spot]int64{}
				}
				l.stakes[r.Bet.Spot], l.won[r.Bet.Spot] = r.Staked, r.Returned-r.Staked
			}
		}
	}
	var calls []string
	for _, st := range v.Stakes {
		if st.Bet.Spot.Kind == roulette.AsianNeighbour { // off the felt: a chip on its group's box, and listed as the box reads
			calls = append(calls, fmt.Sprintf("%s %s %s", T("asian-neighbour"), wheelOrder(st.Bet.Spot.Mask, v.Config.Layout.Wheel), shortInCurrency(v.Config.Currency, st.Amount)))
			l.addOnTrack(diagrams.TrackTarget{Group: st.Bet.Spot.Mask}, st.Amount)
			l.onFelt.covered |= st.Bet.Spot.Mask // its three numbers lit on the ring, as a call bet's
		} else if st.Bet.IsCall() {
			// A call bet's amount is per piece; the line and its chip say what the bet costs,
			// all its pieces (issue 32 point 5: voisins at A$1 read "A$1" and costs A$9).
			cost := callCost(st.Bet, st.Amount, v.Config.Layout)
			l.onFelt.add(st.Bet, st.Amount, v.Config.Layout)
			calls = append(calls, fmt.Sprintf("%v %s", st.Bet, shortInCurrency(v.Config.Currency, cost)))
			l.addOnTrack(callTarget(st.Bet), cost)
		} else {
			l.stakes[st.Bet.Spot] = st.Amount
		}
	}
	// The dealer's wagers for this seat (002 §3.2B), each marked as the dealer's: the player
	// did not place them on the screen and cannot take them off it.
	// They come first on the call-bet line, so the mark is never the part cut off, and stand as
	// chips on the racetrack like the player's own.
	var dealers []string
	for _, d := range v.DealerStakes {
		amount := d.Amount
		if d.Bet.IsCall() {
			amount = callCost(d.Bet, d.Amount, v.Config.Layout)
			l.onFelt.add(d.Bet, d.Amount, v.Config.Layout)
		}
		dealers = append(dealers, fmt.Sprintf(T("%v %s placed by the dealer"), d.Bet, shortInCurrency(v.Config.Currency, amount)))
		if d.Bet.IsCall() {
			l.addOnTrack(callTarget(d.Bet), amount)
		}
	}
	l.calls = append(dealers, calls...)
	return l
}

// addOnTrack puts amount on the racetrack's target t.
func (l *laidChips) addOnTrack(t diagrams.TrackTarget, amount int64) {
	if l.onTrack == nil {
		l.onTrack = map[diagrams.TrackTarget]int64{}
	}
	l.onTrack[t] += amount
}

// callTarget is where a call bet's chip stands on the racetrack: its call's box, or for
// neighbours the centre number's cell.
func callTarget(b roulette.Bet) diagrams.TrackTarget {
	t := diagrams.TrackTarget{Call: b.Call}
	if b.Call == roulette.Neighbours {
		t.Centre = b.Centre
	}
	return t
}

// callCost is what a call bet of perPiece a piece costs on layout l: every piece's units.
func callCost(b roulette.Bet, perPiece int64, l roulette.Layout) int64 {
	ps, err := b.Pieces(l)
	if err != nil {
		return perPiece // a bet the rules cannot decompose was refused before it was placed
	}
	return perPiece * roulette.Units(ps)
}
