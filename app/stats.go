package app

import (
	"sort"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/roulette"
)

// NumberCount is how often a number came up in a sample of recent outcomes.
type NumberCount struct {
	Number roulette.Number
	Count  int
}

// HotCold returns the n most and n least frequent numbers of the wheel in the valid (not
// invalidated) outcomes of history, and the sample size, which the screen shows with them so a
// player sees how little a short history says. Ties go to the lower number, so the screen is
// stable.
func HotCold(history []table.Outcome, w roulette.Wheel, n int) (hot, cold []NumberCount, sample int) {
	counts := map[roulette.Number]int{}
	for _, o := range history {
		if o.Invalidated || !w.Has(o.Number) {
			continue
		}
		counts[o.Number]++
		sample++
	}
	all := make([]NumberCount, 0, len(w.Numbers()))
	for _, num := range w.Numbers() {
		all = append(all, NumberCount{num, counts[num]})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Count > all[j].Count })
	n = min(n, len(all))
	for _, c := range all[:n] {
		if c.Count > 0 { // a number that never came up is not hot, however short the sample
			hot = append(hot, c)
		}
	}
	for i := len(all) - 1; i >= len(all)-n; i-- {
		cold = append(cold, all[i])
	}
	return hot, cold, sample
}
