package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// A touch on a segment chooses it, told by fill and contrast; touching the chosen one again
// changes nothing.
func TestSegmented(t *testing.T) {
	test.NewTempApp(t)
	var got []int
	s := newSegmented([]string{"1", "2", "3", "4"}, 1, func(i int) { got = append(got, i) })
	w := test.NewTempWindow(t, s)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(400, 60))
	test.TapAt(s, fyne.NewPos(250, 30)) // the third
	test.TapAt(s, fyne.NewPos(260, 30))
	if s.Selected() != 2 || len(got) != 1 || got[0] != 2 {
		t.Fatalf("after touching the third segment twice: %d chosen, changes %v", s.Selected(), got)
	}
	r := test.WidgetRenderer(s).(*segmentedRenderer)
	if r.bgs[2].FillColor == r.bgs[1].FillColor || r.texts[2].Color == r.texts[1].Color {
		t.Error("the chosen segment looks like the others")
	}
}

// The spread chosen on the screen is the one a neighbours bet on the racetrack takes.
func TestNeighboursSpreadOnTheScreen(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramU, l, fyne.NewSize(1280, 800))
	var seg *segmented
	walkObjects(s.Content(), func(o fyne.CanvasObject) {
		if v, ok := o.(*segmented); ok {
			seg = v
		}
	})
	if seg == nil {
		t.Fatal("no spread to choose")
	}
	test.TapAt(seg, fyne.NewPos(seg.Size().Width*3.5/4, seg.Size().Height/2)) // 4
	for _, reg := range s.track.track.Numbers {
		if reg.Target.Centre == 17 {
			test.TapAt(s.track, s.track.ToScreen(reg.Rect.Centre()))
		}
	}
	st := term.View().Stakes
	if len(st) != 1 || st[0].Bet.Call != roulette.Neighbours || st[0].Bet.Centre != 17 || st[0].Bet.Spread != 4 {
		t.Errorf("a touch on 17 with the spread 4 chosen placed %+v (%q)", st, shown(s))
	}
}
