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
	for _, k := range helpKinds(term.View()) {
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
			if len(x.Objects) == 5*(len(helpKinds(v))+1) {
				grid = x
			}
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(helpView(v, helpFeatures{double: true}, s.sizing))
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
	for i, k := range helpKinds(v) {
		i++ // the heading row first
		lim := v.Limits.For(k)
		want := []string{k.String(), fmt.Sprintf("%d to 1", k.Odds()), amount(lim.Min), amount(lim.Max), amount(lim.Unit)}
		if got := cells(i); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %d: %v, want %v", i, got, want)
		}
	}
}

// Issue 32 point 8: Help is for the table in view. A single-zero table has no five-line (000
// §8.4.1: double zero only), and its racetrack's call bets are explained with what each costs;
// The Star's double-zero table has the five-line and no single-zero sectors, and with Lucky Ball
// on, its odds (standard, Super, Mega: 003 §7.8, §7.10), its limits and that the table plays
// the Mega version. Double, the favourites and the statistics are explained on both.
func TestHelpIsForTheTableInView(t *testing.T) {
	single := app.View{Config: table.TableConfig{Layout: roulette.Layout{Wheel: roulette.SingleZero}, Racetrack: true}, Limits: testLimits}
	txt := helpTextFor(single, helpFeatures{double: true})
	if strings.Contains(txt, "five-line") {
		t.Errorf("a single-zero table's help lists the five-line:\n%s", txt)
	}
	for _, want := range []string{"tier: 6 chips", "voisins: 9 chips, one on each of: 2× street 0-2-3", "orphelins: 5 chips", "zero-game: 4 chips",
		"neighbours: a number and the 2 either side of it on the wheel", "(5 chips)",
		"Double doubles every wager", "Save favourite", "HOT and COLD"} {
		if !strings.Contains(txt, want) {
			t.Errorf("single zero: help lacks %q:\n%s", want, txt)
		}
	}
	if strings.Contains(txt, "LUCKY BALL") {
		t.Error("Lucky Ball help on a table without it")
	}
	star := app.View{Config: table.TableConfig{Layout: roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.Star}, Racetrack: true,
		LuckyBall: true, LuckyBallVersion: roulette.LuckyMega}, Limits: testLimits}
	txt = helpTextFor(star, helpFeatures{})
	for _, want := range []string{"five-line    6", "LUCKY BALL", "red         5 to 1  120 to 1 1000 to 1", "yellow     25 to 1   60 to 1 1000 to 1",
		"SUPER or MEGA (1000 to 1): this table plays the Mega version", "Lucky Ball, each colour: 1.00 – 500.00, in steps of 1.00",
		"neighbours: a number and the 2 either side"} {
		if !strings.Contains(txt, want) {
			t.Errorf("The Star, Lucky Ball Mega: help lacks %q:\n%s", want, txt)
		}
	}
	for _, not := range []string{"tier:", "voisins:", "Double doubles"} {
		if strings.Contains(txt, not) {
			t.Errorf("The Star's double zero (no Double button): help has %q:\n%s", not, txt)
		}
	}
}

// Issue 32 point 8: Help opened as a modal over the whole screen and hid the countdown. It
// opens over the felt and leaves the side panel — the period status and the countdown — in
// view, counting down.
func TestHelpLeavesTheCountdownInView(t *testing.T) {
	test.NewTempApp(t)
	for _, d := range []diagrams.Design{diagrams.DiagramA, diagrams.DiagramL, diagrams.DiagramU} {
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			s, _, _, w := screenAt(t, d, roulette.Layout{Wheel: roulette.SingleZero}, size)
			test.Tap(findButton(t, s.Content(), "Help"))
			top := w.Canvas().Overlays().Top()
			if top == nil {
				t.Fatalf("%s %v: Help opened nothing", d.Name, size)
			}
			drv := fyne.CurrentApp().Driver()
			for _, o := range []fyne.CanvasObject{s.countdown, s.status} {
				p := drv.AbsolutePositionForObject(o)
				for _, c := range top.(*fyne.Container).Objects {
					q := drv.AbsolutePositionForObject(c)
					if q.X < p.X+o.Size().Width && p.X < q.X+c.Size().Width && q.Y < p.Y+o.Size().Height && p.Y < q.Y+c.Size().Height {
						t.Errorf("%s %v: the help (%v %v) covers the countdown or the status (%v %v)", d.Name, size, q, c.Size(), p, o.Size())
					}
				}
			}
			test.Tap(findButton(t, top, "Close"))
		}
	}
}
