// Package serialport is the one way the terminal talks to a serial device: a small Port interface
// implemented over the kernel's termios for real lines, and pseudo-terminals (creack/pty) for
// the device emulators, so tests, the demo and a technician's bench run exactly the driver code
// a cabinet runs.
//
// A read always has a timeout: Open refuses a zero ReadTimeout, and Read reports a timeout as
// ErrTimeout. The line's descriptor is non-blocking and read through Go's poller, with the
// timeout as a read deadline, so a driver waiting for its device holds no thread in read(2) and
// Close interrupts a read in progress at once.
//
// Why not a blocking read with the line's own timer (VMIN=0/VTIME, as github.com/tarm/serial
// reads, which this package used until issue 18): a goroutine in a blocking read(2) keeps its
// Go processor in a system call, and each time it comes back — every 100 ms per idle device,
// more while a device is polled — Go's sysmon thread wakes every 20 µs for a millisecond or
// more to see whether to take the processor back. With the kiosk's three devices that was ~900
// sysmon wake-ups a second and more than half of the kiosk's idle CPU (packaging/idle-cpu.sh
// with IDLE_THREADS=1; README "Idle cost").
//
// A port is opened exclusively (lock.go): a second Open of a line, by this or any other
// program, fails with ErrBusy naming the process that holds it, until the holder closes it or
// exits.
package serialport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Port is an open serial line.
type Port interface {
	// Read returns at least one byte, or ErrTimeout when none arrived within the read timeout.
	Read(p []byte) (int, error)
	Write(p []byte) (int, error)
	// Flush discards whatever was received but not read and written but not sent: a driver calls
	// it before a reset so it never parses a stale half frame as an answer.
	Flush() error
	Close() error
}

// Parity of a line.
type Parity byte

// Parities a device may use.
const (
	ParityNone Parity = 'N'
	ParityEven Parity = 'E'
	ParityOdd  Parity = 'O'
)

// Config says how to open a line.
type Config struct {
	Name        string // /dev/ttyS0, /dev/ttyUSB0, /dev/pts/N
	Baud        int
	DataBits    int // 5–8; 0 means 8
	Parity      Parity
	StopBits    int           // 1 or 2; 0 means 1
	ReadTimeout time.Duration // > 0
}

func (c Config) String() string {
	db, sb := c.DataBits, c.StopBits
	if db == 0 {
		db = 8
	}
	if sb == 0 {
		sb = 1
	}
	p := c.Parity
	if p == 0 {
		p = ParityNone
	}
	return fmt.Sprintf("%s %d %d%c%d", c.Name, c.Baud, db, p, sb)
}

// ErrTimeout is returned by Read when no byte arrived within the read timeout.
var ErrTimeout = errors.New("serialport: read timed out")

// IsTimeout reports whether err is a read timeout.
func IsTimeout(err error) bool { return errors.Is(err, ErrTimeout) }

// bauds are the line speeds Open knows, as termios names them.
var bauds = map[int]uint32{
	1200: unix.B1200, 2400: unix.B2400, 4800: unix.B4800, 9600: unix.B9600, 19200: unix.B19200,
	38400: unix.B38400, 57600: unix.B57600, 115200: unix.B115200, 230400: unix.B230400,
}

// termios is the line's settings for c: raw (no echo, no line editing, no flow control, 8-bit
// clean), the speed, character size, parity and stop bits, the receiver on and the modem
// lines ignored.
func termios(c Config) (*unix.Termios, error) {
	speed, ok := bauds[c.Baud]
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

// Open opens a real serial line (or a pseudo-terminal's path).
func Open(c Config) (Port, error) {
	if c.Name == "" {
		return nil, errors.New("serialport: no port name")
	}
	if c.ReadTimeout <= 0 {
		return nil, fmt.Errorf("serialport: %s: a read timeout is required (without one a read could wait forever)", c.Name)
	}
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
}

func (l *linePort) Read(b []byte) (int, error) {
	deadline := time.Now().Add(l.timeout)
	if err := l.f.SetReadDeadline(deadline); err != nil {
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
	err := l.f.Close()
	l.once.Do(l.lock.release)
	return err
}
