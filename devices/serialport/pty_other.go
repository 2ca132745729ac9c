//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package serialport

import (
	"fmt"
	"os"
	"runtime"
)

// PTY is the device end of a pseudo-terminal (pty_unix.go). This system has none: the emulators
// (cmd/devemu, the tests) need Linux, macOS or a BSD; real lines still open.
type PTY struct {
	Device *os.File
	Path   string
}

// NewPTY reports that this system has no pseudo-terminals.
func NewPTY() (*PTY, error) {
	return nil, fmt.Errorf("serialport: no pseudo-terminals on %s: the device emulators need Linux, macOS or a BSD", runtime.GOOS)
}

// Close does nothing: a PTY is never opened here.
func (p *PTY) Close() error { return nil }
