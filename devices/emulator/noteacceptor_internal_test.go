package emulator

import (
	"testing"
	"time"

	"github.com/tablegames/ats/devices/id003"
	"github.com/tablegames/ats/internal/testwait"
)

// host drives the emulator with frames, as the driver would over the line.
type host struct {
	t *testing.T
	n *NoteAcceptor
}

func (h host) send(cmd byte, data ...byte) byte {
	h.t.Helper()
	r := h.n.answer(id003.Frame{Cmd: cmd, Data: data})
	if r == nil {
		h.t.Fatalf("no answer to % X", cmd)
	}
	return r.Cmd
}

// pollUntil polls the status until it is st.
func (h host) pollUntil(st byte) {
	h.t.Helper()
	if !testwait.For(2*time.Second, func() bool { return h.send(id003.CmdStatusRequest) == st }) {
		h.t.Fatalf("status never became %s (is %s)", id003.StatusName(st), id003.StatusName(h.send(id003.CmdStatusRequest)))
	}
}

// A note is where the power cut leaves it until the host's reset moves it: one in the stacker's
// path stays there however often the power goes — each power-up says "bill in the stacker" —
// and the reset stacks it; it never turns into a note in the acceptor, handed back to a player
// who was credited for it (found by the crash harness: a second power cut before the reset
// returned a note the terminal had already credited from the first power-up).
func TestNoteInTheStackerPathSurvivesPowerCuts(t *testing.T) {
	for _, cuts := range []int{1, 2, 3} {
		n := NewNoteAcceptor(NoteAcceptorConfig{Init: 20 * time.Millisecond, Accept: 20 * time.Millisecond,
			Stack: time.Hour, Reject: 20 * time.Millisecond})
		h := host{t, n}
		h.send(id003.CmdReset)
		h.pollUntil(id003.StDisable)
		h.send(id003.CmdSetBarInhibit, 0xFC) // notes and tickets
		h.send(id003.CmdSetInhibit, 0)
		h.pollUntil(id003.StEnable)
		if err := n.InsertNote(2000); err != nil {
			t.Fatal(err)
		}
		h.pollUntil(id003.StEscrow)
		h.send(id003.CmdStack1)
		h.pollUntil(id003.StStacking)
		for i := range cuts {
			n.PowerCycle()
			if st := h.send(id003.CmdStatusRequest); st != id003.StPowerUpBillS {
				t.Fatalf("after power cut %d: %s, want power up with bill in stacker", i+1, id003.StatusName(st))
			}
		}
		// A cut during the initialisation that stacks it: still in the stacker's path.
		h.send(id003.CmdReset)
		n.PowerCycle()
		if st := h.send(id003.CmdStatusRequest); st != id003.StPowerUpBillS {
			t.Fatalf("power cut while initialising: %s, want power up with bill in stacker", id003.StatusName(st))
		}
		h.send(id003.CmdReset)
		h.pollUntil(id003.StDisable)
		if got := n.CashboxCents(); got != 2000 || len(n.Returned()) != 0 {
			t.Fatalf("after %d cuts: cash box %d cents, %d returned; want 2000 in the box", cuts, got, len(n.Returned()))
		}
	}
}
