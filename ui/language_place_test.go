package ui

// Issue 32 point 6: a language change moves nothing under a finger. After 中文 the Help
// button's place held "English", so a touch meant for Help switched the language back; and
// the neighbours spread chosen went back to 2.

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// controlPlaces are the places of the controls row's right-hand buttons — the language, Help,
// Game records, Cash out — on the screen.
func controlPlaces(s *Screen) (places [4][2]fyne.Position) {
	d := fyne.CurrentApp().Driver()
	for i, o := range s.controls.Objects {
		p := d.AbsolutePositionForObject(o)
		places[i] = [2]fyne.Position{p, p.Add(o.Size())}
	}
	return places
}

// spreadOf is the neighbours spread a screen shows chosen.
func spreadOf(s *Screen) int { return s.spreadSel.Selected() + 1 }

func TestLanguageChangeMovesNoButtonAndKeepsTheSpread(t *testing.T) {
	restoreLanguage(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		for _, d := range diagrams.Designs {
			if err := SetLanguage("en"); err != nil {
				t.Fatal(err)
			}
			test.NewTempApp(t)
			en, term, _, w := screenAt(t, d, l, size)
			en.OfferLanguages(func(string) {})
			en.OfferSound()
			w.SetPadded(false)
			w.Resize(size)
			w.Content().Refresh()
			// The player chooses a spread of 4 on the English screen.
			seg := en.spreadSel
			test.TapAt(seg, fyne.NewPos(seg.Size().Width*7/8, seg.Size().Height/2))
			before := controlPlaces(en)

			if err := SetLanguage("zh_Hans"); err != nil {
				t.Fatal(err)
			}
			zh, err := NewScreen(term, d, l)
			if err != nil {
				t.Fatal(err)
			}
			zh.TakeOver(en)
			zh.OfferLanguages(func(string) {})
			zh.OfferSound()
			w.SetContent(zh.Content())
			w.Resize(size)
			w.Content().Refresh()
			after := controlPlaces(zh)
			names := [4]string{"the language button", "Help", "Game records", "Cash out"}
			for i := range before {
				if before[i] != after[i] {
					t.Errorf("%s %v: %s stands at %v in English, at %v in 中文", d.Name, size, names[i], before[i], after[i])
				}
			}
			if got := spreadOf(zh); got != 4 {
				t.Errorf("%s %v: the spread is %d after 中文, the player chose 4", d.Name, size, got)
			}
		}
	}
}
