package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Every number and sector of the racetrack, and every group of the Asian racetrack, is reached
// by a tap at its centre.
func TestRacetrackTaps(t *testing.T) {
	test.NewTempApp(t)
	for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
		rt, err := diagrams.NewRacetrack(w)
		if err != nil {
			t.Fatal(err)
		}
		rt.AddAsian(roulette.DefaultAsianGroups(w)) // and every group of the Asian racetrack (002 §3.2)
		r := NewRacetrack(rt)
		r.Resize(fyne.NewSize(1300, 220))
		var got diagrams.TrackRegion
		r.OnTapped = func(reg diagrams.TrackRegion) { got = reg }
		for _, reg := range append(append(append([]diagrams.TrackRegion{}, rt.Numbers...), rt.Sectors...), rt.Asian...) {
			got = diagrams.TrackRegion{}
			test.TapAt(r, r.ToScreen(reg.Rect.Centre()))
			if got.Target != reg.Target {
				t.Errorf("%v: tap on %s gave %+v", w, reg.Label, got.Target)
			}
		}
	}
}

// The racetrack's inner band is never an empty black strip (issue 32 point 10): on a
// double-zero wheel, which has no sector bets to put there, it is felt with words saying what
// the racetrack is for. Every point along the band's middle is drawn in felt green or in the
// words' colour, not the background, on both wheels.
func TestRacetrackInnerBandIsNeverEmpty(t *testing.T) {
	test.NewTempApp(t)
	for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
		rt, err := diagrams.NewRacetrack(w)
		if err != nil {
			t.Fatal(err)
		}
		r := NewRacetrack(rt)
		win := test.NewTempWindow(t, r)
		win.SetPadded(false)
		win.Resize(fyne.NewSize(950, 150))
		img := win.Canvas().Capture()
		mid := (rt.Bounds.Min.Y + rt.Bounds.Max.Y) / 2
		background, empty := theme.Color(theme.ColorNameBackground), 0
		for x := rt.Bounds.Min.X + 1.25; x < rt.Bounds.Max.X-1; x += 0.5 {
			p := r.ToScreen(diagrams.Point{X: x, Y: mid})
			pr, pg, pb, _ := img.At(int(p.X), int(p.Y)).RGBA()
			br, bg, bb, _ := background.RGBA()
			if pr>>8 == br>>8 && pg>>8 == bg>>8 && pb>>8 == bb>>8 {
				empty++
			}
		}
		if empty > 0 {
			t.Errorf("%v: %d points of the racetrack's inner band drawn as the background", w, empty)
		}
	}
}
