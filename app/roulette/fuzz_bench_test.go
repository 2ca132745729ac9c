package roulette

import (
	"testing"
)

// FuzzPlace checks rule 4.3 as properties: never more than attempted or available, always a
// permitted amount or nothing, and the largest such amount.
func FuzzPlace(f *testing.F) {
	f.Add(int64(100), int64(5000), int64(100), int64(2350), int64(-1), int64(-1))
	f.Add(int64(500), int64(0), int64(250), int64(900), int64(800), int64(-1))
	f.Add(int64(1), int64(1), int64(0), int64(1), int64(0), int64(3))
	f.Fuzz(func(t *testing.T, min, max, unit, attempt, available, room int64) {
		lim := Limit{Min: min, Max: max, Unit: unit}
		if lim.Validate() != nil || unit > 1e6 {
			return
		}
		ls := Limits{Default: lim}
		got, why := ls.PlaceOnTable(Split, attempt, available, room)
		if got < 0 || got > max64(attempt, 0) {
			t.Fatalf("%+v attempt %d: placed %d", lim, attempt, got)
		}
		if available >= 0 && got > available || room >= 0 && got > room {
			t.Fatalf("%+v: placed %d over available %d / room %d", lim, got, available, room)
		}
		if got != 0 && !lim.Permitted(got) {
			t.Fatalf("%+v: placed %d, not a permitted amount", lim, got)
		}
		if got != attempt && why == ReasonNone && attempt > 0 {
			t.Fatalf("%+v: %d became %d without a reason", lim, attempt, got)
		}
		if attempt < min {
			if got != 0 {
				t.Fatalf("%+v: %d below the minimum placed as %d", lim, attempt, got)
			}
			return
		}
		// Maximal: the next permitted amount up would break a bound.
		step := max64(unit, 1)
		next := got + step
		if got == 0 {
			next = min
		}
		ceiling := attempt
		if max > 0 {
			ceiling = min64(ceiling, max)
		}
		if available >= 0 {
			ceiling = min64(ceiling, available)
		}
		if room >= 0 {
			ceiling = min64(ceiling, room)
		}
		if next <= ceiling && lim.Permitted(next) {
			t.Fatalf("%+v attempt %d avail %d room %d: placed %d but %d was permitted", lim, attempt, available, room, got, next)
		}
	})
}

// FuzzPlaceCall checks call-bet clamping against a brute-force search.
func FuzzPlaceCall(f *testing.F) {
	f.Add(int64(100), int64(2500), int64(100), int64(1300), int64(-1), uint8(2))
	f.Add(int64(300), int64(0), int64(300), int64(850), int64(-1), uint8(1))
	f.Add(int64(100), int64(900), int64(50), int64(333), int64(4000), uint8(2))
	f.Fuzz(func(t *testing.T, min, max, unit, per, available int64, which uint8) {
		calls := []Call{Tier, Orphelins, Voisins, ZeroGame, Neighbours}
		c := calls[int(which)%len(calls)]
		pieces, err := Layout{Wheel: SingleZero, Profile: CrownRapid}.CallPieces(c, 17, 0)
		if err != nil {
			t.Fatal(err)
		}
		lim := Limit{Min: min, Max: max, Unit: unit}
		if lim.Validate() != nil || per > 20000 || per < 0 || unit > 5000 {
			return
		}
		ls := Limits{Default: lim, PerKind: map[Kind]Limit{Straight: {Min: min, Max: max, Unit: unit * 2}}}
		if ls.Validate() != nil {
			return
		}
		got, _ := ls.PlaceCall(pieces, per, available)
		want := int64(0)
		below := false
		for _, p := range pieces {
			if p.Units*per < ls.For(p.Spot.Kind).Min {
				below = true
			}
		}
		if !below {
			for a := per; a >= 1; a-- {
				if (available < 0 || a*Units(pieces) <= available) && bruteAllPermitted(ls, pieces, a) {
					want = a
					break
				}
			}
		}
		if got != want {
			t.Fatalf("%v per %d avail %d limits %+v: got %d, brute force %d", c, per, available, ls, got, want)
		}
	})
}

// bruteAllPermitted is the oracle's own check: every piece's stake a permitted amount.
func bruteAllPermitted(l Limits, pieces []Piece, perPiece int64) bool {
	for _, p := range pieces {
		if !l.For(p.Spot.Kind).Permitted(p.Units * perPiece) {
			return false
		}
	}
	return true
}

func max64(a, b int64) int64 { return max(a, b) }
func min64(a, b int64) int64 { return min(a, b) }

// A slip of 200 wagers across the layout, settled on each outcome in turn.
func BenchmarkSettle200(b *testing.B) {
	l := Layout{Wheel: SingleZero, Profile: CrownRapid}
	spots := l.Spots()
	ws := make([]Wager, 200)
	for i := range ws {
		ws[i] = Wager{spots[(i*7)%len(spots)], int64(100 * (i%5 + 1))}
	}
	var sink int64
	i := 0
	for b.Loop() {
		sink += Settle(ws, Number(i%37))
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/200, "ns/wager")
	_ = sink
}

// Placing one chip: the limit check the screen runs on every touch.
func BenchmarkPlace(b *testing.B) {
	lim := Limits{
		Default: Limit{Min: 100, Max: 50000, Unit: 100},
		PerKind: map[Kind]Limit{Straight: {Min: 100, Max: 2500, Unit: 100}},
	}
	var sink int64
	i := int64(0)
	for b.Loop() {
		got, _ := lim.Place(Straight, 100+i%3000, 1_000_000)
		sink += got
		i++
	}
	_ = sink
}

// Placing a voisins bet, the heaviest call bet.
func BenchmarkPlaceCallVoisins(b *testing.B) {
	pieces, _ := Layout{Wheel: SingleZero, Profile: CrownRapid}.CallPieces(Voisins, 0, 0)
	lim := Limits{Default: Limit{Min: 100, Max: 2500, Unit: 100}}
	for b.Loop() {
		lim.PlaceCall(pieces, 1300, 1_000_000)
	}
}

// Building a spot from a touch's numbers (validation against the layout).
func BenchmarkInside(b *testing.B) {
	l := Layout{Wheel: SingleZero, Profile: CrownRapid}
	ns := []Number{17, 18, 20, 21}
	for b.Loop() {
		if _, err := l.Inside(Corner, ns); err != nil {
			b.Fatal(err)
		}
	}
}
