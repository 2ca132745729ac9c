// Package demo is the kiosk's demo mode: what `go run .` with no -server runs, so that the
// product can be seen, played and measured on any machine without a casino floor.
//
// Nothing here is a shortcut around the product. The table is a real table server (round
// engine, ledger, auto-dealer) embedded in the process on a loopback port, reached through the
// same client, mutual TLS and gRPC as a table on the floor, with certificates from a CA made for
// the process. The money hardware is the device emulators — note acceptor (ID-003), ticket
// printer (TCL) and player-ID pad — each on a pseudo-terminal whose other end the station's
// real drivers open through the real serial code. A demo note is escrowed, stacked, journalled
// and credited by the table exactly as on a cabinet; a demo cash-out prints a ticket whose
// picture is saved as a PNG.
//
// Start returns where the table and the devices are; the caller wires the station to them as
// it would to a real cabinet's. Close stops everything the demo started and waits for it.
package demo

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/server"
)

// Config shapes a demo.
type Config struct {
	StateDir   string        // the table's ledger, and the printed tickets under tickets/
	TerminalID string        // the terminal the table serves (its certificate name)
	Period     time.Duration // the wagering period; 0: 20 s
	Spin       time.Duration // from the deadline to the outcome, and the result's time on screen; 0: 4 s
	Log        *slog.Logger  // the devices' and tickets' log; nil: none (the table's own log is dropped)

	// Wheel and Profile are the demo table's wheel and, on a double-zero wheel, its layout
	// profile (zero values: single zero; crown-rapid), so the double-zero screen can be shown
	// and photographed as readily as the single-zero one (issue 18).
	Wheel   roulette.Wheel
	Profile roulette.Profile

	// Commands, if set, is read line by line for device commands ("note 2000", "printer
	// paper-out", "pad card 1234567 1"…) and the dealer's ("outcome 17", "spin", "correct 20"…:
	// dealer.go); each answer is written to Replies.
	Commands io.Reader
	Replies  io.Writer

	// Carded: the demo table plays carded (SPEC §10), with the demo's player cards registered
	// (cards.go); Card is the one in the seat's reader at start (DemoCard when empty).
	// RealityCheck is the reality check's interval (0: the table's default).
	Carded       bool
	Card         string
	RealityCheck time.Duration
}

// seatCard is the player card in the demo seat's reader at start: the one asked for, else the
// demo's card where the table requires one or plays carded ("" none).
func seatCard(cfg Config, required bool) string {
	switch {
	case cfg.Card != "":
		return cfg.Card
	case required || cfg.Carded:
		return DemoCard
	}
	return ""
}

// Demo is a running demo: a table and three devices.
type Demo struct {
	Addr      string      // the table, on loopback
	ClientTLS *tls.Config // the terminal's certificate for it
	Acceptor  string      // the emulated note acceptor's serial line
	Printer   string      // the emulated printer's serial line
	IDPad     string      // the emulated ID pad's line
	Wheel     string      // the emulated wheel's line (its sensors: the table deals through it)
	Seat      int         // the station's seat on that pad

	table    *Table
	croupier *croupier      // the emulated wheel's dealing (wheel.go), ordered by dealer.go
	terminal string         // the demo's seat's terminal id
	kind     roulette.Wheel // the demo table's wheel
	acceptor *emulator.NoteAcceptor
	printer  *emulator.Printer
	pad      *emulator.IDPad
	ptys     []*serialport.PTY
	log      *slog.Logger
	cancel   context.CancelFunc
	done     <-chan struct{} // closed when the demo is stopping
	wg       sync.WaitGroup
	once     sync.Once
	closeErr error
}

// Start starts the table and the devices. The end of ctx stops the devices (with the kiosk's
// app); Close stops the table too and waits for everything.
func Start(ctx context.Context, cfg Config) (_ *Demo, err error) {
	if cfg.Period <= 0 {
		cfg.Period = 20 * time.Second
	}
	if cfg.Spin <= 0 {
		cfg.Spin = 4 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	tcfg := server.DefaultConfig()
	tcfg.Period, tcfg.SpinTime, tcfg.ResultTime = cfg.Period, cfg.Spin, cfg.Spin
	if cfg.Wheel != 0 {
		tcfg.Wheel = cfg.Wheel
	}
	tcfg.LayoutProfile = cfg.Profile
	if err := keepLayout(cfg.StateDir, tcfg.Wheel, tcfg.LayoutProfile); err != nil {
		return nil, err
	}
	// The rules of the casino whose felt it is: a star layout is The Star's table, which
	// requires a player card (003 §3.4), so the demo's seat has one in its reader.
	rules, ok := table.RulesPlaying(roulette.Layout{Wheel: tcfg.Wheel, Profile: tcfg.LayoutProfile})
	if !ok {
		return nil, fmt.Errorf("demo: no rules profile plays the %v %v layout", tcfg.Wheel, tcfg.LayoutProfile)
	}
	tcfg.RulesProfile = rules.Name
	// The Star's table plays Lucky Ball, its Mega version (003 §7, Diagram L's Lucky Ball
	// display): the star demo deals it, so the display, SUPER and MEGA can be seen and
	// reviewed (issue 32 point 10: no demo ever turned it on).
	if tcfg.LayoutProfile == roulette.Star {
		tcfg.LuckyBall, tcfg.LuckyMega = true, true
	}
	// The warning of the deadline must come inside the period, which a fast demo shortens.
	tcfg.Warning = min(tcfg.Warning, cfg.Period/2)
	tcfg.WheelDeals = true // the emulated wheel gives every outcome (wheel.go)
	if cfg.Carded {
		tcfg.Carded, tcfg.RealityCheck, tcfg.Helpline = true, cfg.RealityCheck, "Gambler's Help 1800 858 858"
	}
	tbl, err := StartTable(cfg.StateDir, cfg.TerminalID, tcfg, nil)
	if err != nil {
		return nil, err
	}

	ctx, cancel := context.WithCancel(ctx)
	d := &Demo{Addr: tbl.Addr, ClientTLS: tbl.ClientTLS, Seat: 1, table: tbl, log: cfg.Log, cancel: cancel, done: ctx.Done(),
		terminal: cfg.TerminalID, kind: tcfg.Wheel,
		acceptor: emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{}),
		printer:  emulator.NewPrinter(emulator.PrinterConfig{}),
		pad:      emulator.NewIDPad(emulator.IDPadConfig{}),
	}
	defer func() {
		if err != nil {
			d.Close()
		}
	}()
	if card := seatCard(cfg, rules.PlayerCardRequired); card != "" {
		if err := d.pad.InsertCard(d.Seat, card); err != nil {
			return nil, err
		}
	}
	for _, dev := range []struct {
		path  *string
		serve func(context.Context, io.ReadWriter) error
	}{{&d.Acceptor, d.acceptor.Serve}, {&d.Printer, d.printer.Serve}, {&d.IDPad, d.pad.Serve}} {
		p, err := serialport.NewPTY()
		if err != nil {
			return nil, err
		}
		d.ptys = append(d.ptys, p)
		*dev.path = p.Path
		d.run(func() {
			if err := dev.serve(ctx, p.Device); err != nil && ctx.Err() == nil {
				cfg.Log.Warn("demo device stopped", "line", p.Path, "err", err)
			}
		})
	}
	if err := d.startWheel(ctx, tbl.Table, tcfg.Wheel, cfg.Spin, cfg.Log); err != nil {
		return nil, err
	}
	d.run(func() { d.saveTickets(ctx, filepath.Join(cfg.StateDir, "tickets")) })
	if cfg.Commands != nil {
		d.commands(ctx, cfg.Commands, cfg.Replies)
	}
	cfg.Log.Info("demo devices", "note acceptor", d.Acceptor, "printer", d.Printer, "ID pad", d.IDPad, "wheel", d.Wheel)
	return d, nil
}

// FirstBuyIn has a player buy in with five $100 notes through the emulated acceptor when the
// terminal has no credit (a fresh state directory), so the demo opens with chips to bet. The
// notes go in one at a time while mayTake (the station's MayTakeMoney) says the terminal takes
// money, in the background: a note is not pushed at an acceptor a technician has enabled for
// the accept test, which would read the demo's note instead of the technician's and hand the
// buy-in back (issue 32 point 13). Balance > 0 does nothing. Call it before Close.
func (d *Demo) FirstBuyIn(balance int64, mayTake func() bool) {
	if balance != 0 {
		return
	}
	d.run(func() {
		for in := 0; in < 5; {
			// Not enabled yet (the station enables it once recovery is done and the table is
			// up), or enabled for a technician's test: wait.
			if mayTake() && d.acceptor.InsertNote(10000) == nil {
				in++
			}
			select {
			case <-d.done:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	})
}

// Close stops the devices and the table, waits for the demo's goroutines and closes the
// devices' lines and the table's ledger. Close the station first: its drivers hold the lines'
// other ends. Later calls return the first call's error.
func (d *Demo) Close() error {
	d.once.Do(func() {
		d.cancel()
		d.wg.Wait()
		var errs []error
		for _, p := range d.ptys {
			if err := p.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
				errs = append(errs, err)
			}
		}
		errs = append(errs, d.table.Close())
		d.closeErr = errors.Join(errs...)
	})
	return d.closeErr
}

func (d *Demo) run(fn func()) {
	d.wg.Add(1)
	go func() { defer d.wg.Done(); fn() }()
}

// layoutFile, in the state directory, names the wheel and profile its demo table deals on.
const layoutFile = "demo-table.layout"

// keepLayout refuses a state directory whose demo table was made for another wheel or profile:
// the table's ledger does not record its layout, and its slips and outcomes (a 0/00 split, a
// 00) mean nothing, or something else, on another — the table would not start, or would show a
// single-zero player a 00. A directory without the file and without a table is new, and takes
// the layout asked; one with a table but no file predates the choice, and was single zero.
func keepLayout(dir string, w roulette.Wheel, p roulette.Profile) error {
	want := w.String()
	if w == roulette.DoubleZero {
		want += " " + p.String()
	}
	path := filepath.Join(dir, layoutFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if got := strings.TrimSpace(string(b)); got != want {
			return fmt.Errorf("demo: %s holds a %s demo table, not %s: give the %s one a state directory of its own (ATS_STATE_DIR)", dir, got, want, want)
		}
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("demo: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "demo-table.db")); err == nil && want != roulette.SingleZero.String() {
		return fmt.Errorf("demo: %s holds a single-zero demo table, not %s: give the %s one a state directory of its own (ATS_STATE_DIR)", dir, want, want)
	}
	return os.WriteFile(path, []byte(want+"\n"), 0o600)
}
