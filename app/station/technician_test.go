package station_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/tablegames/ats/app/clock/clocktest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/server"
)

// A technician takes the terminal out of play: the note acceptor is inhibited (a note is handed
// back), the player's wagers on the open spin are withdrawn at the table, and no wager is taken;
// leaving restores both, and the session is in the journal with the technician's id.
func TestTechnicianModeStopsMoneyAndBetting(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, state: true})
	if err := technician.Open(r.dir, nil).Add(demo.Technician, "Tess", "900001", "135790"); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.buyIn(2000)
	r.round()
	red, _ := roulette.Layout{Wheel: roulette.SingleZero}.Outside(roulette.Red, 0)
	r.st.Terminal.SelectChip(500)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatal(err)
	}
	r.eventually("the slip at the table", func() bool { return r.server().SlipTotal == 500 })

	ctx := context.Background()
	r.st.Terminal.TechnicianCard("900001")
	if err := r.st.Desk.EnterService(ctx, demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	r.eventually("the acceptor inhibited in service", func() bool { return !r.st.MayTakeMoney() && r.acceptorInhibited() })
	back := len(r.acc.Returned())
	if err := r.acc.InsertNote(2000); err == nil || len(r.acc.Returned()) != back+1 {
		t.Fatalf("a note in service: err %v, returned %d (was %d)", err, len(r.acc.Returned()), back)
	}
	r.eventually("the wagers withdrawn at the table", func() bool { return r.server().SlipTotal == 0 })
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); !errors.Is(err, app.ErrInService) {
		t.Fatalf("a wager in service: %v", err)
	}
	if v := r.view(); v.Period != app.PeriodInService || v.Balance != 2000 {
		t.Fatalf("in service: period %v balance %d", v.Period, v.Balance)
	}
	if _, err := r.st.Desk.Meters(ctx); err != nil {
		t.Fatal(err)
	}

	if err := r.st.Desk.LeaveService(ctx); err != nil {
		t.Fatal(err)
	}
	r.buyIn(1000)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatalf("a wager after leaving: %v", err)
	}
	r.eventually("the slip at the table again", func() bool { return r.server().SlipTotal == 500 })
	in, out := r.records(app.ServiceEntered), r.records(app.ServiceLeft)
	if len(in) != 1 || len(out) != 1 || !contains(string(in[0].Body), demo.Technician) {
		t.Fatalf("journalled sessions: in %v out %v", in, out)
	}
}

// The way in on a cabinet: a technician card read by the seat's ID pad (the real driver, the
// emulated pad on a pseudo-terminal) asks for the PIN; another seat's card, or a player's, does
// not; taking the card out stops asking.
func TestTechnicianCardOnThePad(t *testing.T) {
	dir := t.TempDir()
	if err := technician.Open(dir, nil).Add("tech-1", "Tess", "900001", "246810"); err != nil {
		t.Fatal(err)
	}
	tbl, err := demo.StartTable(dir, "T01", server.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	pad := emulator.NewIDPad(emulator.IDPadConfig{})
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer pty.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go pad.Serve(ctx, pty.Device)
	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(dir, "terminal.db"),
		Client: client.Config{Addr: tbl.Addr, TLS: tbl.ClientTLS}, IDPad: pty.Path, Seat: 2, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	asking := func() string { return st.Terminal.View().Service.Asking }
	var mu sync.Mutex
	var seen []string // every change of Asking, in order
	st.Terminal.OnChange(func(v app.View) {
		mu.Lock()
		defer mu.Unlock()
		if len(seen) == 0 && v.Service.Asking != "" || len(seen) > 0 && seen[len(seen)-1] != v.Service.Asking {
			seen = append(seen, v.Service.Asking)
		}
	})
	if err := pad.InsertCard(3, "900001"); err != nil { // another seat's reader
		t.Fatal(err)
	}
	if err := pad.InsertCard(2, "6012345678"); err != nil { // a player's card
		t.Fatal(err)
	}
	if err := pad.RemoveCard(2); err != nil {
		t.Fatal(err)
	}
	if err := pad.InsertCard(2, "900001"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the PIN asked for", func() bool { return asking() == "tech-1" })
	if err := pad.RemoveCard(2); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the PIN no longer asked for", func() bool { return asking() == "" })
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(seen) != "[tech-1 ]" {
		t.Fatalf("the PIN was asked for %q: only the technician card at this seat may ask", seen)
	}
}

// The PIN is the table server's: the terminal's technicians file gives the card, the table
// checks the PIN (the file's own PIN hash does not open it), refuses wrong PINs and locks the
// technician out after three, and its audit log names the terminal and the technician.
func TestTechnicianPINCheckedByTheTable(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, state: true})
	if err := technician.Open(r.dir, nil).Add(demo.Technician, "Tess", "900001", "135790"); err != nil {
		t.Fatal(err)
	}
	r.ready()
	ctx := context.Background()
	r.st.Terminal.TechnicianCard("900001")
	if err := r.st.Desk.EnterService(ctx, "135790"); !errors.Is(err, app.ErrWrongPIN) {
		t.Fatalf("the terminal file's PIN: %v, want refused by the table", err)
	}
	if err := r.st.Desk.EnterService(ctx, demo.TechnicianPIN); err != nil {
		t.Fatalf("the table's PIN: %v", err)
	}
	if v := r.view(); !v.Service.Open || v.Service.Technician.ID != demo.Technician || v.Service.Technician.Name != "Tess" {
		t.Fatalf("in service: %+v", v.Service)
	}
	if err := r.st.Desk.LeaveService(ctx); err != nil {
		t.Fatal(err)
	}
	r.st.Terminal.TechnicianCard("900001")
	for i := range 2 {
		if err := r.st.Desk.EnterService(ctx, "000000"); !errors.Is(err, app.ErrWrongPIN) {
			t.Fatalf("wrong PIN %d: %v", i+1, err)
		}
	}
	if err := r.st.Desk.EnterService(ctx, "000000"); !errors.Is(err, app.ErrThrottled) {
		t.Fatalf("wrong PIN 3: %v, want the lockout", err)
	}
	if err := r.st.Desk.EnterService(ctx, demo.TechnicianPIN); !errors.Is(err, app.ErrThrottled) || r.st.Terminal.InService() {
		t.Fatalf("the right PIN while locked out: %v", err)
	}
	evs, err := r.demo.Table.AuditLog(50)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if e.Kind == "technician-authenticated" || e.Kind == "technician-pin-refused" {
			if e.Actor != "terminal:T01" || e.Terminal != "T01" || !contains(e.Detail, demo.Technician) {
				t.Errorf("audit entry: %+v", e)
			}
			n[e.Kind]++
		}
	}
	if n["technician-authenticated"] != 1 || n["technician-pin-refused"] != 5 {
		t.Errorf("audit log: %v", n)
	}
	if rs := r.records(app.ServiceRefused); len(rs) != 5 {
		t.Errorf("refusals journalled: %d, want 5", len(rs))
	}
}

// The devices page's tests over the running drivers, in technician mode only: a VOID test
// ticket comes out of the printer, and the acceptor, enabled for one note, reads it and hands
// it back — the balance, the table's ledger and the money records untouched, both tests
// journalled with the technician, and the acceptor inhibited again (also when no note comes).
func TestTechnicianDeviceTestsMoveNoMoney(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, state: true, acceptTest: 500 * time.Millisecond})
	if err := technician.Open(r.dir, nil).Add(demo.Technician, "Tess", "900001", "135790"); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.buyIn(2000)
	ctx := context.Background()
	if _, err := r.st.Desk.PrintTestTicket(ctx); !errors.Is(err, app.ErrNotInService) {
		t.Fatalf("a test ticket in play: %v", err)
	}
	if _, err := r.st.AcceptTest(ctx); !errors.Is(err, app.ErrNotInService) {
		t.Fatalf("an accept test in play: %v", err)
	}
	r.st.Terminal.TechnicianCard("900001")
	if err := r.st.Desk.EnterService(ctx, demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	r.eventually("the acceptor inhibited in service", r.acceptorInhibited)
	conserved, flows := r.conserved(), len(r.records("note-escrow"))

	printed := len(r.prn.Printed())
	if said, err := r.st.Desk.PrintTestTicket(ctx); err != nil {
		t.Fatalf("test ticket: %v (%s)", err, said)
	}
	tks := r.prn.Printed()
	if len(tks) != printed+1 || !contains(strings.Join(tks[len(tks)-1].Fields, "|"), "VOID") ||
		!contains(strings.Join(tks[len(tks)-1].Fields, "|"), "00-0000-0000-0000-0000") {
		t.Fatalf("printed: %d tickets, the last %v", len(tks), tks[len(tks)-1].Fields)
	}

	type answer struct {
		said string
		err  error
	}
	done := make(chan answer, 1)
	go func() { said, err := r.st.Desk.AcceptTest(ctx); done <- answer{said, err} }()
	r.eventually("the acceptor enabled for the test", r.acceptorEnabled)
	back := len(r.acc.Returned())
	if err := r.acc.InsertNote(5000); err != nil {
		t.Fatal(err)
	}
	a := <-done
	if a.err != nil || !contains(a.said, "50.00") {
		t.Fatalf("accept test: %q %v", a.said, a.err)
	}
	r.eventually("the test note handed back", func() bool { return len(r.acc.Returned()) == back+1 })
	r.eventually("the acceptor inhibited after the test", r.acceptorInhibited)

	// No note: the test ends at its timeout, inhibited again.
	if _, err := r.st.Desk.AcceptTest(ctx); !errors.Is(err, station.ErrNoTestNote) {
		t.Fatalf("accept test without a note: %v", err)
	}
	r.eventually("the acceptor inhibited after the timeout", r.acceptorInhibited)

	if v := r.view(); v.Balance != 2000 || r.server().Balance != 2000 {
		t.Fatalf("balance after the tests: terminal %d, table %d", v.Balance, r.server().Balance)
	}
	if got := r.conserved(); got != conserved {
		t.Fatalf("the table's balances moved: %d, was %d", got, conserved)
	}
	if n := len(r.records("note-escrow")); n != flows {
		t.Fatalf("money records: %d note escrows, was %d", n, flows)
	}
	if n := len(r.records(technician.KindTestTicket)); n != 2 {
		t.Errorf("test ticket records: %d, want 2", n)
	}
	if rs := r.records(technician.KindAcceptTest); len(rs) != 4 || !contains(string(rs[1].Body), "50.00") || !contains(string(rs[1].Body), demo.Technician) {
		t.Errorf("accept test records: %d %v", len(rs), rs)
	}
}

// The accept test's timeout runs on the station's clock: with the clock held a nanosecond short
// of it the test is still waiting for a note; at it, the test ends with ErrNoTestNote and the
// acceptor is inhibited again.
func TestAcceptTestTimeoutRunsOnTheStationClock(t *testing.T) {
	clk := clocktest.New(time.Now())
	r := newRig(t, rigOptions{manual: true, state: true, acceptTest: time.Minute, clock: clk})
	if err := technician.Open(r.dir, nil).Add(demo.Technician, "Tess", "900001", "135790"); err != nil {
		t.Fatal(err)
	}
	r.advancing("connected, the acceptor taking notes", func() bool { return r.view().Connected && r.acceptorEnabled() })
	ctx := context.Background()
	r.st.Terminal.TechnicianCard("900001")
	if err := r.st.Desk.EnterService(ctx, demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	r.advancing("the acceptor inhibited in service", r.acceptorInhibited)
	done := make(chan error, 1)
	go func() { _, err := r.st.AcceptTest(ctx); done <- err }()
	r.eventually("the acceptor enabled for the test", r.acceptorEnabled)
	clk.Advance(time.Minute - time.Nanosecond)
	// Nothing may happen now; a timer that fired early would end the test within moments (it
	// then only inhibits the acceptor and returns), so a short wait on the wall clock sees it.
	select {
	case err := <-done:
		t.Fatalf("the accept test ended a nanosecond before its timeout: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	clk.Advance(time.Nanosecond)
	select {
	case err := <-done:
		if !errors.Is(err, station.ErrNoTestNote) {
			t.Fatalf("accept test at its timeout: %v, want ErrNoTestNote", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the accept test did not end within 10 s of the clock reaching its timeout")
	}
	r.eventually("the acceptor inhibited after the timeout", r.acceptorInhibited)
}
