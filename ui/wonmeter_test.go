package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
)

// 000 §11.2 (issue 32 point 22): Diagram U's AMOUNT WON is the round's: the figure of the
// round just settled while its result shows, 0.00 once the next round opens.
func TestAmountWonIsThisRounds(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramU, l, fyne.NewSize(1920, 1080))
	link.Push(table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R7"})
	link.Push(table.Settled{RoundID: "R7", Number: 17, Recognised: true, Staked: 500, Returned: 18000, Balance: 117500})
	if !testwait.For(3*time.Second, func() bool { return term.View().LastWin != nil }) {
		t.Fatal("never settled")
	}
	s.update(term.View())
	if s.wonMeter.Text != "180.00" {
		t.Fatalf("at the result AMOUNT WON reads %q", s.wonMeter.Text)
	}
	link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R8", Deadline: t0.Add(time.Minute)})
	if !testwait.For(3*time.Second, func() bool { return term.View().RoundID == "R8" }) {
		t.Fatal("no next round")
	}
	s.update(term.View())
	if s.wonMeter.Text != "0.00" {
		t.Fatalf("in the next round AMOUNT WON still reads %q", s.wonMeter.Text)
	}
}
