// Command devemu runs an emulated serial device — an ID-003 note acceptor, a TCL ticket printer,
// a player-ID pad or a roulette wheel's sensors and controller — on a new pseudo-terminal, so any host (the kiosk, atsctl device, another
// vendor's terminal) can be tested against the same device the demo uses.
//
//	devemu id003|tcl|idpad|wheel [-pace] [-out DIR] [-wheel single-zero|double-zero] [-manual]
//
// The first line of stdout is the port path. Commands are read from stdin, one per line
// ("note 2000", "ticket 001234567890123456", "jam", "paper-out", "touch on", "card 1234",
// "power-cycle", "spin 25 cw", "launch", "drop", "read 17", "fault nb", "help"…); each is answered with "ok: …" or "error: …", and the device's own
// state changes are printed as "# …". It runs until interrupted, even after stdin ends.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// device is what run needs of an emulator.
type device interface {
	Serve(ctx context.Context, line io.ReadWriter) error
	Command(line string) (string, error)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: devemu id003|tcl|idpad|wheel [-pace] [-out DIR] [-wheel single-zero|double-zero] [-manual]")
		return 2
	}
	kind := args[0]
	fs := flag.NewFlagSet("devemu "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	pace := fs.Bool("pace", false, "send bytes at the device's real baud rate")
	out := fs.String("out", ".", "tcl: directory for the PNG of each printed ticket")
	wheelKind := fs.String("wheel", "single-zero", "wheel: single-zero or double-zero")
	manual := fs.Bool("manual", false, "wheel: a manual wheel with sensors (refuses launch and raise-cap)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	var mu sync.Mutex // one writer of stdout at a time
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stdout, format+"\n", a...)
	}
	trace := func(t emulator.Trace) { say("# %s", t.What) }
	if kind != "id003" && kind != "tcl" && kind != "idpad" && kind != "wheel" {
		fmt.Fprintf(stderr, "devemu: unknown device %q: want id003, tcl, idpad or wheel\n", kind)
		return 2
	}
	wk, err := roulette.ParseWheel(*wheelKind)
	if err != nil {
		fmt.Fprintln(stderr, "devemu: -wheel:", err)
		return 2
	}
	pty, err := serialport.NewPTY()
	if err != nil {
		fmt.Fprintln(stderr, "devemu:", err)
		return 1
	}
	defer pty.Close()
	say("%s", pty.Path)
	var dev device
	var prn *emulator.Printer
	switch kind {
	case "id003":
		cfg := emulator.NoteAcceptorConfig{Trace: trace}
		if *pace {
			cfg.Pace = emulator.Pace(9600)
		}
		dev = emulator.NewNoteAcceptor(cfg)
	case "tcl":
		cfg := emulator.PrinterConfig{Trace: trace}
		if *pace {
			cfg.Pace = emulator.Pace(9600)
		}
		prn = emulator.NewPrinter(cfg)
		dev = prn
	case "idpad":
		cfg := emulator.IDPadConfig{Trace: trace}
		if *pace {
			cfg.Pace = emulator.Pace(19200)
		}
		dev = emulator.NewIDPad(cfg)
	case "wheel":
		cfg := emulator.WheelConfig{Wheel: wk, Manual: *manual, Trace: trace}
		if *pace {
			cfg.Pace = emulator.Pace(wheel.Baud)
		}
		dev = emulator.NewWheel(cfg)
	default:
		fmt.Fprintf(stderr, "devemu: unknown device %q: want id003, tcl, idpad or wheel\n", kind)
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- dev.Serve(ctx, pty.Device) }()

	saved := 0
	savePrinted := func() {
		if prn == nil {
			return
		}
		for _, t := range prn.Printed()[saved:] {
			saved++
			name := filepath.Join(*out, fmt.Sprintf("ticket-%03d.png", saved))
			f, err := os.Create(name)
			if err == nil {
				err = t.WritePNG(f)
				if e := f.Close(); err == nil {
					err = e
				}
			}
			if err != nil {
				say("error: saving %s: %v", name, err)
				continue
			}
			say("# ticket %d saved to %s", saved, name)
		}
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// Printed tickets are saved as they come out (the host, not a command, starts a print).
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			savePrinted()
		case <-ctx.Done():
			savePrinted()
			return 0
		case err := <-served:
			if ctx.Err() != nil {
				return 0
			}
			fmt.Fprintln(stderr, "devemu: line:", err)
			return 1
		case line, ok := <-lines:
			if !ok {
				lines = nil // stdin ended: keep serving until interrupted
				continue
			}
			if line == "" {
				continue
			}
			if line == "save" || line == "help" {
				savePrinted()
				if line == "help" {
					_, err := dev.Command("help")
					say("ok: %v", err)
				}
				continue
			}
			msg, err := dev.Command(line)
			if err != nil {
				say("error: %v", err)
			} else {
				say("ok: %s", msg)
			}
			savePrinted()
		}
	}
}
