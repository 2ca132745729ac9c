// Command devicebench measures the note acceptor money path end to end over a pseudo-terminal:
// the real host driver (through serialport, as on a cabinet) polling the emulated ID-003 acceptor, the emulator
// pacing its bytes at 9600 baud. For each note it times from the moment the acceptor reaches
// VEND VALID (the note is irrevocably going to the stacker) to the driver handing the app its
// credit, and from insertion to credit.
//
//	go run ./cmd/devicebench -notes 30 -poll 200ms
//
// With -idle it measures instead what the kiosk's three device lines cost while nothing happens,
// for each serial backend side by side in one run (idle.go; docs/decisions/0001):
//
//	go run ./cmd/devicebench -idle 15s -rounds 3
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/serialport"
)

func main() {
	if orders := os.Getenv(childEnv); orders != "" {
		os.Exit(child(orders))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// child is an -idle reading's process (idle.go).
func child(orders string) int {
	if err := idleChild(orders, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "devicebench child:", err)
		return 1
	}
	return 0
}

type bench struct {
	mu      sync.Mutex
	vendAt  time.Time
	credits chan time.Time
	enabled chan struct{}
	once    sync.Once
}

func (b *bench) Escrow(context.Context, noteacceptor.Escrow) bool { return true }

func (b *bench) Credit(noteacceptor.Escrow) error {
	b.credits <- time.Now()
	return nil
}

func (b *bench) Event(ev noteacceptor.Event) {
	if ev.Kind == noteacceptor.Enabled {
		b.once.Do(func() { close(b.enabled) })
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("devicebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	notes := fs.Int("notes", 30, "notes to insert")
	poll := fs.Duration("poll", 200*time.Millisecond, "driver polling interval")
	baud := fs.Int("baud", 9600, "line speed the emulator paces its bytes at")
	idle := fs.Duration("idle", 0, "instead: measure the three idle device lines' CPU over this window, per serial backend")
	warmup := fs.Duration("warmup", 2*time.Second, "with -idle: time the lines run before each window")
	tick := fs.Duration("tick", 0, "with -idle: a goroutine beside the lines waking this often, as the kiosk's frame loop (16ms: Fyne's 60 Hz; 0: none)")
	rounds := fs.Int("rounds", 3, "with -idle: readings per backend, alternating")
	backends := fs.String("backends", string(serialport.Poller)+","+string(serialport.Tarm), "with -idle: the serial backends to measure")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "devicebench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *idle > 0 {
		var bs []serialport.Backend
		for _, b := range strings.Split(*backends, ",") {
			switch b := serialport.Backend(b); b {
			case serialport.Poller, serialport.Tarm:
				bs = append(bs, b)
			default:
				fmt.Fprintf(stderr, "devicebench: unknown backend %q (want %s or %s)\n", b, serialport.Poller, serialport.Tarm)
				return 2
			}
		}
		if *rounds < 1 || *warmup < 0 || *tick < 0 {
			fmt.Fprintln(stderr, "devicebench: -rounds must be at least 1, -warmup and -tick not negative")
			return 2
		}
		return runIdle(*idle, *warmup, *tick, *rounds, bs, stdout, stderr)
	}
	b := &bench{credits: make(chan time.Time, 1), enabled: make(chan struct{})}
	emu := emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{
		Pace: emulator.Pace(*baud),
		Trace: func(t emulator.Trace) {
			if strings.HasPrefix(t.What, "status vend valid") {
				b.mu.Lock()
				b.vendAt = t.At
				b.mu.Unlock()
			}
		},
	})
	pty, err := serialport.NewPTY()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer pty.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go emu.Serve(ctx, pty.Device)
	port, err := serialport.Open(noteacceptor.Line(pty.Path))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer port.Close()
	a := noteacceptor.New(port, b, noteacceptor.Config{Poll: *poll})
	a.SetInhibit(false)
	go a.Run(ctx)
	select {
	case <-b.enabled:
	case <-time.After(10 * time.Second):
		fmt.Fprintln(stderr, "devicebench: the acceptor never became ready")
		return 1
	}
	var vendToCredit, insertToCredit []time.Duration
	for i := range *notes {
		// Insert at a random phase of the polling cycle, as a player would.
		time.Sleep(time.Duration(i*37%int(*poll/time.Millisecond+1)) * time.Millisecond)
		in := time.Now()
		if err := emu.InsertNote(2000); err != nil {
			fmt.Fprintln(stderr, "devicebench:", err)
			return 1
		}
		select {
		case at := <-b.credits:
			b.mu.Lock()
			v := b.vendAt
			b.mu.Unlock()
			vendToCredit = append(vendToCredit, at.Sub(v))
			insertToCredit = append(insertToCredit, at.Sub(in))
		case <-time.After(10 * time.Second):
			fmt.Fprintf(stderr, "devicebench: note %d never credited\n", i+1)
			return 1
		}
		time.Sleep(*poll * 3) // let it reach the stacker and idle again
	}
	if got, want := emu.CashboxCents(), int64(*notes)*2000; got != want {
		fmt.Fprintf(stderr, "devicebench: cash box %d, want %d\n", got, want)
		return 1
	}
	report := func(name string, d []time.Duration) {
		slices.Sort(d)
		p := func(q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))].Round(time.Millisecond) }
		fmt.Fprintf(stdout, "%-26s n=%d p50=%v p99=%v max=%v\n", name, len(d), p(0.50), p(0.99), d[len(d)-1].Round(time.Millisecond))
	}
	fmt.Fprintf(stdout, "ID-003 over a pty at %d baud, polling every %v\n", *baud, *poll)
	report("vend valid -> credit", vendToCredit)
	report("note inserted -> credit", insertToCredit)
	return 0
}
