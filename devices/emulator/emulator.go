// Package emulator holds device-side emulators of the table's serial devices — the ID-003
// note acceptor, the TCL ticket printer, the player-ID pad and the roulette wheel's sensors and
// controller. Each speaks the same bytes as the real device on any io.ReadWriter (a
// pseudo-terminal in practice), takes operator commands as text ("note 2000", "jam",
// "paper-out", "power-cycle", "launch", "read 17"…) and records what reached it (the cash box,
// the printed tickets, the wheel's commands), so tests, the demo and cmd/devemu drive the real
// host drivers.
package emulator

import (
	"strings"
	"time"
)

// Pace is the time one byte takes on a line: 11 bits (start, 8 data, parity or none, stop) at baud.
func Pace(baud int) time.Duration {
	if baud <= 0 {
		return 0
	}
	return time.Duration(11 * int64(time.Second) / int64(baud))
}

// Trace is a state change an emulator reports to whoever watches it (a test, devemu's stdout).
type Trace struct {
	At   time.Time
	What string
}

func fields(line string) (string, []string) {
	f := strings.Fields(strings.TrimSpace(line))
	if len(f) == 0 {
		return "", nil
	}
	return strings.ToLower(f[0]), f[1:]
}

// sleepBytes simulates the time n bytes take on the line.
func sleepBytes(pace time.Duration, n int) {
	if pace > 0 && n > 0 {
		time.Sleep(pace * time.Duration(n))
	}
}
