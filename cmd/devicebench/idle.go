package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
)

// The idle cost of the kiosk's three device lines (-idle), per serial backend.
//
// Each reading is a child process (this program again, told what to do by childEnv) holding
// only what the kiosk holds: the note acceptor polled every 200 ms, the ID pad's line read
// continuously, the printer's status asked every second, all through serialport with one
// backend and the drivers' own settings (100 ms read timeouts). The emulators run in this, the
// parent, process, over pseudo-terminals, so the child's CPU is the drivers' and the backend's
// alone. After a warm-up the child reads its own CPU time (getrusage) and every thread's context
// switches (/proc/self/task/*/status) at both ends of the window: a thread's wake-ups are its
// switches, and the busiest thread of an idle Go program is sysmon (issue 18: ~900 a second
// around tarm's blocking reads). -tick adds a goroutine waking as the kiosk's frame loop does. Readings alternate between the backends, the order swapped each
// round, so the machine's load falls on both alike.

// childEnv carries a child's orders: "backend;window;warm-up;tick;acceptor;printer;pad".
const childEnv = "DEVICEBENCH_IDLE_CHILD"

// idleReading is what a child reports.
type idleReading struct {
	Backend   string  `json:"backend"`
	Seconds   float64 `json:"seconds"`
	CPU       float64 `json:"cpu_percent"`        // of one core
	Wakeups   float64 `json:"wakeups_per_s"`      // all threads' context switches a second
	Busiest   float64 `json:"busiest_per_s"`      // the busiest thread's
	Threads   int     `json:"threads"`            // threads of the process at the end
	StatusOKs int     `json:"printer_status_oks"` // proof the lines were alive
}

func runIdle(window, warmup, tick time.Duration, rounds int, backends []serialport.Backend, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "devicebench:", err)
		return 1
	}
	var all []idleReading
	for r := range rounds {
		order := append([]serialport.Backend(nil), backends...)
		if r%2 == 1 {
			for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
				order[i], order[j] = order[j], order[i]
			}
		}
		for _, b := range order {
			rd, err := idleOnce(self, b, window, warmup, tick)
			if err != nil {
				fmt.Fprintf(stderr, "devicebench: idle %s: %v\n", b, err)
				return 1
			}
			all = append(all, rd)
			fmt.Fprintf(stdout, "round %d %-6s cpu %5.2f %% of a core, %6.0f wake-ups/s (busiest thread %5.0f/s), %d threads\n",
				r+1, rd.Backend, rd.CPU, rd.Wakeups, rd.Busiest, rd.Threads)
		}
	}
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(stdout, "load average after: %s", load)
	}
	for _, b := range backends {
		var cpu, wake []float64
		for _, rd := range all {
			if rd.Backend == string(b) {
				cpu, wake = append(cpu, rd.CPU), append(wake, rd.Wakeups)
			}
		}
		fmt.Fprintf(stdout, "%-6s idle, three lines, %d × %v: cpu %s %% of a core, wake-ups %s /s\n",
			b, len(cpu), window, span(cpu, "%.2f"), span(wake, "%.0f"))
	}
	return 0
}

func span(v []float64, f string) string {
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return fmt.Sprintf(f+"–"+f, lo, hi)
}

// idleOnce serves the three emulators and runs one child over them.
func idleOnce(self string, b serialport.Backend, window, warmup, tick time.Duration) (idleReading, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type served interface {
		Serve(context.Context, io.ReadWriter) error
	}
	var paths []string
	for _, dev := range []served{
		emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{}),
		emulator.NewPrinter(emulator.PrinterConfig{}),
		emulator.NewIDPad(emulator.IDPadConfig{}),
	} {
		p, err := serialport.NewPTY()
		if err != nil {
			return idleReading{}, err
		}
		defer p.Close()
		go dev.Serve(ctx, p.Device)
		paths = append(paths, p.Path)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s;%s;%s;%s;%s", childEnv, b, window, warmup, tick, strings.Join(paths, ";")))
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return idleReading{}, fmt.Errorf("%v: %s", err, errb.String())
	}
	var rd idleReading
	if err := json.Unmarshal(out, &rd); err != nil {
		return idleReading{}, fmt.Errorf("child's report %q: %v", out, err)
	}
	if rd.StatusOKs == 0 {
		return rd, errors.New("the printer never answered: the lines were not alive")
	}
	return rd, nil
}

type quiet struct{}

func (quiet) Escrow(context.Context, noteacceptor.Escrow) bool { return false }
func (quiet) Credit(noteacceptor.Escrow) error                 { return nil }
func (quiet) Event(noteacceptor.Event)                         {}

// idleChild is the child's whole life: open the three lines, drive them as the idle kiosk does,
// measure, print one JSON line.
func idleChild(orders string, stdout io.Writer) error {
	f := strings.Split(orders, ";")
	if len(f) != 7 {
		return fmt.Errorf("orders %q: want backend;window;warm-up;tick;acceptor;printer;pad", orders)
	}
	b := serialport.Backend(f[0])
	window, err := time.ParseDuration(f[1])
	if err != nil {
		return err
	}
	warmup, err := time.ParseDuration(f[2])
	if err != nil {
		return err
	}
	tick, err := time.ParseDuration(f[3])
	if err != nil {
		return err
	}
	f = append(f[:3], f[4:]...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if tick > 0 {
		// The rest of the kiosk: a goroutine waking every tick (Fyne's frame loop: 16 ms
		// before internal/idleloop parked it, a frame a second since). A Go program with
		// nothing else running lets sysmon sleep; one with work keeps it polling, and a
		// blocking read(2) coming back makes it poll hard.
		go func() {
			t := time.NewTicker(tick)
			defer t.Stop()
			n := 0
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					for i := range 20000 { // a little work, as a frame's bookkeeping
						n += i
					}
				}
			}
		}()
	}
	open := func(c serialport.Config) (serialport.Port, error) { return serialport.OpenWith(b, c) }
	aport, err := open(noteacceptor.Line(f[3]))
	if err != nil {
		return err
	}
	defer aport.Close()
	pport, err := open(printer.Line(f[4]))
	if err != nil {
		return err
	}
	defer pport.Close()
	iport, err := open(idpad.Line(f[5]))
	if err != nil {
		return err
	}
	defer iport.Close()
	acc := noteacceptor.New(aport, quiet{}, noteacceptor.Config{})
	acc.SetInhibit(false)
	go acc.Run(ctx)
	pad := idpad.New(iport, idpad.Config{})
	go pad.Run(ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-pad.Events():
			}
		}
	}()
	prn := printer.New(pport, printer.Config{})
	oks := 0
	statusDone := make(chan struct{})
	go func() {
		defer close(statusDone)
		for ctx.Err() == nil {
			if _, err := prn.Status(); err == nil {
				oks++
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
	time.Sleep(warmup)
	cpu0, sw0, err := usage()
	if err != nil {
		return err
	}
	start := time.Now()
	time.Sleep(window)
	cpu1, sw1, err := usage()
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	cancel()
	<-statusDone
	rd := idleReading{Backend: string(b), Seconds: secs, CPU: 100 * (cpu1 - cpu0).Seconds() / secs, Threads: len(sw1), StatusOKs: oks}
	for tid, n := range sw1 {
		d := float64(n-sw0[tid]) / secs
		rd.Wakeups += d
		rd.Busiest = max(rd.Busiest, d)
	}
	return json.NewEncoder(stdout).Encode(rd)
}
