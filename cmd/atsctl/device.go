package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
)

func init() {
	register("device", command{
		summary: "talk to a device on a real port: acceptor status|version|accept-test, printer status|test-ticket, idpad version|watch, wheel watch|launch|raise-cap",
		run:     runDevice,
	})
}

const deviceUsage = `usage: atsctl device <acceptor|printer|idpad|wheel> -port PATH [-for DURATION] <action>
  acceptor status       status, software version and currency table (no reset)
  acceptor version      software version
  acceptor accept-test  start the acceptor, take one note or ticket, report it and RETURN it
  printer  status       status flags in words
  printer  test-ticket  print a void test ticket and follow it to top of form
  idpad    version      the pad's version
  idpad    watch        print touches and cards until -for passes or interrupted
  wheel    watch        print the wheel's speed, balls, reads and faults until -for passes or interrupted
                        (-wheel single-zero|double-zero: the table's wheel, so 00 is checked)
  wheel    launch       an automated wheel launches the ball (-blower 800ms); prints until -for passes
  wheel    raise-cap    an automated wheel raises its cap`

// deviceSignal ends a watch or accept test early; tests replace it.
var deviceSignal = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func runDevice(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, deviceUsage)
		return 2
	}
	kind := args[0]
	fs := flag.NewFlagSet("device "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.String("port", "", "serial port, e.g. /dev/ttyUSB0")
	wait := fs.Duration("for", 60*time.Second, "how long accept-test and watch wait")
	wheelKind := fs.String("wheel", "single-zero", "wheel: the table's wheel, single-zero or double-zero")
	blower := fs.Duration("blower", 800*time.Millisecond, "wheel launch: the blower time, 100ms–5s")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *port == "" || fs.NArg() != 1 {
		fmt.Fprintln(stderr, deviceUsage)
		return 2
	}
	action := fs.Arg(0)
	stdout = &lockedWriter{w: stdout} // driver callbacks print from more than one goroutine
	var line serialport.Config
	switch kind {
	case "acceptor":
		line = noteacceptor.Line(*port)
	case "printer":
		line = printer.Line(*port)
	case "idpad":
		line = idpad.Line(*port)
	case "wheel":
		line = wheel.Line(*port)
	default:
		fmt.Fprintf(stderr, "atsctl device: unknown device %q\n%s\n", kind, deviceUsage)
		return 2
	}
	p, err := serialport.Open(line)
	if err != nil {
		fmt.Fprintln(stderr, "atsctl device:", err)
		return 1
	}
	defer p.Close()
	ctx, cancel := deviceSignal()
	defer cancel()
	ctx, cancel2 := context.WithTimeout(ctx, *wait)
	defer cancel2()
	var code int
	switch kind {
	case "acceptor":
		code = acceptorAction(ctx, p, action, stdout, stderr)
	case "printer":
		code = printerAction(ctx, p, action, stdout, stderr)
	case "idpad":
		code = idpadAction(ctx, p, action, stdout, stderr)
	case "wheel":
		code = wheelAction(ctx, p, action, *wheelKind, *blower, stdout, stderr)
	}
	return code
}

func acceptorAction(ctx context.Context, p serialport.Port, action string, stdout, stderr io.Writer) int {
	switch action {
	case "status", "version":
		info, err := noteacceptor.New(p, nil, noteacceptor.Config{}).Query()
		if err != nil {
			fmt.Fprintln(stderr, "atsctl device acceptor:", err)
			return 1
		}
		if action == "version" {
			fmt.Fprintln(stdout, info.Version)
		} else {
			fmt.Fprintln(stdout, info)
		}
		return 0
	case "accept-test":
		h := &acceptTest{out: stdout, seen: make(chan noteacceptor.Escrow, 1), done: make(chan struct{})}
		a := noteacceptor.New(p, h, noteacceptor.Config{})
		a.SetInhibit(false)
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		ran := make(chan struct{})
		go func() { a.Run(runCtx); close(ran) }()
		fmt.Fprintln(stdout, "insert a note or a ticket (it will be returned)")
		select {
		case <-h.done:
			stop()
			<-ran
			return 0
		case <-ctx.Done():
			stop()
			<-ran
			fmt.Fprintln(stderr, "atsctl device acceptor: nothing was inserted")
			return 1
		}
	}
	fmt.Fprintf(stderr, "atsctl device acceptor: unknown action %q\n", action)
	return 2
}

// acceptTest returns whatever is inserted and reports it.
type acceptTest struct {
	out  io.Writer
	seen chan noteacceptor.Escrow
	done chan struct{}
	got  bool
}

func (h *acceptTest) Escrow(_ context.Context, e noteacceptor.Escrow) bool {
	fmt.Fprintf(h.out, "recognised: %v\n", e)
	return false
}

func (h *acceptTest) Credit(e noteacceptor.Escrow) error {
	return fmt.Errorf("accept test does not take money (%v)", e)
}

func (h *acceptTest) Event(ev noteacceptor.Event) {
	fmt.Fprintln(h.out, ev)
	if ev.Kind == noteacceptor.Escrowed {
		h.got = true
	}
	if h.got && (ev.Kind == noteacceptor.Returned) {
		select {
		case <-h.done:
		default:
			close(h.done)
		}
	}
}

func printerAction(ctx context.Context, p serialport.Port, action string, stdout, stderr io.Writer) int {
	pr := printer.New(p, printer.Config{})
	switch action {
	case "status":
		s, err := pr.Status()
		if err != nil {
			fmt.Fprintln(stderr, "atsctl device printer:", err)
			return 1
		}
		fmt.Fprintln(stdout, s)
		if f := s.Faults(); len(f) > 0 {
			return 1
		}
		return 0
	case "test-ticket":
		t := printer.TestTicket("TEST", "TEST", time.Now())
		if err := pr.Print(ctx, t); err != nil {
			fmt.Fprintln(stderr, "atsctl device printer:", err)
			return 1
		}
		fmt.Fprintln(stdout, "test ticket printed")
		return 0
	}
	fmt.Fprintf(stderr, "atsctl device printer: unknown action %q\n", action)
	return 2
}

func idpadAction(ctx context.Context, p serialport.Port, action string, stdout, stderr io.Writer) int {
	pad := idpad.New(p, idpad.Config{})
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	ran := make(chan struct{})
	go func() { pad.Run(runCtx); close(ran) }()
	defer func() { stop(); <-ran }()
	switch action {
	case "version":
		vctx, c := context.WithTimeout(ctx, 2*time.Second)
		defer c()
		v, err := pad.Version(vctx)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl device idpad:", err)
			return 1
		}
		fmt.Fprintln(stdout, v)
		return 0
	case "watch":
		for {
			select {
			case e := <-pad.Events():
				fmt.Fprintln(stdout, e)
			case <-ctx.Done():
				return 0
			}
		}
	}
	fmt.Fprintf(stderr, "atsctl device idpad: unknown action %q\n", action)
	return 2
}

func wheelAction(ctx context.Context, p serialport.Port, action, kind string, blower time.Duration, stdout, stderr io.Writer) int {
	wk, err := roulette.ParseWheel(kind)
	if err != nil {
		fmt.Fprintln(stderr, "atsctl device wheel: -wheel:", err)
		return 2
	}
	if action != "watch" && action != "launch" && action != "raise-cap" {
		fmt.Fprintf(stderr, "atsctl device wheel: unknown action %q\n", action)
		return 2
	}
	d, err := wheel.New(p, wheel.Config{Wheel: wk})
	if err != nil {
		fmt.Fprintln(stderr, "atsctl device wheel:", err)
		return 2
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	ran := make(chan struct{})
	go func() { d.Run(runCtx); close(ran) }()
	defer func() { stop(); <-ran }()
	if action == "raise-cap" {
		if err := d.RaiseCap(ctx); err != nil {
			fmt.Fprintln(stderr, "atsctl device wheel:", err)
			return 1
		}
		fmt.Fprintln(stdout, "cap raised")
		return 0
	}
	errc := make(chan error, 1)
	if action == "launch" {
		go func() { errc <- d.Launch(ctx, blower) }()
	}
	for {
		select {
		case e := <-d.Events():
			fmt.Fprintln(stdout, e)
		case err := <-errc:
			if err != nil {
				fmt.Fprintln(stderr, "atsctl device wheel:", err)
				return 1
			}
			fmt.Fprintln(stdout, "launch done")
		case <-ctx.Done():
			s := d.Stats()
			if s != (wheel.Stats{}) {
				fmt.Fprintf(stdout, "dropped: %d noise, %d checksum, %d out of range\n", s.Noise, s.Checksum, s.Range)
			}
			return 0
		}
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
