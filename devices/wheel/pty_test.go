package wheel_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
)

// overPTY serves an emulated wheel on a pseudo-terminal and runs the real driver on the real
// serial port code against it.
func overPTY(t testing.TB, ecfg emulator.WheelConfig, cfg wheel.Config) (*emulator.Wheel, *wheel.Driver) {
	t.Helper()
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	if ecfg.Heartbeat == 0 {
		ecfg.Heartbeat = 50 * time.Millisecond
	}
	emu := emulator.NewWheel(ecfg)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { emu.Serve(ctx, pty.Device); close(served) }()
	port, err := serialport.Open(wheel.Line(pty.Path))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Wheel = ecfg.Wheel
	if cfg.Silence == 0 {
		cfg.Silence = 300 * time.Millisecond
	}
	t.Cleanup(func() { cancel(); port.Close(); <-served; pty.Close() }) // after the driver's, below
	return emu, run(t, port, cfg)
}

// until reads events, skipping speed reports, until one satisfies ok.
func until(t testing.TB, d *wheel.Driver, what string, ok func(wheel.Event) bool) wheel.Event {
	t.Helper()
	deadline := time.After(3 * time.Second)
	for {
		select {
		case e := <-d.Events():
			if ok(e) {
				return e
			}
			if e.Kind != wheel.Speed && e.Kind != wheel.Restored {
				t.Fatalf("%q while waiting for %s", e, what)
			}
		case <-deadline:
			t.Fatalf("no %s", what)
		}
	}
}

func kind(k wheel.Kind) func(wheel.Event) bool {
	return func(e wheel.Event) bool { return e.Kind == k }
}

func fault(f wheel.FaultCode) func(wheel.Event) bool {
	return func(e wheel.Event) bool { return e.Kind == wheel.Fault && e.Fault == f }
}

func command(t *testing.T, emu *emulator.Wheel, line string) {
	t.Helper()
	if _, err := emu.Command(line); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
}

// The operator's spins on a double-zero wheel reach the driver over a pty: the speed, the ball
// launched and about to drop, 0 and 00 read distinctly, a disagreement, and every fault.
func TestEmulatedWheelOverPTY(t *testing.T) {
	emu, d := overPTY(t, emulator.WheelConfig{Wheel: roulette.DoubleZero, Manual: true}, wheel.Config{})
	until(t, d, "restored", kind(wheel.Restored))
	command(t, emu, "spin 27 ccw")
	until(t, d, "speed", func(e wheel.Event) bool { return e.Kind == wheel.Speed && e.RPM == 27 && e.Dir == wheel.Anticlockwise })
	for _, c := range []struct{ read, want string }{{"read 00", "00"}, {"read 0", "0"}, {"read 36", "36"}} {
		command(t, emu, "launch")
		if e := until(t, d, "launch", kind(wheel.Launched)); e.Dir != wheel.Clockwise {
			t.Fatalf("ball launched %v on a wheel turning CCW", e.Dir)
		}
		command(t, emu, "drop 9")
		if e := until(t, d, "drop", kind(wheel.Dropping)); e.Revs != 9 {
			t.Fatalf("%q", e)
		}
		command(t, emu, c.read)
		e := until(t, d, "result", kind(wheel.Result))
		if n, ok := e.Number(); !ok || n.String() != c.want {
			t.Fatalf("%s: %q", c.read, e)
		}
	}
	command(t, emu, "launch")
	until(t, d, "launch", kind(wheel.Launched))
	command(t, emu, "read 0 00")
	until(t, d, "result", kind(wheel.Result))
	if e := until(t, d, "disagreement", kind(wheel.Fault)); e.Fault != wheel.FaultDisagree {
		t.Fatalf("%q", e)
	}

	command(t, emu, "launch with") // in the wheel's direction: a no spin (004 §8.1(b))
	until(t, d, "launch", kind(wheel.Launched))
	until(t, d, "same-way fault", fault(wheel.FaultSameWay))
	command(t, emu, "drop 3") // a short spin (§8.1(c))
	until(t, d, "drop", kind(wheel.Dropping))
	if e := until(t, d, "short spin", fault(wheel.FaultShortSpin)); e.Revs != 3 {
		t.Fatalf("%q", e)
	}
	command(t, emu, "fault ow")
	until(t, d, "ball out", fault(wheel.FaultOutOfWheel))
	command(t, emu, "launch")
	until(t, d, "launch", kind(wheel.Launched))
	command(t, emu, "fault nb")
	until(t, d, "no ball", fault(wheel.FaultNoBall))
	command(t, emu, "fault dirty 2")
	if e := until(t, d, "dirty sensor", fault(wheel.FaultSensorDirty)); e.Sensor != 2 {
		t.Fatalf("%q", e)
	}
	command(t, emu, "fault lost 1")
	until(t, d, "lost sensor", fault(wheel.FaultSensorLost))
	command(t, emu, "spin 0")
	command(t, emu, "launch")
	until(t, d, "launch", kind(wheel.Launched))
	until(t, d, "not rotating", fault(wheel.FaultNotRotating))
	command(t, emu, "noise")
	if e := until(t, d, "garbled", kind(wheel.Garbled)); !errors.Is(e.Err, wheel.ErrFrame) {
		t.Fatalf("%q", e)
	}

	// A manual wheel refuses the host's launch; unplugged, the line is a fault until replugged.
	if err := d.Launch(context.Background(), 500*time.Millisecond); !errors.Is(err, wheel.ErrRefused) {
		t.Fatalf("launch on a manual wheel: %v", err)
	}
	command(t, emu, "unplug")
	until(t, d, "line lost", fault(wheel.FaultLineLost))
	command(t, emu, "replug")
	until(t, d, "restored", kind(wheel.Restored))
}

// An automated wheel launches the ball for the host and raises its cap; a wheel that stops
// answering commands is an error, not a hang.
func TestAutomatedWheelOverPTY(t *testing.T) {
	emu, d := overPTY(t, emulator.WheelConfig{Wheel: roulette.SingleZero}, wheel.Config{EchoTimeout: 200 * time.Millisecond})
	until(t, d, "restored", kind(wheel.Restored))
	command(t, emu, "spin 25 cw")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := d.Launch(ctx, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if e := until(t, d, "launch", kind(wheel.Launched)); e.Dir != wheel.Anticlockwise {
		t.Fatalf("%q", e)
	}
	if err := d.RaiseCap(ctx); !errors.Is(err, wheel.ErrRefused) {
		t.Fatalf("raise cap with the ball in play: %v", err)
	}
	command(t, emu, "read 32")
	until(t, d, "result", kind(wheel.Result))
	if err := d.RaiseCap(ctx); err != nil {
		t.Fatal(err)
	}
	command(t, emu, "mute")
	if err := d.RaiseCap(ctx); !errors.Is(err, wheel.ErrNoEcho) {
		t.Fatalf("a wheel deaf to commands: %v", err)
	}
	if got := emu.HostCommands(); len(got) != 4 || got[0] != "LB|100" || got[3] != "RC" {
		t.Fatalf("the wheel received %q", got)
	}
}

// A number left on the line from before the driver started (an earlier run's spin) is
// discarded, never reported as this spin's.
func TestStaleSentencesOnTheLineDiscarded(t *testing.T) {
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer pty.Close()
	port, err := serialport.Open(wheel.Line(pty.Path))
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	if _, err := pty.Device.Write(append(frame("BD", "40", "9"), frame("WN", "40", "13", "13")...)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // let the kernel move the bytes to the host's side
	d := run(t, port, wheel.Config{})
	heard(t, d, func() error { _, err := pty.Device.Write(frame("HB", "37", "M")); return err })
	noMoreEvents(t, d)
}

// heard calls send every 10 ms until the driver reports the wheel heard (what is sent before
// its start flush is discarded), and fails on any other event first.
func heard(tb testing.TB, d *wheel.Driver, send func() error) {
	tb.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(3 * time.Second)
	for {
		select {
		case e := <-d.Events():
			if e.Kind != wheel.Restored {
				tb.Fatalf("%q before the wheel was heard", e)
			}
			return
		case <-tick.C:
			if err := send(); err != nil {
				tb.Fatal(err)
			}
		case <-deadline:
			tb.Fatal("the driver heard nothing")
		}
	}
}
