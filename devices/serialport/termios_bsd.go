//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package serialport

import "golang.org/x/sys/unix"

// The ioctls that read and set a terminal's settings, as macOS and the BSDs name them.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
