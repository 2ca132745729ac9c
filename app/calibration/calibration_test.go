package calibration

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// samplesFor are the fit targets touched on a panel that reports screen point s at raw(s): the
// fit must find raw's inverse.
func samplesFor(raw Matrix) []Sample {
	fit, _ := Targets()
	fit = append(fit, Point{0.5, 0.5}, Point{0.3, 0.7})
	out := make([]Sample, len(fit))
	for i, p := range fit {
		out[i] = Sample{Target: p, Touch: raw.Apply(p)}
	}
	return out
}

func near(t *testing.T, got, want Matrix, tol float64) {
	t.Helper()
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("matrix\n got %v\nwant %v (element %d off by %g)", got, want, i, got[i]-want[i])
		}
	}
}

// The hand-worked cases: the panel's distortion and the matrix that undoes it, worked out on
// paper (the inverse of the 2×2 part, then −inverse·offset).
func TestFitHandWorked(t *testing.T) {
	c, s := math.Cos(math.Pi/36), math.Sin(math.Pi/36) // 5°
	cases := []struct {
		name string
		raw  Matrix // screen → reported touch (the miscalibrated panel)
		want Matrix // reported touch → screen
	}{
		{"identity", Identity, Identity},
		// Touches reported 0.05 right and 0.02 up of where they are: subtract it.
		{"offset", Matrix{1, 0, 0.05, 0, 1, -0.02}, Matrix{1, 0, -0.05, 0, 1, 0.02}},
		// Reported at 80% of x and 110% of y: scale by 1.25 and 1/1.1.
		{"scale", Matrix{0.8, 0, 0, 0, 1.1, 0}, Matrix{1.25, 0, 0, 0, 1 / 1.1, 0}},
		// Rotated 5° about the origin: rotate back by −5° (the transpose).
		{"rotation", Matrix{c, -s, 0, s, c, 0}, Matrix{c, s, 0, -s, c, 0}},
		// Sheared: x' = x + 0.1y; undone by x = x' − 0.1y.
		{"skew", Matrix{1, 0.1, 0, 0, 1, 0}, Matrix{1, -0.1, 0, 0, 1, 0}},
		// Mirrored in x (a panel mounted turned over): x = 1 − x'.
		{"mirror", Matrix{-1, 0, 1, 0, 1, 0}, Matrix{-1, 0, 1, 0, 1, 0}},
		// All at once: scale 0.9, offset (0.03, 0.04); inverse scale 1/0.9, offset −0.03/0.9.
		{"scale and offset", Matrix{0.9, 0, 0.03, 0, 0.9, 0.04}, Matrix{1 / 0.9, 0, -0.03 / 0.9, 0, 1 / 0.9, -0.04 / 0.9}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Fit(samplesFor(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			near(t, got, tc.want, 1e-9)
			if inv, ok := tc.raw.Invert(); !ok {
				t.Fatal("raw not invertible")
			} else {
				near(t, got, inv, 1e-9)
			}
		})
	}
}

// With noisy touches the fit is the least-squares one: on four points symmetric about the
// centre with noise that cancels in pairs, the hand-worked answer is exact.
func TestFitNoisy(t *testing.T) {
	// Targets at (0.1,0.1) (0.9,0.1) (0.9,0.9) (0.1,0.9); x noise +e,−e,+e,−e on the touches
	// is uncorrelated with the targets (Σ x·n = Σ y·n = 0, Σ n = 0), so by hand: the centred
	// sums are Sxx = Σx² + Σn² = 0.64 + 4e², Syy = 0.64, Sxy = 0, and the x-row's covariances
	// Σ(x+n)·X = 0.64, Σ y·X = 0; so a = 0.64/(0.64+4e²), b = 0, c = 0.5 − 0.5a, and the y row
	// is the identity's.
	const e = 0.004
	fit, _ := Targets()
	noise := []float64{e, -e, e, -e}
	var ss []Sample
	for i, p := range fit {
		ss = append(ss, Sample{Target: p, Touch: Point{p.X + noise[i], p.Y}})
	}
	got, err := Fit(ss)
	if err != nil {
		t.Fatal(err)
	}
	a := 0.64 / (0.64 + 4*e*e)
	near(t, got, Matrix{a, 0, 0.5 - 0.5*a, 0, 1, 0}, 1e-12)

	// Random noise of 2 pixels on a 1920×1080 panel rotated and offset: the fit stays within
	// the held-out limit, and its residuals are of the noise's size.
	rng := rand.New(rand.NewPCG(1, 2))
	raw := Matrix{0.97, -0.03, 0.02, 0.04, 1.02, -0.01}
	screen := Size{1920, 1080}
	ss = samplesFor(raw)
	for i := range ss {
		ss[i].Touch.X += (rng.Float64()*2 - 1) * 2 / screen.W
		ss[i].Touch.Y += (rng.Float64()*2 - 1) * 2 / screen.H
	}
	_, held := Targets()
	r, err := Calibrate(screen, ss, Sample{Target: held, Touch: raw.Apply(held)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Residual > 5 || r.HeldOut > 5 {
		t.Errorf("residual %.2f px, held-out %.2f px: want both under 5 px for 2 px of noise", r.Residual, r.HeldOut)
	}
	inv, _ := raw.Invert()
	near(t, r.Matrix, inv, 0.01)
}

func TestFitRefusesDegenerate(t *testing.T) {
	cases := []struct {
		name string
		ss   []Sample
		want error
	}{
		{"too few", []Sample{{Point{0.1, 0.1}, Point{0.1, 0.1}}, {Point{0.9, 0.9}, Point{0.9, 0.9}}}, ErrTooFew},
		{"none", nil, ErrTooFew},
		{"collinear", []Sample{{Point{0.1, 0.1}, Point{0.1, 0.1}}, {Point{0.5, 0.5}, Point{0.5, 0.5}}, {Point{0.9, 0.9}, Point{0.9, 0.9}}, {Point{0.3, 0.3}, Point{0.3, 0.3}}}, ErrCollinear},
		{"nearly collinear", []Sample{{Point{0.1, 0.1}, Point{0.1, 0.1}}, {Point{0.5, 0.5}, Point{0.5, 0.5001}}, {Point{0.9, 0.9}, Point{0.9, 0.9}}}, ErrCollinear},
		{"repeated", []Sample{{Point{0.1, 0.1}, Point{0.1, 0.1}}, {Point{0.9, 0.1}, Point{0.1, 0.105}}, {Point{0.9, 0.9}, Point{0.9, 0.9}}}, ErrRepeated},
		{"outside the panel", []Sample{{Point{0.1, 0.1}, Point{-0.3, 0.1}}, {Point{0.9, 0.1}, Point{0.9, 0.1}}, {Point{0.9, 0.9}, Point{0.9, 0.9}}}, ErrOffPanel},
		{"not a number", []Sample{{Point{0.1, 0.1}, Point{math.NaN(), 0.1}}, {Point{0.9, 0.1}, Point{0.9, 0.1}}, {Point{0.9, 0.9}, Point{0.9, 0.9}}}, ErrOffPanel},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(tc.ss)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Fit = %v, %v; want %v", m, err, tc.want)
			}
		})
	}
}

// The held-out target: a panel that is not affine (a touch near the check target bends) fits
// the four corners exactly yet misses the check by more than 1% of the diagonal, and is refused.
func TestHeldOutCheck(t *testing.T) {
	screen := Size{1920, 1080}
	limit := 0.01 * math.Hypot(1920, 1080) // 22.03 px
	fit, held := Targets()
	var ss []Sample
	for _, p := range fit {
		ss = append(ss, Sample{Target: p, Touch: p})
	}
	for _, c := range []struct {
		px   float64 // how far right of its target the check touch lands, in pixels
		pass bool
	}{{0, true}, {limit - 1, true}, {limit + 1, false}, {200, false}} {
		r, err := Calibrate(screen, ss, Sample{Target: held, Touch: Point{held.X + c.px/1920, held.Y}})
		if c.pass != (err == nil) {
			t.Fatalf("check off by %.1f px: err %v, want pass=%v", c.px, err, c.pass)
		}
		if !c.pass && !errors.Is(err, ErrHeldOut) {
			t.Fatalf("err = %v, want ErrHeldOut", err)
		}
		if math.Abs(r.HeldOut-c.px) > 1e-6 || math.Abs(r.Limit-limit) > 1e-6 {
			t.Fatalf("held-out %.3f limit %.3f, want %.3f and %.3f", r.HeldOut, r.Limit, c.px, limit)
		}
	}
}

func TestMatrixAlgebra(t *testing.T) {
	m := Matrix{0.9, 0.1, 0.03, -0.05, 1.1, 0.02}
	inv, ok := m.Invert()
	if !ok {
		t.Fatal("not invertible")
	}
	near(t, m.Then(inv), Identity, 1e-12)
	near(t, inv.Then(m), Identity, 1e-12)
	p := Point{0.3, 0.8}
	n := Matrix{1, 0, 0.1, 0, 2, 0}
	a, b := m.Then(n).Apply(p), n.Apply(m.Apply(p))
	if math.Abs(a.X-b.X) > 1e-12 || math.Abs(a.Y-b.Y) > 1e-12 {
		t.Fatalf("Then: %v, want %v", a, b)
	}
	back, err := Parse(m.String())
	if err != nil {
		t.Fatal(err)
	}
	near(t, back, m, 1e-6)
	if Identity.String() != "1.000000 0.000000 0.000000 0.000000 1.000000 0.000000" {
		t.Fatalf("identity written as %q", Identity.String())
	}
	for _, bad := range []string{"", "1 0 0 0 1", "1 0 0 0 1 x", "1 0 0 0 1 NaN"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// Save writes the udev rule into the configured place and applies the matrix live through the
// configured command; a failing command is an error, with its output.
func TestPersist(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "xinput.log")
	fake := filepath.Join(dir, "xinput")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> "+log+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Persist{Rules: filepath.Join(dir, "rules.d", "99-ats-touch-calibration.rules"), Device: "Touch Panel", Command: []string{fake}}
	m := Matrix{1.1, 0, -0.05, 0, 0.9, 0.02}
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	if err := p.Save(context.Background(), m, "tech-7", at); err != nil {
		t.Fatal(err)
	}
	rule, _ := os.ReadFile(p.Rules)
	want := `ACTION=="add|change", KERNEL=="event*", ENV{ID_INPUT_TOUCHSCREEN}=="1", ENV{LIBINPUT_CALIBRATION_MATRIX}="1.100000 0.000000 -0.050000 0.000000 0.900000 0.020000"`
	if !strings.Contains(string(rule), want+"\n") || !strings.Contains(string(rule), "tech-7 at 2026-11-24T10:00:00Z") {
		t.Fatalf("rule file:\n%s\nwant the line\n%s", rule, want)
	}
	got, ok, err := p.Load()
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	near(t, got, m, 1e-9)
	applied, _ := os.ReadFile(log)
	if string(applied) != "set-prop Touch Panel libinput Calibration Matrix 1.100000 0.000000 -0.050000 0.000000 0.900000 0.020000 0 0 1\n" {
		t.Fatalf("xinput called with %q", applied)
	}
	bad := p
	bad.Command = []string{"sh", "-c", "echo no such device; exit 1", "xinput"}
	if err := bad.Apply(context.Background(), m); err == nil || !strings.Contains(err.Error(), "no such device") {
		t.Fatalf("failing xinput: %v", err)
	}
	if _, ok, err := (Persist{Rules: filepath.Join(dir, "none")}).Load(); ok || err != nil {
		t.Fatalf("no rule file: ok %v err %v", ok, err)
	}
}
