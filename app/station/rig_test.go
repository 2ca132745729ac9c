package station_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/id003"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/internal/netcut"
	"github.com/tablegames/ats/internal/testwait"
	"github.com/tablegames/ats/server"
)

// rig is one station on the casino floor, headless: the real table server in-process (its
// ledger in a temporary directory, gRPC with mutual TLS on loopback), a cuttable network
// between them (a TCP proxy), and the note acceptor and printer emulators on pseudo-terminals,
// driven by the real drivers the station opens. The station can be stopped and started again
// on the same journal and the same devices — a terminal restart — while the server and the
// devices keep running, as they would.
type rig struct {
	t     *testing.T
	dir   string
	demo  *demo.Table
	net   *netcut.Proxy
	acc   *emulator.NoteAcceptor
	prn   *emulator.Printer
	idPad *emulator.IDPad // the seat's player-ID pad (pad 1), with rigOptions.idpad
	st    *station.Station
	stop  func()
	opts  rigOptions
}

// rigOptions shape a rig. manual: the test deals (StartRound, BallDropping, EnterOutcome)
// instead of the auto-dealer, so every phase is where the test puts it.
type rigOptions struct {
	manual   bool
	cfg      func(*server.Config)
	acceptor func(*emulator.NoteAcceptorConfig) // the emulated acceptor's timing, if not the rig's
	printer  func(*emulator.PrinterConfig)      // the emulated printer's timing, if not the rig's
	// printerPoll is the printer driver's poll during a job (station.Config.PrinterPoll), if
	// not the rig's 25 ms.
	printerPoll time.Duration
	// printerCheck is the station's idle printer check (0: the station's default); a long one
	// lets a test put the printer at fault unseen, so the fault is found by the print itself.
	printerCheck time.Duration
	state        bool // technician mode: its files in the rig's directory
	acceptTest   time.Duration
	idpad        bool // a player-ID pad on its own line, the station's seat its pad 1
	// clock is the station's clock (station.Config.Clock) when set: its timers move only when
	// the test advances it (see advancing). nil: the machine's clock.
	clock *clocktest.Fake
}

// stationClock is the clock the station is given: a nil *clocktest.Fake must not become a
// non-nil clock.Clock.
func (o rigOptions) stationClock() clock.Clock {
	if o.clock == nil {
		return nil
	}
	return o.clock
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	dir := t.TempDir()
	cfg := server.DefaultConfig()
	cfg.Period = 30 * time.Second
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	tbl, err := demo.StartTable(dir, "T01", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tbl.Close() })
	if o.manual {
		st, err := tbl.Table.OpenTable("dealer:test", false)
		if err != nil {
			t.Fatal(err)
		}
		// The demo opened with the auto-dealer, which may have started a round already: finish
		// it (no terminal is connected yet) so the test starts between rounds.
		if st.Phase == pb.Phase_PHASE_WAGERING {
			if _, err := tbl.Table.BallDropping("dealer:test", st.RoundId); err != nil {
				t.Fatal(err)
			}
			if _, err := tbl.Table.EnterOutcome("dealer:test", st.RoundId, "0"); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := netcut.New(tbl.Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	acc := emulator.NoteAcceptorConfig{Init: 30 * time.Millisecond, Accept: 30 * time.Millisecond,
		Stack: 60 * time.Millisecond, Reject: 30 * time.Millisecond}
	if o.acceptor != nil {
		o.acceptor(&acc)
	}
	prn := emulator.PrinterConfig{Print: 200 * time.Millisecond, Feed: 20 * time.Millisecond}
	if o.printer != nil {
		o.printer(&prn)
	}
	if o.printerPoll == 0 {
		o.printerPoll = 25 * time.Millisecond
	}
	var pad *emulator.IDPad
	if o.idpad {
		pad = emulator.NewIDPad(emulator.IDPadConfig{Heartbeat: 100 * time.Millisecond})
	}
	r := &rig{t: t, dir: dir, demo: tbl, net: p, opts: o, idPad: pad,
		acc: emulator.NewNoteAcceptor(acc),
		prn: emulator.NewPrinter(prn),
	}
	r.start()
	return r
}

// start starts the station (again) on the rig's journal, with the devices on fresh
// pseudo-terminals (a restarted terminal opens its serial lines anew; the devices kept power).
func (r *rig) start() {
	r.t.Helper()
	if err := r.tryStart(); err != nil {
		r.t.Fatal(err)
	}
}

// tryStart starts the station, or returns why it would not start.
func (r *rig) tryStart() error {
	t := r.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ap, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	pp, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	var served sync.WaitGroup
	served.Add(2)
	go func() { defer served.Done(); r.acc.Serve(ctx, ap.Device) }()
	go func() { defer served.Done(); r.prn.Serve(ctx, pp.Device) }()
	padPath := ""
	var padPTY *serialport.PTY
	if r.idPad != nil {
		if padPTY, err = serialport.NewPTY(); err != nil {
			t.Fatal(err)
		}
		padPath = padPTY.Path
		served.Add(1)
		go func() { defer served.Done(); r.idPad.Serve(ctx, padPTY.Device) }()
	}
	closePad := func() {
		if padPTY != nil {
			padPTY.Close()
		}
	}
	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(r.dir, "terminal.db"),
		Client:   client.Config{Addr: r.net.Addr(), TLS: r.demo.ClientTLS, BaseBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond},
		Acceptor: ap.Path, Printer: pp.Path, AcceptorPoll: 20 * time.Millisecond, PrinterPoll: r.opts.printerPoll,
		PrintRetries: 2, RetryEvery: 50 * time.Millisecond, PrinterCheck: r.opts.printerCheck, StateDir: r.stateDir(),
		Touch: calibration.Persist{Rules: station.TouchRules(r.dir)}, AcceptTestTimeout: r.opts.acceptTest,
		IDPad: padPath, Seat: 1, Clock: r.opts.stationClock()})
	if err != nil {
		cancel()
		ap.Close()
		pp.Close()
		closePad()
		served.Wait()
		return err
	}
	r.st = st
	stopped := false
	r.stop = func() {
		if stopped {
			return
		}
		stopped = true
		st.Close()
		cancel()
		ap.Close()
		pp.Close()
		closePad()
		served.Wait()
	}
	t.Cleanup(r.stop)
	select {
	case <-st.Recovered():
	case <-time.After(10 * time.Second):
		t.Fatal("start-up recovery never finished")
	}
	return nil
}

// stateDir is technician mode's directory: the rig's, if the rig has technician mode.
func (r *rig) stateDir() string {
	if r.opts.state {
		return r.dir
	}
	return ""
}

// restart is a terminal restart: the process goes, the server and the devices stay.
func (r *rig) restart() {
	r.t.Helper()
	r.stop()
	r.start()
}

func (r *rig) view() app.View { return r.st.Terminal.View() }

// waitView waits for the station's screen to satisfy ok and returns that view.
func (r *rig) waitView(what string, ok func(app.View) bool) app.View {
	r.t.Helper()
	var v app.View
	r.eventually(what, func() bool { v = r.view(); return ok(v) })
	return v
}

func (r *rig) eventually(what string, ok func() bool) {
	r.t.Helper()
	if !testwait.For(10*time.Second, ok) {
		{ // what the station shows, to tell why
			st, data := r.acc.Status()
			v := r.view()
			r.t.Fatalf("never: %s\n  view: phase %v round %s connected %v balance %d stakes %v void %q message %q buy-in offered %+v\n  cashier: %+v\n  acceptor: %s % X",
				what, v.Phase, v.RoundID, v.Connected, v.Balance, v.Stakes, v.Void, v.Message, v.BuyIn, r.st.Cashier.Status(), id003.StatusName(st), data)
		}
	}
}

// advancing is eventually on a rig whose station runs on a fake clock: the station's polls (the
// acceptor's inhibit check every 200 ms) run only as the clock moves, so each check moves it
// one poll on.
func (r *rig) advancing(what string, ok func() bool) {
	r.t.Helper()
	r.eventually(what, func() bool {
		r.opts.clock.Advance(200 * time.Millisecond)
		return ok()
	})
}

// ready waits for the table's snapshot and the acceptor enabled.
func (r *rig) ready() app.View {
	r.t.Helper()
	v := r.waitView("connected to the table", func(v app.View) bool { return v.Connected && v.Config.Layout.Wheel != 0 })
	r.eventually("the acceptor taking notes", r.acceptorEnabled)
	return v
}

func (r *rig) acceptorEnabled() bool { st, _ := r.acc.Status(); return st == id003.StEnable }

func (r *rig) acceptorInhibited() bool { st, _ := r.acc.Status(); return st == id003.StDisable }

// buyIn puts a note in and waits for the screen to show it credited.
func (r *rig) buyIn(cents int64) {
	r.t.Helper()
	before := r.view().Balance
	r.eventually("the acceptor taking notes", r.acceptorEnabled)
	if err := r.acc.InsertNote(cents); err != nil {
		r.t.Fatal(err)
	}
	r.waitView(fmt.Sprintf("%d cents credited", cents), func(v app.View) bool { return v.Balance == before+cents })
	r.noPending()
}

// cashBox waits for the emulated acceptor's cash box to hold cents, the notes credited. The
// station credits at VEND VALID (the credit point, journalled before it is acknowledged) and
// settles with the table in the background, so the balance can reach the screen before the
// driver's ACK reaches the acceptor — and the emulator counts a note in its box at that ACK.
// Read at once, the box can be one note short of a balance that is right; waited for, a note
// missing from it or counted twice still fails.
func (r *rig) cashBox(cents int64) {
	r.t.Helper()
	r.eventually(fmt.Sprintf("%d cents in the cash box, as credited", cents), func() bool { return r.acc.CashboxCents() == cents })
}

func (r *rig) noPending() {
	r.t.Helper()
	r.eventually("no money flow left open in the journal", func() bool {
		fs, err := r.st.Journal.Pending(context.Background())
		return err == nil && len(fs) == 0
	})
}

// conserved checks the table's money identity and returns this terminal's balance on the ledger.
func (r *rig) conserved() int64 {
	r.t.Helper()
	c, err := r.demo.Table.Conservation()
	if err != nil {
		r.t.Fatal(err)
	}
	if !c.Holds() {
		r.t.Fatalf("the table's ledger does not conserve: %v", c)
	}
	return c.Balances
}

// records is the journal's records of one kind, oldest first.
func (r *rig) records(kind string) []journal.Record {
	r.t.Helper()
	rs, err := r.st.Journal.Records(context.Background(), 0, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []journal.Record
	for _, rec := range rs {
		if rec.Kind == kind {
			out = append(out, rec)
		}
	}
	return out
}

// round starts a round by the dealer (manual rigs) and waits for the screen to open it.
func (r *rig) round() string {
	r.t.Helper()
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		r.t.Fatal(err)
	}
	id := st.GetRoundId()
	r.waitView("round "+id+" open for wagers", func(v app.View) bool {
		return v.RoundID == id && v.Phase == table.PhaseWagering && !v.Locked && v.Connected
	})
	return id
}

// server is what the table server holds for this terminal (balance, slip total, connected).
func (r *rig) server() *pb.TerminalStatus {
	r.t.Helper()
	st, err := r.demo.Table.Status()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, ts := range st.Terminals {
		if ts.TerminalId == "T01" {
			return ts
		}
	}
	return &pb.TerminalStatus{TerminalId: "T01"}
}

func contains(s, sub string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(sub)) }
