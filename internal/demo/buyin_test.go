package demo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/internal/demo"
)

// The demo's first buy-in waits for a terminal that takes money (issue 32 point 13): started
// while a technician has the terminal, its A$100 notes do not jump into the technician's accept
// test — which reports the A$50 note the technician inserted — and once the technician leaves,
// the buy-in is credited.
func TestDemoBuyInWaitsOutTechnicianMode(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := technician.Open(dir, nil).Add(demo.Technician, "Demo Technician", "900000", demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	d, st, typing, replies := startDemo(t, ctx, dir, func(c *station.Config) {
		c.StateDir, c.AcceptTestTimeout = dir, 20*time.Second
	})
	defer typing.Close()
	if v := st.WaitForTable(ctx, 10*time.Second); v.Config.TableID != "DEMO" {
		t.Fatalf("no snapshot from the demo table: %+v", v.Config)
	}
	st.Terminal.TechnicianCard("900000")
	if err := st.Desk.EnterService(ctx, demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	d.FirstBuyIn(0, st.MayTakeMoney)

	type answer struct {
		said string
		err  error
	}
	done := make(chan answer, 1)
	go func() { said, err := st.Desk.AcceptTest(ctx); done <- answer{said, err} }()
	// The buy-in's notes are tried every 200 ms: a second of the acceptor enabled for the test
	// gives a buy-in that does not wait for the terminal to take money its chance to jump in.
	time.Sleep(time.Second)
	// The technician's note, once the test has enabled the acceptor (until then it is refused).
	waitFor(t, "the technician's note taken", func() bool {
		select {
		case a := <-done:
			done <- a
			return true
		default:
		}
		return typed(t, typing, replies, "note 5000")
	})
	a := <-done
	if a.err != nil || !strings.Contains(a.said, "50.00") {
		t.Fatalf("the accept test said %q (%v), want the A$50 note inserted", a.said, a.err)
	}
	if b := st.Terminal.View().Balance; b != 0 {
		t.Fatalf("balance in technician mode: %d", b)
	}
	if err := st.Desk.LeaveService(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the demo's buy-in credited after technician mode", func() bool { return st.Terminal.View().Balance == 50000 })
}
