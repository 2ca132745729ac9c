package app

import (
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"
)

// The period states read at a glance: open, the warning, no more bets, and the table's others.
func TestPeriodOf(t *testing.T) {
	base := View{Connected: true, Phase: table.PhaseWagering}
	cases := []struct {
		mod    func(*View)
		warned bool
		want   Period
	}{
		{func(*View) {}, false, PeriodOpen},
		{func(*View) {}, true, PeriodWarning},
		{func(v *View) { v.Locked = true }, true, PeriodNoMoreBets},
		{func(v *View) { v.Phase = table.PhaseNoMoreBets }, false, PeriodNoMoreBets},
		{func(v *View) { v.Connected = false }, false, PeriodReconnecting},
		{func(v *View) { v.Connected, v.Phase = false, table.PhaseUnknown }, false, PeriodWaiting}, // at start-up
		{func(v *View) { v.Phase = table.PhaseIdle }, false, PeriodWaiting},
		{func(v *View) { v.Frozen = true }, false, PeriodFrozen},
		{func(v *View) { v.Phase = table.PhaseClosed }, false, PeriodClosed},
		{func(v *View) { v.Phase = table.PhaseResult }, false, PeriodResult},
	}
	for _, c := range cases {
		v := base
		c.mod(&v)
		if got := periodOf(v, c.warned); got != c.want {
			t.Errorf("%+v warned %v: %v, want %v", v, c.warned, got, c.want)
		}
	}
}

// The warning and the lock come by themselves on the terminal's clock, each told as a new view:
// the screen only counts down (000 §10.6.2, 001 §3.7).
func TestWarningThenLockOnTheClock(t *testing.T) {
	h := startHarness(t, nil)
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100}, Warning: 5 * time.Second},
		Phase:  table.PhaseWagering, RoundID: "R1", Deadline: h.clk.Now().Add(2*time.Second + 30*time.Second),
		Limits: limits, Balance: 10000, AccountOpen: true,
	})
	h.waitFor(func(v View) bool { return v.RoundID == "R1" && v.Period == PeriodOpen })
	h.clk.Advance(25*time.Second - 10*time.Millisecond)
	if p := h.term.View().Period; p != PeriodOpen {
		t.Fatalf("5.01 s before the deadline: %v", p)
	}
	h.clk.Advance(10 * time.Millisecond)
	h.waitFor(func(v View) bool { return v.Period == PeriodWarning })
	h.clk.Advance(5 * time.Second)
	v := h.waitFor(func(v View) bool { return v.Period == PeriodNoMoreBets })
	if !v.Locked {
		t.Fatalf("no more bets but not locked: %+v", v)
	}
}
