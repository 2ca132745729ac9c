package app

import (
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// 003 §7.6/§7.9 (issue 32 point 18): from the terminal's NO MORE BETS until the table's
// Super/Mega mark arrives, the view says the mark is being drawn; with the mark, or a void
// draw, or on a table without Lucky Ball, it does not; while bets are taken it never does.
func TestLuckyMarkPendingFromNoMoreBetsToTheMark(t *testing.T) {
	h := startHarness(t, nil)
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100}, LuckyBall: true, LuckyBallVersion: roulette.LuckyMega},
		Phase:  table.PhaseWagering, RoundID: "R1", Deadline: h.clk.Now().Add(32 * time.Second),
		Limits: limits, Balance: 10000, AccountOpen: true,
	})
	drawn := roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	h.link.Push(table.LuckyBallDrawn{RoundID: "R1", Draw: drawn})
	if v := h.waitFor(func(v View) bool { return v.LuckyBall != nil }); v.LuckyMarkPending() {
		t.Fatal("the mark said to be drawn while bets are taken")
	}
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	if v := h.waitFor(func(v View) bool { return v.Period == PeriodNoMoreBets }); !v.LuckyMarkPending() {
		t.Fatalf("at NO MORE BETS without the mark: not pending (%+v)", v.LuckyBall)
	}
	marked := drawn
	marked.Mega, marked.HasMega = roulette.BallBlue, true
	h.link.Push(table.LuckyBallDrawn{RoundID: "R1", Draw: marked})
	if v := h.waitFor(func(v View) bool { return v.LuckyBall != nil && v.LuckyBall.HasMega }); v.LuckyMarkPending() {
		t.Fatal("still pending with the Mega mark shown")
	}
	void := drawn
	void.Void = true
	h.link.Push(table.LuckyBallDrawn{RoundID: "R1", Draw: void})
	if v := h.waitFor(func(v View) bool { return v.LuckyBall != nil && v.LuckyBall.Void }); v.LuckyMarkPending() {
		t.Fatal("pending for a void draw (its wagers are returned: no mark comes)")
	}
	plain := newHarness(t)
	plain.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	if v := plain.waitFor(func(v View) bool { return v.Period == PeriodNoMoreBets }); v.LuckyMarkPending() {
		t.Fatal("pending on a table without Lucky Ball")
	}
}
