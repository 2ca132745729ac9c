package diagrams

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tablegames/ats/app/roulette"
)

// TrackTarget is what a touch on the racetrack means: a neighbours bet around a number, one of
// the named sectors of the single-zero wheel, or a group of the Asian racetrack (Call 0, Group
// set: an Asian Neighbour, 002 §3.2).
type TrackTarget struct {
	Call   roulette.Call
	Centre roulette.Number // neighbours only
	Group  roulette.Mask   // an Asian Neighbour's three numbers
}

// Bet is the bet a touch on the target places; spread is the neighbours spread chosen.
func (t TrackTarget) Bet(spread int) roulette.Bet {
	if t.Group != 0 {
		return roulette.Bet{Spot: roulette.Spot{Kind: roulette.AsianNeighbour, Mask: t.Group}}
	}
	b := roulette.Bet{Call: t.Call}
	if t.Call == roulette.Neighbours {
		b.Centre, b.Spread = t.Centre, spread
	}
	return b
}

// TrackRegion is a racetrack box: a number of the wheel in wheel order, or a sector.
type TrackRegion struct {
	Target TrackTarget
	Rect   Rect
	Label  string
	Colour roulette.Colour // numbers only; sectors are green
}

// Racetrack is the oval of the wheel's numbers in wheel order (000 §6.4 "the racetrack"), drawn
// as a ring of boxes — top row, right end, bottom row, left end — with the sector bets inside
// on a single-zero table.
type Racetrack struct {
	Wheel   roulette.Wheel
	Bounds  Rect
	Numbers []TrackRegion // in wheel order, starting at 0
	Sectors []TrackRegion // tier, orphelins, voisins, zero game (single zero only)
	Asian   []TrackRegion // the Asian racetrack's groups, in a row below the ring (AddAsian)
	// Legend is the inner band where no sector is (double zero, whose wheel has no French call
	// bets): felt with words saying what the racetrack is for, not a touch target. Without
	// it the band was an empty black strip across the screen (issue 32 point 10).
	Legend *TrackLegend
}

// TrackLegend is words in a box of the racetrack that takes no bet.
type TrackLegend struct {
	Rect  Rect
	Label string
}

// BandLegend is the double-zero racetrack's inner band's words.
const BandLegend = "NEIGHBOURS: touch a number"

// AddAsian draws the table's Asian racetrack (002 §2.2(b), §3.2) as a row of boxes below the
// ring, one a group, each labelled with its numbers in wheel order (as the player finds them on
// the ring above). A table without one (g not Offered) changes nothing.
func (rt *Racetrack) AddAsian(g roulette.AsianGroups) {
	groups := g.Groups()
	if len(groups) == 0 {
		return
	}
	pos := map[roulette.Number]int{}
	for i, n := range rt.Wheel.Order() {
		pos[n] = i
	}
	const gap, rowH = 0.15, 1
	top := rt.Bounds.Max.Y + gap
	w := (rt.Bounds.Max.X - rt.Bounds.Min.X) / float32(len(groups))
	for i, m := range groups {
		ns := m.Numbers()
		sort.Slice(ns, func(a, b int) bool { return pos[ns[a]] < pos[ns[b]] })
		parts := make([]string, len(ns))
		for j, n := range ns {
			parts[j] = n.String()
		}
		x := rt.Bounds.Min.X + float32(i)*w
		rt.Asian = append(rt.Asian, TrackRegion{
			Target: TrackTarget{Group: m},
			Rect:   Rect{Point{x, top}, Point{x + w, top + rowH}}, Label: strings.Join(parts, " "), Colour: roulette.ColourGreen,
		})
	}
	rt.Bounds.Max.Y = top + rowH
}

// NewRacetrack lays out the racetrack of a wheel. The ring starts with 0 at the left end and
// runs clockwise, so neighbours on the wheel are neighbours on the screen.
func NewRacetrack(w roulette.Wheel) (*Racetrack, error) {
	order := w.Order()
	// Single zero: 3 at the left end, 16 along the top, 2 at the right end, 16 along the bottom.
	// Double zero: 2, 17, 2, 17.
	left, top, right := 3, 16, 2
	if w == roulette.DoubleZero {
		left, top, right = 2, 17, 2
	}
	if left+2*top+right != len(order) {
		return nil, fmt.Errorf("diagrams: racetrack of %d numbers does not fit the ring", len(order))
	}
	const h = 3 // height of the ring: top row, inner band, bottom row
	width := float32(top + 2)
	rt := &Racetrack{Wheel: w, Bounds: Rect{Point{0, 0}, Point{width, h}}}

	var cells []Rect
	// Left end, from its middle (or top) upwards, so 0 sits in the middle of the left end.
	lh := float32(h) / float32(left)
	leftCells := make([]Rect, left)
	for i := range left {
		leftCells[i] = Rect{Point{0, float32(i) * lh}, Point{1, float32(i+1) * lh}}
	}
	// Clockwise from 0: left end going up, top row left to right, right end down, bottom row
	// right to left, then the left end's cells below 0.
	start := left / 2 // middle cell of the left end (index from the top)
	for i := start; i >= 0; i-- {
		cells = append(cells, leftCells[i])
	}
	for i := range top {
		cells = append(cells, Rect{Point{float32(1 + i), 0}, Point{float32(2 + i), 1}})
	}
	rh := float32(h) / float32(right)
	for i := range right {
		cells = append(cells, Rect{Point{width - 1, float32(i) * rh}, Point{width, float32(i+1) * rh}})
	}
	for i := top - 1; i >= 0; i-- {
		cells = append(cells, Rect{Point{float32(1 + i), h - 1}, Point{float32(2 + i), h}})
	}
	for i := left - 1; i > start; i-- {
		cells = append(cells, leftCells[i])
	}
	for i, n := range order {
		rt.Numbers = append(rt.Numbers, TrackRegion{
			Target: TrackTarget{Call: roulette.Neighbours, Centre: n},
			Rect:   cells[i], Label: n.String(), Colour: n.Colour(),
		})
	}

	if w != roulette.SingleZero {
		rt.Legend = &TrackLegend{Rect: Rect{Point{1, 1}, Point{width - 1, 2}}, Label: BandLegend}
	} else {
		// Inner band, zero end first: the zero game and voisins lie around 0 on the wheel,
		// the tier opposite it, the orphelins between.
		band := []struct {
			call  roulette.Call
			from  float32
			to    float32
			label string
		}{
			{roulette.ZeroGame, 1, 4, "ZERO"},
			{roulette.Voisins, 4, 8.5, "VOISINS"},
			{roulette.Orphelins, 8.5, 13, "ORPHELINS"},
			{roulette.Tier, 13, width - 1, "TIER"},
		}
		for _, b := range band {
			rt.Sectors = append(rt.Sectors, TrackRegion{
				Target: TrackTarget{Call: b.call},
				Rect:   Rect{Point{b.from, 1}, Point{b.to, 2}}, Label: b.label, Colour: roulette.ColourGreen,
			})
		}
	}
	return rt, nil
}

// Hit returns what a touch at p on the racetrack means.
func (rt *Racetrack) Hit(p Point) (TrackRegion, bool) {
	for _, r := range rt.Numbers {
		if r.Rect.Contains(p) {
			return r, true
		}
	}
	for _, r := range rt.Sectors {
		if r.Rect.Contains(p) {
			return r, true
		}
	}
	for _, r := range rt.Asian {
		if r.Rect.Contains(p) {
			return r, true
		}
	}
	return TrackRegion{}, false
}
