package roulette

import (
	"slices"
	"strings"
	"testing"
)

// winnersOn lists, sorted, every spot of l that wins on o.
func winnersOn(l Layout, o Number) []string {
	var out []string
	for _, s := range l.Spots() {
		if s.Wins(o) {
			out = append(out, s.String())
		}
	}
	slices.Sort(out)
	return out
}

// Crown Roulette's double-zero layouts (000 §8.4.3). Diagrams F and H: on 00 the straight-up
// and every split, street, corner and five-line joining 00 to 0, 1, 2 or 3 win — on that felt
// (00 beside 3 and 2, 0 beside 2 and 1) no four boxes meet at a point with 00, so no corner
// involves 00 and every corner loses. Diagrams V and W: on 00 only straight 00, split 0/00 and
// the First Five win. Diagrams O and P are crown-rapid's (001 §10.4.3 says the same).
func TestRule000_8_4_3_CrownDoubleZeroLayoutsOn00(t *testing.T) {
	fh := Layout{Wheel: DoubleZero, Profile: CrownFH}
	vw := Layout{Wheel: DoubleZero, Profile: CrownVW}
	op := Layout{Wheel: DoubleZero, Profile: CrownRapid}
	for _, c := range []struct {
		l    Layout
		o    Number
		want []string
	}{
		{fh, DoubleZeroNumber, []string{"five-line 0-00-1-2-3", "split 0-00", "split 00-2", "split 00-3", "straight 00", "street 0-00-2", "street 00-2-3"}},
		{fh, 0, []string{"five-line 0-00-1-2-3", "split 0-00", "split 0-1", "split 0-2", "straight 0", "street 0-00-2", "street 0-1-2"}},
		{fh, 3, []string{"column 3", "corner 2-3-5-6", "dozen 1", "five-line 0-00-1-2-3", "low", "odd", "red", "six-line 1-2-3-4-5-6", "split 00-3", "split 2-3", "split 3-6", "straight 3", "street 00-2-3", "street 1-2-3"}},
		{vw, DoubleZeroNumber, []string{"five-line 0-00-1-2-3", "split 0-00", "straight 00"}},
		{vw, 0, []string{"five-line 0-00-1-2-3", "split 0-00", "split 0-1", "split 0-2", "straight 0", "street 0-1-2"}},
		{op, DoubleZeroNumber, []string{"split 0-00", "straight 00"}},
	} {
		if got := winnersOn(c.l, c.o); !slices.Equal(got, c.want) {
			t.Errorf("%v/%v on %v: winners %v, want %v", c.l.Wheel, c.l.Profile, c.o, got, c.want)
		}
	}
	// The five-line (First Five on V/W) pays 6 to 1 (000 §8.4.1): 100 returns 700.
	for _, l := range []Layout{fh, vw} {
		s, err := l.Inside(FiveLine, []Number{0, DoubleZeroNumber, 1, 2, 3})
		if err != nil {
			t.Fatalf("%v: %v", l.Profile, err)
		}
		if got := s.Returned(100, DoubleZeroNumber); got != 700 {
			t.Errorf("%v: five-line on 00 returns %d, want 700", l.Profile, got)
		}
	}
	// V/W has no other zero combination with 00; F/H has no 0-2-3 street nor 0-1-2-3 corner.
	for _, c := range []struct {
		l  Layout
		k  Kind
		ns []Number
	}{
		{vw, Split, []Number{DoubleZeroNumber, 3}},
		{vw, Split, []Number{DoubleZeroNumber, 2}},
		{vw, Street, []Number{DoubleZeroNumber, 2, 3}},
		{vw, Street, []Number{0, DoubleZeroNumber, 2}},
		{fh, Street, []Number{0, 2, 3}},
		{fh, Corner, []Number{0, 1, 2, 3}},
		{fh, Split, []Number{0, 3}},
	} {
		if _, err := c.l.Inside(c.k, c.ns); err == nil || !strings.Contains(err.Error(), "no such zero bet") {
			t.Errorf("%v %v %v: %v, want no such zero bet", c.l.Profile, c.k, c.ns, err)
		}
	}
}

// Every layout profile is named, and its name parses back to it; the First Five is a box of its
// own on V/W only (000 §8.4.1 "or in the section of the layout marked 'First Five'").
func TestLayoutProfilesAreNamedData(t *testing.T) {
	want := []string{"crown-rapid", "star", "crown-fh", "crown-vw"}
	var got []string
	for _, p := range Profiles() {
		got = append(got, p.String())
		back, err := ParseProfile(p.String())
		if err != nil || back != p {
			t.Errorf("ParseProfile(%q) = %v, %v", p, back, err)
		}
		if p.FirstFiveBox() != (p == CrownVW) {
			t.Errorf("%v: FirstFiveBox %v", p, p.FirstFiveBox())
		}
		if !(Layout{Wheel: DoubleZero, Profile: p}).Valid() {
			t.Errorf("%v: not a valid layout", p)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("profiles %v, want %v", got, want)
	}
	if _, err := ParseProfile("crown-FH"); err == nil || !strings.Contains(err.Error(), "crown-vw") {
		t.Errorf("a misspelt profile: %v, want an error naming the profiles", err)
	}
	if (Layout{Wheel: DoubleZero, Profile: Profile(len(want))}).Valid() {
		t.Error("a profile past the last is valid")
	}
}
