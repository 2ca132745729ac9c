package app

// Lucky Ball's Super or Mega mark between NO MORE BETS and its arrival (003 §7.6, §7.9; issue 32
// point 18). The rules have the colour chosen "once 'No More Bets' has displayed on the
// screen", so the table server chooses it when it closes the period — after the synchronous
// commit of every slip — and announces it right after its no-more-bets broadcast, never
// before (a colour known while bets are taken could be bet on). The terminal shows NO MORE BETS
// at its own deadline, which can be that commit's time earlier: the screen says the mark is
// being drawn meanwhile, rather than showing the standard odds as if they were final.

// LuckyMarkPending reports whether the screen is to say the Super/Mega colour is being drawn:
// a Lucky Ball table past its no-more-bets whose draw has no mark yet (nor is void).
func (v View) LuckyMarkPending() bool {
	if !v.Config.LuckyBall || v.Period != PeriodNoMoreBets {
		return false
	}
	d := v.LuckyBall
	return d == nil || !d.Void && !d.HasSuper && !d.HasMega
}
