package app

import (
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
)

// The round's result as the player sees it (001 §3.8, §5.5): losing chips disappear, winning
// chips stay on their spots with what they returned until the next round opens, and the
// winning number is called out with what it is (red, odd, the second dozen…).

// ResultStake is one wager of the round just settled and what it returned.
type ResultStake struct {
	Bet      roulette.Bet
	Staked   int64 // the whole stake (all pieces of a call bet)
	Returned int64 // stake included; 0 for a losing wager
}

// resultOf prices the stakes on the outcome with the rules engine, for the layout. It is what
// the screen shows chip by chip; the balance the table settled is the total that counts.
func resultOf(stakes []Stake, layout roulette.Layout, outcome roulette.Number, draw *roulette.LuckyBallDraw) []ResultStake {
	rd := roulette.Round{Outcome: outcome, Draw: draw}
	out := make([]ResultStake, 0, len(stakes))
	for _, s := range stakes {
		pieces, err := s.Bet.Pieces(layout)
		if err != nil {
			continue
		}
		r := ResultStake{Bet: s.Bet}
		for _, p := range pieces {
			w := roulette.Wager{Spot: p.Spot, Amount: p.Units * s.Amount}
			r.Staked += w.Amount
			r.Returned += rd.Returned(w)
		}
		out = append(out, r)
	}
	return out
}

// Callout is what the winning number is, as the player hears it called: its colour, odd or
// even, its dozen and its half ("RED · ODD · 2nd 12 · 1 to 18"); a zero is only green.
func Callout(n roulette.Number) msg.Msg {
	if n == 0 || n == roulette.DoubleZeroNumber {
		return msg.New("GREEN")
	}
	colour := msg.New("BLACK")
	if n.Colour() == roulette.ColourRed {
		colour = msg.New("RED")
	}
	parity := msg.New("EVEN")
	if n%2 == 1 {
		parity = msg.New("ODD")
	}
	dozen := [...]msg.Msg{msg.New("1st 12"), msg.New("2nd 12"), msg.New("3rd 12")}[(n-1)/12]
	half := msg.New("1 to 18")
	if n > 18 {
		half = msg.New("19 to 36")
	}
	return msg.New("%s · %s · %s · %s", colour, parity, dozen, half)
}
