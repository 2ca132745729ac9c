package roulette

import "testing"

// A set of numbers touched on the grid is the inside bet of its size on the table's layout, and
// a set that is no bet of that layout is refused with the reason, whatever its size.
func TestInsideOfNamesTheBetASetOfNumbersMakes(t *testing.T) {
	single := Layout{Wheel: SingleZero}
	star := Layout{Wheel: DoubleZero, Profile: Star}
	rapid := Layout{Wheel: DoubleZero, Profile: CrownRapid}
	dz := DoubleZeroNumber
	for _, c := range []struct {
		l    Layout
		ns   []Number
		want Kind // 0: no bet
	}{
		{single, []Number{17}, Straight},
		{single, []Number{20, 17}, Split},
		{single, []Number{17, 23}, 0},
		{single, []Number{18, 19}, 0}, // side by side in 1–36 but not on the felt
		{single, []Number{16, 17, 18}, Street},
		{single, []Number{15, 16, 17}, 0},
		{single, []Number{17, 18, 20, 21}, Corner},
		{single, []Number{18, 19, 21, 22}, 0},
		{single, []Number{0, 1, 2, 3}, Corner}, // the basket, "first four"
		{single, []Number{0, 1, 2}, Street},    // a trio
		{single, []Number{13, 14, 15, 16, 17, 18}, SixLine},
		{single, []Number{10, 11, 12, 16, 17, 18}, 0}, // two rows that do not touch
		{single, []Number{0, 1, 2, 3, 4}, 0},          // no five-line on a single-zero wheel
		{single, []Number{1, 2, 3, 4, 5, 6, 7}, 0},
		{single, nil, 0},
		{star, []Number{0, dz, 1, 2, 3}, FiveLine},
		{star, []Number{dz, 2, 3}, Street},
		{rapid, []Number{dz, 2, 3}, 0}, // crown-rapid: nothing joins 00 to 2 and 3 (001 §10.4.3)
		{rapid, []Number{0, dz, 1, 2, 3}, 0},
	} {
		s, err := c.l.InsideOf(c.ns)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("%v %v: the bet %v, want none", c.l.Profile, c.ns, s)
		case c.want != 0 && (err != nil || s.Kind != c.want || s.Mask != MaskOf(c.ns...)):
			t.Errorf("%v %v: %v, %v; want a %v", c.l.Profile, c.ns, s, err, c.want)
		}
	}
}
