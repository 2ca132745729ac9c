// Package serialport is the one way the terminal talks to a serial device: a small Port interface
// with two implementations (backends) for real lines, and pseudo-terminals (creack/pty) for the
// device emulators, so tests, the demo and a technician's bench run exactly the driver code a
// cabinet runs.
//
// A read always has a timeout: Open refuses a zero ReadTimeout, and Read reports a timeout as
// ErrTimeout. Both backends keep the same contract (porttest.Contract checks it against each):
// a required read timeout, ErrTimeout for silence (a hung-up line too), an exclusive open,
// Flush, and Close ending a pending read.
//
// The two backends (docs/decisions/0001-two-serial-backends.md):
//
//   - Poller (poller_linux.go), the default on Linux, the cabinet's system: the line's
//     descriptor is non-blocking and read through Go's poller, with the timeout as a read
//     deadline, so a driver waiting for its device holds no thread in read(2) and Close
//     interrupts a read in progress at once.
//   - Tarm (tarm.go), github.com/tarm/serial: the default on every other system (macOS needs
//     cgo for it: tarm/serial's termios calls are C) and on Linux when built with
//     -tags tarmserial. It reads with the line's own timer (VMIN=0, VTIME = the read timeout
//     rounded up to 0.1 s, at most 25.5 s a read), so a read holds its thread in read(2) until
//     a byte or the timer, and Close ends a pending read within that timer, not at once.
//
// Why the poller on the cabinet: a goroutine in a blocking read(2) keeps its Go processor in a
// system call, and while the rest of the program runs (the kiosk's 60 Hz frame loop, in issue
// 18) each read coming back — every 100 ms per idle device, more while a device is polled —
// sets Go's sysmon thread polling every 20 µs for a while to see whether to take the processor
// back. With the kiosk's three devices that was ~900 sysmon wake-ups a second and more than half
// of the kiosk's idle CPU. `go run ./cmd/devicebench -idle 15s -tick 16ms` measures both
// backends side by side beside such a loop (tarm ~40 % more CPU and ~50 % more wake-ups); with
// nothing else running they cost the same (decision record 0001).
//
// A port is opened exclusively by either backend (lock_linux.go): a second Open of a line, by
// this or any other program, fails with ErrBusy naming the process that holds it, until the
// holder closes it or exits.
package serialport

import (
	"errors"
	"fmt"
	"time"
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
	Name        string // /dev/ttyS0, /dev/ttyUSB0, /dev/pts/N, COM3
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

// ErrBusy is wrapped by the error of an Open refused because another holds the line.
var ErrBusy = errors.New("serialport: port in use")

// Backend names an implementation of Port for real lines.
type Backend string

// The backends. Default is the one Open uses in this build (default_*.go).
const (
	Poller Backend = "poller" // termios + Go's poller; Linux only
	Tarm   Backend = "tarm"   // github.com/tarm/serial
)

// Open opens a real serial line (or a pseudo-terminal's path) with this build's Default backend.
func Open(c Config) (Port, error) { return OpenWith(Default, c) }

// OpenWith opens a line with the named backend: the benchmark and the contract tests use it to
// run both backends in one process. A backend this build lacks is a clear error.
func OpenWith(b Backend, c Config) (Port, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	switch b {
	case Poller:
		return openPoller(c)
	case Tarm:
		return openTarm(c)
	}
	return nil, fmt.Errorf("serialport: %s: unknown backend %q (want %q or %q)", c.Name, b, Poller, Tarm)
}

// MaxReadTimeout is the longest read timeout Open takes: 255 deciseconds, the most a POSIX
// line's own timer (VTIME, a byte) counts, so the tarm backend waits in one read and both
// backends take the same configs. Drivers wait 100 ms.
const MaxReadTimeout = 25500 * time.Millisecond

// bauds are the line speeds Open knows, on every system and backend.
var bauds = []int{1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400}

// validate refuses a Config no backend should be handed: both backends then see only settings
// they can take, and report them in the same words.
func (c Config) validate() error {
	if c.Name == "" {
		return errors.New("serialport: no port name")
	}
	if c.ReadTimeout <= 0 {
		return fmt.Errorf("serialport: %s: a read timeout is required (without one a read could wait forever)", c.Name)
	}
	if c.ReadTimeout > MaxReadTimeout {
		return fmt.Errorf("serialport: %s: read timeout %v is over the %v a line's own timer can count", c.Name, c.ReadTimeout, MaxReadTimeout)
	}
	known := false
	for _, b := range bauds {
		known = known || b == c.Baud
	}
	if !known {
		return fmt.Errorf("serialport: %s: unsupported baud rate %d", c.Name, c.Baud)
	}
	if c.DataBits != 0 && (c.DataBits < 5 || c.DataBits > 8) {
		return fmt.Errorf("serialport: %s: %d data bits not supported", c.Name, c.DataBits)
	}
	switch c.Parity {
	case 0, ParityNone, ParityEven, ParityOdd:
	default:
		return fmt.Errorf("serialport: %s: unknown parity %q", c.Name, c.Parity)
	}
	if c.StopBits != 0 && c.StopBits != 1 && c.StopBits != 2 {
		return fmt.Errorf("serialport: %s: %d stop bits not supported", c.Name, c.StopBits)
	}
	return nil
}
