package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Every bet spot of every layout is reached by a tap at its centre on the drawn felt, at both
// kiosk resolutions, and by no other spot's centre.
func TestFeltTapAtEveryCentre(t *testing.T) {
	test.NewTempApp(t)
	layouts := []roulette.Layout{
		{Wheel: roulette.SingleZero},
		{Wheel: roulette.DoubleZero, Profile: roulette.CrownRapid},
		{Wheel: roulette.DoubleZero, Profile: roulette.Star},
		{Wheel: roulette.DoubleZero, Profile: roulette.CrownFH},
		{Wheel: roulette.DoubleZero, Profile: roulette.CrownVW},
	}
	for _, l := range layouts {
		g, err := diagrams.New(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []fyne.Size{{Width: 1920, Height: 700}, {Width: 1280, Height: 520}} {
			f := NewFelt(g)
			f.Resize(size)
			var got diagrams.Region
			taps := 0
			f.OnTapped = func(r diagrams.Region) { got = r; taps++ }
			for _, r := range g.Regions {
				taps = 0
				test.TapAt(f, f.ToScreen(r.Centre))
				if taps != 1 || got.Spot != r.Spot {
					t.Errorf("%v at %v: tap at the centre of %v placed %v (%d taps)", l, size, r.Spot, got.Spot, taps)
				}
			}
		}
	}
}

func TestFeltMarkup(t *testing.T) {
	test.NewTempApp(t)
	g, err := diagrams.New(roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, NewFelt(g))
	w.Resize(fyne.NewSize(1400, 500))
	test.AssertRendersToMarkup(t, "felt_single_zero.xml", w.Canvas())
	// The boxes, labels and markers are one picture (a raster), so the markup cannot show them:
	// the picture itself is matched.
	test.AssertRendersToImage(t, "felt_single_zero.png", w.Canvas())
}
