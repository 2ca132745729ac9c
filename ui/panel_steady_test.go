package ui

// Issue 32 point 22: the side panel jumped 6–9 px when the message line changed. Nothing on the
// screen but the message line's words changes with them.

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

func TestMessageLineMovesNothingElse(t *testing.T) {
	restoreLanguage(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			for _, d := range diagrams.Designs {
				test.NewTempApp(t)
				s, term, _, w := screenAt(t, d, l, size)
				s.OfferLanguages(func(string) {})
				w.SetPadded(false)
				w.Resize(size)
				w.Content().Refresh()
				watched := []fyne.CanvasObject{s.status, s.countdown, s.balance, s.bet, s.stats.box, s.history, s.limits.box,
					s.felt, s.Elements[diagrams.ElemRacetrack], s.chips, s.controlsRow, s.messageView}
				places := func() (out []string) {
					for _, o := range watched {
						p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
						out = append(out, fmt.Sprintf("%T %v %v", o, p, o.Size()))
					}
					return out
				}
				before := places()
				minBefore := s.Content().MinSize()
				for _, m := range []string{
					"Straight 17: above the maximum, reduced to the next lowest permitted wager of A$25.00",
					"Short",
					"The table minimum per spin is A$5.00: wagers of A$1.00 on the layout are not enough; add A$4.00 before the end of betting or they are returned, and this is a long message that needs two lines",
					"",
				} {
					v := term.View()
					v.Message.Msg = msg.New(m)
					s.update(v)
					// As the cabinet's driver does: the objects whose smallest size changed are
					// laid out again, up to the window.
					w.Content().Refresh()
					after := places()
					if m2 := s.Content().MinSize(); m2 != minBefore {
						t.Errorf("%s %s %v, message %q: the screen's smallest size %v, was %v", language, d.Name, size, m, m2, minBefore)
					}
					for i := range before {
						if before[i] != after[i] {
							t.Errorf("%s %s %v, message %q: %s moved to %s", language, d.Name, size, m, before[i], after[i])
						}
					}
				}
			}
		}
	}
}
