package app

import (
	"slices"

	"github.com/tablegames/ats/app/roulette"
)

// Stake is the amount on one bet of the slip: the total for an ordinary bet, the amount per
// piece for a call bet (as the player chose it and the server prices it).
type Stake struct {
	Bet    roulette.Bet
	Amount int64
}

// Slip is the player's wagers on the current round, in the order they were first placed, with
// the history that makes "remove last" a deep undo. It holds no clock and no I/O: the Terminal
// decides when a change is allowed.
type Slip struct {
	stakes []Stake
	undo   [][]Stake // earlier versions of stakes, most recent last
}

// maxUndo bounds the undo history; a player never needs more than a round's worth of touches.
const maxUndo = 500

// Stakes returns the stakes (do not modify).
func (s *Slip) Stakes() []Stake { return s.stakes }

// Total is the money on the layout: per-piece amounts times the call bet's units.
func (s *Slip) Total(l roulette.Layout) int64 {
	var t int64
	for _, st := range s.stakes {
		t += st.Amount * units(st.Bet, l)
	}
	return t
}

func units(b roulette.Bet, l roulette.Layout) int64 {
	if !b.IsCall() {
		return 1
	}
	ps, err := b.Pieces(l)
	if err != nil {
		return 0
	}
	return roulette.Units(ps)
}

// On returns the stake on bet b, 0 if none.
func (s *Slip) On(b roulette.Bet) int64 {
	for _, st := range s.stakes {
		if st.Bet == b {
			return st.Amount
		}
	}
	return 0
}

func (s *Slip) save() {
	s.undo = append(s.undo, slices.Clone(s.stakes))
	if len(s.undo) > maxUndo {
		s.undo = s.undo[len(s.undo)-maxUndo:]
	}
}

// set puts amount on b (0 removes it), keeping the undo history.
func (s *Slip) set(b roulette.Bet, amount int64) {
	s.save()
	for i, st := range s.stakes {
		if st.Bet == b {
			if amount == 0 {
				s.stakes = slices.Delete(slices.Clone(s.stakes), i, i+1)
			} else {
				s.stakes = slices.Clone(s.stakes)
				s.stakes[i].Amount = amount
			}
			return
		}
	}
	if amount > 0 {
		s.stakes = append(slices.Clone(s.stakes), Stake{Bet: b, Amount: amount})
	}
}

// replace sets all stakes at once (repeat, double, clear), as one undo step.
func (s *Slip) replace(stakes []Stake) {
	s.save()
	s.stakes = stakes
}

// Undo restores the slip before the last change; false if there is nothing to undo.
func (s *Slip) Undo() bool {
	if len(s.undo) == 0 {
		return false
	}
	s.stakes = s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	return true
}

// reset starts a new round's slip with the given stakes and no history.
func (s *Slip) reset(stakes []Stake) {
	s.stakes = stakes
	s.undo = nil
}
