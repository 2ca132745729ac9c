package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// 003 §3.4, §9.1: every wager of a slip goes to the table with the card in the seat's reader.
func TestRule003_3_4_CardSentWithEveryWager(t *testing.T) {
	g := &fakeGate{card: "60420042", touched: true}
	h := newHarness(t, func(c *Config) { c.Gate = g })
	if _, err := h.term.Place(spot(t, roulette.Straight, 17)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); err != nil {
		t.Fatal(err)
	}
	var last []table.SlipBet
	eventually(t, "a slip of both wagers sent", func() bool {
		h.link.WaitSlip(50 * time.Millisecond)
		s, ok := h.link.LastSlip()
		last = s.Bets
		return ok && len(last) == 2
	})
	for i, b := range last {
		if b.Card != "60420042" {
			t.Errorf("wager %d sent with card %q", i, b.Card)
		}
	}
}

// 000 §4.3, 003 §4.6: the seat's own limits replace the table's sign in the view (with the
// marker) and at the touch; when they are cleared the table's sign is back. A change of the
// table's sign meanwhile does not displace them.
func TestRule000_4_3_OwnLimitsAtTheTouch(t *testing.T) {
	h := newHarness(t)
	if h.term.View().PersonalLimits {
		t.Fatal("personal limits before any")
	}
	own := roulette.Limits{Default: roulette.Limit{Min: 500, Max: 1000, Unit: 500}}
	h.link.Push(table.PlayerLimitsChanged{Limits: &own})
	h.waitFor(func(v View) bool { return v.PersonalLimits && v.Limits.Default == own.Default })
	red := outside(t, roulette.Red, 0)
	h.term.SelectChip(100) // the table's minimum, under this player's
	if fb, _ := h.term.Place(red); fb.Accepted != 0 || fb.Reason != roulette.ReasonBelowMinimum {
		t.Fatalf("1.00 under a 5.00 own minimum: %+v", fb)
	}
	h.term.SelectChip(2500)
	if fb, _ := h.term.Place(red); fb.Accepted != 1000 || fb.Reason != roulette.ReasonAboveMaximum ||
		!strings.Contains(fb.Message.String(), "your own limits") {
		t.Fatalf("25.00 over a 10.00 own maximum: %+v (%s)", fb, fb.Message)
	}
	other := limits
	other.AggregateMin = 700
	h.link.Push(table.LimitsChanged{Limits: other})
	h.link.Push(table.BalanceChanged{Balance: 10000}) // a marker event: the one before it is applied
	v := h.waitFor(func(v View) bool { return v.Balance == 10000 })
	if !v.PersonalLimits || v.Limits.Default != own.Default {
		t.Fatalf("a new table sign displaced the player's own limits: %+v", v.Limits)
	}
	h.link.Push(table.PlayerLimitsChanged{})
	v = h.waitFor(func(v View) bool { return !v.PersonalLimits })
	if v.Limits.AggregateMin != 700 {
		t.Fatalf("cleared: the view has %+v, want the table's newest sign", v.Limits)
	}
	// A snapshot restates them.
	h.link.Push(table.Snapshot{Config: h.term.View().Config, Phase: table.PhaseWagering, RoundID: "R1",
		Deadline: h.clk.Now().Add(32 * time.Second), Limits: limits, PlayerLimits: &own, Balance: 10000, AccountOpen: true})
	h.waitFor(func(v View) bool { return v.PersonalLimits && v.Limits.Default == own.Default })
}
