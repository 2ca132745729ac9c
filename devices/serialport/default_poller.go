//go:build linux && !tarmserial

package serialport

// Default is the backend Open uses: on Linux the poller, unless built with -tags tarmserial.
const Default = Poller
