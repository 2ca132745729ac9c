package demo

import (
	"context"
	"testing"
	"time"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/wheelfollow"
)

// The demo deals through its emulated wheel: every round's period is ended by the wheel's
// ball-drop and its outcome is the number both sensors read, entered as the wheel's — the
// auto-dealer never draws one.
func TestDemoDealsThroughTheEmulatedWheel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := Start(ctx, Config{StateDir: t.TempDir(), TerminalID: "T01", Period: 1500 * time.Millisecond, Spin: 400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Wheel == "" {
		t.Fatal("the demo has no wheel line")
	}
	// The demo's wheel drops the ball half a second before the deadline; on a loaded machine the
	// deadline can come first, and that round's period ends by the clock (as a real table's
	// would). So the test waits for two rounds ended by the wheel's ball-drop, whatever number
	// of rounds that takes, and every outcome in the meantime must be the wheel's.
	const rounds = 2
	var ev, drops []ledger.AuditEvent
	for end := time.Now().Add(40 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var err error
		if ev, err = d.table.led.Events(ctx, server.AuditOutcomeSource, 50); err != nil {
			t.Fatal(err)
		}
		if drops, err = d.table.led.Events(ctx, "ball-dropping", 50); err != nil {
			t.Fatal(err)
		}
		if len(ev) >= rounds && len(drops) >= rounds {
			break
		}
		if time.Now().After(end) {
			st, err := d.table.Table.Status()
			if err != nil {
				t.Fatal(err)
			}
			t.Fatalf("in 40 s: %d outcome sources, %d ball-drops, want %d of each (phase %v, wheel fault %q, alarms %v)",
				len(ev), len(drops), rounds, st.Phase, st.WheelFault, st.Alarms)
		}
	}
	for _, e := range ev {
		if e.Detail != server.OutcomeByWheel || e.Actor != wheelfollow.Actor {
			t.Errorf("round %s's outcome: %q by %q, want the wheel's", e.Round, e.Detail, e.Actor)
		}
	}
	for _, e := range drops {
		if e.Actor != wheelfollow.Actor {
			t.Errorf("round %s's period ended by %q, want the wheel's ball-drop", e.Round, e.Actor)
		}
	}
}
