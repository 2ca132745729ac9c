package table

import (
	"slices"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// outcomes is a history, newest first, of the numbers given.
func outcomes(ns ...roulette.Number) []Outcome {
	h := make([]Outcome, len(ns))
	for i, n := range ns {
		h[i] = Outcome{Number: n}
	}
	return h
}

func TestHotCold(t *testing.T) {
	h := outcomes(17, 17, 17, 5, 5, 0, 32)
	h = append(h, Outcome{Number: 36, Invalidated: true}, Outcome{Number: roulette.DoubleZeroNumber})
	hot, cold, sample := HotCold(h, roulette.SingleZero, 3)
	if sample != 7 {
		t.Fatalf("sample %d: invalidated rounds and numbers off the wheel must not count", sample)
	}
	// 0 and 32 came up once each: 0 more recently (newest first), so it is the hotter.
	if len(hot) != 3 || hot[0] != (NumberCount{17, 3}) || hot[1] != (NumberCount{5, 2}) || hot[2] != (NumberCount{0, 1}) {
		t.Fatalf("hot %v", hot)
	}
	// Never seen: the lower numbers first (1, 2, 3), never 0, 5, 17 or 32.
	if len(cold) != 3 || cold[0] != (NumberCount{1, 0}) || cold[1] != (NumberCount{2, 0}) || cold[2] != (NumberCount{3, 0}) {
		t.Fatalf("cold %v", cold)
	}
}

// Ties, flat and short samples: no number is both hot and cold, nothing is hot that never came
// up ("0×0" listed as hot, issue 18), and nothing is hot or cold in a sample where every number
// came up as often as every other.
func TestHotColdTiesAndShortSamples(t *testing.T) {
	everyOnce := append([]roulette.Number(nil), roulette.DoubleZero.Numbers()...)
	cases := []struct {
		name      string
		h         []Outcome
		w         roulette.Wheel
		hot, cold []NumberCount
	}{
		{"no spins", nil, roulette.DoubleZero, nil, nil},
		{"one spin", outcomes(17), roulette.SingleZero, []NumberCount{{17, 1}}, []NumberCount{{0, 0}, {1, 0}, {2, 0}}},
		{"every number once", outcomes(everyOnce...), roulette.DoubleZero, nil, nil},
		{"ties go to the most recent", outcomes(9, 30, 4, 30, 9, 4, 22), roulette.SingleZero,
			[]NumberCount{{9, 2}, {30, 2}, {4, 2}}, []NumberCount{{0, 0}, {1, 0}, {2, 0}}},
		{"the oldest of the seen is the coldest", append(outcomes(everyOnce[:36]...), outcomes(everyOnce...)...), roulette.DoubleZero,
			// The wheel's numbers in its order (0, 00, 1…36): 0…34 and 00 twice, then 35 and 36
			// once, 36 the oldest spin of the history.
			[]NumberCount{{0, 2}, {roulette.DoubleZeroNumber, 2}, {1, 2}}, []NumberCount{{36, 1}, {35, 1}}},
		{"all zeros", outcomes(0, roulette.DoubleZeroNumber, 0), roulette.DoubleZero,
			[]NumberCount{{0, 2}, {roulette.DoubleZeroNumber, 1}}, []NumberCount{{1, 0}, {2, 0}, {3, 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hot, cold, _ := HotCold(c.h, c.w, 3)
			if !slices.Equal(hot, c.hot) || !slices.Equal(cold, c.cold) {
				t.Errorf("hot %v cold %v, want hot %v cold %v", hot, cold, c.hot, c.cold)
			}
			for _, h := range hot {
				if h.Count == 0 {
					t.Errorf("%v listed hot", h)
				}
				for _, k := range cold {
					if k.Number == h.Number {
						t.Errorf("%v both hot and cold", h.Number)
					}
				}
			}
		})
	}
}

func TestSplits(t *testing.T) {
	cases := []struct {
		name string
		h    []Outcome
		w    roulette.Wheel
		want Splits
	}{
		{"empty history", nil, roulette.SingleZero, Splits{}},
		{"all zeros", outcomes(0, 0, 0), roulette.SingleZero, Splits{Sample: 3, Zeros: 3}},
		{"double zero counts as a zero", outcomes(roulette.DoubleZeroNumber, 0, 1), roulette.DoubleZero,
			Splits{Sample: 3, Zeros: 2, Red: 1, Odd: 1, Low: 1, Dozens: [3]int{1, 0, 0}}},
		{"00 is off a single-zero wheel", outcomes(roulette.DoubleZeroNumber, 2), roulette.SingleZero,
			Splits{Sample: 1, Black: 1, Even: 1, Low: 1, Dozens: [3]int{1, 0, 0}}},
		{"invalidated spins do not count", append(outcomes(36), Outcome{Number: 1, Invalidated: true}), roulette.SingleZero,
			Splits{Sample: 1, Red: 1, Even: 1, High: 1, Dozens: [3]int{0, 0, 1}}},
		// 17 black odd low 2nd; 32 red even high 3rd; 5 red odd low 1st; 26 black even high 3rd;
		// 12 red even low 1st; 13 black odd low 2nd; 24 black even high 2nd; 25 red odd high 3rd.
		{"a run", outcomes(17, 32, 0, 5, 26, 12, 13, 24, 25, roulette.DoubleZeroNumber), roulette.DoubleZero,
			Splits{Sample: 10, Zeros: 2, Red: 4, Black: 4, Odd: 4, Even: 4, Low: 4, High: 4, Dozens: [3]int{2, 3, 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := SplitsOf(c.h, c.w)
			if got != c.want {
				t.Errorf("%+v, want %+v", got, c.want)
			}
			if got.Red+got.Black+got.Zeros != got.Sample || got.Odd+got.Even+got.Zeros != got.Sample ||
				got.Low+got.High+got.Zeros != got.Sample || got.Dozens[0]+got.Dozens[1]+got.Dozens[2]+got.Zeros != got.Sample {
				t.Errorf("%+v: a split does not add up to the sample", got)
			}
		})
	}
}

// Any history — numbers off the wheel, invalidated spins, 00 at a single-zero table — gives
// splits that add up to the sample, and hot and cold lists that never share a number, never call
// a number hot that did not come up, and are ordered hottest and coldest first.
func FuzzStats(f *testing.F) {
	f.Add([]byte{17, 17, 0, 37, 5}, true)
	f.Add([]byte{}, false)
	f.Add([]byte{37, 37, 0, 0x80 | 3}, true)
	f.Fuzz(func(t *testing.T, data []byte, double bool) {
		w := roulette.SingleZero
		if double {
			w = roulette.DoubleZero
		}
		h := make([]Outcome, len(data))
		valid := 0
		for i, b := range data {
			// The low six bits are the number (some off any wheel), the top bit invalidates it.
			h[i] = Outcome{Number: roulette.Number(b & 0x3f), Invalidated: b&0x80 != 0}
			if !h[i].Invalidated && w.Has(h[i].Number) {
				valid++
			}
		}
		s := SplitsOf(h, w)
		if s.Sample != valid || s.Red+s.Black+s.Zeros != s.Sample || s.Odd+s.Even+s.Zeros != s.Sample ||
			s.Low+s.High+s.Zeros != s.Sample || s.Dozens[0]+s.Dozens[1]+s.Dozens[2]+s.Zeros != s.Sample {
			t.Fatalf("%+v from %d valid outcomes", s, valid)
		}
		hot, cold, sample := HotCold(h, w, 3)
		if sample != valid || len(hot) > 3 || len(cold) > 3 {
			t.Fatalf("sample %d of %d, hot %v cold %v", sample, valid, hot, cold)
		}
		for i, x := range hot {
			if x.Count == 0 || i > 0 && x.Count > hot[i-1].Count {
				t.Fatalf("hot %v", hot)
			}
			for _, y := range cold {
				if x.Number == y.Number {
					t.Fatalf("%v both hot %v and cold %v", x.Number, hot, cold)
				}
			}
		}
		for i, y := range cold {
			if !w.Has(y.Number) || i > 0 && y.Count < cold[i-1].Count {
				t.Fatalf("cold %v", cold)
			}
		}
	})
}

// Issue 32 point 7: on a double-zero wheel 00 is a number like any other, and cold when it has
// not come up: numbers never seen are listed in the wheel's order (0, 00, 1…36); by value, 00
// (37) came after 36 and was never listed cold.
func TestColdIncludesDoubleZero(t *testing.T) {
	_, cold, _ := HotCold(outcomes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1), roulette.DoubleZero, 3)
	want := []NumberCount{{0, 0}, {roulette.DoubleZeroNumber, 0}, {11, 0}}
	if !slices.Equal(cold, want) {
		t.Fatalf("cold %v, want %v", cold, want)
	}
}
