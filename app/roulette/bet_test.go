package roulette

import "testing"

// Every bet written with Spec reads back as itself, so the wire and the audit JSON lose nothing.
func TestBetSpecRoundTrip(t *testing.T) {
	for _, l := range allLayouts {
		var bets []Bet
		for _, s := range l.Spots() {
			bets = append(bets, Bet{Spot: s})
		}
		for c := BallRed; c <= BallYellow; c++ {
			bets = append(bets, Bet{Spot: LuckyBallSpot(c)})
		}
		for _, n := range l.Wheel.Numbers() {
			for spread := 1; spread <= MaxSpread; spread++ {
				bets = append(bets, Bet{Call: Neighbours, Centre: n, Spread: spread})
			}
		}
		if l.Wheel == SingleZero {
			bets = append(bets, Bet{Call: Tier}, Bet{Call: Orphelins}, Bet{Call: Voisins}, Bet{Call: ZeroGame})
		}
		for _, b := range bets {
			back, err := ParseBet(l, b.Spec())
			if err != nil || back != b {
				t.Errorf("%v: %v → %+v → %v, %v", l, b, b.Spec(), back, err)
			}
			if _, err := b.Pieces(l); err != nil {
				t.Errorf("%v: %v has no pieces: %v", l, b, err)
			}
		}
	}
	if _, err := (Bet{Spot: Spot{Split, MaskOf(1, 5)}}).Pieces(Layout{Wheel: SingleZero, Profile: CrownRapid}); err == nil {
		t.Error("a made-up spot has pieces")
	}
}
