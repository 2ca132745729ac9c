package app

import (
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Issue 32: what the screen model tells the player, on a fake table.

// 001 §3.2.2, 000 §10.4.2, §11.4.2: chips placed on the layout make "a corresponding change" to
// the amount shown as standing to the player's credit. The server's balance stays the authority
// (cash-out, the records); the balance shown while betting is what is left to bet with.
func TestRule001_3_2_2_ShownBalanceDropsAsChipsArePlaced(t *testing.T) {
	h := newHarness(t)
	h.term.SelectChip(2500)
	h.term.Place(outside(t, roulette.Red, 0))
	h.term.Place(spot(t, roulette.Straight, 17))
	v := h.term.View()
	if v.SlipTotal != 5000 || v.ShownBalance != 10000-5000 {
		t.Fatalf("bet %d: balance shown %d, want %d", v.SlipTotal, v.ShownBalance, 10000-5000)
	}
	if v.Balance != 10000 {
		t.Fatalf("the chip account itself moved: %d", v.Balance)
	}
	// The balance drops under the slip (a cash-out elsewhere, a correction): never below zero.
	h.link.Push(table.BalanceChanged{Balance: 3000})
	v = h.waitFor(func(v View) bool { return v.Balance == 3000 })
	if v.ShownBalance != 0 {
		t.Fatalf("balance 3000 under a slip of 5000 shows %d", v.ShownBalance)
	}
	// At the result the shown balance is the server's figure again.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	v = h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	if v.ShownBalance != 0 {
		t.Fatalf("no more bets: the wagers are still on the layout, shown %d", v.ShownBalance)
	}
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 5000, Returned: 2500*36 + 5000, Balance: 97000})
	v = h.waitFor(func(v View) bool { return v.LastWin != nil })
	if v.ShownBalance != 97000 || v.Balance != 97000 {
		t.Fatalf("after the result: shown %d, balance %d, want 97000", v.ShownBalance, v.Balance)
	}
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	v = h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	if v.ShownBalance != 97000 {
		t.Fatalf("a new round with an empty layout shows %d", v.ShownBalance)
	}
}
