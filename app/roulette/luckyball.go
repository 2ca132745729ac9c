package roulette

import "fmt"

// BallColour is one of the four Lucky Ball colours (003 §7.4).
type BallColour uint8

// The Lucky Ball colours, in the order the display shows them.
const (
	BallRed BallColour = iota
	BallGreen
	BallBlue
	BallYellow
)

var ballNames = [4]string{"red", "green", "blue", "yellow"}

// ParseBallColour parses "red", "green", "blue" or "yellow".
func ParseBallColour(s string) (BallColour, error) {
	for i, n := range ballNames {
		if n == s {
			return BallColour(i), nil
		}
	}
	return 0, fmt.Errorf("unknown lucky ball colour %q (red, green, blue, yellow)", s)
}

func (c BallColour) String() string {
	if c <= BallYellow {
		return ballNames[c]
	}
	return fmt.Sprintf("colour(%d)", uint8(c))
}

// LuckyBallSpot is the betting area of colour c.
func LuckyBallSpot(c BallColour) Spot { return Spot{LuckyBall, 1 << c} }

// Colour returns the colour of a Lucky Ball spot.
func (s Spot) Colour() (BallColour, bool) {
	if s.Kind != LuckyBall || s.Mask.Count() != 1 || s.Mask >= 1<<4 {
		return 0, false
	}
	for c := BallRed; c <= BallYellow; c++ {
		if s.Mask == 1<<c {
			return c, true
		}
	}
	return 0, false
}

// LuckyBallVersion is the standard game or the Mega Odds version (003 §7.9).
type LuckyBallVersion uint8

// The versions.
const (
	LuckyStandard LuckyBallVersion = iota
	LuckyMega
)

// ParseLuckyBallVersion parses "standard" or "mega".
func ParseLuckyBallVersion(s string) (LuckyBallVersion, error) {
	switch s {
	case "standard":
		return LuckyStandard, nil
	case "mega":
		return LuckyMega, nil
	}
	return 0, fmt.Errorf("unknown lucky ball version %q (standard, mega)", s)
}

func (v LuckyBallVersion) String() string {
	if v == LuckyMega {
		return "mega"
	}
	return "standard"
}

// Odds "to 1" (003 §7.8 Table One, §7.10 Table Two).
var (
	luckyStandard = [2][4]int64{{6, 12, 20, 25}, {5, 12, 20, 25}} // by version: Red is 5 to 1 in Mega
	luckySuper    = [4]int64{120, 100, 75, 60}
)

// MegaOdds is the Mega payout, 1000 to 1 (003 §7.9.2).
const MegaOdds = 1000

// LuckyBallDraw is one spin's Lucky Ball: four distinct numbers drawn after the spin starts, and,
// from No More Bets, the colour given Super odds or (Mega version only) Mega odds.
type LuckyBallDraw struct {
	Version  LuckyBallVersion
	Numbers  [4]Number // indexed by BallColour
	Super    BallColour
	HasSuper bool
	Mega     BallColour
	HasMega  bool
	// Void: the round's Lucky Ball wagers are void and returned to the players (003 §8.11: the
	// display showing the numbers malfunctioned). A round with no draw at all is void the same
	// way (Round.Returned).
	Void bool `json:",omitempty"`
}

// Validate checks the draw against the wheel: four distinct numbers on it, and at most one
// enhanced colour — Super, or in the Mega version Super or Mega (003 §7.9 "one of the following").
func (d LuckyBallDraw) Validate(w Wheel) error {
	if d.Version > LuckyMega {
		return fmt.Errorf("lucky ball: unknown version %d", d.Version)
	}
	var seen Mask
	for c, n := range d.Numbers {
		if !w.Has(n) {
			return fmt.Errorf("lucky ball: %s number %v is not on a %v wheel", ballNames[c], n, w)
		}
		if seen.Has(n) {
			return fmt.Errorf("lucky ball: %v is drawn twice; the four numbers must differ", n)
		}
		seen |= 1 << n
	}
	if d.HasSuper && d.Super > BallYellow || d.HasMega && d.Mega > BallYellow {
		return fmt.Errorf("lucky ball: unknown colour")
	}
	if d.HasMega && d.Version != LuckyMega {
		return fmt.Errorf("lucky ball: a mega colour needs the mega version")
	}
	if d.HasMega && d.HasSuper {
		return fmt.Errorf("lucky ball: one colour gets super or mega odds, not both")
	}
	return nil
}

// Odds returns the odds "to 1" that colour c pays on this draw.
func (d LuckyBallDraw) Odds(c BallColour) int64 {
	switch {
	case c > BallYellow:
		return 0
	case d.HasMega && d.Mega == c:
		return MegaOdds
	case d.HasSuper && d.Super == c:
		return luckySuper[c]
	}
	return luckyStandard[d.Version&1][c]
}

// Returned is what a Lucky Ball wager of stake on colour c returns when the ball lands on
// outcome: stake plus odds × stake if outcome is that colour's number, else 0.
func (d LuckyBallDraw) Returned(c BallColour, stake int64, outcome Number) int64 {
	if c > BallYellow || d.Numbers[c] != outcome {
		return 0
	}
	return stake * (d.Odds(c) + 1)
}
