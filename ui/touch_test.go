package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Drag a chip to another spot, drag it off the layout, and touch-and-hold a spot for its odds
// and limits.
func TestDragChipsAndHoldForLimits(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, w := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	at := func(n roulette.Number) (roulette.Spot, fyne.Position) {
		sp, err := l.Inside(roulette.Straight, []roulette.Number{n})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.geom.Region(sp)
		return sp, s.felt.ToScreen(r.Centre)
	}
	s17, p17 := at(17)
	s18, p18 := at(18)
	test.TapAt(s.felt, p17)
	test.TapAt(s.felt, p17)
	if got := stakeOn(term.View().Stakes, s17); got != 200 {
		t.Fatalf("two taps on 17: %d", got)
	}
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.felt)
	// A drag as the driver delivers it: press, movement, release.
	drag := func(from fyne.Position, dx, dy float32) {
		s.update(term.View()) // the chips the felt shows, as Follow keeps them
		s.felt.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from}})
		test.Drag(w.Canvas(), origin.Add(from), dx, dy)
		s.felt.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Add(fyne.NewDelta(dx, dy))}})
	}
	drag(p17, p18.X-p17.X, p18.Y-p17.Y)
	if v := term.View(); stakeOn(v.Stakes, s17) != 0 || stakeOn(v.Stakes, s18) != 200 {
		t.Fatalf("after dragging 17 to 18: %+v (%q) felt at %v size %v", v.Stakes, shown(s), origin, s.felt.Size())
	}
	// Off the layout: below its bottom edge.
	drag(p18, 0, s.felt.Size().Height-p18.Y+5)
	if v := term.View(); len(v.Stakes) != 0 {
		t.Fatalf("after dragging 18 off the layout: %+v", v.Stakes)
	}
	// Dragging from a spot with no chips moves nothing.
	drag(p17, p18.X-p17.X, 0)
	if v := term.View(); len(v.Stakes) != 0 {
		t.Fatalf("a drag from an empty spot placed %+v", v.Stakes)
	}

	// Touch and hold: the spot's odds and limits, and no chip. The hold timer fires here, on
	// the test's goroutine, when the test says the time has passed.
	var fire func()
	var waited time.Duration
	s.felt.afterFunc = func(d time.Duration, fn func()) func() bool {
		fire, waited = fn, d
		return func() bool { fire = nil; return true }
	}
	s.felt.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p17}})
	if fire == nil || waited != holdTime {
		t.Fatalf("a touch started no hold timer (waited %v)", waited)
	}
	fire()
	if !strings.Contains(shown(s), "pays 35 to 1") {
		t.Fatalf("holding 17 said %q", shown(s))
	}
	s.felt.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p17}})
	test.TapAt(s.felt, p17) // the tap that ends the hold
	if !strings.Contains(shown(s), "maximum 25.00") || len(term.View().Stakes) != 0 {
		t.Fatalf("hold: %q, stakes %+v", shown(s), term.View().Stakes)
	}
	// A quick touch is a tap again: the release stops the timer before it fires.
	s.felt.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p17}})
	s.felt.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p17}})
	if fire != nil {
		t.Fatal("releasing the touch left the hold timer running")
	}
	test.TapAt(s.felt, p17)
	if got := stakeOn(term.View().Stakes, s17); got != 100 {
		t.Fatalf("a quick touch after a hold: %d", got)
	}
	// A hold timer that fired as the finger lifted — too late to stop, its callback run on the
	// Fyne thread after the release, as on a loaded machine (issue 32: taps half a second apart
	// placed three chips of four) — is no hold: the tap places its chip.
	s.felt.afterFunc = func(d time.Duration, fn func()) func() bool {
		fire = fn
		return func() bool { return false } // already fired: nothing to stop
	}
	s.felt.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p17}})
	s.felt.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p17}})
	fire()
	test.TapAt(s.felt, p17)
	if got := stakeOn(term.View().Stakes, s17); got != 200 {
		t.Fatalf("a tap whose hold timer fired as it was released placed %d, want 200", got)
	}
}

func stakeOn(stakes []app.Stake, sp roulette.Spot) int64 {
	for _, st := range stakes {
		if st.Bet.Spot == sp {
			return st.Amount
		}
	}
	return 0
}
