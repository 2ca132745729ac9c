package ui

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// The three designs are three screens (SPEC §7; issue 18: A and U were pixel-identical, L one
// grey line apart): L shows the three period states as lamps and the note buy-in as a sign, U
// the chip account, amount bet and amount won as meters and its own control set; and each
// pair of renders differs in the side panel by more than a line.
func TestDesignsDiffer(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	size := fyne.NewSize(1920, 1080)
	renders := map[string]image.Image{}
	texts := map[string][]string{}
	for _, d := range diagrams.Designs {
		s, _, _, w := screenAt(t, d, l, size)
		w.SetPadded(false)
		s.update(s.term.View())
		renders[d.Name] = w.Canvas().Capture()
		texts[d.Name] = shownTexts(test.RenderToMarkup(w.Canvas()))
		if (s.lamps != nil) != (d.Name == "L") || (s.wonMeter != nil) != (d.Name == "U") {
			t.Errorf("Diagram %s: lamps %v, meters %v", d.Name, s.lamps != nil, s.wonMeter != nil)
		}
	}
	for _, want := range []string{"OPEN", "CLOSING", "NO MORE BETS", "Insert notes or a ticket to buy in"} {
		if !shows(texts["L"], want) {
			t.Errorf("Diagram L does not show %q", want)
		}
	}
	for _, want := range []string{"CHIP ACCOUNT", "AMOUNT BET", "AMOUNT WON", "Remove all", "Remove last", "Repeat", "Help", "Cash out"} {
		if !shows(texts["U"], want) {
			t.Errorf("Diagram U does not show %q", want)
		}
	}
	if shows(texts["U"], "Double") {
		t.Error("Diagram U shows Double, which is not in its control set")
	}
	if !shows(texts["A"], "Double") || shows(texts["A"], "CHIP ACCOUNT") || shows(texts["A"], "NO MORE BETS") {
		t.Error("Diagram A has taken another design's elements")
	}
	panel := image.Rect(int(size.Width)-sidePanelWidth, 0, int(size.Width), 400)
	for _, p := range [][2]string{{"A", "L"}, {"A", "U"}, {"L", "U"}} {
		a, b := renders[p[0]], renders[p[1]]
		diff := 0
		for y := panel.Min.Y; y < panel.Max.Y; y++ {
			for x := panel.Min.X; x < panel.Max.X; x++ {
				r1, g1, b1, _ := a.At(x, y).RGBA()
				r2, g2, b2, _ := b.At(x, y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 {
					diff++
				}
			}
		}
		if diff < 5000 {
			t.Errorf("Diagrams %s and %s differ in %d pixels of the side panel's top", p[0], p[1], diff)
		}
	}
}

// L's lamps: the one of the period in force lit, none outside the three.
func TestPeriodLamps(t *testing.T) {
	test.NewTempApp(t)
	l := newPeriodLamps()
	for p, want := range map[app.Period]int{app.PeriodOpen: 0, app.PeriodWarning: 1, app.PeriodNoMoreBets: 2, app.PeriodResult: -1, app.PeriodWaiting: -1} {
		l.set(p)
		for i, lamp := range l.lamps {
			if lit := lamp.bg.FillColor == lamp.lit; lit != (i == want) {
				t.Errorf("period %v: lamp %d (%s) lit %v", p, i, lamp.text.Text, lit)
			}
		}
	}
}
