package calibration

import (
	"math"
	"testing"
)

// Whatever points a panel reports, Fit and Calibrate refuse or return a finite, invertible
// matrix that fits the points it was given at least as well as the identity — never a panic,
// never NaN in a udev rule. Parse never accepts what String would not write back.
func FuzzFit(f *testing.F) {
	f.Add(0.1, 0.1, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9, 0.0, 0.0, "1 0 0 0 1 0")
	f.Add(0.1, 0.1, 0.1, 0.1, 0.9, 0.9, 0.5, 0.5, 0.01, -0.02, "nan 0 0 0 1 0")
	f.Fuzz(func(t *testing.T, x1, y1, x2, y2, x3, y3, x4, y4, dx, dy float64, s string) {
		fit, held := Targets()
		touches := []Point{{x1, y1}, {x2, y2}, {x3, y3}, {x4, y4}}
		var ss []Sample
		for i, p := range fit {
			ss = append(ss, Sample{Target: p, Touch: touches[i]})
		}
		m, err := Fit(ss)
		if err == nil {
			if _, ok := m.Invert(); !ok {
				t.Fatalf("singular matrix %v accepted", m)
			}
			var fitErr, idErr float64
			for _, s := range ss {
				q := m.Apply(s.Touch)
				fitErr += math.Pow(q.X-s.Target.X, 2) + math.Pow(q.Y-s.Target.Y, 2)
				idErr += math.Pow(s.Touch.X-s.Target.X, 2) + math.Pow(s.Touch.Y-s.Target.Y, 2)
			}
			if math.IsNaN(fitErr) || fitErr > idErr+1e-9 {
				t.Fatalf("least squares %g worse than the identity %g", fitErr, idErr)
			}
			if _, perr := Parse(m.String()); perr != nil {
				t.Fatalf("%v written as %q does not parse: %v", m, m.String(), perr)
			}
		}
		Calibrate(Size{1920, 1080}, ss, Sample{Target: held, Touch: Point{held.X + dx, held.Y + dy}})
		if m, err := Parse(s); err == nil {
			for _, v := range m {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("Parse(%q) accepted %v", s, m)
				}
			}
		}
	})
}
