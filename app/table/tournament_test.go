package table

import (
	"strings"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// The terms' minimum by round (announced before the start, 003 §10.6.15) and the limits the
// rules engine applies to a tournament slip: units of the minimum (§10.6.14), the round at
// least the minimum and at most the maximum.
func TestTournamentTermsLimits(t *testing.T) {
	c := TournamentTerms{ID: "C", Terms: "T&C", StartingChips: 1000, Rounds: 3, Minimums: []int64{100, 200}, Maximum: 500, Prizes: []int64{100}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]int64{0: 100, 1: 100, 2: 200, 3: 200, 9: 200} {
		if got := c.Minimum(n); got != want {
			t.Errorf("minimum of round %d: %d, want %d", n, got, want)
		}
	}
	l := c.Limits(2)
	red := []roulette.Piece{{Units: 1}}
	// 450 on a minimum of 200 is taken as 400 (the last complete increment); the round's
	// maximum caps the total; below the minimum nothing is placed.
	place := func(amount, available int64) (int64, roulette.Reason) {
		p := l.NewPricer(available, 0)
		pr := p.Place(red, false, amount)
		return pr.PerPiece, pr.Why
	}
	if got, why := place(450, 1000); got != 400 || why != roulette.ReasonOffUnit {
		t.Errorf("450: %d %v", got, why)
	}
	if got, _ := place(800, 1000); got != 400 {
		t.Errorf("800 under a maximum of 500: %d", got)
	}
	if got, why := place(100, 1000); got != 0 || why != roulette.ReasonBelowMinimum {
		t.Errorf("100: %d %v", got, why)
	}
	if l.Recognised(199) || !l.Recognised(200) {
		t.Error("the round's minimum")
	}
	if pool, err := (TournamentTerms{EntryFee: 2500, AddedPrize: 1}).PrizePool(4); err != nil || pool != 10001 {
		t.Errorf("pool %d %v", pool, err)
	}
	for _, bad := range []TournamentTerms{
		{},
		{ID: "C", StartingChips: 1000, Rounds: 3, Minimums: []int64{2000}, Prizes: []int64{100}},              // minimum above the bank
		{ID: "C", StartingChips: 1000, Rounds: 3, Minimums: []int64{100}, Prizes: []int64{60, 50}},            // 110 %
		{ID: "C", StartingChips: 1000, Rounds: 1, Minimums: []int64{100, 100}, Prizes: []int64{100}},          // more minimums than rounds
		{ID: "C", StartingChips: 1000, Rounds: 3, Minimums: []int64{600}, Maximum: 500, Prizes: []int64{100}}, // minimum above maximum
		{ID: "C", StartingChips: 1000, Rounds: 3, Minimums: []int64{100}, Prizes: []int64{100}, MinPlayers: 5, MaxPlayers: 2},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

// The prize shares distribute the whole pool (003 §10.3.2: "all entry fees … shall be included
// in a prize pool for distribution"): 50 % + 30 % leaves 20 % undistributed and is refused.
// Terms and conditions must be documented (001 §11.2.1, §11.4): empty or blank terms are
// refused. Each refusal says what is wrong.
func TestTournamentTermsDistributeThePoolAndAreDocumented(t *testing.T) {
	good := TournamentTerms{ID: "C", Terms: "Terms as approved.", StartingChips: 1000, Rounds: 3, Minimums: []int64{100}, Prizes: []int64{50, 30, 20}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	short := good
	short.Prizes = []int64{50, 30}
	if err := short.Validate(); err == nil || !strings.Contains(err.Error(), "80") || !strings.Contains(err.Error(), "10.3.2") {
		t.Errorf("50 %% + 30 %%: %v", err)
	}
	for _, text := range []string{"", "  \n\t "} {
		bare := good
		bare.Terms = text
		if err := bare.Validate(); err == nil || !strings.Contains(err.Error(), "11.4") {
			t.Errorf("terms %q: %v", text, err)
		}
	}
}
