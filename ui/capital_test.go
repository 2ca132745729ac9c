package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Issue 32 point 22: the message line starts with a capital, even where the message begins
// with a bet's name ("straight 17: …"), and a wager reduced to the maximum says to what.
func TestMessageLineStartsWithACapital(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	s17, _ := l.Inside(roulette.Straight, []roulette.Number{17})
	term.SelectChip(10000)
	r, _ := s.geom.Region(s17)
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	s.update(term.View())
	if got := s.message.Text; !strings.HasPrefix(got, "Straight 17: above the maximum") {
		t.Fatalf("a straight-up over its maximum: the line says %q", got)
	}
	if max := testLimits.For(roulette.Straight).Max; !strings.HasSuffix(s.message.Text, s.cash(max)) {
		t.Fatalf("the line says %q: not the %s it was reduced to", s.message.Text, s.cash(max))
	}
}
