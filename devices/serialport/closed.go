//go:build linux || windows || cgo

package serialport

import (
	"fmt"
	"os"
)

// closedError is what a read or write of a closed port returns, from either backend. (Built
// where a backend is: a macOS or BSD build without cgo has none.)
func closedError(op, name string) error {
	return fmt.Errorf("serialport: %s %s: %w", op, name, errClosed)
}

// errClosed is os.ErrClosed, so errors.Is(err, os.ErrClosed) holds for either backend.
var errClosed = os.ErrClosed
