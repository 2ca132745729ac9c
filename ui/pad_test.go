package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// Issue 32 point 19, 000 §11.4.2(a): at a table that requires the player-ID pad, the screen
// says so before any tap — "Touch your player-ID pad to bet", the words of the refusal too —
// and a touch of the pad is shown as read. A table without the pad shows no such sign.
func TestRule000_11_4_2_PadSignOnTheScreen(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, required := range []bool{true, false} {
		term, _ := terminalWith(t, l, func(s *table.Snapshot) { s.Config.IDPadRequired = required })
		s, err := NewScreen(term, diagrams.DiagramU, l)
		if err != nil {
			t.Fatal(err)
		}
		w := test.NewTempWindow(t, s.Content())
		w.Resize(fyne.NewSize(1280, 800))
		texts := shownTexts(test.RenderToMarkup(w.Canvas()))
		if got := shows(texts, "Touch your player-ID pad to bet"); got != required {
			t.Fatalf("pad required %v: the sign shown %v (%q)", required, got, texts)
		}
		if !required {
			continue
		}
		term.PadTouched(true)
		s.update(term.View())
		if texts := shownTexts(test.RenderToMarkup(w.Canvas())); !shows(texts, "Player-ID pad read: place your bets") {
			t.Errorf("the touch is not shown: %q", texts)
		}
	}
}
