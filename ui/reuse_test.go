package ui

import (
	"context"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// Round after round the screen shows new outcomes on the objects it was built with (issue 18:
// the history's twelve tiles were made anew on every view change, and each object replaced
// stayed in Fyne's caches for a minute: the kiosk's resident memory grew over a soak). Over forty
// rounds of outcomes — the history filling from none to twelve, red, black and zero in
// every position — the screen's tree holds the same objects throughout, and the last frame is
// the frame a screen built for that view draws. On a Lucky Ball table too, whose panel was
// made anew on every view change.
func TestScreenReusesItsObjectsRoundAfterRound(t *testing.T) {
	for _, lucky := range []bool{false, true} {
		screenReusesItsObjects(t, lucky)
	}
}

func screenReusesItsObjects(t *testing.T, lucky bool) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	size := fyne.NewSize(1920, 1080)
	s, term, _, w := screenAt(t, diagrams.DiagramA, l, size)
	objects := func() map[fyne.CanvasObject]bool {
		seen := map[fyne.CanvasObject]bool{}
		walkObjects(s.Content(), func(o fyne.CanvasObject) { seen[o] = true })
		return seen
	}
	v := term.View()
	v.History = nil
	if lucky {
		v.Config.LuckyBall = true
		v.LuckyBall = &roulette.LuckyBallDraw{Numbers: [4]roulette.Number{3, 14, 22, 35}, Super: roulette.BallBlue, HasSuper: true}
	}
	s.update(v)
	before := objects()
	for i := range 40 {
		// Outcomes in an order that puts each colour in each tile: 17 red, 0 green, 8 black, …
		n := roulette.Number((i*17 + 3) % 37)
		v.History = append([]table.Outcome{{RoundID: "R", Number: n}}, v.History...)
		if len(v.History) > 20 {
			v.History = v.History[:20]
		}
		v.Balance += 100
		s.update(v)
		w.Content().Refresh()
		after := objects()
		for o := range after {
			if !before[o] {
				t.Fatalf("lucky ball %v, round %d: the update made a new %T (the screen's objects are reused)", lucky, i, o)
			}
		}
		if len(after) != len(before) {
			t.Fatalf("round %d: %d objects, %d before", i, len(after), len(before))
		}
	}
	shown := 0
	for _, tile := range s.tiles {
		if tile.shows() {
			shown++
		}
	}
	if shown != historyShown {
		t.Errorf("%d history tiles shown, want %d", shown, historyShown)
	}
	got := w.Canvas().Capture()

	fresh, _, _, fw := screenAt(t, diagrams.DiagramA, l, size)
	fresh.update(v)
	fw.Content().Refresh()
	if d := compareImages(got, fw.Canvas().Capture(), 0); d != "" {
		t.Errorf("after 40 rounds the screen differs from one built for the last view: %s", d)
	}

	// And back to a short history: the tiles past it are hidden, and the frame is again that of
	// a screen built for it.
	v.History = v.History[:3]
	s.update(v)
	w.Content().Refresh()
	fresh.update(v)
	fw.Content().Refresh()
	if d := compareImages(w.Canvas().Capture(), fw.Canvas().Capture(), 0); d != "" {
		t.Errorf("with three outcomes again the screen differs from one built for them: %s", d)
	}
}

// A chip placed renders its own sprite and no other: the felt's picture is composed again from
// the sprites already rendered (issue 18: a tap must not cost a render of every chip on the
// felt), and what it shows is what a felt given the same stakes at once shows.
func TestFeltMakesOnlyTheChipThatChanged(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	g, err := diagrams.New(l)
	if err != nil {
		t.Fatal(err)
	}
	spot := func(n roulette.Number) roulette.Spot {
		s, err := l.Inside(roulette.Straight, []roulette.Number{n})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	f := NewFelt(g)
	w := test.NewTempWindow(t, f)
	w.Resize(fyne.NewSize(1400, 500))
	art := test.WidgetRenderer(f).(*feltRenderer).art
	f.SetStakes(map[roulette.Spot]int64{spot(17): 2500, spot(5): 100})
	w.Canvas().Capture()
	before := art.cache.renders
	if before != 2 {
		t.Errorf("two chips placed: %d sprites rendered", before)
	}
	f.SetStakes(map[roulette.Spot]int64{spot(17): 2500, spot(5): 100, spot(32): 10000})
	w.Canvas().Capture()
	if n := art.cache.renders - before; n != 1 {
		t.Errorf("a third chip placed: %d sprites rendered, want 1", n)
	}
	// A frame with nothing changed renders nothing and composes nothing.
	composed := art.img
	w.Canvas().Capture()
	if n := art.cache.renders - before; n != 1 || art.img != composed || art.stale {
		t.Errorf("an unchanged frame: %d renders, picture composed again %v", n-1, art.img != composed)
	}
	// 5 raised to 2500: its chip is rendered again (a new amount), 17's and 32's are kept; the
	// result rims 17's chip and outlines the number.
	final := map[roulette.Spot]int64{spot(17): 2500, spot(5): 2500, spot(32): 10000}
	f.SetStakes(final)
	f.SetResult(map[roulette.Spot]int64{spot(17): 90000})
	f.SetWinning(17, true)
	w.Canvas().Capture()
	if n := art.cache.renders - before; n != 4 {
		t.Errorf("a raise and a result: %d sprites rendered, want 3 (the raised chip, the won chip, the outline)", n-1)
	}

	fresh := NewFelt(g)
	fw := test.NewTempWindow(t, fresh)
	fw.Resize(fyne.NewSize(1400, 500))
	fresh.SetStakes(final)
	fresh.SetResult(map[roulette.Spot]int64{spot(17): 90000})
	fresh.SetWinning(17, true)
	if d := compareImages(w.Canvas().Capture(), fw.Canvas().Capture(), 0); d != "" {
		t.Errorf("the felt differs from one given its stakes at once: %s", d)
	}
	// And the chips are taken off again.
	f.SetStakes(nil)
	f.SetResult(nil)
	f.SetWinning(0, false)
	empty := NewFelt(g)
	ew := test.NewTempWindow(t, empty)
	ew.Resize(fyne.NewSize(1400, 500))
	if d := compareImages(w.Canvas().Capture(), ew.Canvas().Capture(), 0); d != "" {
		t.Errorf("with the chips gone the felt differs from a fresh one: %s", d)
	}
}

// A touch's answer is drawn by the touch itself, not a turn of the Fyne loop later (issue 18,
// tap to pixels): the chip chosen is raised before any queued update has run, and the queued
// copies of the views the touches told, run after, do not put an older view back.
func TestTouchDrawsItsAnswerAtOnce(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	// A Fyne loop that has not turned yet. The countdown's goroutine queues its ticks here too,
	// so the queue is shared between goroutines.
	var (
		mu     sync.Mutex
		queued []func()
	)
	s.do = func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		queued = append(queued, f)
	}
	next := func() func() {
		mu.Lock()
		defer mu.Unlock()
		if len(queued) == 0 {
			return nil
		}
		f := queued[0]
		queued = queued[1:]
		return f
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Follow(ctx)
	chip := func(v int64) *Chip {
		for _, o := range s.chips.Objects {
			if c := o.(*Chip); c.Value == v {
				return c
			}
		}
		t.Fatalf("no %d chip in the tray", v)
		return nil
	}
	if term.View().Chip == 2500 {
		t.Fatal("the test needs another chip chosen first")
	}
	test.Tap(chip(2500))
	if !chip(2500).Selected {
		t.Fatal("the tapped chip is not raised until the Fyne loop turns")
	}
	test.Tap(chip(500))
	if !chip(500).Selected || chip(2500).Selected {
		t.Fatal("the second chip tapped is not the one raised")
	}
	n := 0
	for f := next(); f != nil; f = next() {
		f()
		n++
		if !chip(500).Selected || chip(2500).Selected {
			t.Fatalf("queued update %d put an older view back: 2500 raised again", n)
		}
	}
	if n < 2 {
		t.Errorf("%d updates queued for two touches", n)
	}
}
