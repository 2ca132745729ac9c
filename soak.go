package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/tablegames/ats/app"
)

// logRounds logs each round's result with the kiosk's resident memory, so a soak of the kiosk
// (issue 4: ≤ 150 MB after 100 rounds) reads straight from its log; packaging/soak-kiosk.sh
// greps these lines ("rounds=N rss_mb=…"). It returns when ctx ends.
func logRounds(ctx context.Context, t *app.Terminal, log *slog.Logger) {
	last, n := "", 0
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
		log.Info("round", "id", last, "number", v.LastOutcome.Number, "rounds", n, "rss_mb", rssMB(),
			"go_heap_mb", ms.HeapAlloc>>20, "go_sys_mb", ms.Sys>>20, "gc_cycles", ms.NumGC)
	}
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
