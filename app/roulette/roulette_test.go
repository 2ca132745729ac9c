package roulette

import (
	"slices"
	"strings"
	"testing"
)

var allLayouts = []Layout{{Wheel: SingleZero, Profile: CrownRapid}, {Wheel: DoubleZero, Profile: CrownRapid}, {Wheel: DoubleZero, Profile: Star},
	{Wheel: DoubleZero, Profile: CrownFH}, {Wheel: DoubleZero, Profile: CrownVW}}

func num(ns ...int) []Number {
	out := make([]Number, len(ns))
	for i, n := range ns {
		out[i] = Number(n)
	}
	return out
}

func TestParseNumber(t *testing.T) {
	for _, s := range []string{"0", "00", "1", "9", "10", "36"} {
		n, err := ParseNumber(s)
		if err != nil || n.String() != s {
			t.Errorf("ParseNumber(%q) = %v, %v", s, n, err)
		}
	}
	for _, s := range []string{"", "37", "01", "000", "-1", " 1", "1 ", "x", "+1", "3.0"} {
		if _, err := ParseNumber(s); err == nil {
			t.Errorf("ParseNumber(%q) accepted", s)
		}
	}
}

func TestWheels(t *testing.T) {
	for _, w := range []Wheel{SingleZero, DoubleZero} {
		order, nums := slices.Clone(w.Order()), slices.Clone(w.Numbers())
		slices.Sort(order)
		slices.Sort(nums)
		if !slices.Equal(order, nums) {
			t.Errorf("%v: the wheel order is not a permutation of the layout's numbers", w)
		}
		var red, black, green int
		for _, n := range w.Numbers() {
			switch n.Colour() {
			case ColourRed:
				red++
			case ColourBlack:
				black++
			default:
				green++
			}
		}
		wantGreen := 1
		if w == DoubleZero {
			wantGreen = 2
		}
		if red != 18 || black != 18 || green != wantGreen {
			t.Errorf("%v: %d red %d black %d green", w, red, black, green)
		}
	}
	// Red and black alternate around both wheels, apart from the green pockets.
	for _, w := range []Wheel{SingleZero, DoubleZero} {
		o := w.Order()
		for i := range o {
			a, b := o[i], o[(i+1)%len(o)]
			if a.Colour() != ColourGreen && a.Colour() == b.Colour() {
				t.Errorf("%v: %v and %v are neighbours of one colour", w, a, b)
			}
		}
	}
	// 000 §6.4: "17 and the neighbours = 2, 25, 17, 34 and 6".
	ns, err := SingleZero.Neighbours(17, 2)
	if err != nil || !slices.Equal(ns, num(2, 25, 17, 34, 6)) {
		t.Errorf("neighbours of 17: %v %v", ns, err)
	}
	ns, err = SingleZero.Neighbours(0, 1)
	if err != nil || !slices.Equal(ns, num(26, 0, 32)) {
		t.Errorf("neighbours of 0: %v %v", ns, err)
	}
	ns, err = DoubleZero.Neighbours(DoubleZeroNumber, 1)
	if err != nil || !slices.Equal(ns, []Number{1, DoubleZeroNumber, 27}) {
		t.Errorf("neighbours of 00: %v %v", ns, err)
	}
	for _, bad := range []struct {
		w      Wheel
		n      Number
		spread int
	}{{SingleZero, DoubleZeroNumber, 1}, {SingleZero, 1, -1}, {SingleZero, 1, 19}, {Wheel(9), 1, 1}} {
		if _, err := bad.w.Neighbours(bad.n, bad.spread); err == nil {
			t.Errorf("Neighbours(%v, %v, %d) accepted", bad.w, bad.n, bad.spread)
		}
	}
}

// felt is an independent description of the layout: the position of each number on the felt.
// Spots are checked against it rather than against the engine's own tables.
func felt(n Number) (col, row int) { return int(n-1) / 3, int(n-1) % 3 }

// shapeOK says whether the numbers of an inside spot (1..36 only) have that kind's shape.
func shapeOK(k Kind, ns []Number) bool {
	cols, rows := map[int]bool{}, map[int]bool{}
	for _, n := range ns {
		c, r := felt(n)
		cols[c], rows[r] = true, true
	}
	span := func(m map[int]bool) (lo, hi int) {
		lo, hi = 99, -1
		for v := range m {
			lo, hi = min(lo, v), max(hi, v)
		}
		return
	}
	clo, chi := span(cols)
	rlo, rhi := span(rows)
	switch k {
	case Straight:
		return len(ns) == 1
	case Split:
		return len(ns) == 2 && (chi-clo)+(rhi-rlo) == 1
	case Street:
		return len(ns) == 3 && len(cols) == 1
	case Corner:
		return len(ns) == 4 && chi-clo == 1 && rhi-rlo == 1
	case SixLine:
		return len(ns) == 6 && chi-clo == 1 && len(rows) == 3
	}
	return false
}

func TestEverySpotHasItsShapeAndFairOdds(t *testing.T) {
	for _, l := range allLayouts {
		counts := map[Kind]int{}
		for _, s := range l.Spots() {
			counts[s.Kind]++
			ns := s.Mask.Numbers()
			if s.Mask&^l.Wheel.all() != 0 {
				t.Errorf("%v %v: covers numbers off the wheel", l, s)
			}
			zero := s.Mask.Has(0) || s.Mask.Has(DoubleZeroNumber)
			if s.Kind.Inside() && !zero && !shapeOK(s.Kind, ns) {
				t.Errorf("%v: %v does not have the shape of a %v", l, s, s.Kind)
			}
			// Every bet but the five-line pays so that covering its numbers returns 36 units:
			// the house edge is the zeros alone. The five-line pays 6 to 1 on 5 numbers (35).
			want := 36
			if s.Kind == FiveLine {
				want = 35
			}
			if got := s.Mask.Count() * int(s.Kind.Odds()+1); got != want {
				t.Errorf("%v: %v covers %d numbers at %d to 1 (%d, want %d)", l, s, s.Mask.Count(), s.Kind.Odds(), got, want)
			}
			if !l.Has(s) {
				t.Errorf("%v: Has(%v) false", l, s)
			}
			if s.Kind.Inside() {
				back, err := l.Inside(s.Kind, ns)
				if err != nil || back != s {
					t.Errorf("%v: Inside(%v, %v) = %v, %v", l, s.Kind, ns, back, err)
				}
			} else {
				back, err := l.Outside(s.Kind, s.Which())
				if err != nil || back != s {
					t.Errorf("%v: Outside(%v, %d) = %v, %v", l, s.Kind, s.Which(), back, err)
				}
			}
		}
		want := map[Kind]int{Straight: 37, Split: 60, Street: 14, Corner: 23, SixLine: 11,
			Column: 3, Dozen: 3, Low: 1, High: 1, Even: 1, Odd: 1, Red: 1, Black: 1}
		switch {
		case l.Wheel == DoubleZero && (l.Profile == Star || l.Profile == CrownFH):
			want[Straight], want[Split], want[Street], want[Corner], want[FiveLine] = 38, 62, 15, 22, 1
		case l.Wheel == DoubleZero && l.Profile == CrownVW:
			want[Straight], want[Split], want[Street], want[Corner], want[FiveLine] = 38, 60, 13, 22, 1
		case l.Wheel == DoubleZero:
			want[Straight], want[Split], want[Street], want[Corner] = 38, 60, 13, 22
		}
		for k := Straight; int(k) < NumKinds; k++ {
			if counts[k] != want[k] {
				t.Errorf("%v: %d %v spots, want %d", l, counts[k], k, want[k])
			}
		}
	}
}

// Every spot of every layout against every outcome: what wins, and exactly what it returns.
func TestSettlementEverySpotEveryOutcome(t *testing.T) {
	outside := map[Kind]func(n int) bool{
		Column: nil, Dozen: nil,
		Low: func(n int) bool { return n <= 18 }, High: func(n int) bool { return n >= 19 },
		Even: func(n int) bool { return n%2 == 0 }, Odd: func(n int) bool { return n%2 == 1 },
		Red: func(n int) bool {
			return slices.Contains(num(1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36), Number(n))
		},
		Black: func(n int) bool {
			return !slices.Contains(num(1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36), Number(n))
		},
	}
	const stake = 700
	for _, l := range allLayouts {
		for _, s := range l.Spots() {
			for _, o := range l.Wheel.Numbers() {
				var wins bool
				switch {
				case s.Kind.Inside():
					wins = slices.Contains(s.Mask.Numbers(), o)
				case o == 0 || o == DoubleZeroNumber:
					wins = false // 001 §7.3.2, §10.4.3(b): every outside bet loses on a zero
				case s.Kind == Column:
					wins = int(o-1)%3+1 == s.Which()
				case s.Kind == Dozen:
					wins = int(o-1)/12+1 == s.Which()
				default:
					wins = outside[s.Kind](int(o))
				}
				want := int64(0)
				if wins {
					want = stake + s.Kind.Odds()*stake
				}
				if got := s.Returned(stake, o); got != want {
					t.Errorf("%v: %v on %v returns %d, want %d", l, s, o, got, want)
				}
				if s.Wins(o) != wins {
					t.Errorf("%v: %v Wins(%v) = %v", l, s, o, !wins)
				}
				if got := Settle([]Wager{{s, stake}}, o); got != want {
					t.Errorf("%v: Settle %v on %v = %d, want %d", l, s, o, got, want)
				}
			}
		}
	}
}

// On a zero, exactly the bets the rules name win.
func TestZeroRules(t *testing.T) {
	cases := []struct {
		l    Layout
		o    Number
		want []string
	}{
		// 001 §7.3: straight 0, and splits, streets and corners joining 0 with 1, 2 or 3.
		{Layout{Wheel: SingleZero, Profile: CrownRapid}, 0, []string{"corner 0-1-2-3", "split 0-1", "split 0-2", "split 0-3", "straight 0", "street 0-1-2", "street 0-2-3"}},
		// 001 §10.4.3: on 00 only straight 00 and split 0/00.
		{Layout{Wheel: DoubleZero, Profile: CrownRapid}, DoubleZeroNumber, []string{"split 0-00", "straight 00"}},
		{Layout{Wheel: DoubleZero, Profile: CrownRapid}, 0, []string{"split 0-00", "split 0-1", "split 0-2", "straight 0", "street 0-1-2"}},
		// 003 §3.2.2–3.2.5.
		{Layout{Wheel: DoubleZero, Profile: Star}, DoubleZeroNumber, []string{"five-line 0-00-1-2-3", "split 0-00", "split 00-2", "split 00-3", "straight 00", "street 0-00-2", "street 00-2-3"}},
		{Layout{Wheel: DoubleZero, Profile: Star}, 0, []string{"five-line 0-00-1-2-3", "split 0-00", "split 0-1", "split 0-2", "straight 0", "street 0-00-2", "street 0-1-2"}},
	}
	for _, c := range cases {
		if got := winnersOn(c.l, c.o); !slices.Equal(got, c.want) {
			t.Errorf("%v on %v: winners %v, want %v", c.l, c.o, got, c.want)
		}
	}
}

func TestInvalidSpotsAreErrors(t *testing.T) {
	single, star, crown := Layout{Wheel: SingleZero, Profile: CrownRapid}, Layout{Wheel: DoubleZero, Profile: Star}, Layout{Wheel: DoubleZero, Profile: CrownRapid}
	cases := []struct {
		l    Layout
		k    Kind
		ns   []Number
		want string
	}{
		{single, Split, num(1, 5), "not adjacent"},
		{single, Split, num(3, 4), "not adjacent"},
		{single, Corner, num(1, 2, 3, 4), "do not meet"},
		{single, Corner, num(3, 4, 6, 7), "do not meet"},
		{single, Street, num(2, 3, 4), "row of three"},
		{single, SixLine, num(1, 2, 3, 7, 8, 9), "two adjacent rows"},
		{single, Straight, []Number{DoubleZeroNumber}, "not on a single-zero wheel"},
		{single, FiveLine, []Number{0, DoubleZeroNumber, 1, 2, 3}, "not on a single-zero wheel"},
		{single, Split, num(7, 7), "appears twice"},
		{single, Split, num(7), "covers 2 numbers"},
		{single, Straight, num(37), "not on a single-zero wheel"},
		{star, Street, num(0, 2, 3), "no such zero bet"},
		{star, Corner, num(0, 1, 2, 3), "no such zero bet"},
		{crown, Split, []Number{DoubleZeroNumber, 3}, "no such zero bet"},
		{crown, FiveLine, []Number{0, DoubleZeroNumber, 1, 2, 3}, "no such zero bet"},
		{single, Column, num(1), "not an inside bet"},
		{Layout{}, Straight, num(1), "unknown layout"},
	}
	for _, c := range cases {
		_, err := c.l.Inside(c.k, c.ns)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v Inside(%v, %v): %v, want an error containing %q", c.l, c.k, c.ns, err, c.want)
		}
	}
	for _, c := range []struct {
		k     Kind
		which int
	}{{Column, 0}, {Column, 4}, {Dozen, -1}, {Red, 1}, {Straight, 0}, {LuckyBall, 0}} {
		if _, err := single.Outside(c.k, c.which); err == nil {
			t.Errorf("Outside(%v, %d) accepted", c.k, c.which)
		}
	}
}

func TestKindNames(t *testing.T) {
	for k := Straight; int(k) < NumKinds; k++ {
		back, err := ParseKind(k.String())
		if err != nil || back != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), back, err)
		}
	}
	if _, err := ParseKind("basket"); err == nil {
		t.Error("unknown bet accepted")
	}
}
