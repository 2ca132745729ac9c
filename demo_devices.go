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

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
)

// demoDevices is the demo's money hardware: the emulated note acceptor and printer, each on a
// pseudo-terminal whose other end the station's real drivers open through tarm/serial.
type demoDevices struct {
	acceptor   *emulator.NoteAcceptor
	printer    *emulator.Printer
	pad        *emulator.IDPad
	ap, pp, ip *serialport.PTY
}

func startDemoDevices(ctx context.Context) (*demoDevices, error) {
	d := &demoDevices{
		acceptor: emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{}),
		printer:  emulator.NewPrinter(emulator.PrinterConfig{}),
		pad:      emulator.NewIDPad(emulator.IDPadConfig{}),
	}
	var err error
	if d.ap, err = serialport.NewPTY(); err != nil {
		return nil, err
	}
	if d.pp, err = serialport.NewPTY(); err != nil {
		d.ap.Close()
		return nil, err
	}
	if d.ip, err = serialport.NewPTY(); err != nil {
		d.ap.Close()
		d.pp.Close()
		return nil, err
	}
	go d.acceptor.Serve(ctx, d.ap.Device)
	go d.printer.Serve(ctx, d.pp.Device)
	go d.pad.Serve(ctx, d.ip.Device)
	return d, nil
}

func (d *demoDevices) close() { d.ap.Close(); d.pp.Close(); d.ip.Close() }

// buyIn inserts notes into the emulated acceptor, as a player would.
func (d *demoDevices) buyIn(cents ...int64) {
	for _, c := range cents {
		for d.acceptor.InsertNote(c) != nil {
			time.Sleep(200 * time.Millisecond) // not enabled yet
		}
	}
}

// commands lets whoever started the demo play the devices from stdin: "note 2000",
// "ticket 001234567890123456", "printer paper-out", "pad card 1234567 1", "pad touch on 1"…
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
		} else if rest, ok := strings.CutPrefix(line, "pad "); ok {
			msg, err = d.pad.Command(rest)
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
