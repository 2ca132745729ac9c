package table

import (
	"sort"

	"github.com/tablegames/ats/app/roulette"
)

// HotColdMinSpins is the sample from which the screen names hot and cold numbers. Over fewer
// spins a count says nothing a player could act on: after one spin the number seen was "hot"
// and every other "cold" (issue 32 point 7). Ten spins is the shortest history casino boards
// commonly show, and the first in which a number can have come up more than once while most
// have not come up at all; it is still no prediction, and the board says how many spins it
// counts beside them.
const HotColdMinSpins = 10

// NumberCount is how often a number came up in a sample of recent outcomes.
type NumberCount struct {
	Number roulette.Number
	Count  int
}

// HotCold returns up to n most and n least frequent numbers of the wheel in the valid (not
// invalidated) outcomes of history (newest first, as the view holds it), and the sample size,
// which the screen shows with them so a player sees how little a short history says.
//
// A number is hot only if it came up more often than the least frequent number, and cold only
// if it came up less often than the most frequent: with a flat sample (no spins, or every
// number once) nothing is either, and no number is ever listed both hot and cold. Ties are
// broken as a statistics board reads them: between two equally frequent numbers the one seen
// more recently is the hotter, the one not seen for longer the colder; numbers never seen go
// in the wheel's order (0, 00, 1…36), so the screen is stable and 00 is a number like 0.
func HotCold(history []Outcome, w roulette.Wheel, n int) (hot, cold []NumberCount, sample int) {
	counts := map[roulette.Number]int{}
	last := map[roulette.Number]int{} // the spin's place in history, 0 the newest
	for i, o := range history {
		if o.Invalidated || !w.Has(o.Number) {
			continue
		}
		if counts[o.Number] == 0 {
			last[o.Number] = i
		}
		counts[o.Number]++
		sample++
	}
	all := make([]NumberCount, 0, len(w.Numbers()))
	order := map[roulette.Number]int{} // the place in the wheel's list of numbers: 0, 00, 1…36
	lo, hi := -1, 0
	for i, num := range w.Numbers() {
		order[num] = i
		c := counts[num]
		all = append(all, NumberCount{num, c})
		if lo < 0 || c < lo {
			lo = c
		}
		hi = max(hi, c)
	}
	// seen orders equal counts: the more recent first; never seen after, by number.
	seen := func(a, b roulette.Number) bool {
		ia, sa := last[a]
		ib, sb := last[b]
		switch {
		case sa && sb:
			return ia < ib
		case sa != sb:
			return sa
		}
		return order[a] < order[b]
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Count != all[j].Count {
			return all[i].Count > all[j].Count
		}
		return seen(all[i].Number, all[j].Number)
	})
	for _, c := range all {
		if len(hot) == n || c.Count <= lo {
			break
		}
		hot = append(hot, c)
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Count != all[j].Count {
			return all[i].Count < all[j].Count
		}
		// the colder of two never seen is the lower number, as above; of two seen, the older
		ia, sa := last[all[i].Number]
		ib, sb := last[all[j].Number]
		if sa && sb {
			return ia > ib
		}
		return seen(all[i].Number, all[j].Number)
	})
	for _, c := range all {
		if len(cold) == n || c.Count >= hi {
			break
		}
		cold = append(cold, c)
	}
	return hot, cold, sample
}

// Splits are the shares of a sample of outcomes a casino's statistics board shows: by colour,
// parity, half and dozen. The zeros (0, and 00 on a double-zero wheel) are green, and are
// neither odd nor even, low nor high, nor in a dozen: they are counted apart, in Zeros, so
// every split adds up to Sample with them.
type Splits struct {
	Sample     int // valid outcomes counted
	Zeros      int // 0 and 00
	Red, Black int
	Odd, Even  int
	Low, High  int    // 1–18, 19–36
	Dozens     [3]int // 1–12, 13–24, 25–36
}

// SplitsOf counts the valid (not invalidated) outcomes of history that are on the wheel w; an
// outcome not on the wheel (a 00 reported at a single-zero table) is left out, as HotCold does.
func SplitsOf(history []Outcome, w roulette.Wheel) Splits {
	var s Splits
	for _, o := range history {
		if o.Invalidated || !w.Has(o.Number) {
			continue
		}
		s.Sample++
		n := o.Number
		if n == 0 || n == roulette.DoubleZeroNumber {
			s.Zeros++
			continue
		}
		if n.Colour() == roulette.ColourRed {
			s.Red++
		} else {
			s.Black++
		}
		if n%2 == 1 {
			s.Odd++
		} else {
			s.Even++
		}
		if n <= 18 {
			s.Low++
		} else {
			s.High++
		}
		s.Dozens[(n-1)/12]++
	}
	return s
}
