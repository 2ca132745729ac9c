package app

import (
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/msg"
)

// The sign of the table's closure (001 §12.7, 003 §9.9): the pit boss announces the time at the
// console at least 20 minutes ahead, and every open terminal shows it — the time of closure and
// the minutes left, counted down on the terminal's estimate of the server's clock — until the
// table closes or the closure is called off. It is a sign of its own (View.Closing), not a
// message of the board: on the one message line the first refusal replaced it, and the player
// lost the time of closure while they played (issue 32 point 20). The screen shows it apart,
// large, whatever the message line says.

// closingTimer is the pending step of the countdown.
type closingTimer struct{ next clock.Timer }

func (c *closingTimer) stop() {
	if c.next != nil {
		c.next.Stop()
		c.next = nil
	}
}

// setClosingLocked takes the table's announced closure (zero: none) and shows it.
func (t *Terminal) setClosingLocked(at time.Time) {
	t.closing.stop()
	t.view.ClosingAt = at
	t.sayClosingLocked()
}

// sayClosingLocked puts the sign on the board with the minutes left, and arms the timer that
// counts the next minute down.
func (t *Terminal) sayClosingLocked() {
	t.closing.stop()
	at := t.view.ClosingAt
	if at.IsZero() || t.closed {
		t.view.Closing = msg.Msg{}
		return
	}
	left := at.Sub(t.link.ServerNow())
	clockTime := at.Local().Format("15:04")
	if left <= 0 {
		t.view.Closing = msg.New("This table is closing now (announced for %s)", clockTime)
		return
	}
	// Minutes left, rounded up: "1 min" until the time itself, never "0 min" while open.
	mins := int64((left + time.Minute - 1) / time.Minute)
	t.view.Closing = msg.New("This table closes at %s: %d min left", clockTime, mins)
	step := left - time.Duration(mins-1)*time.Minute
	t.closing.next = t.clk.AfterFunc(step, t.timerFired(func() {
		if t.view.ClosingAt.Equal(at) {
			t.sayClosingLocked()
		}
	}))
}
