package roulette

import "testing"

// 001 §7.3, 003 §6.2–6.3 (SPEC §2.3): when the ball lands on a zero only the bets that cover
// that zero win, and every other wager loses whole: no la partage, no half back on the even
// chances, no stake returned on a column or dozen. Checked on what a wager returns (Returned and
// Settle), not only on which spots win, so a settlement that hands back part of a losing stake
// fails here.
func TestRule001_7_3_OnZeroEveryOtherWagerLosesWhole(t *testing.T) {
	const stake = 1000
	for _, l := range []Layout{{Wheel: SingleZero, Profile: CrownRapid}, {Wheel: DoubleZero, Profile: CrownRapid}, {Wheel: DoubleZero, Profile: Star}} {
		zeros := []Number{0}
		if l.Wheel == DoubleZero {
			zeros = append(zeros, DoubleZeroNumber)
		}
		for _, o := range zeros {
			for _, s := range l.Spots() {
				want := int64(0)
				if s.Kind != LuckyBall && s.Mask.Has(o) {
					want = stake * (s.Kind.Odds() + 1)
				}
				if got := s.Returned(stake, o); got != want {
					t.Errorf("%v, %v on %v: returns %d, want %d", l, s, o, got, want)
				}
				if got := Settle([]Wager{{Spot: s, Amount: stake}}, o); got != want {
					t.Errorf("%v, %v on %v: Settle returns %d, want %d", l, s, o, got, want)
				}
				if (s.Kind >= Column && s.Kind <= Black) && want != 0 {
					t.Errorf("%v: an outside bet %v covers %v", l, s, o)
				}
			}
		}
	}
}

// 003 §7.8 Table One and §7.10 Table Two, as the seed prints them: every colour's Standard,
// Super and Mega odds in both versions, and what a winning wager returns (the odds times the
// stake, plus the stake). The odds are written out here, not read from the code's tables, so a
// changed table fails.
func TestRule003_7_8_LuckyBallPaysTheSeedsTables(t *testing.T) {
	tables := []struct {
		version        LuckyBallVersion
		standard, supr [4]int64
	}{
		{LuckyStandard, [4]int64{6, 12, 20, 25}, [4]int64{120, 100, 75, 60}}, // Table One
		{LuckyMega, [4]int64{5, 12, 20, 25}, [4]int64{120, 100, 75, 60}},     // Table Two
	}
	const stake = 200
	numbers := [4]Number{7, 13, 22, 30}
	for _, tb := range tables {
		for c := BallRed; c <= BallYellow; c++ {
			pays := func(d LuckyBallDraw, want int64, what string) {
				t.Helper()
				if got := d.Odds(c); got != want {
					t.Errorf("%v %v %s: %d to 1, want %d to 1", tb.version, c, what, got, want)
				}
				if got := d.Returned(c, stake, numbers[c]); got != stake*(want+1) {
					t.Errorf("%v %v %s: a winning %d returns %d, want %d", tb.version, c, what, stake, got, stake*(want+1))
				}
				if got := d.Returned(c, stake, numbers[(c+1)%4]); got != 0 {
					t.Errorf("%v %v %s: a losing wager returns %d", tb.version, c, what, got)
				}
			}
			other := (c + 1) % 4
			pays(LuckyBallDraw{Version: tb.version, Numbers: numbers}, tb.standard[c], "standard")
			pays(LuckyBallDraw{Version: tb.version, Numbers: numbers, Super: other, HasSuper: true}, tb.standard[c], "standard beside a Super")
			pays(LuckyBallDraw{Version: tb.version, Numbers: numbers, Super: c, HasSuper: true}, tb.supr[c], "Super")
			if tb.version == LuckyMega {
				pays(LuckyBallDraw{Version: tb.version, Numbers: numbers, Mega: c, HasMega: true}, 1000, "Mega")
				pays(LuckyBallDraw{Version: tb.version, Numbers: numbers, Mega: other, HasMega: true}, tb.standard[c], "standard beside a Mega")
			}
		}
	}
}

// SPEC §3.5: what Place accepts never exceeds what the balance covers; over it, the amount is
// the largest permitted one it covers, told as insufficient-balance, and none when it covers
// not even the minimum.
func TestPlaceNeverExceedsTheBalance(t *testing.T) {
	l := Limits{Default: Limit{Min: 100, Max: 50000, Unit: 100}}
	for _, c := range []struct{ attempt, available, want int64 }{
		{5000, 1000, 1000}, {5000, 1050, 1000}, {1001, 1000, 1000}, {5000, 99, 0}, {5000, 0, 0},
	} {
		got, why := l.Place(Red, c.attempt, c.available)
		if got != c.want || why != ReasonBalance {
			t.Errorf("%d against %d available: %d (%v), want %d (insufficient-balance)", c.attempt, c.available, got, why, c.want)
		}
	}
}
