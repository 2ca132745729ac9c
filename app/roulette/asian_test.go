package roulette

import (
	"strings"
	"testing"
)

// The default groups are twelve runs of three wheel-neighbours (002 §3.2; its Appendix 3 is
// lost): checked against the wheel orders written out in SPEC §1, not against the code's own.
func TestRule002_3_2_AsianNeighbourDefaultGroups(t *testing.T) {
	for _, c := range []struct {
		wheel Wheel
		want  string
	}{
		{SingleZero, "15-19-32 2-4-21 17-25-34 6-13-27 11-30-36 8-10-23 5-16-24 1-20-33 9-14-31 18-22-29 7-12-28 3-26-35"},
		{DoubleZero, "9-26-28 7-11-30 17-20-32 5-22-34 3-15-24 1-13-36 10-25-27 8-12-29 18-19-31 6-21-33 4-16-23 2-14-35"},
	} {
		g := DefaultAsianGroups(c.wheel)
		if got := g.String(); got != c.want {
			t.Errorf("%v: groups %s\nwant %s", c.wheel, got, c.want)
		}
		if err := g.Validate(c.wheel); err != nil {
			t.Errorf("%v: %v", c.wheel, err)
		}
		var all Mask
		for _, m := range g.Groups() {
			all |= m
		}
		if len(g.Groups()) != 12 || all.Count() != 36 || all.Has(0) || all.Has(DoubleZeroNumber) {
			t.Errorf("%v: %d groups covering %v", c.wheel, len(g.Groups()), all)
		}
	}
}

// Every group × every outcome of the wheel (00 included on the double-zero wheel): a wager on a
// group wins 11 to 1 exactly when a number of the group is spun (002 §3.2(a), §3.3), and loses
// otherwise (§3.2(b)). The expected result is computed from the group's own numbers.
func TestRule002_3_2_AsianNeighbourEveryGroupEveryOutcome(t *testing.T) {
	for _, w := range []Wheel{SingleZero, DoubleZero} {
		l := Layout{Wheel: w, Asian: DefaultAsianGroups(w)}
		for _, g := range l.Asian.Strings() {
			b, err := ParseBet(l, BetSpec{Name: "asian-neighbour", Numbers: g})
			if err != nil {
				t.Fatalf("%v %v: %v", w, g, err)
			}
			if b.Spot.Kind != AsianNeighbour || b.Spot.Kind.Odds() != 11 {
				t.Fatalf("%v %v: spot %v, odds %d", w, g, b.Spot, b.Spot.Kind.Odds())
			}
			pieces, err := b.Pieces(l)
			if err != nil || len(pieces) != 1 {
				t.Fatalf("%v %v: pieces %v, %v", w, g, pieces, err)
			}
			for _, n := range w.Numbers() {
				in := false
				for _, s := range g {
					if s == n.String() {
						in = true
					}
				}
				var want int64
				if in {
					want = 700 * 12
				}
				if got := SettleWager(Wager{b.Spot, 700}, n); got != want {
					t.Errorf("%v group %v, outcome %v: returned %d, want %d", w, g, n, got, want)
				}
				if got := Settle([]Wager{{b.Spot, 700}}, n); got != want {
					t.Errorf("%v group %v, outcome %v: Settle %d, want %d", w, g, n, got, want)
				}
				if got := (Round{Outcome: n}).Returned(Wager{b.Spot, 700}); got != want {
					t.Errorf("%v group %v, outcome %v: Round.Returned %d, want %d", w, g, n, got, want)
				}
			}
			back, err := ParseBet(l, b.Spec())
			if err != nil || back != b {
				t.Errorf("%v: Spec round trip %v → %v, %v", g, b, back, err)
			}
		}
	}
}

// Only the table's groups are Asian Neighbour wagers (002 §3.2 "comprising a group on this part
// of the layout"), and only on a table with an Asian racetrack.
func TestRule002_3_2_AsianNeighbourValidation(t *testing.T) {
	l := Layout{Wheel: SingleZero, Asian: DefaultAsianGroups(SingleZero)}
	one := 1
	for _, c := range []struct {
		l    Layout
		spec BetSpec
		want string
	}{
		{Layout{Wheel: SingleZero}, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15", "19"}}, "no Asian racetrack"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"15", "19", "4"}}, "not a group"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"1", "2", "3"}}, "not a group"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15"}}, "3 numbers"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15", "19", "4"}}, "3 numbers"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "32", "19"}}, "twice"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15", "00"}}, "not on a single-zero wheel"},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15", "19"}, Which: &one}, `"which"`},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15", "19"}, Colour: "red"}, `"colour"`},
		{l, BetSpec{Name: "asian-neighbour", Numbers: []string{"32", "15", "19"}, Spread: &one}, `"spread"`},
	} {
		_, err := ParseBet(c.l, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want %q", c.spec, err, c.want)
		}
	}
	// A group is a spot of its layout and of no other; the main game's spots are unchanged.
	sp := Spot{AsianNeighbour, MaskOf(32, 15, 19)}
	if !l.Has(sp) || (Layout{Wheel: SingleZero}).Has(sp) || l.Has(Spot{AsianNeighbour, MaskOf(1, 2, 3)}) {
		t.Error("Has: Asian spots wrong")
	}
	if len(l.Spots()) != len((Layout{Wheel: SingleZero}).Spots()) {
		t.Error("the Asian groups changed the main game's spots")
	}
}

// Configured groups: any disjoint threes of the wheel's numbers; anything else is refused.
func TestRule002_3_2_AsianGroupsConfigured(t *testing.T) {
	g, err := ParseAsianGroups(DoubleZero, [][]string{{"0", "00", "1"}, {"2", "3", "4"}})
	if err != nil {
		t.Fatal(err)
	}
	l := Layout{Wheel: DoubleZero, Asian: g}
	b, err := ParseBet(l, BetSpec{Name: "asian-neighbour", Numbers: []string{"00", "1", "0"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range DoubleZero.Numbers() {
		want := int64(0)
		if n == 0 || n == 1 || n == DoubleZeroNumber {
			want = 1200
		}
		if got := SettleWager(Wager{b.Spot, 100}, n); got != want {
			t.Errorf("outcome %v: %d, want %d", n, got, want)
		}
	}
	for _, c := range []struct {
		w      Wheel
		groups [][]string
		want   string
	}{
		{SingleZero, [][]string{{"0", "00", "1"}}, "not on a single-zero wheel"},
		{SingleZero, [][]string{{"1", "2"}}, "not 3"},
		{SingleZero, [][]string{{"1", "2", "3"}, {"3", "4", "5"}}, "repeats 3"},
		{SingleZero, [][]string{{"1", "1", "3"}}, "twice"},
		{SingleZero, [][]string{{"1", "x", "3"}}, "not a roulette number"},
		{SingleZero, make([][]string, 13), "at most 12"},
	} {
		if _, err := ParseAsianGroups(c.w, c.groups); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want %q", c.groups, err, c.want)
		}
	}
	var gap AsianGroups
	gap[1] = MaskOf(1, 2, 3)
	if err := gap.Validate(SingleZero); err == nil || (Layout{Wheel: SingleZero, Asian: gap}).Valid() {
		t.Error("groups after an empty one accepted")
	}
	if back, err := ParseAsianGroups(DoubleZero, g.Strings()); err != nil || back != g {
		t.Errorf("Strings round trip: %v, %v", back, err)
	}
}

// Limits apply to an Asian Neighbour as to any individual wager (001 §4.3), under its own
// per-bet limit when the sign gives one.
func TestRule002_3_2_AsianNeighbourLimits(t *testing.T) {
	lim := Limits{Default: Limit{Min: 100, Max: 10000, Unit: 100},
		PerKind: map[Kind]Limit{AsianNeighbour: {Min: 300, Max: 900, Unit: 300}}}
	if got, why := lim.Place(AsianNeighbour, 200, Unlimited); got != 0 || why != ReasonBelowMinimum {
		t.Errorf("below minimum: %d %v", got, why)
	}
	if got, why := lim.Place(AsianNeighbour, 1000, Unlimited); got != 900 || why == ReasonNone {
		t.Errorf("over maximum: %d %v", got, why)
	}
}

// FuzzAsianBet: any written groups and any written Asian Neighbour wager either parse into a
// layout whose wager is exactly one of its groups, or are refused with an error; never a panic.
func FuzzAsianBet(f *testing.F) {
	f.Add(false, "32 15 19|4 21 2", "15 19 32")
	f.Add(true, "0 00 1", "00 1 0")
	f.Add(false, "1 2 3|3 4 5", "1 2 3")
	f.Add(false, "", "32 15 19")
	f.Fuzz(func(t *testing.T, double bool, groups, bet string) {
		w := SingleZero
		if double {
			w = DoubleZero
		}
		var gs [][]string
		if groups != "" {
			for _, g := range strings.Split(groups, "|") {
				gs = append(gs, strings.Fields(g))
			}
		}
		g, err := ParseAsianGroups(w, gs)
		if err != nil {
			return
		}
		if back, err := ParseAsianGroups(w, g.Strings()); err != nil || back != g {
			t.Fatalf("%q: round trip %v, %v", groups, back, err)
		}
		l := Layout{Wheel: w, Asian: g}
		b, err := ParseBet(l, BetSpec{Name: "asian-neighbour", Numbers: strings.Fields(bet)})
		if err != nil {
			return
		}
		if b.Spot.Kind != AsianNeighbour || !g.Has(b.Spot.Mask) || b.Spot.Mask.Count() != 3 {
			t.Fatalf("%q on %q: accepted %v", bet, groups, b)
		}
	})
}
