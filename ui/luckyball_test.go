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

// TestRule003_7_6_SuperOddsShownOnceChosen: "The screen will indicate the selected number, and
// display the new payout odds" (003 §7.6). Before no more bets the Lucky Ball panel shows the four
// numbers at their standard odds (Table One) and no colour marked; once the table has chosen the
// Super colour, that colour is marked SUPER and shows its Super odds in place of the standard,
// the other three keeping theirs (§7.7).
func TestRule003_7_6_SuperOddsShownOnceChosen(t *testing.T) {
	test.NewTempApp(t)
	draw := roulette.LuckyBallDraw{Version: roulette.LuckyStandard, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	shown := func(d roulette.LuckyBallDraw) map[color.NRGBA][]string {
		got := map[color.NRGBA][]string{}
		walkObjects(luckyBallPanel(&d, d.Version, nil, luckyResult{}, true, false, func(roulette.BallColour) {}), func(o fyne.CanvasObject) {
			if tx, ok := o.(*canvas.Text); ok {
				if c, ok := tx.Color.(color.NRGBA); ok {
					got[c] = append(got[c], tx.Text)
				}
			}
		})
		return got
	}
	check := func(when string, got map[color.NRGBA][]string, want [4][]string) {
		t.Helper()
		for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
			g := got[ballColours[c]]
			if len(g) != len(want[c]) || g[0] != want[c][0] || g[1] != want[c][1] {
				t.Errorf("%s: %s cell shows %q, want %q", when, c, g, want[c])
			}
		}
	}
	check("before no more bets", shown(draw), [4][]string{{"6:1", ""}, {"12:1", ""}, {"20:1", ""}, {"25:1", ""}})
	draw.Super, draw.HasSuper = roulette.BallGreen, true
	check("green chosen", shown(draw), [4][]string{{"6:1", ""}, {"100:1", "SUPER"}, {"20:1", ""}, {"25:1", ""}})
}

// Issue 32 point 18: a Lucky Ball win — the outcome is the number in a colour's border — marks
// that colour's area, and a winning wager shows what it won on a payout tab as the felt's
// chips do ("+30" on a 5 at 6:1), not only "WON" on the status.
func TestLuckyBallWinMarksTheColourAndShowsItsPayoutTab(t *testing.T) {
	test.NewTempApp(t)
	d := &roulette.LuckyBallDraw{Version: roulette.LuckyStandard, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	blue := roulette.LuckyBallSpot(roulette.BallBlue)
	staked := map[roulette.Spot]int64{blue: 500}
	res := luckyResult{winner: roulette.BallBlue, hasWinner: true, won: map[roulette.Spot]int64{blue: 500 * 20}}
	p := luckyBallPanel(d, d.Version, staked, res, false, false, func(roulette.BallColour) {})
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(300, 200))
	var tab bool
	var fills []color.Color
	walkObjects(p, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *canvas.Text:
			tab = tab || x.Text == "+100"
		case *canvas.Rectangle:
			if x.FillColor != nil && x.FillColor != color.Transparent {
				fills = append(fills, x.FillColor)
			}
		}
	})
	if !tab {
		t.Error("the winning Lucky Ball wager has no payout tab +100")
	}
	marked := false
	for _, f := range fills {
		if c, ok := f.(color.NRGBA); ok && c.R == ballColours[roulette.BallBlue].R && c.G == ballColours[roulette.BallBlue].G && c.B == ballColours[roulette.BallBlue].B {
			marked = true
		}
	}
	if !marked {
		t.Errorf("the winning colour's area is not filled with its colour (fills %v)", fills)
	}
}

// Issue 32 point 18: SUPER and MEGA were ~10–12 px, too small to see at a glance; the word is
// drawn large (at least 16, the odds beside it 14).
func TestLuckyBallSuperMegaWordIsLarge(t *testing.T) {
	test.NewTempApp(t)
	d := roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}, Mega: roulette.BallBlue, HasMega: true}
	p := luckyBallPanel(&d, d.Version, nil, luckyResult{}, false, false, func(roulette.BallColour) {})
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(300, 200))
	found := false
	walkObjects(p, func(o fyne.CanvasObject) {
		if x, ok := o.(*canvas.Text); ok && x.Text == "MEGA" {
			found = true
			if x.TextSize < 16 {
				t.Errorf("MEGA drawn at %.0f", x.TextSize)
			}
		}
	})
	if !found {
		t.Fatal("no MEGA")
	}
}

// Issue 32 point 18: a Lucky Ball chip spilled over its area's coloured border. Every part of
// the chip lies inside the border.
func TestLuckyBallChipStaysInsideItsBox(t *testing.T) {
	test.NewTempApp(t)
	d := &roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	for _, amount := range []int64{500, 2600, 250000} { // one chip, a stack, a wide amount
		staked := map[roulette.Spot]int64{roulette.LuckyBallSpot(roulette.BallBlue): amount}
		p := luckyBallPanel(d, roulette.LuckyMega, staked, luckyResult{}, true, false, func(roulette.BallColour) {})
		w := test.NewTempWindow(t, p)
		w.Resize(p.MinSize()) // as tight as the side panel lays it out at 1280×800
		drv := fyne.CurrentApp().Driver()
		var box fyne.CanvasObject
		walkObjects(p, func(o fyne.CanvasObject) {
			if r, ok := o.(*canvas.Rectangle); ok && r.StrokeColor == ballColours[roulette.BallBlue] {
				box = r
			}
		})
		if box == nil {
			t.Fatal("no blue border")
		}
		in0 := drv.AbsolutePositionForObject(box)
		in1 := in0.Add(box.Size())
		var circles int
		walkDrawn(p, func(o fyne.CanvasObject) {
			c, ok := o.(*canvas.Circle)
			if !ok || !c.Visible() {
				return
			}
			circles++
			a := drv.AbsolutePositionForObject(c)
			b := a.Add(c.Size())
			if a.X < in0.X || a.Y < in0.Y || b.X > in1.X || b.Y > in1.Y {
				t.Errorf("%d: a part of the chip at %v–%v is outside the blue area %v–%v", amount, a, b, in0, in1)
			}
		})
		if circles == 0 {
			t.Fatalf("%d: no chip drawn", amount)
		}
	}
}

// walkDrawn visits o and everything drawn under it, widgets' renderers included.
func walkDrawn(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkDrawn(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkDrawn(c, visit)
		}
	}
}

// Issue 32 point 18: the chip stood over the number it is staked on ("14" under a 5 chip at
// 1280×800). The number and the chip do not overlap.
func TestLuckyBallChipClearsItsNumber(t *testing.T) {
	test.NewTempApp(t)
	d := &roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	staked := map[roulette.Spot]int64{roulette.LuckyBallSpot(roulette.BallBlue): 500}
	p := luckyBallPanel(d, roulette.LuckyMega, staked, luckyResult{}, true, false, func(roulette.BallColour) {})
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(sidePanelWidth, p.MinSize().Height))
	drv := fyne.CurrentApp().Driver()
	var num *canvas.Text
	walkObjects(p, func(o fyne.CanvasObject) {
		if x, ok := o.(*canvas.Text); ok && x.Text == "14" {
			num = x
		}
	})
	if num == nil {
		t.Fatal("no 14")
	}
	right := drv.AbsolutePositionForObject(num).X + fyne.MeasureText(num.Text, num.TextSize, num.TextStyle).Width
	walkDrawn(p, func(o fyne.CanvasObject) {
		if c, ok := o.(*canvas.Circle); ok && c.Visible() {
			if x := drv.AbsolutePositionForObject(c).X; x < right {
				t.Errorf("a part of the chip starts at x %.1f, over the number, which ends at %.1f", x, right)
			}
		}
	})
}

// Issue 32 point 10, 000 §10.3.1: Diagram L's three period states are prominent. Its lamps were
// 34 px with 18 px words, smaller than the buttons'; they read at the controls' size (22 px) on
// lamps 38 px high.
func TestRule000_10_3_1_PeriodLampsAreProminent(t *testing.T) {
	test.NewTempApp(t)
	l := newPeriodLamps()
	l.box.Resize(l.box.MinSize()) // laid out at the size the side panel gives it
	for i := range l.lamps {
		if s := l.lamps[i].text.TextSize; s < 22 {
			t.Errorf("lamp %q: %.0f px words", l.lamps[i].text.Text, s)
		}
		if h := l.lamps[i].bg.Size().Height; h < 38 {
			t.Errorf("lamp %q: %.0f px high", l.lamps[i].text.Text, h)
		}
	}
}

// 003 §7.6/§7.9, issue 32 point 18: between NO MORE BETS and the table's Super/Mega mark the
// Lucky Ball panel says the mark is being drawn (the standard odds shown alone read as final);
// the words go when the mark comes. On Diagram L at 1280×800, a Mega table.
func TestLuckyBallSaysTheMarkIsBeingDrawn(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.Star}
	drawn := roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	term, link := terminalWith(t, l, func(s *table.Snapshot) {
		s.Config.LuckyBall, s.Config.LuckyBallVersion = true, roulette.LuckyMega
		s.LuckyBall = &drawn
	})
	s, err := NewScreen(term, diagrams.DiagramL, l)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(1280, 800))
	const drawing = "SUPER / MEGA: DRAWING…"
	if shows(shownTexts(test.RenderToMarkup(w.Canvas())), drawing) {
		t.Fatal("the mark said to be drawn while bets are taken")
	}
	link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R7"})
	waitView(t, term, "no more bets", func(v app.View) bool { return v.Period == app.PeriodNoMoreBets })
	s.update(term.View())
	if texts := shownTexts(test.RenderToMarkup(w.Canvas())); !shows(texts, drawing) {
		t.Fatalf("at NO MORE BETS without the mark, no %q: %q", drawing, texts)
	}
	marked := drawn
	marked.Mega, marked.HasMega = roulette.BallBlue, true
	link.Push(table.LuckyBallDrawn{RoundID: "R7", Draw: marked})
	waitView(t, term, "the mark", func(v app.View) bool { return v.LuckyBall != nil && v.LuckyBall.HasMega })
	s.update(term.View())
	if texts := shownTexts(test.RenderToMarkup(w.Canvas())); shows(texts, drawing) || !shows(texts, "MEGA") {
		t.Fatalf("with the Mega mark: %q", texts)
	}
}
