package demo_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/demo"
)

// The demo's first buy-in waits for a terminal that takes money (issue 32 point 13): started
// while a technician has the terminal, its A$100 notes do not jump into the technician's accept
// test — which reports the A$50 note the technician inserted — and once the technician leaves,
// the buy-in is credited.
func TestDemoBuyInWaitsOutTechnicianMode(t *testing.T) {
	dir := t.TempDir()
	commands, typing := io.Pipe()
	defer typing.Close()
	replies := &lines{c: make(chan string, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := demo.Start(ctx, demo.Config{StateDir: dir, TerminalID: "T01", Period: 30 * time.Second,
		Log: slog.New(slog.NewTextHandler(t.Output(), nil)), Commands: commands, Replies: replies})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := technician.Open(dir, nil).Add(demo.Technician, "Demo Technician", "900000", demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(dir, "terminal-T01.db"), StateDir: dir,
		Client:   client.Config{Addr: d.Addr, TLS: d.ClientTLS},
		Acceptor: d.Acceptor, Printer: d.Printer, IDPad: d.IDPad, Seat: d.Seat, AcceptorPoll: 20 * time.Millisecond,
		AcceptTestTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
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
		if _, err := io.WriteString(typing, "note 5000\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-replies.c:
			return strings.HasPrefix(r, "ok:")
		case <-time.After(5 * time.Second):
			t.Fatal("no answer to a device command")
			return false
		}
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
