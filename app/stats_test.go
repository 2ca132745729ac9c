package app

import (
	"testing"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/roulette"
)

func TestHotCold(t *testing.T) {
	var h []table.Outcome
	for _, n := range []roulette.Number{17, 17, 17, 5, 5, 0, 32} {
		h = append(h, table.Outcome{Number: n})
	}
	h = append(h, table.Outcome{Number: 36, Invalidated: true}, table.Outcome{Number: roulette.DoubleZeroNumber})
	hot, cold, sample := HotCold(h, roulette.SingleZero, 3)
	if sample != 7 {
		t.Fatalf("sample %d: invalidated rounds and numbers off the wheel must not count", sample)
	}
	if hot[0] != (NumberCount{17, 3}) || hot[1] != (NumberCount{5, 2}) || hot[2] != (NumberCount{0, 1}) {
		t.Fatalf("hot %v", hot)
	}
	if len(cold) != 3 || cold[0].Count != 0 || cold[0].Number == 17 {
		t.Fatalf("cold %v", cold)
	}
	if hot, cold, s := HotCold(nil, roulette.DoubleZero, 2); s != 0 || len(hot) != 0 || len(cold) != 2 {
		t.Fatalf("empty history: hot %v cold %v, sample %d", hot, cold, s)
	}
	// One spin: only its number is hot — never "0×0" (issue 18).
	hot, _, _ = HotCold([]table.Outcome{{Number: 17}}, roulette.SingleZero, 3)
	if len(hot) != 1 || hot[0] != (NumberCount{17, 1}) {
		t.Fatalf("hot after one spin of 17: %v", hot)
	}
}
