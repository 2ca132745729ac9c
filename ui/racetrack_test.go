package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

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
