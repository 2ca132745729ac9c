package kiosk

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app"
)

// logRounds logs each round's result with the kiosk's resident memory, so a soak of the kiosk
// (issue 4: ≤ 150 MB after 100 rounds) reads straight from its log; packaging/soak-kiosk.sh
// greps these lines ("rounds=N rss_mb=…"). It returns when ctx ends.
//
// After logging a round it gives the Go heap's free pages back to the system
// (debug.FreeOSMemory: a collection, then every free page returned), so what a round's
// garbage touched does not stay resident until the collector's goal is next reached (issue 18:
// with the live heap flat from round 10 to 510 — the heap profiles of the two are the same —
// the resident set still grew 14–18 MB as the collector's headroom was touched, page by page,
// over the first 200 rounds). It costs one collection a round, timed in the next line
// (release_ms); the line is logged before the release, so rss_mb is the resident set with a
// whole round's garbage in it, not the low point just after.
func logRounds(ctx context.Context, t *app.Terminal, log *slog.Logger) {
	last, n := "", 0
	var released time.Duration // the last release's time
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		v := t.View()
		if v.LastOutcome == nil || v.LastOutcome.RoundID == last {
			continue
		}
		last = v.LastOutcome.RoundID
		n++
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		anon, file := rssParts()
		// Where the resident memory is (issue 18): Go's live-and-garbage heap, the free pages the
		// runtime keeps without returning them, and what is neither — the C side (Mesa's
		// llvmpipe and its textures, GLFW, X) — estimated as the anonymous pages Go did not map.
		goResident := int64(ms.Sys - ms.HeapReleased)
		log.Info("round", "id", last, "number", v.LastOutcome.Number, "rounds", n, "rss_mb", rssMB(),
			"go_heap_mb", ms.HeapAlloc>>20, "go_sys_mb", ms.Sys>>20, "gc_cycles", ms.NumGC,
			"go_inuse_mb", ms.HeapInuse>>20, "go_free_mb", (ms.HeapIdle-ms.HeapReleased)>>20,
			"anon_mb", anon>>20, "file_mb", file>>20, "c_mb", max(anon-goResident, 0)>>20,
			"release_ms", released.Milliseconds())
		start := time.Now()
		debug.FreeOSMemory()
		released = time.Since(start)
	}
}

// rssParts is the resident set split into anonymous pages (heaps: Go's and C's) and
// file-backed ones (the binary, the shared libraries, the X shared-memory frame), in bytes, from
// /proc/self/smaps_rollup (0, 0 where there is none).
func rssParts() (anon, file int64) {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return 0, 0
	}
	var rss int64
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		switch f[0] {
		case "Rss:":
			rss = kb << 10
		case "Anonymous:":
			anon = kb << 10
		}
	}
	return anon, max(rss-anon, 0)
}

// rssMB is the process's resident set in MB, from /proc (0 where there is none).
func rssMB() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0
	}
	return resident * int64(os.Getpagesize()) >> 20
}
