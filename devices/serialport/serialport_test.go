package serialport

import (
	"bytes"
	"io"
	"testing"
	"time"
)

func TestOpenRefusesNoTimeout(t *testing.T) {
	if _, err := Open(Config{Name: "/dev/null", Baud: 9600}); err == nil {
		t.Fatal("opened a port without a read timeout")
	}
	if _, err := Open(Config{Baud: 9600, ReadTimeout: time.Second}); err == nil {
		t.Fatal("opened a port without a name")
	}
	if _, err := Open(Config{Name: "/dev/null", Baud: 9600, Parity: 'X', ReadTimeout: time.Second}); err == nil {
		t.Fatal("opened a port with parity X")
	}
	if _, err := Open(Config{Name: "/nonexistent/tty", Baud: 9600, ReadTimeout: time.Second}); err == nil {
		t.Fatal("opened a port that does not exist")
	}
}

// Bytes cross a pseudo-terminal both ways through the tarm code path, 8-bit clean, a read with
// nothing to read times out, and Close returns while a read is pending.
func TestTarmOverPTY(t *testing.T) {
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	port, err := Open(Config{Name: p.Path, Baud: 9600, Parity: ParityEven, ReadTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	if _, err := port.Write(all); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 256)
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
	start := time.Now()
	if _, err := port.Read(buf); !IsTimeout(err) {
		t.Fatalf("idle read: %v, want a timeout", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > 2*time.Second {
		t.Fatalf("idle read returned after %v", d)
	}
	done := make(chan error, 1)
	go func() { _, err := port.Read(buf); done <- err }()
	time.Sleep(20 * time.Millisecond)
	closed := make(chan struct{})
	go func() { port.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(3 * time.Second):
		t.Fatal("Close blocked behind a pending read")
	}
	<-done
}
