//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package serialport

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// PTY is the device end of a pseudo-terminal: an emulator reads what the host wrote to Path from
// Device and writes its answers there. The emulator keeps the terminal end open too, so the host
// closing and reopening Path (an unplug and replug) never hangs the line up under the emulator.
type PTY struct {
	Device *os.File
	Path   string
	tty    *os.File
}

// NewPTY opens a pseudo-terminal in raw mode (no echo, no line editing, 8-bit clean).
func NewPTY() (*PTY, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("serialport: open pseudo-terminal: %w", err)
	}
	for _, f := range []*os.File{s, m} {
		if err := makeRaw(int(f.Fd())); err != nil {
			m.Close()
			s.Close()
			return nil, fmt.Errorf("serialport: raw mode on %s: %w", f.Name(), err)
		}
	}
	// Hand the device end to Go's poller (non-blocking descriptor), so Close interrupts a read
	// in progress and an emulator can stop without waiting for the host to send a byte.
	fd, err := unix.Dup(int(m.Fd()))
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	name := m.Name()
	m.Close()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("serialport: pseudo-terminal %s: %w", name, err)
	}
	return &PTY{Device: os.NewFile(uintptr(fd), name), Path: s.Name(), tty: s}, nil
}

// Close closes both ends.
func (p *PTY) Close() error {
	err := p.Device.Close()
	if e := p.tty.Close(); err == nil {
		err = e
	}
	return err
}

func makeRaw(fd int) error {
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	// cfmakeraw(3)
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(fd, ioctlSetTermios, t)
}
