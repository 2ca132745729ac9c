package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// On the screen: Save favourite keeps the chips on the layout, a button for it appears beside
// the chips, and a touch on it after Remove all puts the same chips back.
func TestFavouritesOnTheScreen(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramU, l, fyne.NewSize(1280, 800))
	test.Tap(findButton(t, s.Content(), "Save favourite"))
	if !strings.Contains(shown(s), "Place some bets first") {
		t.Errorf("saving an empty slip said %q", shown(s))
	}

	s17, err := l.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	red, err := l.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	test.Tap(findChip(t, s.Content(), "5"))
	for _, sp := range []roulette.Spot{s17, red} {
		r, _ := s.geom.Region(sp)
		test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	}
	test.Tap(findButton(t, s.Content(), "Save favourite"))
	if shown(s) != "Saved as a favourite: 10.00" {
		t.Errorf("saving said %q", shown(s))
	}
	test.Tap(findButton(t, s.Content(), "Remove all"))
	s.update(term.View())
	if chips := feltChips(s); len(chips) != 0 {
		t.Fatalf("after Remove all: %v", chips)
	}
	test.Tap(findButton(t, s.Content(), "Favourite 10.00"))
	s.update(term.View())
	if chips := feltChips(s); len(chips) != 2 || chips[s17] != "5" || chips[red] != "5" {
		t.Errorf("the favourite placed %v", chips)
	}
}

// Cash out ends the session, so it asks first, with the amount the ticket will carry: Keep
// playing changes nothing, Cash out prints.
func TestCashOutAsksFirst(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, _, _, w := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	test.Tap(findButton(t, s.Content(), "Cash out"))
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Cash out asked nothing")
	}
	var asked string
	walkObjects(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Cash out") {
			asked = l.Text
		}
	})
	if asked != "Cash out 1,000.00? A ticket is printed for your whole balance." {
		t.Fatalf("asked %q", asked)
	}
	test.Tap(findButton(t, top, "Keep playing"))
	if w.Canvas().Overlays().Top() != nil || strings.Contains(shown(s), "Printing") {
		t.Fatalf("Keep playing cashed out: %q", shown(s))
	}
	test.Tap(findButton(t, s.Content(), "Cash out"))
	test.Tap(findButton(t, w.Canvas().Overlays().Top(), "Cash out"))
	if w.Canvas().Overlays().Top() != nil || shown(s) != "Printing your ticket" {
		t.Fatalf("confirmed: the line says %q", shown(s))
	}
}
