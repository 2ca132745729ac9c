package main

import (
	"image/color"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
)

// The default felt (design A at 1920×1080, as measured on the kiosk's screenshot: box lines at
// x 8–9, 122–123, …, 1492–1493, 1606–1607 and y 8, 121–122, …, 578) puts number 3 (top left of
// the numbers) in the box from x 124 to 235, y 9 to 120, 1 in y 237 to 349, and 36 (top right)
// from x 1380 to 1491: the probe taps their middles.
func TestNumberCentresDesignA1080(t *testing.T) {
	felt, err := parseRect(defaultFelt)
	if err != nil {
		t.Fatal(err)
	}
	ps, cell, err := numberCentres(felt, roulette.SingleZero)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 36 {
		t.Fatalf("%d centres, want 36", len(ps))
	}
	if cell < 113.5 || cell > 114.5 {
		t.Errorf("cell %.2f px, want about 114 (1598/14)", cell)
	}
	want := map[int]point{1: {180, 293}, 2: {180, 179}, 3: {180, 65}, 36: {1435, 65}, 34: {1435, 293}}
	for n, w := range want {
		if got := ps[n-1]; got != w {
			t.Errorf("number %d at %v, want %v", n, got, w)
		}
	}
	// Neighbours along a row are one box apart.
	for n := 1; n <= 33; n++ {
		if dx := ps[n+2].X - ps[n-1].X; dx < 113 || dx > 115 {
			t.Errorf("numbers %d and %d are %d px apart", n, n+3, dx)
		}
	}
}

// A double-zero felt has the same twelve columns: its numbers sit where a single-zero felt's do.
func TestNumberCentresDoubleZero(t *testing.T) {
	felt := rect{0, 0, 1400, 500}
	single, _, err := numberCentres(felt, roulette.SingleZero)
	if err != nil {
		t.Fatal(err)
	}
	double, _, err := numberCentres(felt, roulette.DoubleZero)
	if err != nil {
		t.Fatal(err)
	}
	if single[0] != double[0] || single[35] != double[35] {
		t.Errorf("single %v %v, double %v %v", single[0], single[35], double[0], double[35])
	}
	// A felt taller than its proportions is centred vertically: the numbers move down by half
	// the extra height.
	tall, _, err := numberCentres(rect{0, 0, 1400, 700}, roulette.SingleZero)
	if err != nil {
		t.Fatal(err)
	}
	if tall[0].X != single[0].X || tall[0].Y != single[0].Y+100 {
		t.Errorf("tall felt: number 1 at %v, want %v moved down 100", tall[0], single[0])
	}
}

func TestParse(t *testing.T) {
	if _, err := parseRect("1,2,3"); err == nil {
		t.Error("three numbers accepted as a rectangle")
	}
	if _, err := parseRect("1,2,0,4"); err == nil {
		t.Error("a zero width accepted")
	}
	if _, err := parseRect("1,2,NaN,4"); err == nil {
		t.Error("NaN accepted")
	}
	ps, err := parsePoints(defaultChips)
	if err != nil || len(ps) != 5 || ps[1] != (point{160, 864}) {
		t.Errorf("default chips %v, %v", ps, err)
	}
	if _, err := parsePoints("1,2;3"); err == nil {
		t.Error("a point with one number accepted")
	}
}

func TestPickWindow(t *testing.T) {
	ws := []window{
		{ID: 1, Name: "big", Mapped: true, W: 1920, H: 1080},
		{ID: 2, Name: "ATS", Mapped: false, W: 1920, H: 1080},
		{ID: 3, Name: "ATS", Mapped: true, W: 800, H: 600},
		{ID: 4, Name: "", Mapped: false, W: 4000, H: 4000},
	}
	if w, err := pickWindow(ws, "ATS"); err != nil || w.ID != 3 {
		t.Errorf("by title: %v, %v; want window 3 (the mapped one)", w, err)
	}
	if w, err := pickWindow(ws, "other"); err != nil || w.ID != 1 {
		t.Errorf("no such title: %v, %v; want the largest mapped, 1", w, err)
	}
	if _, err := pickWindow(ws[3:], "ATS"); err == nil {
		t.Error("no mapped window, no error")
	}
}

func TestSummarise(t *testing.T) {
	var lat []time.Duration
	for i := 100; i >= 1; i-- { // 1..100 ms, unsorted
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	f := summarise(lat, 7)
	want := figures{N: 100, P50: 50 * time.Millisecond, P95: 95 * time.Millisecond, P99: 99 * time.Millisecond,
		Max: 100 * time.Millisecond, Timeouts: 7}
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
	if lat[0] != 100*time.Millisecond {
		t.Error("summarise sorted its caller's slice")
	}
	if f := summarise(lat[:1], 0); f.P50 != 100*time.Millisecond || f.P99 != 100*time.Millisecond {
		t.Errorf("one tap: %+v", f)
	}
	if f := summarise(nil, 3); f.N != 0 || f.Timeouts != 3 || f.Max != 0 {
		t.Errorf("no taps: %+v", f)
	}
}

func TestNumberish(t *testing.T) {
	veil := func(c color.NRGBA) color.NRGBA { // black at alpha 0x70 over c
		k := func(v uint8) uint8 { return uint8(int(v) * (255 - 0x70) / 255) }
		return color.NRGBA{R: k(c.R), G: k(c.G), B: k(c.B), A: 0xff}
	}
	red, black, zero := color.NRGBA{0xc6, 0x28, 0x28, 0xff}, color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}, color.NRGBA{0x1b, 0x7a, 0x32, 0xff}
	line, felt, white := color.NRGBA{0xf5, 0xf0, 0xe1, 0xff}, color.NRGBA{0x0b, 0x5d, 0x1e, 0xff}, color.NRGBA{0xff, 0xff, 0xff, 0xff}
	for _, c := range []color.NRGBA{red, black, zero, veil(red), veil(black)} {
		if !numberish(c) {
			t.Errorf("%v is a number box's colour", c)
		}
	}
	for _, c := range []color.NRGBA{line, felt, white, veil(line)} {
		if numberish(c) {
			t.Errorf("%v is not a number box's colour", c)
		}
	}
}

// The idle frame count is per second of the time watched, and the area a share of the window.
func TestFrameCount(t *testing.T) {
	f := frameCount{over: 20 * time.Second, frames: 25, area: 25 * 100 * 50, window: 1000 * 500}
	if got, want := f.String(), "idle frames: 25 over 20s (1.25 a second), each 1 % of the window"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (frameCount{over: 10 * time.Second, window: 100}).String(), "idle frames: 0 over 10s (0.00 a second), each 0 % of the window"; got != want {
		t.Errorf("no frames: got %q, want %q", got, want)
	}
}

// -only takes one part of a journey's name, or several, comma-separated: the test command
// names the journeys it runs in one kiosk size's run.
func TestJourneysSelectedByOnesOrSeveralParts(t *testing.T) {
	for _, c := range []struct {
		name, only string
		want       bool
	}{
		{"cash-out-prompt", "", true},
		{"cash-out-prompt", "cash-out", true},
		{"carded-session", "cash-out", false},
		{"correction-notice", "cash-out,correction", true},
		{"tournament-prize", "cash-out,correction", false},
		{"tournament-prize", "cash-out,,tournament", true},
	} {
		if got := selected(c.name, c.only); got != c.want {
			t.Errorf("selected(%q, %q) = %v, want %v", c.name, c.only, got, c.want)
		}
	}
}
