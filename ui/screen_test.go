package ui

import (
	"context"
	"image/color"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock/clocktest"

	"github.com/tablegames/ats/app/table"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

var t0 = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

var testLimits = roulette.Limits{
	Default:      roulette.Limit{Min: 100, Max: 50000, Unit: 100},
	PerKind:      map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 2500, Unit: 100}},
	AggregateMin: 500,
}

// terminalAt returns a terminal on a fake table in the wagering period with 12 s left.
func terminalAt(t *testing.T, l roulette.Layout) (*app.Terminal, *apptest.Link) {
	return terminalWith(t, l, nil)
}

// terminalWith is terminalAt with its snapshot changed by edit first (a table's setting).
func terminalWith(t *testing.T, l roulette.Layout, edit func(*table.Snapshot)) (*app.Terminal, *apptest.Link) {
	clk := clocktest.New(t0)
	link := apptest.NewLink(clk.Now, 0, time.Millisecond, l, testLimits)
	term := app.New(app.Config{Link: link, Clock: clk, Cashier: printerReady{}})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go term.Run(ctx)
	link.Push(table.Connection{Up: true})
	snap := table.Snapshot{
		Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second},
		Phase:  table.PhaseWagering, RoundID: "R7", Deadline: t0.Add(12 * time.Second),
		Limits: testLimits, Balance: 100000, AccountOpen: true,
		History: []table.Outcome{{RoundID: "R6", Number: 17}, {RoundID: "R5", Number: 0}, {RoundID: "R4", Number: 32}},
	}
	if edit != nil {
		edit(&snap)
	}
	link.Push(snap)
	waitView(t, term, "the snapshot taken", func(v app.View) bool { return v.RoundID == "R7" })
	return term, link
}

// printerReady is a cashier whose printer is always ready: Cash out is offered as on a cabinet.
type printerReady struct{}

func (printerReady) CashOut(context.Context) error { return nil }

// waitView waits until the terminal's view satisfies ok, told by the terminal itself (no
// polling): the terminal must not be followed by a screen yet, whose OnChange this would take.
func waitView(tb testing.TB, term *app.Terminal, what string, ok func(app.View) bool) {
	tb.Helper()
	changed := make(chan struct{}, 1)
	term.OnChange(func(app.View) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer term.OnChange(nil)
	timeout := time.After(5 * time.Second)
	for !ok(term.View()) {
		select {
		case <-changed:
		case <-timeout:
			tb.Fatalf("never: %s (view %+v)", what, term.View())
		}
	}
}

// shown is what the message line says once the screen has drawn the terminal's current view:
// the terminal tells the screen its views on its own goroutines (Follow), which a headless test
// does not run, so the test draws the view it reads.
func shown(s *Screen) string {
	s.update(s.term.View())
	return s.message.Text
}

// screenAt builds a design's screen for a terminal on layout l (terminalAt's table, 12 s left)
// in a test window of the given size.
func screenAt(t *testing.T, d diagrams.Design, l roulette.Layout, size fyne.Size) (*Screen, *app.Terminal, *apptest.Link, fyne.Window) {
	t.Helper()
	term, link := terminalAt(t, l)
	s, err := NewScreen(term, d, l)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, s.Content())
	w.Resize(size)
	return s, term, link, w
}

// Every design shows every element its diagram requires, on screen, inside the screen, at both
// kiosk sizes (1920×1080 and 1280×800).
func TestDesignsShowTheirElements(t *testing.T) {
	test.NewTempApp(t)
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		for _, d := range diagrams.Designs {
			term, _ := terminalAt(t, roulette.Layout{Wheel: roulette.SingleZero})
			s, err := NewScreen(term, d, roulette.Layout{Wheel: roulette.SingleZero})
			if err != nil {
				t.Fatal(err)
			}
			w := test.NewTempWindow(t, s.Content())
			w.SetPadded(false)
			w.Resize(size)
			shown := map[fyne.CanvasObject]bool{}
			for _, o := range test.LaidOutObjects(s.Content()) {
				shown[o] = o.Visible()
			}
			for _, e := range d.Elements {
				o, ok := s.Elements[e]
				if !ok || !shown[o] {
					t.Errorf("Diagram %s at %v: element %s is not on the screen", d.Name, size, e)
					continue
				}
				pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
				end := pos.Add(o.Size())
				if pos.X < -4 || pos.Y < -4 || end.X > size.Width+4 || end.Y > size.Height+4 || o.Size().IsZero() {
					t.Errorf("Diagram %s at %v: element %s at %v size %v is not inside the screen", d.Name, size, e, pos, o.Size())
				}
			}
			if c := w.Canvas().Content().MinSize(); c.Width > size.Width || c.Height > size.Height {
				t.Errorf("Diagram %s needs %v, more than %v", d.Name, c, size)
			}
		}
	}
}

// Diagram A in the wagering period with chips on the layout, matched against golden markup.
func TestDiagramAWagering(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, w := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	// A tap at the centre of the split 17/20 and one on the corner 1/2/4/5, through the felt.
	for _, ns := range [][]roulette.Number{{17, 20}, {1, 2, 4, 5}} {
		kind := roulette.Split
		if len(ns) == 4 {
			kind = roulette.Corner
		}
		sp, err := l.Inside(kind, ns)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.geom.Region(sp)
		test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	}
	if err := link.WaitSlip(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	waitView(t, term, "the slip acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == 200 })
	v := term.View()
	if len(v.Stakes) != 2 || v.SlipTotal != 200 {
		t.Fatalf("stakes after two taps: %+v", v.Stakes)
	}
	s.update(term.View())
	assertMarkup(t, "diagram_a_wagering.xml", w.Canvas())
}

// The period states read at a glance: each state the terminal decides has its own words.
func TestPeriodStatus(t *testing.T) {
	test.NewTempApp(t)
	for p, want := range map[app.Period]string{
		app.PeriodOpen: "PLACE YOUR BETS", app.PeriodWarning: "CLOSING", app.PeriodNoMoreBets: "NO MORE BETS",
		app.PeriodReconnecting: "RECONNECTING…", app.PeriodWaiting: "WAITING FOR THE TABLE",
		app.PeriodFrozen: "ACCOUNTS FROZEN", app.PeriodClosed: "TABLE CLOSED", app.PeriodResult: "RESULT",
	} {
		if got, _ := periodStatus(p); got != want {
			t.Errorf("%v: %q, want %q", p, got, want)
		}
	}
}

func TestMoneyFormat(t *testing.T) {
	cases := map[int64][2]string{0: {"0", "0.00"}, 5: {"0.05", "0.05"}, 100: {"1", "1.00"}, 123456: {"1,234.56", "1,234.56"},
		100000000: {"1,000,000", "1,000,000.00"}, -250: {"-2.50", "-2.50"}}
	for cents, want := range cases {
		if money(cents) != want[0] || amount(cents) != want[1] {
			t.Errorf("%d: %q %q, want %q", cents, money(cents), amount(cents), want)
		}
	}
}

func BenchmarkTapToSlip(b *testing.B) {
	test.NewTempApp(b)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	clk := clocktest.New(t0)
	link := apptest.NewLink(clk.Now, 0, time.Millisecond, l, testLimits)
	term := app.New(app.Config{Link: link, Clock: clk, Cashier: printerReady{}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go term.Run(ctx)
	link.Push(table.Connection{Up: true})
	link.Push(table.Snapshot{Config: table.TableConfig{Layout: l, Chips: []int64{100}}, Phase: table.PhaseWagering,
		RoundID: "R1", Deadline: t0.Add(time.Hour), Limits: testLimits, Balance: 1 << 40, AccountOpen: true})
	waitView(b, term, "the snapshot taken", func(v app.View) bool { return v.RoundID == "R1" })
	s, err := NewScreen(term, diagrams.DiagramA, l)
	if err != nil {
		b.Fatal(err)
	}
	w := test.NewTempWindow(b, s.Content())
	w.Resize(fyne.NewSize(1920, 1080))
	var centres []fyne.Position
	for _, r := range s.geom.Regions {
		centres = append(centres, s.felt.ToScreen(r.Centre))
	}
	i := 0
	for b.Loop() {
		// A tap: hit test, limits, slip, and the screen's update of chips and totals.
		test.TapAt(s.felt, centres[i%len(centres)])
		s.update(term.View())
		i++
		if i%20 == 0 {
			term.Clear()
		}
	}
}

func BenchmarkRenderLayout1080p(b *testing.B) {
	test.NewTempApp(b)
	g, err := diagrams.New(roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil {
		b.Fatal(err)
	}
	f := NewFelt(g)
	w := test.NewTempWindow(b, f)
	w.Resize(fyne.NewSize(1920, 1080))
	c := w.Canvas()
	for b.Loop() {
		f.Refresh()
		c.Capture() // the software painter draws the whole canvas
	}
}

// BenchmarkCaptureEmpty1080p is the floor under BenchmarkRenderLayout1080p: the test canvas's
// Capture of a frame whose content is one transparent rectangle (content always fills the
// window). Capture fills the background, the software painter composites each object, and
// Capture composites the painted frame, each pixel by pixel through image/draw's generic path
// (the destination is an *image.NRGBA, for which image/draw has no fast Over path): three
// full-frame passes of ~2M pixels, whatever the content.
func BenchmarkCaptureEmpty1080p(b *testing.B) {
	test.NewTempApp(b)
	w := test.NewTempWindow(b, canvas.NewRectangle(color.Transparent))
	w.Resize(fyne.NewSize(1920, 1080))
	c := w.Canvas()
	for b.Loop() {
		c.Capture()
	}
}

// BenchmarkFeltPicture1080p paints the felt's boxes, lines, labels and markers into its picture:
// what a resize costs, once (every other frame reuses the picture).
func BenchmarkFeltPicture1080p(b *testing.B) {
	test.NewTempApp(b)
	g, err := diagrams.New(roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil {
		b.Fatal(err)
	}
	art := NewFelt(g).CreateRenderer().(*feltRenderer).art
	for b.Loop() {
		art.paint(1912, 1072, 1)
	}
}
