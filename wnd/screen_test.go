package wnd

import (
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/ui/look"
)

var at = time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)

// display is a table's display state made as the server makes it (table.DisplayOf), from
// numbers newest first.
func display(w roulette.Wheel, ns ...roulette.Number) table.Display {
	h := make([]table.Outcome, len(ns))
	for i, n := range ns {
		h[i] = table.Outcome{RoundID: "R", Number: n, At: at.Add(-time.Duration(i) * time.Minute)}
	}
	return table.DisplayOf(table.Display{TableID: "T1", Venue: "Demo Casino", Currency: "AUD", Wheel: w, Phase: table.PhaseResult,
		Limits: roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100}, TableMax: 200000, AggregateMin: 500}, At: at}, h)
}

var twenty = []roulette.Number{17, 32, 0, 5, 17, 22, 9, 36, 1, 17, 14, 32, 8, 19, 4, 21, 2, 25, 17, 34, 6}

// The screen in the states a player must read from across the table, each matched against a
// golden picture (testdata/*.png) and checked for the facts it must show, so a golden rewritten
// with -update cannot hide one that went missing.
func TestDisplayScreens(t *testing.T) {
	test.NewTempApp(t)
	dz := display(roulette.DoubleZero, append([]roulette.Number{roulette.DoubleZeroNumber}, twenty...)...)
	jack := display(roulette.SingleZero, twenty...)
	jack.Jackpot, jack.JackpotMeter, jack.Promotion = true, 1234567, "Happy hour: double points 5–7 pm"
	won := jack
	won.JackpotMeter = 100000
	won.JackpotWin = &table.JackpotWin{RoundID: "R9", Seat: "T07", Amount: 1000050, Until: at.Add(time.Minute)}
	closing := display(roulette.SingleZero, 7, 30, 0)
	closing.Phase = table.PhaseWagering
	closing.ClosingAt = at.Add(25 * time.Minute)
	for _, c := range []struct {
		file  string
		state State
		must  []string
	}{
		{"single_zero.png", State{Display: display(roulette.SingleZero, twenty...), Up: true, Ever: true},
			[]string{"WINNING NUMBER", "17", "BLACK", "Last 20 spins", "HOT", "COLD", "×4", "RED", "Limits: min A$1.00  max A$500.00", "RESULT"}},
		{"double_zero.png", State{Display: dz, Up: true, Ever: true}, []string{"WINNING NUMBER\n00\n"}},
		{"jackpot_meter.png", State{Display: jack, Up: true, Ever: true}, []string{"JACKPOT", "A$12,345.67", "Happy hour"}},
		{"jackpot_won.png", State{Display: won, Up: true, Ever: true}, []string{"Jackpot of A$10,000.50 won at terminal T07", "A$1,000.00"}},
		{"closure_sign.png", State{Display: closing, Up: true, Ever: true}, []string{"This table closes at", "25 min left", "PLACE YOUR BETS"}},
		{"disconnected.png", State{Display: display(roulette.SingleZero, twenty...), Ever: true}, []string{"RECONNECTING…", "not connected to the table", "17"}},
		{"waiting.png", State{}, []string{"WAITING FOR THE TABLE"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			s := New()
			w := test.NewTempWindow(t, s.Content())
			w.Resize(fyne.NewSize(1920, 1080))
			s.Show(c.state)
			texts := shown(s)
			for _, want := range c.must {
				if !strings.Contains(texts, want) {
					t.Errorf("%s does not show %q (shows %q)", c.file, want, texts)
				}
			}
			assertImage(t, c.file, w.Canvas())
		})
	}
}

// shown is every visible text of the screen, one per line.
func shown(s *Screen) string {
	var b strings.Builder
	for _, o := range s.objects {
		if t, ok := o.(*label); ok && t.Visible() && t.Text != "" {
			b.WriteString(t.Text + "\n")
		}
	}
	return b.String()
}

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata")

// TestMain runs the tests in English whatever the machine's locale: they read its texts.
func TestMain(m *testing.M) {
	time.Local = time.UTC // the closure sign's time, as the goldens show it
	if err := SetLanguage("en"); err != nil {
		fmt.Fprintln(os.Stderr, "wnd tests: English:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// assertImage matches what the canvas draws against a golden picture in testdata; with -update
// it rewrites the picture instead. Open a rewritten one and look at it before committing it.
func assertImage(t *testing.T, file string, c fyne.Canvas) {
	t.Helper()
	if *update {
		f, err := os.Create(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, c.Capture()); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !test.AssertRendersToImage(t, file, c) {
		t.Log("if the change is intended, rewrite the goldens with: go test ./wnd -update, and look at them")
	}
}

// The screen is one design scaled to the TV: on a 4K set (3840×2160) every object is where it
// is on a 1920×1080 one, at twice the size, and every text twice as large.
func TestDisplayScalesWithTheWindow(t *testing.T) {
	test.NewTempApp(t)
	type place struct {
		pos  fyne.Position
		size fyne.Size
		text float32
	}
	at := func(w, h float32) []place {
		s := New()
		win := test.NewTempWindow(t, s.Content())
		win.SetPadded(false)
		win.Resize(fyne.NewSize(w, h))
		jack := display(roulette.SingleZero, twenty...)
		jack.Jackpot, jack.JackpotMeter = true, 1234567
		s.Show(State{Display: jack, Up: true, Ever: true})
		var out []place
		for _, o := range s.objects {
			p := place{pos: o.Position(), size: o.Size()}
			if l, ok := o.(*label); ok {
				p.text = l.TextSize
			}
			out = append(out, p)
		}
		return out
	}
	hd, uhd := at(1920, 1080), at(3840, 2160)
	near := func(a, b float32) bool { return a-b < 1.5 && b-a < 1.5 }
	for i := range hd {
		h, u := hd[i], uhd[i]
		if !near(2*h.pos.X, u.pos.X) || !near(2*h.pos.Y, u.pos.Y) || !near(2*h.size.Width, u.size.Width) ||
			!near(2*h.size.Height, u.size.Height) || !near(2*h.text, u.text) {
			t.Errorf("object %d: %+v at 1920×1080, %+v at 3840×2160, want twice", i, h, u)
		}
	}
	if hd[0].size.Width != 1920 {
		t.Fatalf("the background is %v wide at 1920×1080", hd[0].size)
	}
}

// A WND takes no input: nothing on it is a widget a tap, a drag or a key could reach, so a
// player touching the TV changes nothing.
func TestDisplayTakesNoInput(t *testing.T) {
	test.NewTempApp(t)
	s := New()
	for _, o := range append([]fyne.CanvasObject{s.Content()}, s.objects...) {
		switch o.(type) {
		case fyne.Tappable, fyne.DoubleTappable, fyne.SecondaryTappable, fyne.Draggable, fyne.Focusable, fyne.Widget:
			t.Errorf("%T on the display takes input", o)
		}
	}
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(1920, 1080))
	s.Show(State{Display: display(roulette.SingleZero, 17), Up: true, Ever: true})
	before := shown(s)
	test.TapCanvas(w.Canvas(), fyne.NewPos(300, 400))
	if after := shown(s); after != before {
		t.Errorf("a tap changed the screen:\n%s\n→\n%s", before, after)
	}
}

// The display speaks Chinese under a Chinese locale (or -lang zh_Hans), drawn with the
// embedded Chinese font (look.ChineseTheme): the golden shows real glyphs, not boxes.
func TestDisplayInChinese(t *testing.T) {
	t.Cleanup(func() {
		if err := SetLanguage("en"); err != nil {
			t.Error(err)
		}
	})
	if err := SetLanguage("zh_Hans"); err != nil {
		t.Fatal(err)
	}
	if !Chinese() {
		t.Fatal("SetLanguage(zh_Hans) left the screen in English")
	}
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(look.ChineseTheme{Theme: test.Theme()})
	s := New()
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(1920, 1080))
	jack := display(roulette.SingleZero, twenty...)
	jack.Jackpot, jack.JackpotMeter = true, 1234567
	s.Show(State{Display: jack, Up: true, Ever: true})
	texts := shown(s)
	for _, want := range []string{"中奖号码", "热号", "冷号", "累积奖金", "最近 20 局", "黑"} {
		if !strings.Contains(texts, want) {
			t.Errorf("the Chinese screen does not show %q (shows %q)", want, texts)
		}
	}
	assertImage(t, "chinese.png", w.Canvas())
}
