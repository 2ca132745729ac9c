package server

import (
	"os"
	"runtime/debug"
)

// The table server's garbage collector. A slip update allocates about 20 KB (the request's
// wagers, the priced slip, its reply) and the live heap of a table with 500 connected terminals
// is about 45 MB, most of it the connections' buffers. At 5,000 slips a second Go's default
// (GOGC=100) collected several times a second, and each collection's concurrent mark took one
// of the machine's two cores for tens of milliseconds and charged mark assists to the slips in
// flight: the slowest 1 % of slips were those in flight during a collection (cmd/loadgen
// -slow-report). Collecting when the heap has grown GCPercent% over the live heap (some 700 MB
// at 45 MB live) makes a collection every several seconds instead; the memory limit bounds the
// heap whatever the live heap does: nearing it, the collector runs as often as it must.
const (
	GCPercent   = 1600
	MemoryLimit = 2 << 30 // bytes
)

// TuneGC applies GCPercent and MemoryLimit unless the environment sets GOGC or GOMEMLIMIT, which
// then win (an operator's setting for a smaller or a busier machine).
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
