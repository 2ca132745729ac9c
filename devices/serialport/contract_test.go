package serialport_test

import (
	"testing"
	"time"

	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/serialport/porttest"
)

func opener(b serialport.Backend) porttest.Opener {
	return func(c serialport.Config) (serialport.Port, error) { return serialport.OpenWith(b, c) }
}

// The poller keeps the Port contract, and Close ends a pending read at once: a driver waiting for
// its device waits in Go's poller, not in read(2) (issue 18: a blocking read kept a Go processor
// in a system call, and Go's sysmon thread woke ~900 times a second around the kiosk's three
// idle lines), so a read pending under a 2 s timeout ends within a second of Close, where a
// read(2) blocked on the line's own timer runs to its end first (as tarm's does).
func TestPollerKeepsThePortContract(t *testing.T) {
	porttest.Contract(t, opener(serialport.Poller), time.Second)
}

// tarm/serial keeps the Port contract; Close ends a pending read when the line's own timer runs
// out: within the read timeout (2 s in the test), rounded up to 0.1 s.
func TestTarmKeepsThePortContract(t *testing.T) {
	porttest.Contract(t, opener(serialport.Tarm), 2200*time.Millisecond)
}

// A backend that does not exist is refused by name.
func TestOpenWithRefusesAnUnknownBackend(t *testing.T) {
	if _, err := serialport.OpenWith("termios2", serialport.Config{Name: "/dev/null", Baud: 9600, ReadTimeout: time.Second}); err == nil {
		t.Fatal("opened a line with an unknown backend")
	}
}
