package diagrams

import (
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// The racetrack shows every number of the wheel once, in wheel order, and boxes next to each
// other on the screen are neighbours on the wheel.
func TestRacetrackFollowsTheWheel(t *testing.T) {
	for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
		rt, err := NewRacetrack(w)
		if err != nil {
			t.Fatal(err)
		}
		order := w.Order()
		if len(rt.Numbers) != len(order) {
			t.Fatalf("%v: %d boxes, want %d", w, len(rt.Numbers), len(order))
		}
		for i, r := range rt.Numbers {
			if r.Target.Centre != order[i] || r.Target.Call != roulette.Neighbours {
				t.Errorf("%v: box %d is %v, want neighbours of %v", w, i, r.Target, order[i])
			}
			if got, ok := rt.Hit(r.Rect.Centre()); !ok || got.Target != r.Target {
				t.Errorf("%v: centre of %v hits %v", w, r.Label, got.Target)
			}
			next := rt.Numbers[(i+1)%len(rt.Numbers)].Rect
			if !touching(r.Rect, next) {
				t.Errorf("%v: %v and the next number on the wheel are not side by side on the track", w, r.Label)
			}
			if r.Colour != order[i].Colour() {
				t.Errorf("%v: %v drawn %v", w, r.Label, r.Colour)
			}
		}
		wantSectors := 4
		if w == roulette.DoubleZero {
			wantSectors = 0 // tier, orphelins, voisins and zero game are sectors of the single-zero wheel
		}
		if len(rt.Sectors) != wantSectors {
			t.Errorf("%v: %d sectors, want %d", w, len(rt.Sectors), wantSectors)
		}
		for _, s := range rt.Sectors {
			if got, ok := rt.Hit(s.Rect.Centre()); !ok || got.Target.Call != s.Target.Call {
				t.Errorf("%v: centre of %s hits %v", w, s.Label, got.Target)
			}
		}
	}
}

// touching reports whether two boxes share part of an edge.
func touching(a, b Rect) bool {
	overlapX := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	overlapY := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	return (overlapX == 0 && overlapY > 0) || (overlapY == 0 && overlapX > 0)
}

// The Asian racetrack (002 §3.2) is drawn below the ring when the table has one: one box a
// group, labelled with its numbers in wheel order, each hit at its centre as the group's
// Asian Neighbour, none overlapping the ring; a table without one draws nothing more.
func TestRule002_3_2_AsianRacetrackDrawn(t *testing.T) {
	for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
		rt, err := NewRacetrack(w)
		if err != nil {
			t.Fatal(err)
		}
		ring := rt.Bounds
		rt.AddAsian(roulette.AsianGroups{})
		if len(rt.Asian) != 0 || rt.Bounds != ring {
			t.Fatalf("%v: a table without an Asian racetrack drew %d groups", w, len(rt.Asian))
		}
		g := roulette.DefaultAsianGroups(w)
		rt.AddAsian(g)
		if len(rt.Asian) != 12 {
			t.Fatalf("%v: %d Asian boxes, want 12", w, len(rt.Asian))
		}
		for i, r := range rt.Asian {
			if r.Target.Group != g[i] || r.Target.Call != 0 {
				t.Errorf("%v: box %d is %+v, want group %v", w, i, r.Target, g[i])
			}
			if r.Rect.Min.Y < ring.Max.Y || !rt.Bounds.Contains(r.Rect.Centre()) {
				t.Errorf("%v: box %s at %v overlaps the ring %v or leaves the bounds %v", w, r.Label, r.Rect, ring, rt.Bounds)
			}
			if got, ok := rt.Hit(r.Rect.Centre()); !ok || got.Target != r.Target {
				t.Errorf("%v: centre of %s hits %+v", w, r.Label, got.Target)
			}
			b := r.Target.Bet(2)
			if b.Spot.Kind != roulette.AsianNeighbour || b.Spot.Mask != g[i] {
				t.Errorf("%v: box %s places %v", w, r.Label, b)
			}
		}
		// Labels in wheel order: the first single-zero group is 32 15 19, as the ring reads.
		if w == roulette.SingleZero && rt.Asian[0].Label != "32 15 19" {
			t.Errorf("first group labelled %q, want \"32 15 19\"", rt.Asian[0].Label)
		}
	}
}
