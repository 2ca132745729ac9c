package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Issue 32 point 5: the call-bet line showed the amount per piece where a player reads what the
// bet costs. Voisins at 1 a piece costs 9 (nine units); neighbours 17 ± 3 at 5 a piece costs 35
// (seven numbers). The line says the cost.
func TestCallBetLineShowsWhatTheBetCosts(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, c := range []struct {
		bet  roulette.Bet
		chip int64
		want string
	}{
		{roulette.Bet{Call: roulette.Voisins}, 100, "voisins 9"},
		{roulette.Bet{Call: roulette.Neighbours, Centre: 17, Spread: 3}, 500, "neighbours 17±3 35"},
	} {
		s, term, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
		term.SelectChip(c.chip)
		term.Place(c.bet)
		waitView(t, term, "the call bet", func(v app.View) bool { return len(v.Stakes) == 1 })
		s.update(term.View())
		if s.calls.Text != c.want {
			t.Errorf("%v at %d a piece: the line reads %q, want %q (its cost)", c.bet, c.chip, s.calls.Text, c.want)
		}
	}
}
