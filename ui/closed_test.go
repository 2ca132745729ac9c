package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// Issue 32 point 9: after NO MORE BETS the betting controls looked live — the racetrack in full
// colour and Remove last, Remove all, Repeat and Double enabled — though the table takes no
// chips. Every design, once the layout is closed: the racetrack is under the felt's veil and
// the betting buttons are disabled; they come back when the next round opens.
func TestNoMoreBetsLeavesNoControlLookingLive(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, d := range diagrams.Designs {
		s, term, link, _ := screenAt(t, d, l, fyne.NewSize(1920, 1080))
		term.Place(roulette.Bet{Spot: roulette.Spot{Kind: roulette.Straight, Mask: roulette.MaskOf(17)}})
		s.update(term.View())
		if live := bettingButtons(t, s); len(live) == 0 {
			t.Fatalf("design %s: no betting button enabled while wagering", d.Name)
		}
		if veiled(s.track) {
			t.Errorf("design %s: the racetrack veiled while wagering", d.Name)
		}
		link.Push(table.Snapshot{
			Config: term.View().Config, Phase: table.PhaseNoMoreBets, RoundID: "R7",
			Limits: testLimits, Balance: 100000, AccountOpen: true,
		})
		waitView(t, term, "no more bets", func(v app.View) bool { return v.Period == app.PeriodNoMoreBets })
		s.update(term.View())
		if live := bettingButtons(t, s); len(live) > 0 {
			t.Errorf("design %s: after NO MORE BETS %q still enabled", d.Name, live)
		}
		if !veiled(s.track) {
			t.Errorf("design %s: after NO MORE BETS the racetrack is in full colour", d.Name)
		}
	}
}

// bettingButtons are the labels of the betting controls (Remove last, Remove all, Repeat,
// Double) that are enabled.
func bettingButtons(t *testing.T, s *Screen) []string {
	t.Helper()
	var live []string
	for _, e := range []diagrams.Element{diagrams.ElemRemoveLast, diagrams.ElemRemoveAll, diagrams.ElemRepeat, diagrams.ElemDouble} {
		if b, ok := s.Elements[e].(interface {
			Disabled() bool
		}); ok && !b.Disabled() && s.Elements[e].Visible() {
			live = append(live, string(e))
		}
	}
	return live
}

// veiled reports whether the racetrack draws the closed layout's veil over itself.
func veiled(r *Racetrack) bool {
	for _, o := range test.WidgetRenderer(r).Objects() {
		if rc, ok := o.(*canvas.Rectangle); ok && rc.Visible() && rc.FillColor == color.Color(closedDim) {
			return true
		}
	}
	return false
}

// Issue 32 point 9: the result dropped AMOUNT BET to 0.00 while AMOUNT WON showed the win, so
// a player could not set the stake beside the win. Until the next round opens the amount bet
// is the settled round's stake: 25 on 17 and 1 on the split 17/20 (126.00 with 100 on red).
func TestResultKeepsTheStakeBesideTheWin(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	snap := tableSnap(l, table.PhaseNoMoreBets)
	snap.Slip = ackedSlip(t, l, "R42", inside(t, l, roulette.Straight, 2500, 17), inside(t, l, roulette.Split, 100, 17, 20),
		outside(t, l, roulette.Red, 0, 10000))
	link.Push(snap)
	waitView(t, term, "the slip", func(v app.View) bool { return v.SlipTotal == 12600 })
	s.update(term.View())
	if s.bet.Text != "126.00" {
		t.Fatalf("no more bets: amount bet %q, want 126.00", s.bet.Text)
	}
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R42", Number: 17, At: t0}})
	link.Push(table.Settled{RoundID: "R42", Number: 17, Recognised: true, Staked: 12600, Returned: 91800, Balance: 179200})
	link.Push(table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R42"})
	waitView(t, term, "the result", func(v app.View) bool { return v.Period == app.PeriodResult && len(v.Result) > 0 })
	s.update(term.View())
	if s.bet.Text != "126.00" || s.won.Text == "" {
		t.Errorf("result: amount bet %q beside amount won %q, want the stake 126.00", s.bet.Text, s.won.Text)
	}
	// The tab under a winning chip is what it won over its stake ("+15" on a 5 dozen was the
	// return, read as profit): 25 on 17 won 875, 1 on the split won 17.
	s.felt.Refresh()
	tabs := map[string]string{}
	for _, c := range test.WidgetRenderer(s.felt).(*feltRenderer).drawn {
		if c.won > 0 {
			tabs[money(c.amount)] = "+" + money(c.won)
		}
	}
	if tabs["25"] != "+875" || tabs["1"] != "+17" {
		t.Errorf("the winning chips' tabs read %v, want 25: +875 and 1: +17", tabs)
	}
}
