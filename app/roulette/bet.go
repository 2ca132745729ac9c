package roulette

import (
	"errors"
	"fmt"
)

// Bet is a wager as a player places it: an ordinary spot (main game or Lucky Ball), or a
// racetrack call bet. Call bets are kept whole so that limits can refuse them whole (SPEC §3.6)
// and the screen can show them as the player chose them.
type Bet struct {
	Spot   Spot   // ordinary bets; zero for call bets
	Call   Call   // call bets; zero for ordinary bets
	Centre Number // neighbours
	Spread int    // neighbours; 0 means DefaultSpread
}

// IsCall reports whether b is a racetrack call bet.
func (b Bet) IsCall() bool { return b.Call != 0 }

func (b Bet) String() string {
	switch {
	case b.Call == Neighbours:
		spread := b.Spread
		if spread == 0 {
			spread = DefaultSpread
		}
		return fmt.Sprintf("neighbours %v±%d", b.Centre, spread)
	case b.IsCall():
		return b.Call.String()
	}
	return b.Spot.String()
}

// Pieces decomposes b on layout l: one piece of one unit for an ordinary bet.
func (b Bet) Pieces(l Layout) ([]Piece, error) {
	if b.IsCall() {
		return l.CallPieces(b.Call, b.Centre, b.Spread)
	}
	if !l.Has(b.Spot) {
		return nil, fmt.Errorf("%v is not a bet of this layout", b.Spot)
	}
	return []Piece{{Spot: b.Spot, Units: 1}}, nil
}

// BetSpec is a bet as written in the audit JSON and on the wire: names and strings, checked by
// ParseBet. Which, Spread and Colour are only for the bets they belong to.
type BetSpec struct {
	Name    string // "straight" … "lucky-ball", "asian-neighbour", or a call bet "tier" … "neighbours"
	Numbers []string
	Which   *int
	Spread  *int
	Colour  string
}

// ParseBet checks a written bet against layout l. An error says exactly what is wrong, so a
// malformed wager is refused with a reason, never dropped.
func ParseBet(l Layout, s BetSpec) (Bet, error) {
	numbers := make([]Number, len(s.Numbers))
	for i, str := range s.Numbers {
		n, err := ParseNumber(str)
		if err != nil {
			return Bet{}, err
		}
		numbers[i] = n
	}
	extra := func(field string, set bool) error {
		if set {
			return fmt.Errorf("%s: %q does not apply to this bet", s.Name, field)
		}
		return nil
	}
	if call, err := ParseCall(s.Name); err == nil {
		if err := errors.Join(extra("which", s.Which != nil), extra("colour", s.Colour != "")); err != nil {
			return Bet{}, err
		}
		b := Bet{Call: call}
		if call == Neighbours {
			if len(numbers) != 1 {
				return Bet{}, errors.New(`neighbours: "numbers" must hold the one centre number`)
			}
			b.Centre = numbers[0]
			if s.Spread != nil {
				if *s.Spread == 0 {
					return Bet{}, errors.New("neighbours: spread 0: must be 1 to 4")
				}
				b.Spread = *s.Spread
			}
		} else if err := errors.Join(extra("numbers", len(numbers) != 0), extra("spread", s.Spread != nil)); err != nil {
			return Bet{}, err
		}
		if _, err := b.Pieces(l); err != nil {
			return Bet{}, err
		}
		return b, nil
	}
	kind, err := ParseKind(s.Name)
	if err != nil {
		return Bet{}, err
	}
	if err := extra("spread", s.Spread != nil); err != nil {
		return Bet{}, err
	}
	switch {
	case kind.Inside():
		if err := errors.Join(extra("which", s.Which != nil), extra("colour", s.Colour != "")); err != nil {
			return Bet{}, err
		}
		sp, err := l.Inside(kind, numbers)
		return Bet{Spot: sp}, err
	case kind == AsianNeighbour: // 002 §3.2: three numbers, a group of the table's Asian racetrack
		if err := errors.Join(extra("which", s.Which != nil), extra("colour", s.Colour != "")); err != nil {
			return Bet{}, err
		}
		sp, err := l.asianSpot(numbers)
		return Bet{Spot: sp}, err
	case kind == LuckyBall:
		if err := errors.Join(extra("numbers", len(numbers) != 0), extra("which", s.Which != nil)); err != nil {
			return Bet{}, err
		}
		c, err := ParseBallColour(s.Colour)
		if err != nil {
			return Bet{}, err
		}
		return Bet{Spot: LuckyBallSpot(c)}, nil
	default:
		if err := errors.Join(extra("numbers", len(numbers) != 0), extra("colour", s.Colour != "")); err != nil {
			return Bet{}, err
		}
		which := 0
		if s.Which != nil {
			which = *s.Which
		}
		sp, err := l.Outside(kind, which)
		return Bet{Spot: sp}, err
	}
}

// Spec writes b back in the form ParseBet reads.
func (b Bet) Spec() BetSpec {
	if b.IsCall() {
		s := BetSpec{Name: b.Call.String()}
		if b.Call == Neighbours {
			s.Numbers = []string{b.Centre.String()}
			spread := b.Spread
			if spread == 0 {
				spread = DefaultSpread
			}
			s.Spread = &spread
		}
		return s
	}
	s := BetSpec{Name: b.Spot.Kind.String()}
	switch {
	case b.Spot.Kind.Inside() || b.Spot.Kind == AsianNeighbour:
		ns := b.Spot.Mask.Numbers()
		s.Numbers = make([]string, 0, len(ns))
		for _, n := range ns {
			s.Numbers = append(s.Numbers, n.String())
		}
	case b.Spot.Kind == Column || b.Spot.Kind == Dozen:
		w := b.Spot.Which()
		s.Which = &w
	case b.Spot.Kind == LuckyBall:
		c, _ := b.Spot.Colour()
		s.Colour = c.String()
	}
	return s
}
