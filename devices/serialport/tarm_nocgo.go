//go:build !linux && !windows && !cgo

package serialport

import (
	"fmt"
	"runtime"
)

// openTarm: on macOS and the BSDs tarm/serial sets the line up through cgo (termios.h), so a
// build without cgo (a cross-compile) has no tarm backend and says so rather than fail later.
func openTarm(c Config) (Port, error) {
	return nil, fmt.Errorf("serialport: %s: the %s backend needs cgo on %s; build with CGO_ENABLED=1", c.Name, Tarm, runtime.GOOS)
}
