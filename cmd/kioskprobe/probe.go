package main

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// The probe's pure parts: where to tap, which window is the kiosk's, and the figures. They
// have no X connection, so they are tested without a display (probe_test.go).

// point is a pixel position in the kiosk window's coordinates.
type point struct{ X, Y int }

// rect is a rectangle in the kiosk window's coordinates (pixels, fractional as Fyne lays out).
type rect struct{ X, Y, W, H float64 }

// parseRect reads "X,Y,W,H".
func parseRect(s string) (rect, error) {
	f, err := floats(s, 4)
	if err != nil {
		return rect{}, fmt.Errorf("rectangle %q: %w", s, err)
	}
	if f[2] <= 0 || f[3] <= 0 {
		return rect{}, fmt.Errorf("rectangle %q: width and height must be positive", s)
	}
	return rect{f[0], f[1], f[2], f[3]}, nil
}

// parsePoints reads "X,Y;X,Y;…" (the chip tray's chips, left to right).
func parsePoints(s string) ([]point, error) {
	var out []point
	for p := range strings.SplitSeq(s, ";") {
		if strings.TrimSpace(p) == "" {
			continue
		}
		f, err := floats(p, 2)
		if err != nil {
			return nil, fmt.Errorf("point %q: %w", p, err)
		}
		out = append(out, point{int(math.Round(f[0])), int(math.Round(f[1]))})
	}
	return out, nil
}

func floats(s string, n int) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d numbers separated by commas, got %d", n, len(parts))
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a number", p)
		}
		out[i] = v
	}
	return out, nil
}

// numberCentres returns the centres of the number boxes 1..36, in that order, of a felt of
// wheel w drawn into the widget rectangle felt. It maps the layout the way ui/felt.go does
// (Felt.ToScreen and fit): the layout's bounds scaled by one factor to fit the widget, centred
// in it. It uses the same diagrams geometry the kiosk hit-tests with, so a tap at a centre
// means that number's straight-up bet. cell is a box's side in pixels.
func numberCentres(felt rect, w roulette.Wheel) (centres []point, cell float64, err error) {
	g, err := diagrams.New(roulette.Layout{Wheel: w})
	if err != nil {
		return nil, 0, err
	}
	b := g.Bounds
	bw, bh := float64(b.Max.X-b.Min.X), float64(b.Max.Y-b.Min.Y)
	scale := min(felt.W/bw, felt.H/bh)
	offX, offY := (felt.W-bw*scale)/2, (felt.H-bh*scale)/2
	out := make([]point, 36)
	for _, box := range g.Boxes {
		if !box.IsNum || box.Number < 1 || box.Number > 36 {
			continue
		}
		c := box.Rect.Centre()
		x := felt.X + offX + (float64(c.X)-float64(b.Min.X))*scale
		y := felt.Y + offY + (float64(c.Y)-float64(b.Min.Y))*scale
		out[box.Number-1] = point{int(math.Round(x)), int(math.Round(y))}
	}
	for i, p := range out {
		if p == (point{}) {
			return nil, 0, fmt.Errorf("the layout has no box for number %d", i+1)
		}
	}
	return out, scale, nil
}

// window is what the probe knows of a top-level X window when it picks the kiosk's.
type window struct {
	ID     uint32
	Name   string
	Mapped bool
	W, H   int
}

// pickWindow chooses the kiosk's window: the mapped window titled title (the kiosk's window is
// "ATS", internal/kiosk/screen.go), or, with no such window, the largest mapped one (a window manager may
// reparent or retitle it).
func pickWindow(ws []window, title string) (window, error) {
	var best window
	found := false
	for _, w := range ws {
		if w.Mapped && title != "" && w.Name == title {
			return w, nil
		}
	}
	for _, w := range ws {
		if w.Mapped && w.W*w.H > best.W*best.H {
			best, found = w, true
		}
	}
	if !found {
		return window{}, errors.New("no mapped window on the screen")
	}
	return best, nil
}

// figures are one series' results.
type figures struct {
	N                  int // taps whose pixels changed
	P50, P95, P99, Max time.Duration
	Timeouts           int // taps with no change before the timeout
}

// summarise computes the figures of the latencies of the taps that drew something.
func summarise(lat []time.Duration, timeouts int) figures {
	f := figures{N: len(lat), Timeouts: timeouts}
	if len(lat) == 0 {
		return f
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	f.P50, f.P95, f.P99, f.Max = percentile(s, 50), percentile(s, 95), percentile(s, 99), s[len(s)-1]
	return f
}

// percentile is the nearest-rank percentile of sorted, non-empty s: the smallest value with at
// least p % of the values at or below it.
func percentile(s []time.Duration, p float64) time.Duration {
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}

func (f figures) String() string {
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) }
	return fmt.Sprintf("n %d  p50 %s ms  p95 %s ms  p99 %s ms  max %s ms  timeouts %d",
		f.N, ms(f.P50), ms(f.P95), ms(f.P99), ms(f.Max), f.Timeouts)
}

// differs reports whether two read-backs of the same region differ.
func differs(a, b []byte) bool { return string(a) != string(b) }

// numberish reports whether c is a number box's colour (ui/felt.go: red c62828, black 1a1a1a,
// the zero's green 1b7a32), possibly under the dark veil of no more bets (black at 0x70 alpha,
// which keeps the hue): the red's red channel leads, the black is dark and grey, the green's
// green leads. The felt's lines are near white, its background a darker green (0b5d1e) that
// the numbers' green is told from by its red channel.
func numberish(c color.NRGBA) bool {
	r, g, b := int(c.R), int(c.G), int(c.B)
	switch {
	case r > 2*g && r > 2*b && r > 0x40: // red
		return true
	case r < 0x30 && g < 0x30 && b < 0x30: // black
		return true
	case g > 2*r && g > b && r >= 0x10: // the zero's green (the felt's is r 0x0b)
		return true
	}
	return false
}

// frameCount is what -frames saw: damage events over a time, and their area against the window's.
type frameCount struct {
	over         time.Duration
	frames       int
	area, window int // pixels damaged in all, and the window's pixels
}

func (f frameCount) String() string {
	per := float64(f.frames) / f.over.Seconds()
	share := 0.0
	if f.frames > 0 && f.window > 0 {
		share = float64(f.area) / float64(f.frames) / float64(f.window) * 100
	}
	return fmt.Sprintf("idle frames: %d over %v (%.2f a second), each %.0f %% of the window", f.frames, f.over, per, share)
}
