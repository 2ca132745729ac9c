package serialport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Attack: `atsctl device acceptor accept-test` beside a running kiosk opened the kiosk's port
// too, reset the acceptor under it and took a note. A second open of a port in use fails,
// naming the holder, and the port is free again once the holder closes it.
func TestSecondOpenOfAPortInUseIsRefused(t *testing.T) {
	for _, b := range []Backend{Poller, Tarm} {
		t.Run(string(b), func(t *testing.T) { secondOpenRefused(t, b) })
	}
}

func secondOpenRefused(t *testing.T, b Backend) {
	LockDir = t.TempDir()
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cfg := Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond}
	first, err := OpenWith(b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	lock := lockFileName(p.Path)
	if pid, ok := lockFilePID(lock); !ok || pid != os.Getpid() {
		t.Errorf("lock file %s names PID %d (%v), want ours %d", lock, pid, ok, os.Getpid())
	}
	second, err := OpenWith(b, cfg)
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
	if _, err := OpenWith(b, cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("PID %d", os.Getpid())) {
		t.Errorf("refusal without a lock file %v does not name the holder", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenWith(b, cfg)
	if err != nil {
		t.Fatalf("the port stays locked after its holder closed it: %v", err)
	}
	// Bytes still flow through a locked port.
	if _, err := again.Write([]byte{0x42}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 1)
	p.Device.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadFull(p.Device, got); err != nil || got[0] != 0x42 {
		t.Fatalf("read %x, %v", got, err)
	}
	again.Close()
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("lock file %s left after close: %v", lock, err)
	}
}

// A lock file left by a process that died (SIGKILL leaves it; the flock goes with the process)
// does not keep the port from its next user.
func TestStaleLockFileIsTakenOver(t *testing.T) {
	for _, b := range []Backend{Poller, Tarm} {
		t.Run(string(b), func(t *testing.T) { staleLockTakenOver(t, b) })
	}
}

func staleLockTakenOver(t *testing.T, b Backend) {
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
	port, err := OpenWith(b, Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("a stale lock file kept the port: %v", err)
	}
	port.Close()
}

// Open uses the build's Default backend: the poller on Linux, tarm/serial with -tags tarmserial
// (and on every other system), so `go test -tags tarmserial ./devices/...` runs the drivers'
// pty tests over tarm.
func TestOpenUsesTheBuildsBackend(t *testing.T) {
	p, err := NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	port, err := Open(Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	var got Backend
	switch port.(type) {
	case *linePort:
		got = Poller
	case *tarmPort:
		got = Tarm
	}
	if got != Default {
		t.Fatalf("Open gave a %T (%q), the build's default is %q", port, got, Default)
	}
	t.Logf("Open's backend: %s", got)
}

// Attack: a technician's atsctl, not root, opens a real line the kiosk holds. The kiosk set
// TIOCEXCL on it, so the kernel refuses the open(2) itself with EBUSY before any lock is asked:
// that refusal too is ErrBusy naming the holder, not a bare "device or resource busy". (A
// pseudo-terminal stands in for the real line, TIOCEXCL set on it by hand; the second opener is
// this test binary run again as nobody, since root passes TIOCEXCL.)
func TestExclusiveLineRefusesANonRootOpenAsBusy(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run the second opener as another user")
	}
	// The test binary, where nobody may run it (go test's build directory is root's alone).
	dir, err := os.MkdirTemp("", "serialport-nobody")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin, err := os.ReadFile(os.Args[0])
	if err == nil {
		err = os.WriteFile(dir+"/serialport.test", bin, 0o755)
	}
	if err == nil {
		err = os.Chmod(dir, 0o777) // the lock directory too
	}
	if err != nil {
		t.Fatal(err)
	}
	LockDir = dir
	for _, b := range []Backend{Poller, Tarm} {
		t.Run(string(b), func(t *testing.T) {
			p, err := NewPTY()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := os.Chmod(p.Path, 0o666); err != nil {
				t.Fatal(err)
			}
			holder, err := OpenWith(b, Config{Name: p.Path, Baud: 9600, ReadTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer holder.Close()
			tty, err := os.OpenFile(p.Path, os.O_RDWR|unix.O_NOCTTY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer tty.Close()
			if err := unix.IoctlSetInt(int(tty.Fd()), unix.TIOCEXCL, 0); err != nil {
				t.Fatal(err)
			}
			defer unix.IoctlSetInt(int(tty.Fd()), unix.TIOCNXCL, 0)
			cmd := exec.Command(dir+"/serialport.test", "-test.run=^TestSecondOpenerAsNobody$")
			cmd.Env = append(os.Environ(), "SERIALPORT_SECOND_OPENER="+string(b)+" "+p.Path+" "+LockDir)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			out, err := cmd.CombinedOutput()
			if err != nil && len(out) == 0 {
				t.Fatalf("the second opener did not run: %v", err)
			}
			got := string(out)
			if !strings.Contains(got, "refused: ") {
				t.Fatalf("the second opener: %s", got)
			}
			if !strings.Contains(got, "busy=true") || !strings.Contains(got, fmt.Sprintf("PID %d", os.Getpid())) {
				t.Errorf("a TIOCEXCL refusal is not ErrBusy naming the holder: %s", got)
			}
		})
	}
}

// TestSecondOpenerAsNobody is the second opener of TestExclusiveLineRefusesANonRootOpenAsBusy.
func TestSecondOpenerAsNobody(t *testing.T) {
	orders := os.Getenv("SERIALPORT_SECOND_OPENER")
	if orders == "" {
		t.Skip("run by TestExclusiveLineRefusesANonRootOpenAsBusy")
	}
	f := strings.Fields(orders)
	LockDir = f[2]
	port, err := OpenWith(Backend(f[0]), Config{Name: f[1], Baud: 9600, ReadTimeout: 100 * time.Millisecond})
	if err == nil {
		port.Close()
		fmt.Println("opened a line in use")
		return
	}
	fmt.Printf("refused: %v busy=%v\n", err, errors.Is(err, ErrBusy))
}
