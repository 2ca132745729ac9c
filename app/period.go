package app

import (
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/table"
)

// Period is the state of the wagering period as the player must read it at a glance: open,
// the warning that it is about to end, and that it has ended (000 §10.6.2), with the table's
// other states. The screen gives each its words and colour; which one holds is decided here.
type Period int

// The period states.
const (
	PeriodWaiting      Period = iota // no round yet: not connected since start-up, or the table idle
	PeriodReconnecting               // the link to the table is down
	PeriodFrozen                     // accounts frozen while a result is corrected (001 §9.4)
	PeriodClosed                     // the table is closed
	PeriodOpen                       // place your bets
	PeriodWarning                    // the period is about to end (000 §10.6.2)
	PeriodNoMoreBets                 // the period has ended (001 §3.7)
	PeriodResult                     // the outcome is shown
	PeriodInService                  // a technician has the terminal (technician.go)
)

func (p Period) String() string {
	return [...]string{"waiting", "reconnecting", "frozen", "closed", "open", "warning", "no-more-bets", "result", "in-service"}[min(max(int(p), 0), 8)]
}

// periodOf is the period state of a view; warned says the warning time has come.
func periodOf(v View, warned bool) Period {
	switch {
	case v.Service.Open:
		return PeriodInService
	case !v.Connected && v.Phase == table.PhaseUnknown:
		return PeriodWaiting
	case !v.Connected:
		return PeriodReconnecting
	case v.Frozen:
		return PeriodFrozen
	case v.Phase == table.PhaseClosed:
		return PeriodClosed
	case v.Phase == table.PhaseWagering && !v.Locked && !warned:
		return PeriodOpen
	case v.Phase == table.PhaseWagering && !v.Locked:
		return PeriodWarning
	case v.Phase == table.PhaseWagering, v.Phase == table.PhaseNoMoreBets:
		return PeriodNoMoreBets
	case v.Phase == table.PhaseResult:
		return PeriodResult
	}
	return PeriodWaiting
}

// periodTimers are the two moments of a wagering period the terminal acts on by itself, on its
// estimate of the server's clock: the warning (the table's Warning before the deadline) and the
// lock (never after the server's deadline: the link's LockAt). Guarded by the Terminal's mutex.
type periodTimers struct {
	lock, warn clock.Timer
	warned     bool
}

func (p *periodTimers) stop() {
	for _, tm := range []*clock.Timer{&p.lock, &p.warn} {
		if *tm != nil {
			(*tm).Stop()
			*tm = nil
		}
	}
}

// schedulePeriodLocked sets Locked and the warning now, or arms their timers, for the view's
// phase and deadline.
func (t *Terminal) schedulePeriodLocked() {
	t.period.stop()
	t.sound.stop()
	t.period.warned = false
	if t.closed {
		return
	}
	if t.view.Phase != table.PhaseWagering {
		t.view.Locked = true
		return
	}
	now := t.clk.Now()
	at := t.link.LockAt(t.view.Deadline)
	if at.IsZero() || !now.Before(at) {
		t.view.Locked = true
		return
	}
	t.view.Locked = false
	round := t.view.RoundID
	t.period.lock = t.clk.AfterFunc(at.Sub(now), t.timerFired(func() {
		if t.view.RoundID == round {
			t.view.Locked = true
			t.noMoreBetsLocked()
		}
	}))
	t.armTicksLocked(round, at, tickCount)
	warnAt := t.link.LockAt(t.view.Deadline.Add(-t.view.Config.Warning))
	if t.view.Config.Warning <= 0 {
		return
	}
	if !now.Before(warnAt) {
		t.period.warned = true
		return
	}
	t.period.warn = t.clk.AfterFunc(warnAt.Sub(now), t.timerFired(func() {
		if t.view.RoundID == round {
			t.period.warned = true
		}
	}))
}

// Remaining is the wagering time left on the server's clock.
func (t *Terminal) Remaining() time.Duration {
	t.mu.Lock()
	deadline, phase := t.view.Deadline, t.view.Phase
	t.mu.Unlock()
	if phase != table.PhaseWagering {
		return 0
	}
	return max(deadline.Sub(t.link.ServerNow()), 0)
}
