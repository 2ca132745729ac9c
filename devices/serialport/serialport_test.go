package serialport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
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

// Bytes cross a pseudo-terminal both ways through the code path of a real line, 8-bit clean, a
// read with nothing to read times out, and Close returns while a read is pending.
func TestLineOverPTY(t *testing.T) {
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
	if d := time.Since(start); d < 90*time.Millisecond || d > 2*time.Second {
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

// Attack: `atsctl device acceptor accept-test` beside a running kiosk opened the kiosk's port
// too, reset the acceptor under it and took a note. A second open of a port in use fails,
// naming the holder, and the port is free again once the holder closes it.
func TestSecondOpenOfAPortInUseIsRefused(t *testing.T) {
	LockDir = t.TempDir()
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cfg := Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond}
	first, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lock := lockFileName(p.Path)
	if pid, ok := lockFilePID(lock); !ok || pid != os.Getpid() {
		t.Errorf("lock file %s names PID %d (%v), want ours %d", lock, pid, ok, os.Getpid())
	}
	second, err := Open(cfg)
	if err == nil {
		second.Close()
		t.Fatal("a second open of a port in use succeeded")
	}
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("PID %d", os.Getpid())) ||
		!strings.Contains(err.Error(), p.Path) {
		t.Errorf("refusal %q does not name the port and its holder", err)
	}
	// Without the lock file (a LockDir nobody can write), /proc/locks still names the holder.
	os.Remove(lock)
	if _, err := Open(cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("PID %d", os.Getpid())) {
		t.Errorf("refusal without a lock file %v does not name the holder", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(cfg)
	if err != nil {
		t.Fatalf("the port stays locked after its holder closed it: %v", err)
	}
	// Bytes still flow through a locked port.
	if _, err := again.Write([]byte{0x42}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	p.Device.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadFull(p.Device, b); err != nil || b[0] != 0x42 {
		t.Fatalf("read %x, %v", b, err)
	}
	again.Close()
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("lock file %s left after close: %v", lock, err)
	}
}

// A lock file left by a process that died (SIGKILL leaves it; the flock goes with the process)
// does not keep the port from its next user.
func TestStaleLockFileIsTakenOver(t *testing.T) {
	LockDir = t.TempDir()
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// PID 2^22+1 is above the kernel's pid_max: no such process.
	if err := os.WriteFile(lockFileName(p.Path), []byte(fmt.Sprintf("%10d\n", 1<<22+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	port, err := Open(Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("a stale lock file kept the port: %v", err)
	}
	port.Close()
}

// A driver waiting for its device waits in Go's poller, not in read(2) (issue 18: a blocking
// read kept a Go processor in a system call, and Go's sysmon thread woke ~900 times a second
// around the kiosk's three idle lines): a read pending under a long timeout ends as soon as the
// port is closed, where a read(2) blocked on the line's own timer ran to its end first.
func TestCloseEndsAPendingReadAtOnce(t *testing.T) {
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	port, err := Open(Config{Name: p.Path, Baud: 19200, ReadTimeout: 10 * time.Second})
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
		if err == nil || IsTimeout(err) {
			t.Errorf("the read ended with %v, want the closed line's error", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("the read ended %v after Close", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("a read under a 10 s timeout did not end when the port closed")
	}
}

// A hung-up line (the device end gone: an adapter unplugged) reads as silence — a timeout after
// the read timeout — not as an instant empty read a polling driver would spin on.
func TestHungUpLineReadsAsSilence(t *testing.T) {
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	port, err := Open(Config{Name: p.Path, Baud: 9600, ReadTimeout: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	p.Close()
	for range 3 {
		start := time.Now()
		_, err := port.Read(make([]byte, 8))
		if d := time.Since(start); d < 140*time.Millisecond {
			t.Fatalf("a hung-up line's read returned after %v (%v): a polling driver would spin", d, err)
		}
		if err == nil {
			t.Fatal("a hung-up line read bytes")
		}
	}
}

// Open refuses settings the line cannot take, naming them.
func TestOpenRefusesUnknownSettings(t *testing.T) {
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []Config{
		{Name: p.Path, Baud: 9601, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, DataBits: 9, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 9600, StopBits: 3, ReadTimeout: time.Second},
	} {
		if port, err := Open(c); err == nil {
			port.Close()
			t.Errorf("opened %+v", c)
		}
	}
	for _, c := range []Config{
		{Name: p.Path, Baud: 115200, DataBits: 7, Parity: ParityOdd, StopBits: 2, ReadTimeout: time.Second},
		{Name: p.Path, Baud: 1200, DataBits: 5, ReadTimeout: time.Second},
	} {
		port, err := Open(c)
		if err != nil {
			t.Errorf("%+v: %v", c, err)
			continue
		}
		port.Close()
	}
}
