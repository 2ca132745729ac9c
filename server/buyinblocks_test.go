package server

import (
	"fmt"
	"testing"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/server/ledger"
)

// A slip of a terminal with no buy-in offered is checked without a heap allocation, however
// many buy-ins the table has seen: the check runs twice a slip under the table's lock, and it
// copied every buy-in to the heap.
func TestBuyInCheckAllocatesNothing(t *testing.T) {
	r := newRig(t)
	spots := r.table.layout.Spots()
	w := []SlipWager{{Spec: roulette.Bet{Spot: spots[0]}.Spec(), Amount: 100}}
	r.table.mu.Lock()
	defer r.table.mu.Unlock()
	for i := range 500 {
		id := fmt.Sprintf("B%d", i)
		r.table.buyins[id] = ledger.BuyIn{ID: id, Terminal: fmt.Sprintf("T%03d", i), Amount: 5000, State: "accepted"}
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := r.table.buyInBlocks("T001", nil, w); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a check", n)
	}
	// And an offered buy-in still blocks a further wager.
	r.table.buyins["B1"] = ledger.BuyIn{ID: "B1", Terminal: "T001", Amount: 5000, State: "offered"}
	if err := r.table.buyInBlocks("T001", nil, w); err == nil {
		t.Error("a wager placed while a buy-in awaits the player's confirmation")
	}
}
