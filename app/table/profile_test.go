package table

import (
	"strings"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// Which profiles take money only through the dealer (004 §6.2, §6.6; 000 §11.7.2, §11.7.6),
// which keep winners on the layout (004 §3.6(b)) and which require a player card (003 §3.4,
// §9.1): the server tells terminals the first and the third, and carries winners by the second.
func TestProfiles(t *testing.T) {
	for _, c := range []struct {
		profile                   string
		dealerOnly, winners, card bool
	}{
		{ProfileCrown, false, false, false},
		{ProfileStar, false, false, true},
		{ProfileVic1999, true, true, false},
		{ProfileTouchTable, true, false, false},
		{"", false, false, false},
		{"VIC-1999", false, false, false}, // profiles are exact names; the server refuses any other
		{"STAR", false, false, false},
	} {
		if got := DealerCashOnly(c.profile); got != c.dealerOnly {
			t.Errorf("DealerCashOnly(%q) = %v, want %v", c.profile, got, c.dealerOnly)
		}
		if got := WinnersRide(c.profile); got != c.winners {
			t.Errorf("WinnersRide(%q) = %v, want %v", c.profile, got, c.winners)
		}
		if got := PlayerCardRequired(c.profile); got != c.card {
			t.Errorf("PlayerCardRequired(%q) = %v, want %v", c.profile, got, c.card)
		}
	}
}

// Each rules profile plays the wheels and double-zero layouts of its rule book, the first of
// each its default: The Star's table is its double-zero layout (003 §3.2) unless the operator
// names the single-zero wheel; Crown's are the layouts of 001 §10 and 000 §8.2.1 (Diagrams F,
// O, V); Victoria's 1999 rules know only the single-zero wheel (004 §2.3). A layout its rules do
// not describe is refused with the rule book's own layouts named.
func TestRulesProfileLayouts(t *testing.T) {
	dz := func(p roulette.Profile) roulette.Layout {
		return roulette.Layout{Wheel: roulette.DoubleZero, Profile: p}
	}
	sz := roulette.Layout{Wheel: roulette.SingleZero}
	for _, c := range []struct {
		profile string
		wheel   roulette.Wheel
		layout  roulette.Profile
		ok      []roulette.Layout
		refused map[roulette.Layout]string
	}{
		{ProfileStar, roulette.DoubleZero, roulette.Star, []roulette.Layout{dz(roulette.Star), {Wheel: roulette.SingleZero, Profile: roulette.Star}},
			map[roulette.Layout]string{
				dz(roulette.CrownRapid): `rules profile "star" (003 §3.2) plays the layout star, not crown-rapid`,
				dz(roulette.CrownFH):    "not crown-fh",
				sz:                      `rules profile "star" (003 §3.2) plays the layout star, not crown-rapid`,
			}},
		{ProfileCrown, roulette.SingleZero, roulette.CrownRapid, []roulette.Layout{sz, dz(roulette.CrownRapid), dz(roulette.CrownFH), dz(roulette.CrownVW)},
			map[roulette.Layout]string{dz(roulette.Star): "plays the layout crown-rapid, crown-fh or crown-vw, not star"}},
		{ProfileTouchTable, roulette.SingleZero, roulette.CrownRapid, []roulette.Layout{sz, dz(roulette.CrownRapid), dz(roulette.CrownFH), dz(roulette.CrownVW)},
			map[roulette.Layout]string{dz(roulette.Star): "not star"}},
		{ProfileVic1999, roulette.SingleZero, roulette.CrownRapid, []roulette.Layout{sz},
			map[roulette.Layout]string{dz(roulette.CrownRapid): `rules profile "vic-1999" (004 §2.3) plays the single-zero wheel, not double-zero`}},
	} {
		r, err := RulesOf(c.profile)
		if err != nil {
			t.Fatal(err)
		}
		if r.Wheel() != c.wheel || r.Layout() != c.layout {
			t.Errorf("%s: default %v/%v, want %v/%v", c.profile, r.Wheel(), r.Layout(), c.wheel, c.layout)
		}
		for _, l := range c.ok {
			if err := r.Check(l); err != nil {
				t.Errorf("%s: %v/%v refused: %v", c.profile, l.Wheel, l.Profile, err)
			}
		}
		for l, want := range c.refused {
			if err := r.Check(l); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v/%v: %v, want an error containing %q", c.profile, l.Wheel, l.Profile, err, want)
			}
		}
	}
	for l, want := range map[roulette.Layout]string{
		sz: ProfileCrown, dz(roulette.CrownRapid): ProfileCrown, dz(roulette.CrownFH): ProfileCrown,
		dz(roulette.CrownVW): ProfileCrown, dz(roulette.Star): ProfileStar, {Wheel: roulette.SingleZero, Profile: roulette.Star}: ProfileStar,
	} {
		if r, ok := RulesPlaying(l); !ok || r.Name != want {
			t.Errorf("RulesPlaying(%v/%v) = %q, %v; want %q", l.Wheel, l.Profile, r.Name, ok, want)
		}
	}
	if _, ok := RulesPlaying(roulette.Layout{}); ok {
		t.Error("a layout with no wheel has rules")
	}
	if _, err := RulesOf("stars"); err == nil || !strings.Contains(err.Error(), `rules profile "stars": want crown, vic-1999, star or touchtable`) {
		t.Errorf("a misspelt rules profile: %v", err)
	}
}
