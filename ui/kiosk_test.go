package ui

import (
	"testing"

	"github.com/tablegames/ats/app/table"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// cursorAt is the cursor Fyne's GLFW driver (v2.7.3, window.processMouseMoved) shows with the
// pointer at pos: that of the last desktop.Cursorable object under it in a walk of the top
// overlay, or of the content if there is none; the default cursor if none is under it.
func cursorAt(c fyne.Canvas, pos fyne.Position) desktop.Cursor {
	root := c.Overlays().Top()
	if root == nil {
		root = c.Content()
	}
	var cur desktop.Cursor = desktop.DefaultCursor
	var walk func(o fyne.CanvasObject, offset fyne.Position)
	walk = func(o fyne.CanvasObject, offset fyne.Position) {
		if !o.Visible() {
			return
		}
		p := offset.Add(o.Position())
		if in := pos.X >= p.X && pos.Y >= p.Y && pos.X < p.X+o.Size().Width && pos.Y < p.Y+o.Size().Height; in {
			if cu, ok := o.(desktop.Cursorable); ok {
				cur = cu.Cursor()
			}
		}
		switch v := o.(type) { // children are walked whether or not their parent is under pos
		case *fyne.Container:
			for _, ch := range v.Objects {
				walk(ch, p)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(v).Objects() {
				walk(ch, p)
			}
		}
	}
	walk(root, fyne.Position{})
	return cur
}

// shownCursors samples the whole canvas every 10 pixels and returns where a cursor shows.
func shownCursors(c fyne.Canvas) (shown []fyne.Position) {
	for y := float32(0); y < c.Size().Height; y += 10 {
		for x := float32(0); x < c.Size().Width; x += 10 {
			if p := fyne.NewPos(x, y); cursorAt(c, p) != desktop.HiddenCursor {
				shown = append(shown, p)
			}
		}
	}
	return shown
}

// closeRequests records the close intercept, which GLFW calls on a window manager's close
// request (Alt+F4, a close button) instead of closing the window.
type closeRequests struct {
	fyne.Window
	intercept func()
}

func (w *closeRequests) SetCloseIntercept(fn func()) {
	w.intercept = fn
	w.Window.SetCloseIntercept(fn)
}

// The kiosk shows no pointer anywhere on the screen, over the help screen either, at both
// sizes; touches still reach the layout and the buttons through the hider; a close request
// and the keys a player might try leave it full screen and open. In a window (-windowed) the
// pointer shows.
func TestKioskHasNoPointerAndStays(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	screen := func() (*Screen, *app.Terminal) {
		term, _ := terminalAt(t, l)
		s, err := NewScreen(term, diagrams.DiagramA, l)
		if err != nil {
			t.Fatal(err)
		}
		return s, term
	}
	s, _ := screen()
	windowed := test.NewTempWindow(t, s.Content())
	windowed.Resize(fyne.NewSize(1280, 800))
	if len(shownCursors(windowed.Canvas())) == 0 {
		t.Fatal("no pointer in a window either: the check cannot tell the kiosk from a window")
	}

	s, term := screen()
	w := &closeRequests{Window: test.NewTempWindow(t, s.Content())}
	Kiosk(w)
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		w.Resize(size)
		if shown := shownCursors(w.Canvas()); len(shown) > 0 {
			t.Errorf("kiosk at %v: the pointer shows at %d points, the first %v", size, len(shown), shown[0])
		}
	}
	if !w.FullScreen() || w.Padded() {
		t.Errorf("kiosk: full screen %v, padded %v", w.FullScreen(), w.Padded())
	}

	// A touch on the layout and on a chip goes through the hider to what is under it.
	sp, err := l.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := s.geom.Region(sp)
	felt := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.felt)
	chip := findChip(t, s.Content(), "5")
	test.TapCanvas(w.Canvas(), fyne.CurrentApp().Driver().AbsolutePositionForObject(chip).Add(fyne.NewPos(5, 5)))
	test.TapCanvas(w.Canvas(), felt.Add(s.felt.ToScreen(r.Centre)))
	if got := stakeOn(term.View().Stakes, sp); got != 500 {
		t.Fatalf("a 5 chip touched on 17 through the kiosk: %d on 17 (%q)", got, shown(s))
	}

	// The help screen, an overlay: no pointer over it, the dimmed edge included.
	test.TapCanvas(w.Canvas(), fyne.CurrentApp().Driver().AbsolutePositionForObject(findButton(t, s.Content(), "Help")).Add(fyne.NewPos(5, 5)))
	if w.Canvas().Overlays().Top() == nil {
		t.Fatal("Help opened nothing")
	}
	if shown := shownCursors(w.Canvas()); len(shown) > 0 {
		t.Errorf("help in the kiosk: the pointer shows at %d points, the first %v", len(shown), shown[0])
	}
	test.Tap(findButton(t, w.Canvas().Overlays().Top(), "Close"))

	// A close request is swallowed; the keys a player might try mean nothing.
	content := w.Content()
	if w.intercept == nil {
		t.Fatal("the kiosk does not intercept a close request: the window manager would close it")
	}
	w.intercept()
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyF11, fyne.KeyF4, fyne.KeyQ, fyne.KeyW} {
		ev := &fyne.KeyEvent{Name: k}
		if h := w.Canvas().OnTypedKey(); h != nil {
			h(ev)
		}
		if f := w.Canvas().Focused(); f != nil {
			f.TypedKey(ev)
		}
	}
	open := false
	for _, x := range fyne.CurrentApp().Driver().AllWindows() {
		open = open || x == w.Window
	}
	if !open || !w.FullScreen() || w.Content() != content || w.Canvas().Overlays().Top() != nil {
		t.Errorf("after a close request and keys: open %v, full screen %v, same content %v", open, w.FullScreen(), w.Content() == content)
	}
	if w.MainMenu() != nil {
		t.Error("the kiosk has a main menu, whose Quit a shortcut reaches")
	}
}

// On the kiosk's whole screen, at both sizes and on every layout, a touch at the centre of each
// bet spot reaches that spot through everything drawn over the felt (the pointer hider among
// them), and the four Lucky Ball areas of a Lucky Ball table each take a bet on their colour.
func TestEverySpotByTouchOnTheKiosk(t *testing.T) {
	test.NewTempApp(t)
	for _, l := range []roulette.Layout{
		{Wheel: roulette.SingleZero},
		{Wheel: roulette.DoubleZero, Profile: roulette.CrownRapid},
		{Wheel: roulette.DoubleZero, Profile: roulette.Star},
		{Wheel: roulette.DoubleZero, Profile: roulette.CrownFH},
		{Wheel: roulette.DoubleZero, Profile: roulette.CrownVW},
	} {
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			term, _ := terminalAt(t, l)
			s, err := NewScreen(term, diagrams.DiagramA, l)
			if err != nil {
				t.Fatal(err)
			}
			w := test.NewTempWindow(t, s.Content())
			Kiosk(w)
			w.Resize(size)
			var got []diagrams.Region
			s.felt.OnTapped = func(r diagrams.Region) { got = append(got, r) }
			origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.felt)
			for _, r := range s.geom.Regions {
				got = got[:0]
				test.TapCanvas(w.Canvas(), origin.Add(s.felt.ToScreen(r.Centre)))
				if len(got) != 1 || got[0].Spot != r.Spot {
					t.Errorf("%v at %v: a touch at the centre of %v reached %v", l, size, r.Spot, got)
				}
			}
		}
	}

	l := roulette.Layout{Wheel: roulette.SingleZero}
	snap := tableSnap(l, table.PhaseWagering)
	snap.Config.LuckyBall, snap.Config.LuckyBallVersion = true, roulette.LuckyMega
	s, w := stateScreen(t, stateCase{design: diagrams.DiagramL, layout: l,
		events: func(*testing.T, roulette.Layout) []table.Event { return []table.Event{up, snap} }})
	Kiosk(w)
	var bets []*widget.Button
	for _, o := range test.LaidOutObjects(s.lucky) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Bet" {
			bets = append(bets, b)
		}
	}
	if len(bets) != 4 {
		t.Fatalf("%d Lucky Ball areas to bet on", len(bets))
	}
	for i, b := range bets {
		test.TapCanvas(w.Canvas(), fyne.CurrentApp().Driver().AbsolutePositionForObject(b).Add(fyne.NewPos(b.Size().Width/2, b.Size().Height/2)))
		c := roulette.BallColour(i)
		if got := stakeOn(s.term.View().Stakes, roulette.LuckyBallSpot(c)); got != 100 {
			t.Errorf("the Lucky Ball area %v took %d", c, got)
		}
	}
}
