// Package serialport is the one way the terminal talks to a serial device: a small Port interface
// implemented over github.com/tarm/serial for real lines, and pseudo-terminals (creack/pty) for the
// device emulators, so tests, the demo and a technician's bench run exactly the driver code a
// cabinet runs.
//
// A read always has a timeout. tarm/serial without one blocks in read(2) forever, and because
// Go defers closing a blocking descriptor until the read in progress returns, Close would block
// with it. Open therefore refuses a zero ReadTimeout, and Read reports a timeout as ErrTimeout
// rather than tarm's (0, io.EOF).
//
// A port is opened exclusively (lock.go): a second Open of a line, by this or any other
// program, fails with ErrBusy naming the process that holds it, until the holder closes it or
// exits.
package serialport

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tarm/serial"
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
	ReadTimeout time.Duration // > 0; the line rounds it up to a multiple of 100 ms
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

// Open opens a real serial line (or a pseudo-terminal's path) through tarm/serial.
func Open(c Config) (Port, error) {
	if c.Name == "" {
		return nil, errors.New("serialport: no port name")
	}
	if c.ReadTimeout <= 0 {
		return nil, fmt.Errorf("serialport: %s: a read timeout is required (without one a read blocks forever and blocks Close)", c.Name)
	}
	tc := &serial.Config{Name: c.Name, Baud: c.Baud, Size: byte(c.DataBits), ReadTimeout: c.ReadTimeout}
	switch c.Parity {
	case 0, ParityNone:
		tc.Parity = serial.ParityNone
	case ParityEven:
		tc.Parity = serial.ParityEven
	case ParityOdd:
		tc.Parity = serial.ParityOdd
	default:
		return nil, fmt.Errorf("serialport: %s: unknown parity %q", c.Name, c.Parity)
	}
	switch c.StopBits {
	case 0, 1:
		tc.StopBits = serial.Stop1
	case 2:
		tc.StopBits = serial.Stop2
	default:
		return nil, fmt.Errorf("serialport: %s: %d stop bits not supported", c.Name, c.StopBits)
	}
	lock, err := lockLine(c.Name)
	if err != nil {
		return nil, err
	}
	p, err := serial.OpenPort(tc)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("serialport: open %s: %w", c, err)
	}
	lock.exclusive()
	return &tarmPort{p: p, name: c.Name, lock: lock}, nil
}

type tarmPort struct {
	p    *serial.Port
	name string
	lock *lineLock
	once sync.Once
}

func (t *tarmPort) Read(b []byte) (int, error) {
	n, err := t.p.Read(b)
	if n == 0 && (err == nil || err == io.EOF) {
		// VMIN=0/VTIME>0: read(2) returned nothing before the timer expired.
		return 0, ErrTimeout
	}
	if err == io.EOF {
		err = nil
	}
	if err != nil {
		return n, fmt.Errorf("serialport: read %s: %w", t.name, err)
	}
	return n, nil
}

func (t *tarmPort) Write(b []byte) (int, error) {
	n, err := t.p.Write(b)
	if err != nil {
		return n, fmt.Errorf("serialport: write %s: %w", t.name, err)
	}
	return n, nil
}

func (t *tarmPort) Flush() error { return t.p.Flush() }

// Close closes the line and then gives it up (lock file, TIOCEXCL, flock), once.
func (t *tarmPort) Close() error {
	err := t.p.Close()
	t.once.Do(t.lock.release)
	return err
}
