package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
)

// Help opens over the layout with the payouts from the rules engine and this table's limits.
func TestHelpScreen(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, w := screenAt(t, diagrams.DiagramU, l, fyne.NewSize(1920, 1080))
	txt := helpText(term.View())
	for k := roulette.Straight; k <= roulette.Black; k++ {
		if !strings.Contains(txt, k.String()) {
			t.Errorf("help has no line for %v", k)
		}
	}
	for _, want := range []string{"straight    35", "split       17", "dozen        2", "red          1",
		"straight   1.00 – 25.00, in steps of 1.00", "red        1.00 – 500.00", "Table minimum per spin 5.00", "void and returned"} {
		if !strings.Contains(txt, want) {
			t.Errorf("help lacks %q:\n%s", want, txt)
		}
	}
	if strings.Contains(txt, "Lucky Ball") {
		t.Error("Lucky Ball help on a table without it")
	}
	test.Tap(findButton(t, s.Content(), "Help"))
	if w.Canvas().Overlays().Top() == nil {
		t.Fatal("Help opened nothing")
	}
	// The player's call to the dealer (001 §9.5) is on the help screen: it reaches the table and
	// the message line says so.
	test.Tap(findButton(t, w.Canvas().Overlays().Top(), "Call the dealer: a wrong result or a fault"))
	if !testwait.For(5*time.Second, func() bool {
		return len(link.Calls()) == 1 && term.View().Message.Msg.Key == "The dealer has been called and will come to you"
	}) {
		t.Fatalf("the call: %v, message %q", link.Calls(), term.View().Message.Msg.String())
	}
	test.Tap(findButton(t, w.Canvas().Overlays().Top(), "Close"))
	if w.Canvas().Overlays().Top() != nil {
		t.Error("Close left the help open")
	}
}

// The help screen lists the Asian Neighbour's payout and limits only where the table has an
// Asian racetrack (002 §3.2).
func TestRule002_3_2_HelpListsTheAsianNeighbour(t *testing.T) {
	v := app.View{Config: table.TableConfig{Layout: roulette.Layout{Wheel: roulette.SingleZero}}, Limits: testLimits}
	if strings.Contains(helpText(v), T("asian-neighbour")) {
		t.Error("help offers an Asian Neighbour on a table without the racetrack")
	}
	v.Config.Layout.Asian = roulette.DefaultAsianGroups(roulette.SingleZero)
	if got := helpText(v); strings.Count(got, T("asian-neighbour")) != 2 || !strings.Contains(got, T("asian-neighbour")+"  11") {
		t.Errorf("help on a table with the racetrack:\n%s", got)
	}
}

// The help screen is laid out for reading from the seat: headings, paragraphs, and the payout
// table in columns — each bet with its odds from the rules engine and this table's limits on
// one row of the grid, whatever the language's word lengths.
func TestHelpScreenTable(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	v := term.View()
	var grid *fyne.Container
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *container.ThemeOverride:
			walk(x.Content)
		case *container.Scroll:
			walk(x.Content)
		case *fyne.Container:
			if len(x.Objects) == 5*(int(roulette.Black-roulette.Straight)+2) {
				grid = x
			}
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(helpView(v, s.sizing))
	if grid == nil {
		t.Fatal("no payout table of five columns, a row per bet kind and a heading row")
	}
	cells := func(row int) []string {
		var out []string
		for _, o := range grid.Objects[row*5 : row*5+5] {
			out = append(out, o.(*widget.Label).Text)
		}
		return out
	}
	for i, k := 1, roulette.Straight; k <= roulette.Black; i, k = i+1, k+1 {
		lim := v.Limits.For(k)
		want := []string{k.String(), fmt.Sprintf("%d to 1", k.Odds()), amount(lim.Min), amount(lim.Max), amount(lim.Unit)}
		if got := cells(i); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %d: %v, want %v", i, got, want)
		}
	}
}
