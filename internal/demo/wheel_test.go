package demo

import (
	"context"
	"testing"
	"time"

	"github.com/tablegames/ats/server"
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
	const rounds = 2
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		st, err := d.table.Table.Status()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.History) >= rounds {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%d outcomes in 20 s (phase %v, wheel fault %q, alarms %v)", len(st.History), st.Phase, st.WheelFault, st.Alarms)
		}
	}
	ev, err := d.table.led.Events(ctx, server.AuditOutcomeSource, 10)
	if err != nil {
		t.Fatal(err)
	}
	drops, err := d.table.led.Events(ctx, "ball-dropping", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) < rounds || len(drops) < rounds {
		t.Fatalf("%d outcome sources, %d ball-drops: want %d of each", len(ev), len(drops), rounds)
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
