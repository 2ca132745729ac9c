package app

import (
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"
)

// fakePad is a seat's player-ID pad as the terminal's gate sees it.
type fakePad struct{ touched bool }

func (p *fakePad) Touched() bool        { return p.touched }
func (p *fakePad) Card() (string, bool) { return "", false }

// Issue 32 point 19, 000 §11.4.2(a): with the player-ID pad required, the layout takes a wager
// only while the pad is touched. The screen says so before a tap is refused (View.Pad.Required),
// and a touch of the pad shows it was read (View.Pad.Touched), as the pad tells the terminal.
func TestRule000_11_4_2_PadRequiredIsAnnouncedAndItsTouchShown(t *testing.T) {
	pad := &fakePad{}
	h := startHarness(t, nil, func(c *Config) { c.Gate = pad })
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100, 500, 2500}, IDPadRequired: true},
		Phase:  table.PhaseWagering, RoundID: "R1",
		Deadline: h.clk.Now().Add(2 * time.Second).Add(30 * time.Second),
		Limits:   limits, Balance: 10000, AccountOpen: true,
	})
	v := h.waitFor(func(v View) bool { return v.RoundID == "R1" })
	if !v.Pad.Required || v.Pad.Touched {
		t.Fatalf("the pad required, untouched: %+v", v.Pad)
	}
	pad.touched = true
	h.term.PadTouched(true)
	if v = h.waitFor(func(v View) bool { return v.Pad.Touched }); !v.Pad.Required {
		t.Fatalf("touched: %+v", v.Pad)
	}
	pad.touched = false
	h.term.PadTouched(false)
	h.waitFor(func(v View) bool { return !v.Pad.Touched })
	// The refusal names the pad as the screen does.
	if ErrPadNotTouched.Error() != "Touch your player-ID pad to bet" {
		t.Errorf("the refusal says %q", ErrPadNotTouched)
	}
}
