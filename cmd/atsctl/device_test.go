package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
)

// onPTY serves an emulator on a new pseudo-terminal for the test's lifetime.
func onPTY(t *testing.T, serve func(ctx context.Context, p *serialport.PTY)) string {
	t.Helper()
	p, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { serve(ctx, p); close(done) }()
	t.Cleanup(func() { cancel(); <-done; p.Close() })
	return p.Path
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func atsctl(args ...string) (int, string, string) {
	var out, errb syncBuffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestDeviceAcceptor(t *testing.T) {
	emu := emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{Init: 20 * time.Millisecond, Accept: 20 * time.Millisecond, Reject: 20 * time.Millisecond})
	path := onPTY(t, func(ctx context.Context, p *serialport.PTY) { emu.Serve(ctx, p.Device) })
	code, out, errs := atsctl("device", "acceptor", "-port", path, "status")
	if code != 0 || !strings.Contains(out, "status: power up") || !strings.Contains(out, "version: ATS-EMU") || !strings.Contains(out, "65=2000") {
		t.Fatalf("status: %d %q %q", code, out, errs)
	}
	go func() {
		for {
			if st, _ := emu.Status(); st == 0x11 { // enabled
				emu.InsertNote(2000)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	code, out, errs = atsctl("device", "acceptor", "-port", path, "-for", "10s", "accept-test")
	if code != 0 || !strings.Contains(out, "recognised: note of 2000 cents") || !strings.Contains(out, "returned") {
		t.Fatalf("accept-test: %d %q %q", code, out, errs)
	}
	if emu.CashboxCents() != 0 || len(emu.Returned()) != 1 {
		t.Fatalf("the accept test kept money: cash box %d", emu.CashboxCents())
	}
	code, _, errs = atsctl("device", "acceptor", "-port", path, "-for", "300ms", "accept-test")
	if code != 1 || !strings.Contains(errs, "nothing was inserted") {
		t.Fatalf("accept-test with nothing: %d %q", code, errs)
	}
}

func TestDevicePrinter(t *testing.T) {
	emu := emulator.NewPrinter(emulator.PrinterConfig{Print: 400 * time.Millisecond, Feed: 20 * time.Millisecond})
	path := onPTY(t, func(ctx context.Context, p *serialport.PTY) { emu.Serve(ctx, p.Device) })
	// Before any print the printer names no template ("P "): still a status.
	code, out, errs := atsctl("device", "printer", "-port", path, "status")
	if code != 0 || !strings.Contains(out, "power up") || !strings.Contains(out, "nothing printed since power up") {
		t.Fatalf("status: %d %q %q", code, out, errs)
	}
	// The ticket completes on validation done, not busy, top of form: in the time it prints,
	// not after the job timeout.
	start := time.Now()
	code, out, errs = atsctl("device", "printer", "-port", path, "test-ticket")
	if code != 0 || !strings.Contains(out, "test ticket printed") {
		t.Fatalf("test-ticket: %d %q %q", code, out, errs)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("test-ticket took %v for a 0.4 s print", took)
	}
	if p := emu.Printed(); len(p) != 1 || p[0].Fields[0] != "TEST TICKET - VOID" {
		t.Fatalf("printed %+v", p)
	}
	emu.Command("paper-out")
	code, out, _ = atsctl("device", "printer", "-port", path, "status")
	if code != 1 || !strings.Contains(out, "paper out") {
		t.Fatalf("status with no paper: %d %q", code, out)
	}
}

func TestDeviceIDPad(t *testing.T) {
	emu := emulator.NewIDPad(emulator.IDPadConfig{Heartbeat: 50 * time.Millisecond})
	path := onPTY(t, func(ctx context.Context, p *serialport.PTY) { emu.Serve(ctx, p.Device) })
	code, out, errs := atsctl("device", "idpad", "-port", path, "version")
	if code != 0 || !strings.Contains(out, "ATS-EMU IDPAD") {
		t.Fatalf("version: %d %q %q", code, out, errs)
	}
	go func() { time.Sleep(200 * time.Millisecond); emu.Command("touch on 5") }()
	code, out, _ = atsctl("device", "idpad", "-port", path, "-for", "1s", "watch")
	if code != 0 || !strings.Contains(out, "id pad 5: touched") {
		t.Fatalf("watch: %d %q", code, out)
	}
}

func TestDeviceUsage(t *testing.T) {
	for _, args := range [][]string{{"device"}, {"device", "toaster", "-port", "/dev/null", "x"}, {"device", "printer", "status"}} {
		if code, _, _ := atsctl(args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := atsctl("device", "printer", "-port", "/nonexistent", "status"); code != 1 || !strings.Contains(errs, "open") {
		t.Errorf("missing port: %d %q", code, errs)
	}
}

// atsctl device wheel: a technician watches a spin, and launches the ball on an automated wheel.
func TestDeviceWheel(t *testing.T) {
	emu := emulator.NewWheel(emulator.WheelConfig{Wheel: roulette.DoubleZero, Heartbeat: 50 * time.Millisecond})
	path := onPTY(t, func(ctx context.Context, p *serialport.PTY) { emu.Serve(ctx, p.Device) })
	go func() {
		time.Sleep(200 * time.Millisecond)
		for _, c := range []string{"spin 22 cw", "launch", "drop", "read 00", "launch", "read 0 00"} {
			emu.Command(c)
		}
	}()
	code, out, _ := atsctl("device", "wheel", "-wheel", "double-zero", "-port", path, "-for", "1s", "watch")
	for _, want := range []string{"22 rpm CW", "game 1: ball launched CCW", "game 1: sensor 1 read 00, sensor 2 read 00", "game 2: fault: sensors disagree"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("watch: %d, no %q in %q", code, want, out)
		}
	}
	code, out, errs := atsctl("device", "wheel", "-wheel", "double-zero", "-port", path, "-blower", "100ms", "-for", "1s", "launch")
	if code != 0 || !strings.Contains(out, "launch done") || !strings.Contains(out, "game 3: ball launched CCW") {
		t.Fatalf("launch: %d %q %q", code, out, errs)
	}
	if code, _, errs := atsctl("device", "wheel", "-port", path, "-blower", "50ms", "launch"); code != 1 || !strings.Contains(errs, "blower") {
		t.Fatalf("a 50 ms blower: %d %q", code, errs)
	}
	if code, _, _ := atsctl("device", "wheel", "-port", path, "spin"); code != 2 {
		t.Fatalf("unknown action: exit %d", code)
	}
}
