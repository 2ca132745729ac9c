package roulette

// Wager is an amount on a spot.
type Wager struct {
	Spot   Spot
	Amount int64
}

// SettleWager returns what w returns when the ball lands on outcome: stake plus odds × stake on
// a win, 0 on a loss. Lucky Ball wagers need the draw: see Round.
func SettleWager(w Wager, outcome Number) int64 { return w.Spot.Returned(w.Amount, outcome) }

// Settle returns the total that a slip of main-game wagers returns for outcome. It is a loop of
// mask tests: no allocation, a few nanoseconds a wager.
func Settle(ws []Wager, outcome Number) (returned int64) {
	if outcome >= 64 {
		return 0
	}
	bit := Mask(1) << outcome
	for i := range ws {
		s := ws[i].Spot
		if s.Mask&bit != 0 && int(s.Kind) < NumKinds {
			returned += ws[i].Amount * (kindOdds[s.Kind] + 1)
		}
	}
	return returned
}

// Round is what settles a round: the outcome, and the Lucky Ball draw when the table has one.
type Round struct {
	Outcome Number
	Draw    *LuckyBallDraw
}

// Returned is what w returns in round r, Lucky Ball wagers included. A Lucky Ball wager of a
// round with no draw, or whose draw is void, is returned whole: no numbers were shown, so it
// neither won nor lost (003 §7.4: the numbers are shown once the ball is spun; §8.11: a display
// malfunction voids every Lucky Ball wager).
func (r Round) Returned(w Wager) int64 {
	if w.Spot.Kind == LuckyBall {
		c, ok := w.Spot.Colour()
		if !ok {
			return 0
		}
		if r.Draw == nil || r.Draw.Void {
			return w.Amount
		}
		return r.Draw.Returned(c, w.Amount, r.Outcome)
	}
	return w.Spot.Returned(w.Amount, r.Outcome)
}
