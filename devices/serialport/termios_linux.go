package serialport

import "golang.org/x/sys/unix"

// The ioctls that read and set a terminal's settings, as Linux names them.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
