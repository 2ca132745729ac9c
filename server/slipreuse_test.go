package server

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// A slip update reuses the bets of the terminal's acknowledged slip that it already parsed
// (parsed in slips.go). Whatever the update — chips added at the end, the oldest taken off the
// front, wagers reordered, replaced, written in another order of numbers than the table's, or
// not a bet of the layout — the slip priced with the previous one at hand is exactly the slip
// priced from nothing, and the acknowledged slip is that one.
func TestSlipPricedWithThePreviousSlipIsPricedAsNew(t *testing.T) {
	r, ids, _ := engineTable(t, 1)
	id := ids[0]
	st, err := r.table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	spots := r.table.layout.Spots()
	rng := rand.New(rand.NewPCG(1, 2))
	fresh := func() SlipWager {
		w := SlipWager{Spec: roulette.Bet{Spot: spots[rng.IntN(len(spots))]}.Spec(), Amount: 100 * (1 + rng.Int64N(5))}
		switch rng.IntN(12) {
		case 0: // the numbers of a split or more in another order than the table writes them
			slices.Reverse(w.Spec.Numbers)
		case 1: // a call bet
			w.Spec = roulette.BetSpec{Name: roulette.Call(1 + rng.IntN(4)).String()}
		case 2: // not on this layout
			w.Spec = roulette.BetSpec{Name: "straight", Numbers: []string{"37"}}
		}
		return w
	}
	var wagers []SlipWager
	reused := 0
	for version := uint64(1); version <= 400; version++ {
		switch op := rng.IntN(6); {
		case op <= 1 || len(wagers) == 0:
			wagers = append(wagers, fresh())
		case op == 2: // the oldest off the front, one more at the end (loadgen's player)
			wagers = append(slices.Clone(wagers[1:]), fresh())
		case op == 3:
			rng.Shuffle(len(wagers), func(i, j int) { wagers[i], wagers[j] = wagers[j], wagers[i] })
		case op == 4:
			wagers = slices.Clone(wagers)
			wagers[rng.IntN(len(wagers))] = fresh()
		default:
			wagers = wagers[:len(wagers)-1]
		}
		if len(wagers) > 30 {
			wagers = wagers[len(wagers)-30:]
		}
		r.table.mu.Lock()
		in, err := r.table.slipInputs(r.table.now(), id, st.RoundId, version, len(wagers), "")
		r.table.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		withPrev, errPrev := r.table.priceSlip(in, version, wagers)
		alone := in
		alone.prev = nil
		want, errWant := r.table.priceSlip(alone, version, wagers)
		if (errPrev == nil) != (errWant == nil) || (errPrev != nil && errPrev.Error() != errWant.Error()) {
			t.Fatalf("version %d: priced with the previous slip: %v; priced anew: %v", version, errPrev, errWant)
		}
		if !reflect.DeepEqual(withPrev, want) {
			t.Fatalf("version %d: priced with the previous slip\n%+v\npriced anew\n%+v", version, withPrev, want)
		}
		ack, err := r.table.UpdateSlip(id, st.RoundId, version, wagers)
		if (err == nil) != (errWant == nil) {
			t.Fatalf("version %d: UpdateSlip %v, priced anew %v", version, err, errWant)
		}
		if err != nil {
			wagers = slices.DeleteFunc(slices.Clone(wagers), func(w SlipWager) bool { return w.Spec.Numbers != nil && w.Spec.Numbers[0] == "37" })
			continue
		}
		if ack.Total != want.total || len(ack.Bets) != len(want.bets) {
			t.Fatalf("version %d: acknowledged %d in %d bets, priced %d in %d", version, ack.Total, len(ack.Bets), want.total, len(want.bets))
		}
		if in.prev != nil {
			for _, w := range wagers {
				if i := slices.IndexFunc(in.prev.bets, func(b acceptedBet) bool { return sameSpec(b.Spec, w.Spec) }); i >= 0 {
					reused++
				}
			}
		}
	}
	// The walk met both: wagers the previous slip held, and ones it did not.
	if reused < 100 {
		t.Errorf("only %d wagers were already on the previous slip: the test does not exercise the reuse", reused)
	}
	t.Logf("%d wagers found on the previous slip", reused)
}
