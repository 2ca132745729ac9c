package diagrams

import (
	"fmt"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

var layouts = []roulette.Layout{
	{Wheel: roulette.SingleZero, Profile: roulette.CrownRapid},
	{Wheel: roulette.DoubleZero, Profile: roulette.CrownRapid},
	{Wheel: roulette.DoubleZero, Profile: roulette.Star},
	{Wheel: roulette.DoubleZero, Profile: roulette.CrownFH},
	{Wheel: roulette.DoubleZero, Profile: roulette.CrownVW},
}

func layoutName(l roulette.Layout) string { return fmt.Sprintf("%v/%v", l.Wheel, l.Profile) }

// Every spot the rules engine says the layout has is on the felt exactly once, and a touch at
// its centre means that spot and no other.
func TestEverySpotReachedAtItsCentreOnly(t *testing.T) {
	for _, l := range layouts {
		t.Run(layoutName(l), func(t *testing.T) {
			g, err := New(l)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[roulette.Spot]int{}
			for _, r := range g.Regions {
				seen[r.Spot]++
				got, ok := g.Hit(r.Centre)
				if !ok || got.Spot != r.Spot {
					t.Errorf("touch at the centre of %v (%v) means %v (ok=%v)", r.Spot, r.Centre, got.Spot, ok)
				}
			}
			for s, n := range seen {
				if n != 1 {
					t.Errorf("%v has %d regions, want 1", s, n)
				}
			}
			want := 0
			for _, s := range l.Spots() {
				if s.Kind == roulette.LuckyBall {
					continue
				}
				want++
				if seen[s] == 0 {
					t.Errorf("the layout has %v but the felt does not show it", s)
				}
			}
			if len(seen) != want {
				t.Errorf("felt has %d spots, rules engine %d", len(seen), want)
			}
		})
	}
}

// A tap anywhere in the middle of a number box, away from its lines, is a straight-up on that
// number; a tap on the line between two numbers is their split.
func TestTouchesOnTheFelt(t *testing.T) {
	g, err := New(roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil {
		t.Fatal(err)
	}
	sp := func(k roulette.Kind, ns ...roulette.Number) roulette.Spot {
		s, err := g.Layout.Inside(k, ns)
		if err != nil {
			t.Fatalf("%v %v: %v", k, ns, err)
		}
		return s
	}
	cases := []struct {
		at   Point
		want roulette.Spot
	}{
		{Point{0.5, 2.5}, sp(roulette.Straight, 1)},
		{Point{0.25, 2.75}, sp(roulette.Straight, 1)},
		{Point{0.75, 2.25}, sp(roulette.Straight, 1)},
		{Point{11.5, 0.5}, sp(roulette.Straight, 36)},
		{Point{-0.5, 1.5}, sp(roulette.Straight, 0)},
		{Point{1, 2.5}, sp(roulette.Split, 1, 4)},
		{Point{1.1, 2.7}, sp(roulette.Split, 1, 4)},
		{Point{0.5, 2}, sp(roulette.Split, 1, 2)},
		{Point{1, 2}, sp(roulette.Corner, 1, 2, 4, 5)},
		{Point{1.1, 1.9}, sp(roulette.Corner, 1, 2, 4, 5)},
		{Point{0.5, 3}, sp(roulette.Street, 1, 2, 3)},
		{Point{1, 3}, sp(roulette.SixLine, 1, 2, 3, 4, 5, 6)},
		{Point{0, 0.5}, sp(roulette.Split, 0, 3)},
		{Point{0, 1}, sp(roulette.Street, 0, 2, 3)},
		{Point{0, 2}, sp(roulette.Street, 0, 1, 2)},
		{Point{0, 3}, sp(roulette.Corner, 0, 1, 2, 3)},
	}
	for _, c := range cases {
		got, ok := g.Hit(c.at)
		if !ok || got.Spot != c.want {
			t.Errorf("touch at %v: got %v (ok=%v), want %v", c.at, got.Spot, ok, c.want)
		}
	}
	outside := []struct {
		at   Point
		kind roulette.Kind
		w    int
	}{
		{Point{12.5, 2.5}, roulette.Column, 1},
		{Point{12.5, 0.5}, roulette.Column, 3},
		{Point{2, 3.6}, roulette.Dozen, 1},
		{Point{11, 3.6}, roulette.Dozen, 3},
		{Point{1, 4.5}, roulette.Low, 0},
		{Point{5, 4.5}, roulette.Red, 0},
		{Point{7, 4.5}, roulette.Black, 0},
		{Point{11, 4.5}, roulette.High, 0},
	}
	for _, c := range outside {
		want, err := g.Layout.Outside(c.kind, c.w)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := g.Hit(c.at)
		if !ok || got.Spot != want {
			t.Errorf("touch at %v: got %v, want %v", c.at, got.Spot, want)
		}
	}
	for _, p := range []Point{{-1.5, 1}, {12.5, 3.5}, {-0.5, 4.5}, {20, 20}} {
		if r, ok := g.Hit(p); ok {
			t.Errorf("touch at %v off the felt means %v", p, r.Spot)
		}
	}
}

// Every number box's drawn colour is the colour of its number, and red/black boxes show it.
func TestBoxesDrawTheNumbersInTheirColours(t *testing.T) {
	for _, l := range layouts {
		g, err := New(l)
		if err != nil {
			t.Fatal(err)
		}
		nums := 0
		for _, b := range g.Boxes {
			if !b.IsNum {
				continue
			}
			nums++
			if b.Colour != b.Number.Colour() || b.Label != b.Number.String() {
				t.Errorf("%s: box %q colour %v", layoutName(l), b.Label, b.Colour)
			}
			if r, ok := g.Hit(b.Rect.Centre()); !ok || r.Spot != b.Spot {
				t.Errorf("%s: box %q centre hits %v", layoutName(l), b.Label, r.Spot)
			}
		}
		if nums != len(l.Wheel.Numbers()) {
			t.Errorf("%s: %d number boxes, want %d", layoutName(l), nums, len(l.Wheel.Numbers()))
		}
	}
}

// The double-zero profiles differ only in the zero combinations the felt offers (SPEC §2).
func TestDoubleZeroProfilesDifferInZeroCombinations(t *testing.T) {
	star, err := New(roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.Star})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := star.Hit(Point{0, 3}); !ok || r.Spot.Kind != roulette.FiveLine {
		t.Errorf("star: the five-line junction means %v", r.Spot)
	}
	if r, ok := star.Hit(Point{-0.5, 1.5}); !ok || r.Spot.Kind != roulette.Split {
		t.Errorf("star: the line between 0 and 00 means %v", r.Spot)
	}
	crown, err := New(roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.CrownRapid})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := crown.Hit(Point{-0.5, 1.5}); !ok || r.Spot.Kind != roulette.Split {
		t.Errorf("crown-rapid: the line between 0 and 00 means %v", r.Spot)
	}
	for _, r := range crown.Regions {
		if r.Spot.Mask.Has(roulette.DoubleZeroNumber) && r.Spot.Kind != roulette.Straight &&
			!(r.Spot.Kind == roulette.Split && r.Spot.Mask.Has(0)) {
			t.Errorf("crown-rapid: %v covers 00, but on 00 only straight 00 and split 0/00 win (001 §10.4.3)", r.Spot)
		}
	}
}

// Crown Roulette's double-zero felts (000 §8.4.1, §8.4.3): on Diagrams F/H the five-line is a
// chip on the point where 0, 00, 1, 2 and 3 meet and 00 joins 2 and 3; on Diagrams V/W it is a
// box of its own marked First Five (below the zeros, beside the dozens), the point means
// nothing, and 00 joins only 0.
func TestRule000_8_4_1_FirstFiveBoxAndFiveLinePoint(t *testing.T) {
	fh, err := New(roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.CrownFH})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := fh.Hit(Point{0, 3}); !ok || r.Spot.Kind != roulette.FiveLine || r.Shape != ShapePoint {
		t.Errorf("crown-fh: the five-line junction means %v", r.Spot)
	}
	for _, p := range []Point{{0, 0.5}, {0, 1.25}, {0, 1}} { // 00/3, 00/2, 00/2/3
		if r, ok := fh.Hit(p); !ok || !r.Spot.Mask.Has(roulette.DoubleZeroNumber) || r.Spot.Kind == roulette.Straight {
			t.Errorf("crown-fh: a touch at %v means %v, want a zero combination with 00", p, r.Spot)
		}
	}
	vw, err := New(roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.CrownVW})
	if err != nil {
		t.Fatal(err)
	}
	five, err := vw.Layout.Inside(roulette.FiveLine, []roulette.Number{0, roulette.DoubleZeroNumber, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	box := Rect{Point{zeroLeft, dozensY}, Point{0, feltBottom}}
	r, ok := vw.Region(five)
	if !ok || r.Shape != ShapeBox || r.Hit != box {
		t.Fatalf("crown-vw: the First Five is %+v (ok=%v), want the box %v", r, ok, box)
	}
	var drawn []Box
	for _, b := range vw.Boxes {
		if b.Spot == five {
			drawn = append(drawn, b)
		}
	}
	if len(drawn) != 1 || drawn[0].Label != "FIRST FIVE" || drawn[0].Rect != box || drawn[0].IsNum {
		t.Errorf("crown-vw: the First Five is drawn as %+v, want one box marked FIRST FIVE", drawn)
	}
	for _, p := range []Point{{-0.5, 4}, {-0.9, 3.1}, {-0.1, 4.9}} {
		if r, ok := vw.Hit(p); !ok || r.Spot != five {
			t.Errorf("crown-vw: a touch at %v in the First Five means %v", p, r.Spot)
		}
	}
	if r, ok := vw.Hit(Point{0, 3}); ok && r.Spot.Kind == roulette.FiveLine {
		t.Error("crown-vw: the point where 0 and 1 meet is a five-line; V/W marks it in its own box")
	}
	for _, r := range vw.Regions {
		if r.Spot.Mask.Has(roulette.DoubleZeroNumber) && r.Spot.Kind != roulette.Straight && r.Spot.Kind != roulette.FiveLine &&
			!(r.Spot.Kind == roulette.Split && r.Spot.Mask.Has(0)) {
			t.Errorf("crown-vw: %v covers 00, but on 00 only straight 00, split 0/00 and First Five win (000 §8.4.3(c))", r.Spot)
		}
	}
	// The other felts leave that corner empty.
	for _, l := range layouts {
		if l.Profile == roulette.CrownVW && l.Wheel == roulette.DoubleZero {
			continue
		}
		g, err := New(l)
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := g.Hit(Point{-0.5, 4}); ok {
			t.Errorf("%s: a touch below the zeros means %v", layoutName(l), r.Spot)
		}
	}
}

func BenchmarkHit(b *testing.B) {
	g, err := New(roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil {
		b.Fatal(err)
	}
	p := Point{11.5, 4.5} // an outside box: the last regions to be tested
	for b.Loop() {
		if _, ok := g.Hit(p); !ok {
			b.Fatal("miss")
		}
	}
}
