//go:build linux || windows || cgo

package serialport

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tarm/serial"
)

// The tarm backend: github.com/tarm/serial, the line's own read timer (VMIN=0/VTIME on POSIX,
// COMMTIMEOUTS on Windows) behind the same Port contract as the poller.

// tarmTick is the resolution of the line's own timer: VTIME counts deciseconds.
const tarmTick = 100 * time.Millisecond

// openTarm opens a line with tarm/serial (c is valid), exclusively.
func openTarm(c Config) (Port, error) {
	lock, err := lockLine(c.Name)
	if err != nil {
		return nil, err
	}
	sc := &serial.Config{
		Name: c.Name,
		Baud: c.Baud,
		// tarm truncates the timeout to whole deciseconds (and to at least one): rounded up
		// here so a read never times out before the timeout the driver asked for.
		ReadTimeout: (c.ReadTimeout + tarmTick - 1) / tarmTick * tarmTick,
		Size:        8,
		Parity:      serial.ParityNone,
		StopBits:    serial.Stop1,
	}
	if c.DataBits != 0 {
		sc.Size = byte(c.DataBits)
	}
	if c.Parity != 0 {
		sc.Parity = serial.Parity(c.Parity) // the same letters: 'N', 'E', 'O'
	}
	if c.StopBits == 2 {
		sc.StopBits = serial.Stop2
	}
	p, err := serial.OpenPort(sc)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("serialport: open %s: %w", c, err)
	}
	lock.exclusive()
	return &tarmPort{p: p, name: c.Name, timeout: c.ReadTimeout, lock: lock, closed: make(chan struct{})}, nil
}

type tarmPort struct {
	p       *serial.Port
	name    string
	timeout time.Duration
	lock    *lineLock
	// reading is held by a read in progress. Close waits for it before giving the line up:
	// while the closed port's read is still in read(2) on its descriptor, the line is not yet
	// free for another holder. (On Linux a new holder's read was seen to get the bytes even
	// without the wait; other systems' drivers promise nothing of the kind.)
	reading   sync.Mutex
	closed    chan struct{}
	closeOnce sync.Once
}

func (t *tarmPort) isClosed() bool {
	select {
	case <-t.closed:
		return true
	default:
		return false
	}
}

// Read maps tarm's timeout (0 bytes, and nil or io.EOF) to ErrTimeout. A read that comes back
// empty at once — a hung-up line reads 0 bytes immediately, again and again — reads as silence
// until the read timeout, as on the poller, so a driver polling it does not spin.
func (t *tarmPort) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	t.reading.Lock()
	defer t.reading.Unlock()
	deadline := time.Now().Add(t.timeout)
	for {
		if t.isClosed() {
			return 0, closedError("read", t.name)
		}
		start := time.Now()
		n, err := t.p.Read(b)
		if n > 0 {
			// A byte and an error at once: the bytes now, the error (if it lasts) next read.
			return n, nil
		}
		if t.isClosed() {
			return 0, closedError("read", t.name)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("serialport: read %s: %w", t.name, err)
		}
		left := time.Until(deadline)
		if left <= 0 {
			return 0, ErrTimeout
		}
		if time.Since(start) < tarmTick/2 {
			// Empty at once: not the timer but a hung-up line. Silence until the deadline,
			// cut short by Close.
			timer := time.NewTimer(left)
			select {
			case <-timer.C:
				return 0, ErrTimeout
			case <-t.closed:
				timer.Stop()
				return 0, closedError("read", t.name)
			}
		}
		// Empty before the deadline but not at once (the timer is rounded up, so this is a
		// system's timer running early): read again for the rest.
	}
}

func (t *tarmPort) Write(b []byte) (int, error) {
	if t.isClosed() {
		return 0, closedError("write", t.name)
	}
	n, err := t.p.Write(b)
	if err != nil {
		return n, fmt.Errorf("serialport: write %s: %w", t.name, err)
	}
	return n, nil
}

// Flush discards both directions' queues (tcflush(TCIOFLUSH); PurgeComm on Windows).
func (t *tarmPort) Flush() error {
	if t.isClosed() {
		return closedError("flush", t.name)
	}
	if err := t.p.Flush(); err != nil {
		return fmt.Errorf("serialport: flush %s: %w", t.name, err)
	}
	return nil
}

// Close closes the line, waits for a pending read to come back (it does when the line's own
// timer runs out: within the read timeout rounded up to 0.1 s, at most MaxReadTimeout), then
// gives the line up (lock file, TIOCEXCL, flock). A second Close reports the port closed.
func (t *tarmPort) Close() error {
	err := closedError("close", t.name)
	t.closeOnce.Do(func() {
		close(t.closed)
		err = t.p.Close()
		// Give the line up only once no read is pending (Read holds reading until it returns).
		t.reading.Lock()
		t.lock.release()
		t.reading.Unlock()
		if err != nil {
			err = fmt.Errorf("serialport: close %s: %w", t.name, err)
		}
	})
	return err
}
