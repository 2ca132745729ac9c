// Package calibration fits a touch panel to the screen: the technician touches full-screen
// targets, and the raw touch positions are fitted to the targets' positions by least squares
// as a 2×3 affine matrix, the form libinput takes as a touch device's "Calibration Matrix".
//
// Everything is normalised, as libinput's matrix is: a device coordinate of 0 is the panel's
// left (top) edge and 1 its right (bottom) edge, and the same for the screen. A touch at
// device point (x, y) is reported at screen point
//
//	(a·x + b·y + c,  d·x + e·y + f)
//
// for the matrix "a b c d e f" (LIBINPUT_CALIBRATION_MATRIX). Before it is accepted a fit is
// checked on a target it was not fitted to (the held-out target): if that touch lands more than
// 1% of the screen diagonal from its target the fit is refused, as it is when the touches
// cannot determine a matrix at all (too few, repeated, collinear, off the panel).
//
// The package is pure: no Fyne, no files. Persisting a fit (udev rule, xinput) is persist.go.
package calibration

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Point is a position normalised to the screen (or, for a raw touch, to the panel): 0–1.
type Point struct{ X, Y float64 }

// Sample is one touched target: where it was drawn and where the panel reported the touch.
type Sample struct {
	Target Point // the target's centre, normalised to the screen
	Touch  Point // the touch as reported, normalised
}

// Matrix is libinput's calibration matrix "a b c d e f": the first row maps to screen x, the
// second to screen y.
type Matrix [6]float64

// Identity is the matrix of a panel that needs no correction.
var Identity = Matrix{1, 0, 0, 0, 1, 0}

// Apply maps a device point through the matrix.
func (m Matrix) Apply(p Point) Point {
	return Point{m[0]*p.X + m[1]*p.Y + m[2], m[3]*p.X + m[4]*p.Y + m[5]}
}

// Then is the matrix that applies m first and n to its result: n∘m. Touches are reported
// through the matrix in force, so a fit made from them is installed as inForce.Then(fit).
func (m Matrix) Then(n Matrix) Matrix {
	return Matrix{
		n[0]*m[0] + n[1]*m[3], n[0]*m[1] + n[1]*m[4], n[0]*m[2] + n[1]*m[5] + n[2],
		n[3]*m[0] + n[4]*m[3], n[3]*m[1] + n[4]*m[4], n[3]*m[2] + n[4]*m[5] + n[5],
	}
}

// Invert is the matrix undoing m; ok is false when m is singular.
func (m Matrix) Invert() (Matrix, bool) {
	det := m[0]*m[4] - m[1]*m[3]
	if math.Abs(det) < 1e-12 {
		return Matrix{}, false
	}
	a, b, d, e := m[4]/det, -m[1]/det, -m[3]/det, m[0]/det
	return Matrix{a, b, -(a*m[2] + b*m[5]), d, e, -(d*m[2] + e*m[5])}, true
}

// String is the six numbers as libinput and xinput read them, space separated.
func (m Matrix) String() string {
	s := make([]string, 6)
	for i, v := range m {
		if v == 0 {
			v = 0 // no "-0"
		}
		s[i] = strconv.FormatFloat(v, 'f', 6, 64)
	}
	return strings.Join(s, " ")
}

// Parse reads six numbers written by String (or by hand in a udev rule).
func Parse(s string) (Matrix, error) {
	f := strings.Fields(s)
	if len(f) != 6 {
		return Matrix{}, fmt.Errorf("calibration matrix %q: want 6 numbers, have %d", s, len(f))
	}
	var m Matrix
	for i, x := range f {
		v, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Matrix{}, fmt.Errorf("calibration matrix %q: %q is not a number", s, x)
		}
		m[i] = v
	}
	return m, nil
}

// Errors a fit is refused with. Each is wrapped with the detail (which points, how far).
var (
	ErrTooFew     = errors.New("at least 3 touched targets are needed")
	ErrOffPanel   = errors.New("a touch is outside the panel")
	ErrRepeated   = errors.New("two touches landed on the same spot: touch each target once, where it is drawn")
	ErrCollinear  = errors.New("the touches lie on one line: the panel cannot be fitted from them")
	ErrHeldOut    = errors.New("the check target missed: the fit is off by more than 1% of the screen diagonal")
	ErrNotAMatrix = errors.New("the fit is not a usable matrix")
)

// offPanel is how far outside 0–1 a raw touch may be (a target drawn at the edge, a panel a
// touch wider than its glass) before it is refused as not a touch on this panel.
const offPanel = 0.02

// Fit fits the matrix by least squares to the samples: the one minimising the squared distance
// between each target and its touch mapped through the matrix. Degenerate samples are refused.
func Fit(samples []Sample) (Matrix, error) {
	if len(samples) < 3 {
		return Matrix{}, fmt.Errorf("%w (have %d)", ErrTooFew, len(samples))
	}
	for i, s := range samples {
		for _, v := range []float64{s.Touch.X, s.Touch.Y, s.Target.X, s.Target.Y} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < -offPanel || v > 1+offPanel {
				return Matrix{}, fmt.Errorf("%w: target %d at (%.3f, %.3f)", ErrOffPanel, i+1, s.Touch.X, s.Touch.Y)
			}
		}
		for j := range i {
			if dist(s.Touch, samples[j].Touch) < 0.01 {
				return Matrix{}, fmt.Errorf("%w (targets %d and %d)", ErrRepeated, j+1, i+1)
			}
		}
	}
	// Normal equations A·x = r for each row, with the touches centred on their mean so the
	// system is well conditioned; the 3×3 system is then block diagonal in (x, y) and 1.
	var mx, my, tx, ty float64
	n := float64(len(samples))
	for _, s := range samples {
		mx += s.Touch.X / n
		my += s.Touch.Y / n
		tx += s.Target.X / n
		ty += s.Target.Y / n
	}
	var sxx, sxy, syy, rxX, ryX, rxY, ryY float64
	for _, s := range samples {
		x, y := s.Touch.X-mx, s.Touch.Y-my
		X, Y := s.Target.X-tx, s.Target.Y-ty
		sxx += x * x
		sxy += x * y
		syy += y * y
		rxX += x * X
		ryX += y * X
		rxY += x * Y
		ryY += y * Y
	}
	det := sxx*syy - sxy*sxy
	// det / (sxx·syy) is 1 − cos² of the angle the touches' spread makes: near zero, they lie
	// near one line (or on one point) and the matrix is not determined in the other direction.
	if sxx <= 0 || syy <= 0 || det <= 1e-6*sxx*syy || det < 1e-8 {
		return Matrix{}, ErrCollinear
	}
	a := (rxX*syy - ryX*sxy) / det
	b := (ryX*sxx - rxX*sxy) / det
	d := (rxY*syy - ryY*sxy) / det
	e := (ryY*sxx - rxY*sxy) / det
	m := Matrix{a, b, tx - a*mx - b*my, d, e, ty - d*mx - e*my}
	if _, ok := m.Invert(); !ok {
		return Matrix{}, ErrNotAMatrix
	}
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Matrix{}, ErrNotAMatrix
		}
	}
	return m, nil
}

func dist(p, q Point) float64 { return math.Hypot(p.X-q.X, p.Y-q.Y) }

// Size is the screen in pixels: the held-out error is measured on it.
type Size struct{ W, H float64 }

// Diagonal is the screen's diagonal in pixels.
func (s Size) Diagonal() float64 { return math.Hypot(s.W, s.H) }

// pixels is the distance between two normalised points on the screen, in pixels.
func (s Size) pixels(p, q Point) float64 { return math.Hypot((p.X-q.X)*s.W, (p.Y-q.Y)*s.H) }

// Result is an accepted fit with the figures a technician checks it by.
type Result struct {
	Matrix   Matrix
	Residual float64 // the largest distance, in pixels, of a fitted touch from its target
	HeldOut  float64 // the check target's error, in pixels
	Limit    float64 // the most HeldOut may be: 1% of the diagonal
}

// MaxHeldOut is the held-out error, as a fraction of the screen diagonal, above which a fit is
// refused.
const MaxHeldOut = 0.01

// Calibrate fits the samples and checks the fit on the held-out sample. The matrix maps the
// touches as they were reported; see Matrix.Then for installing it over a matrix in force.
func Calibrate(screen Size, samples []Sample, heldOut Sample) (Result, error) {
	if screen.W <= 0 || screen.H <= 0 {
		return Result{}, fmt.Errorf("calibration: screen size %v×%v", screen.W, screen.H)
	}
	m, err := Fit(samples)
	if err != nil {
		return Result{}, err
	}
	r := Result{Matrix: m, Limit: MaxHeldOut * screen.Diagonal()}
	for _, s := range samples {
		r.Residual = max(r.Residual, screen.pixels(m.Apply(s.Touch), s.Target))
	}
	r.HeldOut = screen.pixels(m.Apply(heldOut.Touch), heldOut.Target)
	if math.IsNaN(r.HeldOut) || r.HeldOut > r.Limit {
		return r, fmt.Errorf("%w (%.1f pixels; at most %.1f)", ErrHeldOut, r.HeldOut, r.Limit)
	}
	return r, nil
}

// Targets are where the calibration screen draws its targets, in the order it asks for them:
// four near the corners, inset so a finger reaches them on a bezel, that the fit uses, and the
// last, the held-out check, off the centre so it is not where the corners' average lands.
func Targets() (fit []Point, heldOut Point) {
	const in = 0.1
	return []Point{{in, in}, {1 - in, in}, {1 - in, 1 - in}, {in, 1 - in}}, Point{0.6, 0.4}
}
