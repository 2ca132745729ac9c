//go:build !linux || tarmserial

package serialport

// Default is the backend Open uses: tarm/serial on every system but Linux, and on Linux when
// built with -tags tarmserial.
const Default = Tarm
