//go:build linux

package serialport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The poller backend: the line's descriptor non-blocking, read through Go's poller with the read
// timeout as a deadline (see the package comment for why).

// termiosBauds are the line speeds of bauds as termios names them.
var termiosBauds = map[int]uint32{
	1200: unix.B1200, 2400: unix.B2400, 4800: unix.B4800, 9600: unix.B9600, 19200: unix.B19200,
	38400: unix.B38400, 57600: unix.B57600, 115200: unix.B115200, 230400: unix.B230400,
}

// termios is the line's settings for c: raw (no echo, no line editing, no flow control, 8-bit
// clean), the speed, character size, parity and stop bits, the receiver on and the modem
// lines ignored.
func termios(c Config) (*unix.Termios, error) {
	speed, ok := termiosBauds[c.Baud]
	if !ok {
		return nil, fmt.Errorf("serialport: %s: unsupported baud rate %d", c.Name, c.Baud)
	}
	t := &unix.Termios{Cflag: unix.CREAD | unix.CLOCAL | speed, Ispeed: speed, Ospeed: speed}
	switch c.DataBits {
	case 0, 8:
		t.Cflag |= unix.CS8
	case 7:
		t.Cflag |= unix.CS7
	case 6:
		t.Cflag |= unix.CS6
	case 5:
		t.Cflag |= unix.CS5
	default:
		return nil, fmt.Errorf("serialport: %s: %d data bits not supported", c.Name, c.DataBits)
	}
	switch c.Parity {
	case 0, ParityNone:
	case ParityEven:
		t.Cflag |= unix.PARENB
	case ParityOdd:
		t.Cflag |= unix.PARENB | unix.PARODD
	default:
		return nil, fmt.Errorf("serialport: %s: unknown parity %q", c.Name, c.Parity)
	}
	switch c.StopBits {
	case 0, 1:
	case 2:
		t.Cflag |= unix.CSTOPB
	default:
		return nil, fmt.Errorf("serialport: %s: %d stop bits not supported", c.Name, c.StopBits)
	}
	// A read returns what has arrived, at least a byte; with the descriptor non-blocking the
	// poller waits for that byte, and the deadline bounds the wait.
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return t, nil
}

// openPoller opens a line read through Go's poller (c is valid).
func openPoller(c Config) (Port, error) {
	t, err := termios(c)
	if err != nil {
		return nil, err
	}
	lock, err := lockLine(c.Name)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Open(c.Name, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("serialport: open %s: %w", c, err)
	}
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		unix.Close(fd)
		lock.release()
		return nil, fmt.Errorf("serialport: set up %s: %w", c, err)
	}
	// os.NewFile sees the descriptor non-blocking and hands it to Go's poller.
	lock.exclusive()
	return &linePort{f: os.NewFile(uintptr(fd), c.Name), name: c.Name, timeout: c.ReadTimeout, lock: lock}, nil
}

type linePort struct {
	f       *os.File
	name    string
	timeout time.Duration
	lock    *lineLock
	once    sync.Once
	closed  atomic.Bool
}

func (l *linePort) Read(b []byte) (int, error) {
	deadline := time.Now().Add(l.timeout)
	if err := l.f.SetReadDeadline(deadline); err != nil {
		if l.closed.Load() {
			return 0, closedError("read", l.name)
		}
		return 0, fmt.Errorf("serialport: read %s: %w", l.name, err)
	}
	n, err := l.f.Read(b)
	switch {
	case n > 0:
		return n, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return 0, ErrTimeout
	case err == nil || err == io.EOF:
		// A line hung up (a USB adapter unplugged, the far end of a pseudo-terminal gone)
		// reads nothing at once, again and again: it reads as silence, a timeout after the
		// read timeout, as with the line's own timer before, so a driver polling it does not
		// spin.
		time.Sleep(time.Until(deadline))
		return 0, ErrTimeout
	}
	return 0, fmt.Errorf("serialport: read %s: %w", l.name, err)
}

func (l *linePort) Write(b []byte) (int, error) {
	n, err := l.f.Write(b)
	if err != nil {
		return n, fmt.Errorf("serialport: write %s: %w", l.name, err)
	}
	return n, nil
}

// Flush discards both directions' queues (tcflush(TCIOFLUSH)).
func (l *linePort) Flush() error {
	rc, err := l.f.SyscallConn()
	if err != nil {
		return fmt.Errorf("serialport: flush %s: %w", l.name, err)
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) { ioErr = unix.IoctlSetInt(int(fd), unix.TCFLSH, unix.TCIOFLUSH) }); err != nil {
		return fmt.Errorf("serialport: flush %s: %w", l.name, err)
	}
	if ioErr != nil {
		return fmt.Errorf("serialport: flush %s: %w", l.name, ioErr)
	}
	return nil
}

// Close closes the line and then gives it up (lock file, TIOCEXCL, flock), once.
func (l *linePort) Close() error {
	l.closed.Store(true)
	err := l.f.Close()
	l.once.Do(l.lock.release)
	return err
}
