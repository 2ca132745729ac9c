package porttest

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/devices/serialport"
)

// Opener opens a line: serialport.Open, or one backend through serialport.OpenWith.
type Opener func(serialport.Config) (serialport.Port, error)

// Contract checks that open gives ports keeping serialport.Port's contract, over a
// pseudo-terminal driven from its device end: a required read timeout and settings refused by
// name, 8-bit clean bytes both ways, silence (a hung-up line too) read as ErrTimeout no sooner
// than the read timeout, an exclusive open, Flush discarding what was received, and Close ending
// a pending read under a 2 s read timeout within closeBound (the poller at once, tarm when the
// line's own timer runs out). Every backend runs it (serialport's contract_test.go).
func Contract(t *testing.T, open Opener, closeBound time.Duration) {
	t.Run("RefusesWhatALineCannotTake", func(t *testing.T) { refuses(t, open) })
	t.Run("EightBitCleanAndSilenceTimesOut", func(t *testing.T) { eightBitClean(t, open) })
	t.Run("HungUpLineReadsAsSilence", func(t *testing.T) { hungUp(t, open) })
	t.Run("SecondOpenIsRefused", func(t *testing.T) { secondOpen(t, open) })
	t.Run("FlushDiscardsTheUnread", func(t *testing.T) { flush(t, open) })
	t.Run("CloseEndsAPendingRead", func(t *testing.T) { closeEndsRead(t, open, closeBound) })
}

func pty(t *testing.T) *serialport.PTY {
	t.Helper()
	p, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func mustOpen(t *testing.T, open Opener, c serialport.Config) serialport.Port {
	t.Helper()
	port, err := open(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { port.Close() })
	return port
}

func refuses(t *testing.T, open Opener) {
	p := pty(t)
	for _, c := range []serialport.Config{
		{Name: p.Path, Baud: 9600},
		{Baud: 9600, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, Parity: 'X', ReadTimeout: time.Second},
		{Name: "/nonexistent/tty", Baud: 9600, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9601, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, DataBits: 9, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, StopBits: 3, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, ReadTimeout: -time.Second},
		{Name: p.Path, Baud: 9600, ReadTimeout: serialport.MaxReadTimeout + time.Millisecond},
		{Name: p.Path, Baud: 9600, ReadTimeout: time.Duration(math.MaxInt64)},
	} {
		if port, err := open(c); err == nil {
			port.Close()
			t.Errorf("opened %+v", c)
		} else if !strings.HasPrefix(err.Error(), "serialport: ") {
			t.Errorf("%+v refused with %q, not in the package's words", c, err)
		}
	}
	for _, c := range []serialport.Config{
		{Name: p.Path, Baud: 115200, DataBits: 7, Parity: serialport.ParityOdd, StopBits: 2, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, ReadTimeout: serialport.MaxReadTimeout},
		{Name: p.Path, Baud: 9600, ReadTimeout: time.Nanosecond},
		{Name: p.Path, Baud: 1200, DataBits: 5, ReadTimeout: time.Second},
	} {
		port, err := open(c)
		if err != nil {
			t.Errorf("%+v: %v", c, err)
			continue
		}
		port.Close()
	}
}

func eightBitClean(t *testing.T, open Opener) {
	p := pty(t)
	// 150 ms: not a whole number of tarm's 0.1 s ticks, so a timer truncated to them shows.
	const timeout = 150 * time.Millisecond
	port := mustOpen(t, open, serialport.Config{Name: p.Path, Baud: 9600, Parity: serialport.ParityEven, ReadTimeout: timeout})
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	if _, err := port.Write(all); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 256)
	p.Device.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(p.Device, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, all) {
		t.Fatalf("host to device not 8-bit clean: % X", got)
	}
	if _, err := p.Device.Write(all); err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	buf := make([]byte, 64)
	for len(got) < 256 {
		n, err := port.Read(buf)
		if err != nil {
			t.Fatalf("after %d bytes: %v", len(got), err)
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.Equal(got, all) {
		t.Fatalf("device to host not 8-bit clean: % X", got)
	}
	for range 2 {
		start := time.Now()
		if n, err := port.Read(buf); !serialport.IsTimeout(err) || n != 0 {
			t.Fatalf("idle read: %d bytes, %v, want a timeout", n, err)
		}
		if d := time.Since(start); d < timeout-10*time.Millisecond || d > 2*time.Second {
			t.Fatalf("an idle read under a %v timeout returned after %v", timeout, d)
		}
	}
}

// A hung-up line (the device end gone: an adapter unplugged) reads as silence — a timeout after
// the read timeout — not as an instant empty read a polling driver would spin on.
func hungUp(t *testing.T, open Opener) {
	p, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	port := mustOpen(t, open, serialport.Config{Name: p.Path, Baud: 9600, ReadTimeout: 150 * time.Millisecond})
	p.Close()
	cpu0, measured := cpuTime()
	for range 3 {
		start := time.Now()
		n, err := port.Read(make([]byte, 8))
		if d := time.Since(start); d < 140*time.Millisecond {
			t.Fatalf("a hung-up line's read returned after %v (%v): a polling driver would spin", d, err)
		}
		if n != 0 || err == nil {
			t.Fatalf("a hung-up line read %d bytes, %v", n, err)
		}
	}
	// Three reads of 150 ms: a wait costs next to nothing, a loop around an instant empty read
	// costs the whole 450 ms (less on a loaded machine, never near 60 ms).
	if cpu1, ok := cpuTime(); measured && ok && cpu1-cpu0 > 60*time.Millisecond {
		t.Fatalf("three reads of a hung-up line cost %v of CPU: the port spins on it", cpu1-cpu0)
	}
}

// Attack: a second program on a line in use (atsctl beside the kiosk) resets the device under
// the holder. Its open is refused with ErrBusy naming the line, and the line is free again, bytes
// flowing, once the holder closes it.
func secondOpen(t *testing.T, open Opener) {
	p := pty(t)
	c := serialport.Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond}
	first, err := open(c)
	if err != nil {
		t.Fatal(err)
	}
	second, err := open(c)
	if err == nil {
		second.Close()
		first.Close()
		t.Fatal("a second open of a port in use succeeded")
	}
	if !errors.Is(err, serialport.ErrBusy) || !strings.Contains(err.Error(), p.Path) {
		t.Errorf("refusal %q is not ErrBusy naming the port", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again := mustOpen(t, open, c)
	if _, err := again.Write([]byte{0x42}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	p.Device.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadFull(p.Device, b); err != nil || b[0] != 0x42 {
		t.Fatalf("read %x, %v", b, err)
	}
}

// Flush discards what the device sent and the host has not read: a driver flushes before a reset
// so a stale half frame is never parsed as the answer.
func flush(t *testing.T, open Opener) {
	p := pty(t)
	port := mustOpen(t, open, serialport.Config{Name: p.Path, Baud: 9600, ReadTimeout: 150 * time.Millisecond})
	if _, err := p.Device.Write([]byte("stale half frame")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // into the line's receive queue
	if err := port.Flush(); err != nil {
		t.Fatal(err)
	}
	if n, err := port.Read(make([]byte, 64)); !serialport.IsTimeout(err) {
		t.Fatalf("after Flush read %d bytes, %v: want the queue empty", n, err)
	}
	if _, err := p.Device.Write([]byte{0x7E}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if n, err := port.Read(b); err != nil || n != 1 || b[0] != 0x7E {
		t.Fatalf("after Flush the next byte read % X, %v", b[:n], err)
	}
}

// closeReadTimeout is the read timeout of the read Close must end.
const closeReadTimeout = 2 * time.Second

// Close ends a pending read within closeBound, with the closed port's error (not a timeout, not
// bytes), and a closed port refuses reads and writes without panicking.
func closeEndsRead(t *testing.T, open Opener, closeBound time.Duration) {
	p := pty(t)
	port, err := open(serialport.Config{Name: p.Path, Baud: 19200, ReadTimeout: closeReadTimeout})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := port.Read(make([]byte, 8)); done <- err }()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	if err := port.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrClosed) {
			t.Errorf("the pending read ended with %v, want the closed port's error", err)
		}
		if d := time.Since(start); d > closeBound {
			t.Errorf("the read ended %v after Close, bound %v", d, closeBound)
		}
	case <-time.After(closeBound + 2*time.Second):
		t.Fatalf("a pending read did not end within %v of Close", closeBound)
	}
	if _, err := port.Read(make([]byte, 8)); !errors.Is(err, os.ErrClosed) {
		t.Errorf("read of a closed port: %v", err)
	}
	if _, err := port.Write([]byte{1}); err == nil {
		t.Error("write to a closed port succeeded")
	}
	if err := port.Close(); err == nil {
		t.Error("a second Close reported nothing")
	}
}
