package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// Issue 32 point 20: the closure notice (001 §12.7) was on the message line only and the first
// refusal replaced it. It is a sign of its own: after a refused tap the message line gives the
// refusal and the sign still gives the time of closure and the minutes left.
func TestRule001_12_7_ClosureSignStaysThroughARefusal(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, d := range []diagrams.Design{diagrams.DiagramA, diagrams.DiagramU} {
		s, w := stateScreen(t, stateCase{file: "closing", design: d, layout: l, events: func(t *testing.T, l roulette.Layout) []table.Event {
			snap := tableSnap(l, table.PhaseNoMoreBets)
			snap.ClosingAt = t0.Add(24*time.Minute + 30*time.Second)
			return []table.Event{up, snap}
		}})
		w.Resize(fyne.NewSize(1280, 800))
		red, _ := l.Outside(roulette.Red, 0)
		if _, err := s.term.Place(roulette.Bet{Spot: red}); err == nil {
			t.Fatal("a wager after no more bets was taken")
		}
		shown(s)
		texts := shownTexts(test.RenderToMarkup(w.Canvas()))
		want := "This table closes at " + t0.Add(24*time.Minute+30*time.Second).Local().Format("15:04") + ": 25 min left"
		if !shows(texts, "No more bets: the wagering period has ended") || !shows(texts, want) {
			t.Errorf("%s: after a refused tap the screen shows %q; want the refusal and %q", d.Name, texts, want)
		}
	}
}
