package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// The screen uses the kiosk's screen at both sizes, on both wheels, in both languages, with the
// language button and the Sound button the kiosk always shows (issue 18, point 11):
//
//   - it fits: its smallest size is within the screen. At 1280×800 the controls row needed 987
//     pixels of a 960-pixel play area, so the real window grew to 1307 pixels and the side
//     panel's right edge (the period status, the limit sign) was off the screen.
//   - no dead felt: the felt's picture is as tall as the felt's place, or as wide, and nearly
//     both (at 1280×800 it had 36-pixel empty bands above and below it);
//   - the racetrack's cells are at least 48 pixels with labels of at least 16 (they were
//     41×41 with 16-pixel labels beside a 200-pixel spread column), and at 1920×1080 as large
//     as they were (72 and more);
//   - the touch targets are where they are drawn: a touch on the spread's last segment and
//     then at the middle of a racetrack cell places a neighbours bet of 4 on that cell's number
//     (TestRacetrackTaps checks the racetrack's mapping; this checks it through the screen,
//     where the spread strip moved both).
func TestKioskSizesUseTheScreen(t *testing.T) {
	restoreLanguage(t)
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		test.NewTempApp(t)
		for _, c := range []struct {
			size           fyne.Size
			cell, label    float32 // the racetrack's least
			feltWidthShare float32 // the felt picture's least share of its place's width
		}{
			{fyne.NewSize(1920, 1080), 70, 26, 0.99},
			{fyne.NewSize(1280, 800), 48, 16, 0.9},
		} {
			for _, wheel := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
				for _, d := range diagrams.Designs {
					l := roulette.Layout{Wheel: wheel}
					s, term, _, w := screenAt(t, d, l, c.size)
					s.OfferLanguages(func(string) {})
					s.OfferSound()
					w.SetPadded(false)
					w.Resize(c.size)
					w.Content().Refresh()
					where := language + " " + d.Name + " " + wheel.String()
					if m := s.Content().MinSize(); m.Width > c.size.Width || m.Height > c.size.Height {
						t.Errorf("%s at %v: the screen needs %v: the window would be larger than the screen", where, c.size, m)
					}
					fb := s.geom.Bounds
					scale, _ := fit(fb, s.felt.Size())
					fw, fh := (fb.Max.X-fb.Min.X)*scale, (fb.Max.Y-fb.Min.Y)*scale
					// Empty felt above and below the picture only where it is as wide as its place:
					// then nothing could use those pixels (12 at 1920×1080 on a double zero).
					if dead := s.felt.Size().Height - fh; dead > 1 && fw < s.felt.Size().Width-1 {
						t.Errorf("%s at %v: %.0f pixels of the felt's height are empty felt", where, c.size, dead)
					}
					if fw < c.feltWidthShare*s.felt.Size().Width {
						t.Errorf("%s at %v: the felt is drawn %.0f wide in %.0f", where, c.size, fw, s.felt.Size().Width)
					}
					cell, _ := fit(s.track.track.Bounds, s.track.Size())
					if cell < c.cell || cell*trackNumberEm < c.label {
						t.Errorf("%s at %v: racetrack cells of %.1f pixels, labels of %.1f; want %.0f and %.0f", where, c.size, cell, cell*trackNumberEm, c.cell, c.label)
					}
					// A touch at the middle of the spread's last segment chooses 4, and one at the
					// middle of the first number on the racetrack bets on its neighbours at 4.
					spread := s.Elements[diagrams.ElemRacetrack].(*fyne.Container).Objects[0].(*fyne.Container).Objects[1]
					seg := fyne.CurrentApp().Driver().AbsolutePositionForObject(spread).Add(fyne.NewPos(spread.Size().Width*7/8, spread.Size().Height/2))
					test.TapCanvas(w.Canvas(), seg)
					reg := s.track.track.Numbers[0]
					mid := s.track.ToScreen(diagrams.Point{X: (reg.Rect.Min.X + reg.Rect.Max.X) / 2, Y: (reg.Rect.Min.Y + reg.Rect.Max.Y) / 2})
					at := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.track).Add(mid)
					test.TapCanvas(w.Canvas(), at)
					v := term.View()
					found := false
					for _, st := range v.Stakes {
						found = found || st.Bet.Call == roulette.Neighbours && st.Bet.Centre == reg.Target.Centre && st.Bet.Spread == 4
					}
					if !found {
						t.Errorf("%s at %v: a touch on %s of the racetrack at %v placed %v", where, c.size, reg.Label, at, v.Stakes)
					}
				}
			}
		}
	}
}

// The recent outcomes of a double-zero table show 00 as its own tile, on green like 0, with no
// red diamond (issue 18, per wheel); red and black numbers keep their colours.
func TestHistoryTilesOfBothZeros(t *testing.T) {
	test.NewTempApp(t)
	for _, c := range []struct {
		n    roulette.Number
		text string
		fill any
		mark bool
	}{
		{roulette.DoubleZeroNumber, "00", numGreen, false},
		{0, "0", numGreen, false},
		{32, "32", numRed, true},
		{17, "17", numBlack, false},
	} {
		tile := newHistoryTile()
		tile.show(c.n, false)
		marked := tile.mark.Visible()
		if tile.num.Text != c.text || tile.bg.FillColor != c.fill || marked != c.mark || !tile.shows() {
			t.Errorf("the tile of %v reads %q on %v (diamond %v), want %q on %v (diamond %v)", c.n, tile.num.Text, tile.bg.FillColor, marked, c.text, c.fill, c.mark)
		}
	}
}
