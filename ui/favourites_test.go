package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// On the screen: Save favourite keeps the chips on the layout, a button for it appears beside
// the chips, and a touch on it after Remove all puts the same chips back.
func TestFavouritesOnTheScreen(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramU, l, fyne.NewSize(1280, 800))
	test.Tap(findButton(t, s.Content(), "Save favourite"))
	if !strings.Contains(shown(s), "Place some bets first") {
		t.Errorf("saving an empty slip said %q", shown(s))
	}

	s17, err := l.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	red, err := l.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	test.Tap(findChip(t, s.Content(), "5"))
	for _, sp := range []roulette.Spot{s17, red} {
		r, _ := s.geom.Region(sp)
		test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	}
	test.Tap(findButton(t, s.Content(), "Save favourite"))
	if shown(s) != "Saved as a favourite: 10.00" {
		t.Errorf("saving said %q", shown(s))
	}
	test.Tap(findButton(t, s.Content(), "Remove all"))
	s.update(term.View())
	if chips := feltChips(s); len(chips) != 0 {
		t.Fatalf("after Remove all: %v", chips)
	}
	test.Tap(findButton(t, s.Content(), "Favourite 10.00"))
	s.update(term.View())
	if chips := feltChips(s); len(chips) != 2 || chips[s17] != "5" || chips[red] != "5" {
		t.Errorf("the favourite placed %v", chips)
	}
}

// Cash out ends the session, so it asks first, with the amount the ticket will carry: Keep
// playing changes nothing, Cash out prints.
func TestCashOutAsksFirst(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, _, _, w := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	test.Tap(findButton(t, s.Content(), "Cash out"))
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Cash out asked nothing")
	}
	var asked string
	walkObjects(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Cash out") {
			asked = l.Text
		}
	})
	if asked != "Cash out 1,000.00? A ticket is printed for your whole balance." {
		t.Fatalf("asked %q", asked)
	}
	test.Tap(findButton(t, top, "Keep playing"))
	if w.Canvas().Overlays().Top() != nil || strings.Contains(shown(s), "Printing") {
		t.Fatalf("Keep playing cashed out: %q", shown(s))
	}
	test.Tap(findButton(t, s.Content(), "Cash out"))
	test.Tap(findButton(t, w.Canvas().Overlays().Top(), "Cash out"))
	if w.Canvas().Overlays().Top() != nil || shown(s) != "Printing your ticket" {
		t.Fatalf("confirmed: the line says %q", shown(s))
	}
}

// Issue 32 point 1: the cash-out prompt was laid out one character per line in a column the
// width of its widest letter (a wrapping label in a centring container gets its minimum width),
// its start above the screen and the amount behind the buttons. At both kiosk sizes, in every
// design and in Chinese, the question must sit in a few lines inside the screen, above its buttons.
func TestCashOutPromptReadsOnAFewLinesAboveItsButtons(t *testing.T) {
	restoreLanguage(t)
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			for _, d := range diagrams.Designs {
				test.NewTempApp(t)
				s, _, _, w := screenAt(t, d, roulette.Layout{Wheel: roulette.SingleZero}, size)
				w.SetPadded(false)
				w.Resize(size)
				test.Tap(findButton(t, s.Content(), T("Cash out")))
				top := w.Canvas().Overlays().Top()
				if top == nil {
					t.Fatal("Cash out asked nothing")
				}
				var q *widget.Label
				var keep *widget.Button
				walkObjects(top, func(o fyne.CanvasObject) {
					if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "1,000.00") {
						q = l
					}
					if b, ok := o.(*widget.Button); ok && b.Text == T("Keep playing") {
						keep = b
					}
				})
				if q == nil || keep == nil {
					t.Fatalf("%s %v %s: no question with the amount, or no Keep playing", language, size, d.Name)
				}
				drv := fyne.CurrentApp().Driver()
				qp, kp := drv.AbsolutePositionForObject(q), drv.AbsolutePositionForObject(keep)
				one := widget.NewLabelWithStyle("X", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}).MinSize().Height
				where := fmt.Sprintf("%s %vx%v design %s: question at %v size %v, buttons at %v", language, size.Width, size.Height, d.Name, qp, q.Size(), kp)
				if q.Size().Width < size.Width/4 {
					t.Errorf("%s: a column %.0f pixels wide", where, q.Size().Width)
				}
				if q.Size().Height > 4*one {
					t.Errorf("%s: %.0f lines high, want a few", where, q.Size().Height/one)
				}
				if qp.X < 0 || qp.Y < 0 || qp.X+q.Size().Width > size.Width || qp.Y+q.Size().Height > kp.Y {
					t.Errorf("%s: not inside the screen above its buttons", where)
				}
			}
		}
	}
}
