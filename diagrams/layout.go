// Package diagrams holds the screen designs of the rules as data: the geometry of every bet spot
// of each betting layout (single zero, every double-zero profile) and of the racetrack, with the
// hit test that turns a touch into exactly the bet a chip there means on a felt, and the lists of
// elements that Diagrams A, L and U must show.
//
// Geometry is in layout units, one unit per number box, so the UI scales it to any screen. It is
// derived from the rules engine: a region exists only where app/roulette says the layout has that
// spot, so the picture and the rules cannot disagree.
//
// reference/ keeps the reference renders of the designs (PNG). This package draws nothing and
// imports no Fyne: the renders are made, and checked for staleness, by TestReferenceRenders in
// package ui (see the README, "Screen designs").
package diagrams

import (
	"fmt"

	"github.com/tablegames/ats/app/roulette"
)

// Point is a position in layout units.
type Point struct{ X, Y float32 }

// Rect is an axis-aligned rectangle in layout units; Min is inclusive, Max exclusive.
type Rect struct{ Min, Max Point }

// Contains reports whether p lies in r.
func (r Rect) Contains(p Point) bool {
	return p.X >= r.Min.X && p.X < r.Max.X && p.Y >= r.Min.Y && p.Y < r.Max.Y
}

// Centre is the middle of r.
func (r Rect) Centre() Point { return Point{(r.Min.X + r.Max.X) / 2, (r.Min.Y + r.Max.Y) / 2} }

// Shape says how a region sits on the felt, which decides its hit priority: a chip on a point
// where lines meet means that junction's bet, a chip on a line means the bet across it, and only
// then the box underneath.
type Shape uint8

const (
	// ShapePoint is a junction of lines: corners, six-lines, streets at the zero, five-line.
	ShapePoint Shape = iota
	// ShapeLine is a line between boxes or the outer edge of a row: splits and streets.
	ShapeLine
	// ShapeBox is a box of the felt: straight-up numbers and the outside bets.
	ShapeBox
)

// HitHalfWidth is half the width of a line or point hit area, in layout units. At 1920 pixels a
// unit is about 120 px, so a line is a 43 px strip — wider than a fingertip, which is what lets a
// player place a split without a stylus — and a box keeps most of its area for the straight-up.
const HitHalfWidth = 0.18

// Region is one bet spot's place on the felt.
type Region struct {
	Spot   roulette.Spot
	Shape  Shape
	Hit    Rect  // the touch area
	Centre Point // where its chips are drawn; a touch here always means this spot
}

// Box is a drawn box of the felt with its label.
type Box struct {
	Rect   Rect
	Label  string
	Number roulette.Number // for number boxes
	Colour roulette.Colour // green, red or black for number boxes; red/black boxes too
	IsNum  bool
	Spot   roulette.Spot // the spot a touch in the box's middle means
}

// Geometry is one layout's felt: its boxes for drawing and its regions for touching.
type Geometry struct {
	Layout  roulette.Layout
	Bounds  Rect
	Boxes   []Box
	Regions []Region // points first, then lines, then boxes: the hit-test order
}

// The felt: numbers in 12 columns of three (1-2-3 at the left, 3 on top), the zero box(es) to
// their left, the "2 to 1" column boxes to the right, dozens and even-money boxes below.
const (
	gridCols   = 12
	zeroLeft   = -1
	columnsX   = 12
	dozensY    = 3
	evensY     = 4
	feltBottom = 5
)

// numberBox is the box of number n (1..36).
func numberBox(n int) Rect {
	c := float32((n - 1) / 3)
	r := float32(2 - (n-1)%3) // 1 at the bottom (row 2), 3 at the top (row 0)
	return Rect{Point{c, r}, Point{c + 1, r + 1}}
}

// firstFiveBox is the First Five of a felt that marks one (000 §8.4.1, Diagrams V/W): the
// corner below the zero boxes, beside the dozens and the even-money boxes, empty on the others.
var firstFiveBox = Rect{Point{zeroLeft, dozensY}, Point{0, feltBottom}}

// zeroBoxes returns the zero boxes: 0 alone on a single-zero felt; 00 above 0 (next to 3) on a
// double-zero felt, as on an American layout.
func zeroBoxes(w roulette.Wheel) map[roulette.Number]Rect {
	if w == roulette.DoubleZero {
		return map[roulette.Number]Rect{
			roulette.DoubleZeroNumber: {Point{zeroLeft, 0}, Point{0, 1.5}},
			0:                         {Point{zeroLeft, 1.5}, Point{0, 3}},
		}
	}
	return map[roulette.Number]Rect{0: {Point{zeroLeft, 0}, Point{0, 3}}}
}

func around(p Point) Rect {
	return Rect{Point{p.X - HitHalfWidth, p.Y - HitHalfWidth}, Point{p.X + HitHalfWidth, p.Y + HitHalfWidth}}
}

// segment is the hit strip around a line from a to b (horizontal or vertical).
func segment(a, b Point) Rect {
	if a.X == b.X {
		return Rect{Point{a.X - HitHalfWidth, min(a.Y, b.Y)}, Point{a.X + HitHalfWidth, max(a.Y, b.Y)}}
	}
	return Rect{Point{min(a.X, b.X), a.Y - HitHalfWidth}, Point{max(a.X, b.X), a.Y + HitHalfWidth}}
}

// candidate is a place on the felt where a chip could sit, and the numbers it would cover.
type candidate struct {
	kind    roulette.Kind
	numbers []roulette.Number
	shape   Shape
	hit     Rect
	centre  Point
}

// New builds the geometry of a layout. It fails only if the rules engine refuses a spot that
// every layout has (a programming error surfaced as an error rather than a panic).
func New(l roulette.Layout) (*Geometry, error) {
	g := &Geometry{Layout: l, Bounds: Rect{Point{zeroLeft, 0}, Point{columnsX + 1, feltBottom}}}
	var cands []candidate
	num := func(ns ...int) []roulette.Number {
		out := make([]roulette.Number, len(ns))
		for i, n := range ns {
			out[i] = roulette.Number(n)
		}
		return out
	}
	const dz = int(roulette.DoubleZeroNumber)

	// Inside bets between numbers 1..36.
	for n := 1; n <= 36; n++ {
		b := numberBox(n)
		cands = append(cands, candidate{roulette.Straight, num(n), ShapeBox, b, b.Centre()})
		if n%3 != 0 { // the number above n in the same column is n+1
			a, c := Point{b.Min.X, b.Min.Y}, Point{b.Max.X, b.Min.Y}
			cands = append(cands, candidate{roulette.Split, num(n, n+1), ShapeLine, segment(a, c), Point{(a.X + c.X) / 2, a.Y}})
		}
		if n <= 33 { // n+3 is to the right
			a, c := Point{b.Max.X, b.Min.Y}, Point{b.Max.X, b.Max.Y}
			cands = append(cands, candidate{roulette.Split, num(n, n+3), ShapeLine, segment(a, c), Point{a.X, (a.Y + c.Y) / 2}})
			if n%3 != 0 { // corner n, n+1, n+3, n+4 at the top-right of n
				p := Point{b.Max.X, b.Min.Y}
				cands = append(cands, candidate{roulette.Corner, num(n, n+1, n+3, n+4), ShapePoint, around(p), p})
			}
		}
		if n%3 == 1 { // street on the bottom edge; six-line where two streets meet
			a, c := Point{b.Min.X, b.Max.Y}, Point{b.Max.X, b.Max.Y}
			cands = append(cands, candidate{roulette.Street, num(n, n+1, n+2), ShapeLine, segment(a, c), Point{(a.X + c.X) / 2, a.Y}})
			if n <= 31 {
				p := Point{b.Max.X, b.Max.Y}
				cands = append(cands, candidate{roulette.SixLine, num(n, n+1, n+2, n+3, n+4, n+5), ShapePoint, around(p), p})
			}
		}
	}

	// The zero box(es) and their junctions with 1, 2 and 3. Every junction a felt could have is a
	// candidate; the layout profile decides through the rules engine which of them exist.
	zb := zeroBoxes(l.Wheel)
	for _, z := range sortedZeros(zb) {
		r := zb[z]
		cands = append(cands, candidate{roulette.Straight, []roulette.Number{z}, ShapeBox, r, r.Centre()})
	}
	if l.Wheel == roulette.DoubleZero {
		cands = append(cands,
			candidate{roulette.Split, num(0, dz), ShapeLine, segment(Point{zeroLeft, 1.5}, Point{0, 1.5}), Point{-0.5, 1.5}},
			candidate{roulette.Split, num(dz, 3), ShapeLine, segment(Point{0, 0}, Point{0, 1}), Point{0, 0.5}},
			candidate{roulette.Split, num(dz, 2), ShapeLine, segment(Point{0, 1}, Point{0, 1.5}), Point{0, 1.25}},
			candidate{roulette.Split, num(0, 2), ShapeLine, segment(Point{0, 1.5}, Point{0, 2}), Point{0, 1.75}},
			candidate{roulette.Split, num(0, 1), ShapeLine, segment(Point{0, 2}, Point{0, 3}), Point{0, 2.5}},
			candidate{roulette.Street, num(dz, 2, 3), ShapePoint, around(Point{0, 1}), Point{0, 1}},
			candidate{roulette.Street, num(0, dz, 2), ShapePoint, around(Point{0, 1.5}), Point{0, 1.5}},
			candidate{roulette.Street, num(0, 1, 2), ShapePoint, around(Point{0, 2}), Point{0, 2}},
		)
		// The five-line is a chip on the point where 0, 00, 1, 2 and 3 meet, or, where the felt
		// marks one, the First Five box below the zeros beside the dozens (000 §8.4.1).
		if l.Profile.FirstFiveBox() {
			cands = append(cands, candidate{roulette.FiveLine, num(0, dz, 1, 2, 3), ShapeBox, firstFiveBox, firstFiveBox.Centre()})
		} else {
			cands = append(cands, candidate{roulette.FiveLine, num(0, dz, 1, 2, 3), ShapePoint, around(Point{0, 3}), Point{0, 3}})
		}
	} else {
		cands = append(cands,
			candidate{roulette.Split, num(0, 3), ShapeLine, segment(Point{0, 0}, Point{0, 1}), Point{0, 0.5}},
			candidate{roulette.Split, num(0, 2), ShapeLine, segment(Point{0, 1}, Point{0, 2}), Point{0, 1.5}},
			candidate{roulette.Split, num(0, 1), ShapeLine, segment(Point{0, 2}, Point{0, 3}), Point{0, 2.5}},
			candidate{roulette.Street, num(0, 2, 3), ShapePoint, around(Point{0, 1}), Point{0, 1}},
			candidate{roulette.Street, num(0, 1, 2), ShapePoint, around(Point{0, 2}), Point{0, 2}},
			candidate{roulette.Corner, num(0, 1, 2, 3), ShapePoint, around(Point{0, 3}), Point{0, 3}},
		)
	}

	var points, lines, boxes []Region
	for _, c := range cands {
		s, err := l.Inside(c.kind, c.numbers)
		if err != nil {
			if isZeroCombination(c.numbers) {
				continue // this profile has no such zero combination; nothing is drawn there
			}
			return nil, fmt.Errorf("diagrams: %v %v: %w", c.kind, c.numbers, err)
		}
		r := Region{Spot: s, Shape: c.shape, Hit: c.hit, Centre: c.centre}
		switch c.shape {
		case ShapePoint:
			points = append(points, r)
		case ShapeLine:
			lines = append(lines, r)
		default:
			boxes = append(boxes, r)
		}
	}

	// Number boxes for drawing.
	for _, z := range sortedZeros(zb) {
		s, _ := l.Inside(roulette.Straight, []roulette.Number{z})
		g.Boxes = append(g.Boxes, Box{Rect: zb[z], Label: z.String(), Number: z, Colour: z.Colour(), IsNum: true, Spot: s})
	}
	for _, r := range boxes {
		if r.Spot.Kind == roulette.FiveLine {
			g.Boxes = append(g.Boxes, Box{Rect: r.Hit, Label: "FIRST FIVE", Colour: roulette.ColourGreen, Spot: r.Spot})
		}
	}
	for n := 1; n <= 36; n++ {
		s, _ := l.Inside(roulette.Straight, num(n))
		g.Boxes = append(g.Boxes, Box{Rect: numberBox(n), Label: roulette.Number(n).String(), Number: roulette.Number(n), Colour: roulette.Number(n).Colour(), IsNum: true, Spot: s})
	}

	// Outside boxes: "2 to 1" at the row ends (column 1 is the bottom row: 1, 4, 7 … 34),
	// dozens, then the even-money boxes.
	type outside struct {
		kind  roulette.Kind
		which int
		rect  Rect
		label string
	}
	outs := []outside{
		{roulette.Column, 3, Rect{Point{columnsX, 0}, Point{columnsX + 1, 1}}, "2 to 1"},
		{roulette.Column, 2, Rect{Point{columnsX, 1}, Point{columnsX + 1, 2}}, "2 to 1"},
		{roulette.Column, 1, Rect{Point{columnsX, 2}, Point{columnsX + 1, 3}}, "2 to 1"},
		{roulette.Dozen, 1, Rect{Point{0, dozensY}, Point{4, evensY}}, "1st 12"},
		{roulette.Dozen, 2, Rect{Point{4, dozensY}, Point{8, evensY}}, "2nd 12"},
		{roulette.Dozen, 3, Rect{Point{8, dozensY}, Point{12, evensY}}, "3rd 12"},
		{roulette.Low, 0, Rect{Point{0, evensY}, Point{2, feltBottom}}, "1 to 18"},
		{roulette.Even, 0, Rect{Point{2, evensY}, Point{4, feltBottom}}, "EVEN"},
		{roulette.Red, 0, Rect{Point{4, evensY}, Point{6, feltBottom}}, "RED"},
		{roulette.Black, 0, Rect{Point{6, evensY}, Point{8, feltBottom}}, "BLACK"},
		{roulette.Odd, 0, Rect{Point{8, evensY}, Point{10, feltBottom}}, "ODD"},
		{roulette.High, 0, Rect{Point{10, evensY}, Point{12, feltBottom}}, "19 to 36"},
	}
	for _, o := range outs {
		s, err := l.Outside(o.kind, o.which)
		if err != nil {
			return nil, fmt.Errorf("diagrams: %v %d: %w", o.kind, o.which, err)
		}
		b := Box{Rect: o.rect, Label: o.label, Spot: s, Colour: roulette.ColourGreen}
		switch o.kind {
		case roulette.Red:
			b.Colour = roulette.ColourRed
		case roulette.Black:
			b.Colour = roulette.ColourBlack
		}
		g.Boxes = append(g.Boxes, b)
		boxes = append(boxes, Region{Spot: s, Shape: ShapeBox, Hit: o.rect, Centre: o.rect.Centre()})
	}

	g.Regions = append(append(points, lines...), boxes...)
	return g, nil
}

func sortedZeros(zb map[roulette.Number]Rect) []roulette.Number {
	if _, ok := zb[roulette.DoubleZeroNumber]; ok {
		return []roulette.Number{roulette.DoubleZeroNumber, 0}
	}
	return []roulette.Number{0}
}

func isZeroCombination(ns []roulette.Number) bool {
	if len(ns) < 2 {
		return false
	}
	for _, n := range ns {
		if n == 0 || n == roulette.DoubleZeroNumber {
			return true
		}
	}
	return false
}

// Hit returns the region a touch at p means: junction points first, then lines, then boxes.
// ok is false outside every region (between the felt's parts or off it).
func (g *Geometry) Hit(p Point) (Region, bool) {
	for _, r := range g.Regions {
		if r.Hit.Contains(p) {
			return r, true
		}
	}
	return Region{}, false
}

// Region returns the region of spot s, if the layout has it.
func (g *Geometry) Region(s roulette.Spot) (Region, bool) {
	for _, r := range g.Regions {
		if r.Spot == s {
			return r, true
		}
	}
	return Region{}, false
}
