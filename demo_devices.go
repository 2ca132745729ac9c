package main

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
)

// demoDevices is the demo's money hardware: the emulated note acceptor and printer on
// pseudo-terminals, driven by the real drivers through tarm/serial, and the cashier that
// journals every step in the state directory.
type demoDevices struct {
	acceptor *emulator.NoteAcceptor
	printer  *emulator.Printer
	cashier  *cashier.Cashier
	close    func()
}

// mayTakeMoney says whether the terminal may take money now: not without the server, not while
// the table is closed (and, when it exists, not in technician mode).
func mayTakeMoney(c *client.Client, term *app.Terminal) bool {
	return c.Connected() && term.View().Phase != client.PhaseClosed
}

func startDemoDevices(ctx context.Context, dir, terminal string, c *client.Client, term *app.Terminal, log *slog.Logger) (*demoDevices, error) {
	j, err := journal.Open(filepath.Join(dir, "terminal-"+terminal+".db"), time.Now)
	if err != nil {
		return nil, err
	}
	d := &demoDevices{
		acceptor: emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{}),
		printer:  emulator.NewPrinter(emulator.PrinterConfig{}),
	}
	ap, err := serialport.NewPTY()
	if err != nil {
		return nil, err
	}
	pp, err := serialport.NewPTY()
	if err != nil {
		return nil, err
	}
	go d.acceptor.Serve(ctx, ap.Device)
	go d.printer.Serve(ctx, pp.Device)
	aport, err := serialport.Open(noteacceptor.Line(ap.Path))
	if err != nil {
		return nil, err
	}
	pport, err := serialport.Open(printer.Line(pp.Path))
	if err != nil {
		return nil, err
	}
	log.Info("demo devices", "note acceptor", ap.Path, "printer", pp.Path)
	d.cashier = cashier.New(j, c, printer.New(pport, printer.Config{Log: log}), cashier.Config{Asset: terminal, Log: log})
	if err := d.cashier.Recover(ctx); err != nil {
		log.Warn("cashier recovery", "err", err)
	}
	acc := noteacceptor.New(aport, d.cashier, noteacceptor.Config{Log: log})
	go acc.Run(ctx)
	go func() {
		for ctx.Err() == nil {
			acc.SetInhibit(!mayTakeMoney(c, term))
			time.Sleep(300 * time.Millisecond)
		}
	}()
	go d.saveTickets(ctx, filepath.Join(dir, "tickets"), log)
	d.close = func() { aport.Close(); pport.Close(); ap.Close(); pp.Close(); j.Close() }
	return d, nil
}

// buyIn inserts notes into the emulated acceptor, as a player would.
func (d *demoDevices) buyIn(cents ...int64) {
	for _, c := range cents {
		for d.acceptor.InsertNote(c) != nil {
			time.Sleep(200 * time.Millisecond) // not enabled yet
		}
	}
}

// commands lets whoever started the demo play the devices from stdin: "note 2000",
// "ticket 001234567890123456", "printer paper-out"…
func (d *demoDevices) commands(log *slog.Logger) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var msg string
		var err error
		if rest, ok := strings.CutPrefix(line, "printer "); ok {
			msg, err = d.printer.Command(rest)
		} else {
			msg, err = d.acceptor.Command(line)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
		} else {
			fmt.Fprintln(os.Stderr, "ok:", msg)
		}
	}
}

// saveTickets writes each ticket the emulated printer prints as a PNG a person can look at.
func (d *demoDevices) saveTickets(ctx context.Context, dir string, log *slog.Logger) {
	saved := 0
	for ctx.Err() == nil {
		time.Sleep(500 * time.Millisecond)
		for _, t := range d.printer.Printed()[saved:] {
			saved++
			os.MkdirAll(dir, 0o700)
			name := filepath.Join(dir, fmt.Sprintf("ticket-%s-%03d.png", time.Now().Format("20060102-150405"), saved))
			f, err := os.Create(name)
			if err == nil {
				err = t.WritePNG(f)
				f.Close()
			}
			if err != nil {
				log.Warn("saving printed ticket", "err", err)
				continue
			}
			log.Info("ticket printed", "file", name)
		}
	}
}
