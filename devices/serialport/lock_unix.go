//go:build !linux && !windows && cgo

package serialport

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// A serial line has one user (lock_linux.go says why). On macOS and the BSDs (where the tarm
// backend, the only one there, needs cgo) a port is taken
// with flock(2) on the device node — the kernel drops it when the process dies — and TIOCEXCL
// once open (so the second program's open(2) itself fails, EBUSY). No UUCP lock file and no
// holder's name: there is no /proc/locks to find it in. Unlike on Linux, TIOCEXCL is set on a
// pseudo-terminal too (there is no portable way to tell one): if a holder crashes, an emulator
// keeping the terminal end open keeps it exclusive until the emulator restarts.

type lineLock struct {
	f    *os.File
	excl bool
}

func lockLine(name string) (*lineLock, error) {
	f, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.EBUSY) {
		// The holder's TIOCEXCL refuses the open itself.
		return nil, fmt.Errorf("%w: %s is held by another process; stop it first", ErrBusy, name)
	}
	if err != nil {
		return nil, fmt.Errorf("serialport: open %s: %w", name, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is held by another process; stop it first", ErrBusy, name)
		}
		return nil, fmt.Errorf("serialport: lock %s: %w", name, err)
	}
	return &lineLock{f: f}, nil
}

func (l *lineLock) exclusive() {
	if unix.IoctlSetInt(int(l.f.Fd()), unix.TIOCEXCL, 0) == nil {
		l.excl = true
	}
}

func (l *lineLock) release() {
	if l == nil {
		return
	}
	if l.excl {
		unix.IoctlSetInt(int(l.f.Fd()), unix.TIOCNXCL, 0) //nolint:errcheck // the line is closing anyway
	}
	l.f.Close()
}
