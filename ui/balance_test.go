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

// 001 §3.2.2, 000 §10.4.2, §11.4.2 (issue 32 point 2): the BALANCE drops as chips are placed, by
// what they stake; Cash out still offers the chip account's whole balance.
func TestRule001_3_2_2_BalanceDropsAsChipsArePlaced(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, w := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	red, _ := l.Outside(roulette.Red, 0)
	test.Tap(findChip(t, s.Content(), "5"))
	r, _ := s.geom.Region(red)
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	s.update(term.View())
	if s.balance.Text != "990.00" || s.bet.Text != "10.00 …" && s.bet.Text != "10.00" {
		t.Fatalf("BET %q with BALANCE %q, want 990.00", s.bet.Text, s.balance.Text)
	}
	test.Tap(findButton(t, s.Content(), "Cash out"))
	var asked string
	walkObjects(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Cash out") {
			asked = l.Text
		}
	})
	if !strings.Contains(asked, "1,000.00") {
		t.Fatalf("Cash out asks %q: the ticket is for the whole chip account", asked)
	}
}
