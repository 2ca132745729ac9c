//go:build !unix

package porttest

import "time"

// cpuTime is not measured here (no getrusage): the spin check is skipped.
func cpuTime() (time.Duration, bool) { return 0, false }
