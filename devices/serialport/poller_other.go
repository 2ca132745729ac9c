//go:build !linux

package serialport

import "fmt"

// openPoller: the poller backend speaks Linux termios and locks through /proc; elsewhere the
// tarm backend is the one.
func openPoller(c Config) (Port, error) {
	return nil, fmt.Errorf("serialport: %s: the %s backend is Linux only; use %s", c.Name, Poller, Tarm)
}
