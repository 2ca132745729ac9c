package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// TestClosureSignCountsDown: the sign of the table's closure (001 §12.7) stands apart from the
// message line (View.Closing) with the time of closure and the minutes left, counted down on the terminal's estimate of
// the server's clock (here 2 s ahead of its own), rounded up so it never says 0 while the table
// is open; at the time it says the table is closing; called off, it goes.
func TestClosureSignCountsDown(t *testing.T) {
	h := newHarness(t)
	at := h.link.ServerNow().Add(20*time.Minute + 30*time.Second)
	hm := at.Local().Format("15:04")
	says := func(want string) {
		t.Helper()
		h.waitFor(func(v View) bool { return v.Closing.String() == want })
	}
	h.link.Push(table.TableClosing{At: at})
	says(fmt.Sprintf("This table closes at %s: 21 min left", hm))
	if v := h.term.View(); !v.ClosingAt.Equal(at) {
		t.Fatalf("ClosingAt %v, want %v", v.ClosingAt, at)
	}
	h.clk.Advance(29 * time.Second)
	if got := h.term.View().Closing.String(); got != fmt.Sprintf("This table closes at %s: 21 min left", hm) {
		t.Fatalf("a second before the minute turns: %q", got)
	}
	h.clk.Advance(time.Second)
	says(fmt.Sprintf("This table closes at %s: 20 min left", hm))
	h.clk.Advance(19 * time.Minute)
	says(fmt.Sprintf("This table closes at %s: 1 min left", hm))
	h.clk.Advance(time.Minute)
	says(fmt.Sprintf("This table is closing now (announced for %s)", hm))
	h.link.Push(table.TableClosing{})
	h.waitFor(func(v View) bool { return v.ClosingAt.IsZero() && v.Closing.IsZero() })
}

// TestClosureSignFromTheSnapshot: a terminal that connects after the announcement shows it from
// its first snapshot, and a snapshot without one takes it down.
func TestClosureSignFromTheSnapshot(t *testing.T) {
	h := newHarness(t)
	at := h.link.ServerNow().Add(45 * time.Minute)
	h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseIdle,
		Limits: limits, Balance: 100, AccountOpen: true, ClosingAt: at})
	h.waitFor(func(v View) bool {
		return v.ClosingAt.Equal(at) && v.Closing.String() == fmt.Sprintf("This table closes at %s: 45 min left", at.Local().Format("15:04"))
	})
	h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseIdle,
		Limits: limits, Balance: 100, AccountOpen: true})
	h.waitFor(func(v View) bool { return v.ClosingAt.IsZero() && v.Closing.IsZero() })
}

// Issue 32 point 20: the closure notice was on the message line only, replaced by the first
// refusal, and read "25 min left" two minutes later. Its sign stands apart: a refusal takes the
// message line and leaves the sign, which goes on counting down.
func TestClosureSignIsNotReplacedByARefusal(t *testing.T) {
	h := newHarness(t)
	at := h.link.ServerNow().Add(25 * time.Minute)
	hm := at.Local().Format("15:04")
	h.link.Push(table.TableClosing{At: at})
	h.waitFor(func(v View) bool {
		return v.Closing.String() == fmt.Sprintf("This table closes at %s: 25 min left", hm)
	})
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); err == nil {
		t.Fatal("a wager after no more bets was taken")
	}
	v := h.term.View()
	if v.Message.Msg.Key != ErrLocked.Error() || v.Closing.String() != fmt.Sprintf("This table closes at %s: 25 min left", hm) {
		t.Fatalf("after the refusal the line says %q and the sign %q", v.Message, v.Closing)
	}
	if strings.Contains(v.Message.String(), "closes at") {
		t.Fatalf("the closure is on the message line too: %q", v.Message)
	}
	h.clk.Advance(2 * time.Minute)
	h.waitFor(func(v View) bool {
		return v.Closing.String() == fmt.Sprintf("This table closes at %s: 23 min left", hm)
	})
}
