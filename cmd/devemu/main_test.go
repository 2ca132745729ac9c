package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
)

// session runs devemu in-process with a pipe for stdin and a scanner on stdout.
type session struct {
	in    *io.PipeWriter
	lines chan string
	path  string
	done  chan int
}

func start(t *testing.T, args ...string) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{in: inW, lines: make(chan string, 100), done: make(chan int, 1)}
	go func() { s.done <- run(ctx, args, inR, outW, io.Discard); outW.Close() }()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	select {
	case s.path = <-s.lines:
	case <-time.After(5 * time.Second):
		t.Fatal("no port path on the first line")
	}
	if !strings.HasPrefix(s.path, "/dev/") {
		t.Fatalf("first line %q is not a port path", s.path)
	}
	t.Cleanup(func() {
		cancel()
		inW.Close()
		if code := <-s.done; code != 0 {
			t.Errorf("devemu exited %d", code)
		}
	})
	return s
}

// expect reads stdout until a line containing want.
func (s *session) expect(t *testing.T, want string) string {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				t.Fatalf("stdout ended before %q", want)
			}
			if strings.Contains(l, want) {
				return l
			}
		case <-timeout:
			t.Fatalf("no line with %q", want)
		}
	}
}

func (s *session) send(t *testing.T, cmd string) {
	t.Helper()
	if _, err := io.WriteString(s.in, cmd+"\n"); err != nil {
		t.Fatal(err)
	}
}

func TestUsage(t *testing.T) {
	if code := run(context.Background(), nil, strings.NewReader(""), io.Discard, io.Discard); code != 2 {
		t.Fatalf("no arguments: exit %d", code)
	}
	if code := run(context.Background(), []string{"toaster"}, strings.NewReader(""), io.Discard, io.Discard); code != 2 {
		t.Fatalf("unknown device: exit %d", code)
	}
}

func TestID003Commands(t *testing.T) {
	s := start(t, "id003")
	s.send(t, "jam")
	s.expect(t, "ok: jam in acceptor")
	s.send(t, "note 12")
	s.expect(t, "error: emulator: no note of 12 cents")
	s.send(t, "clear")
	s.expect(t, "ok: fault cleared")
	s.send(t, "bogus")
	s.expect(t, "error: unknown command")
}

func TestTCLSavesTickets(t *testing.T) {
	dir := t.TempDir()
	s := start(t, "tcl", "-out", dir)
	port, err := serialport.Open(printer.Line(s.path))
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	pr := printer.New(port, printer.Config{Poll: 50 * time.Millisecond})
	tk := printer.Ticket{Venue: "TEST", Terminal: "1", Asset: "1", Issued: time.Now(), Validation: "123456789012345678", Cents: 500, Number: 1, Expiry: "TEST"}
	if err := pr.Print(context.Background(), tk); err != nil {
		t.Fatal(err)
	}
	s.expect(t, "saved to")
	if fi, err := os.Stat(filepath.Join(dir, "ticket-001.png")); err != nil || fi.Size() < 1000 {
		t.Fatalf("ticket PNG: %v", err)
	}
}

func TestIDPadCommands(t *testing.T) {
	s := start(t, "idpad")
	port, err := serialport.Open(idpad.Line(s.path))
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	pad := idpad.New(port, idpad.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go pad.Run(ctx)
	s.send(t, "touch on 4")
	s.expect(t, "ok: pad 4 touch on")
	for {
		select {
		case e := <-pad.Events():
			if e.Kind == idpad.Touched && e.Pad == 4 {
				return
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the host never saw the touch")
		}
	}
}

// devemu wheel: the operator spins, launches, drops and reads through stdin; the real driver on
// the pty sees each; a mistake is answered with an error, not a crash.
func TestWheelCommands(t *testing.T) {
	s := start(t, "wheel", "-wheel", "double-zero")
	port, err := serialport.Open(wheel.Line(s.path))
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	d, err := wheel.New(port, wheel.Config{Wheel: roulette.DoubleZero})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	// Run flushes the line as it starts: a sentence the emulator sent before is dropped.
	select {
	case <-d.Ready():
	case <-time.After(5 * time.Second):
		t.Fatal("the driver never started")
	}
	for _, c := range [][2]string{
		{"spin 24 cw", "ok: wheel at 24 rpm CW"},
		{"launch", "ok: game 1: ball launched"},
		{"drop 10", "ok: ball about to drop after 10 revolutions"},
		{"read 00", "ok: sensors read 00 and 00"},
		{"read 5", "error: emulator: no ball in play"},
		{"fault smoke", "error: emulator: unknown fault"},
	} {
		s.send(t, c[0])
		s.expect(t, c[1])
	}
	var got []string
	for len(got) < 3 {
		select {
		case e := <-d.Events():
			if e.Kind == wheel.Launched || e.Kind == wheel.Dropping || e.Kind == wheel.Result {
				got = append(got, e.String())
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the host saw only %q", got)
		}
	}
	if got[2] != "wheel: game 1: sensor 1 read 00, sensor 2 read 00" {
		t.Fatalf("the host saw %q", got)
	}
	if code := run(context.Background(), []string{"wheel", "-wheel", "triple-zero"}, strings.NewReader(""), io.Discard, io.Discard); code != 2 {
		t.Fatalf("unknown wheel: exit %d", code)
	}
}
