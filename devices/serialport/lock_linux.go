package serialport

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A serial line has one user. Two programs on one line corrupt each other's frames, and a
// device command from one (an acceptor reset from `atsctl device acceptor accept-test`) acts
// under the other (the kiosk), which then takes a note it never saw escrowed. So Open takes the
// line exclusively, three ways, as Linux serial programs do:
//
//   - flock(2) on the device node itself, held by an open descriptor for as long as the port is
//     open. The kernel drops it when the process dies, so a crash never leaves a line locked.
//     This is the lock Open relies on.
//   - a UUCP lock file, LockDir/LCK..<name> holding the owner's PID (the convention minicom,
//     picocom, screen and ModemManager honour). A file left by a dead process is taken over.
//     It is skipped when LockDir is not writable: the flock still holds.
//   - TIOCEXCL on a real serial line: the kernel refuses any further open(2) of it by a
//     non-root program, even one that knows nothing of locks. Not on a pseudo-terminal: its
//     emulator keeps the terminal end open, so the tty outlives a crashed holder and would stay
//     exclusive, refusing the restarted terminal (the flock protects a pty instead).
//
// A refused Open names the holder: the PID and program from the lock file or, failing that,
// from /proc/locks.

// LockDir is where UUCP lock files go (/run/lock, /var/lock on older systems).
var LockDir = "/run/lock"

// lineLock is what Open holds while a port is open.
type lineLock struct {
	f        *os.File // open on the device node: carries the flock and TIOCEXCL
	lockFile string   // the UUCP lock file written, "" if none
	excl     bool     // TIOCEXCL was set
}

// lockLine takes a line exclusively, or says who holds it.
func lockLine(name string) (*lineLock, error) {
	f, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.EBUSY) {
		// The holder's TIOCEXCL refuses the open itself (to all but root): the line is as busy
		// as a flock would say, and the holder is found the same way.
		return nil, fmt.Errorf("%w: %s is held by %s; stop it first", ErrBusy, name, holderOf(name))
	}
	if err != nil {
		return nil, fmt.Errorf("serialport: open %s: %w", name, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		holder := holderOf(name)
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is held by %s; stop it first", ErrBusy, name, holder)
		}
		return nil, fmt.Errorf("serialport: lock %s: %w", name, err)
	}
	l := &lineLock{f: f}
	lf, err := takeLockFile(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	l.lockFile = lf
	return l, nil
}

// exclusive sets TIOCEXCL once the line is open (before, the port's own open would be refused
// for a non-root program).
func (l *lineLock) exclusive() {
	if isPTY(l.f) {
		return
	}
	if unix.IoctlSetInt(int(l.f.Fd()), unix.TIOCEXCL, 0) == nil {
		l.excl = true
	}
}

// release undoes lockLine: clears TIOCEXCL, removes the lock file, drops the flock.
func (l *lineLock) release() {
	if l == nil {
		return
	}
	if l.excl {
		unix.IoctlSetInt(int(l.f.Fd()), unix.TIOCNXCL, 0) //nolint:errcheck // the line is closing anyway
	}
	if l.lockFile != "" {
		os.Remove(l.lockFile)
	}
	l.f.Close()
}

// isPTY reports whether f is a Unix 98 pseudo-terminal's terminal end (majors 136–143).
func isPTY(f *os.File) bool {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return false
	}
	major := unix.Major(uint64(st.Rdev))
	return major >= 136 && major <= 143
}

// lockFileName is the UUCP lock file of a device: /dev/ttyUSB0 → LCK..ttyUSB0; a device below
// /dev (pts/3) has its slashes turned into underscores (LCK..pts_3).
func lockFileName(name string) string {
	rel := strings.TrimPrefix(filepath.Clean(name), "/dev/")
	return filepath.Join(LockDir, "LCK.."+strings.ReplaceAll(rel, "/", "_"))
}

// takeLockFile writes the UUCP lock file with this process's PID, taking over one whose PID is
// dead. It returns "" when LockDir is not usable.
func takeLockFile(name string) (string, error) {
	path := lockFileName(name)
	for range 2 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			// The HDB format: the PID as ten ASCII digits, right-aligned, and a newline.
			_, werr := fmt.Fprintf(f, "%10d\n", os.Getpid())
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return "", nil
			}
			return path, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", nil // no lock directory, or not ours to write: the flock still holds
		}
		pid, ok := lockFilePID(path)
		if ok && pid != os.Getpid() && alive(pid) {
			// We hold the flock, so the line is ours; but a program that honours only lock
			// files believes otherwise. Refuse rather than share a line with it.
			return "", fmt.Errorf("%w: %s is held by %s (lock file %s)", ErrBusy, name, describe(pid), path)
		}
		os.Remove(path) // stale: its process is gone
	}
	return "", nil
}

func lockFilePID(path string) (int, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid, err == nil && pid > 0
}

func alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// describe names a process: "PID 1234 (ats)".
func describe(pid int) string {
	if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil {
		return fmt.Sprintf("PID %d (%s)", pid, strings.TrimSpace(string(comm)))
	}
	return fmt.Sprintf("PID %d", pid)
}

// holderOf finds who holds the flock on the line: the lock file's PID if it is alive, else the
// PID /proc/locks gives for the device's inode.
func holderOf(name string) string {
	if pid, ok := lockFilePID(lockFileName(name)); ok && alive(pid) {
		return describe(pid)
	}
	var st unix.Stat_t
	if unix.Stat(name, &st) == nil {
		if pid, ok := flockHolder(uint64(st.Dev), st.Ino); ok {
			return describe(pid)
		}
	}
	return "another process"
}

// flockHolder reads /proc/locks for the PID of a FLOCK on the inode: lines read
// "1: FLOCK  ADVISORY  WRITE 1234 00:05:6 0 EOF", the device as major:minor in hex.
func flockHolder(dev, ino uint64) (int, bool) {
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), ino)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || fs[1] != "FLOCK" || fs[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(fs[4]); err == nil && pid > 0 {
			return pid, true
		}
	}
	return 0, false
}
