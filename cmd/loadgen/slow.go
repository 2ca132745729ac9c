package main

import (
	"fmt"
	"io"
	"maps"
	"runtime/metrics"
	"slices"
	"sync"
	"time"
)

// The slow-slip report (-slow-report): what the slowest 1 % of slips have in common. Each slip's
// send time and round trip are kept (slipLog), every process notes when each of its GC cycles
// ended (gcWatch), and the report says when in the period the slow slips were sent and how many
// were in flight while a GC of the server or of a terminal process ended, beside the same
// shares for every slip: a cause is what the slow ones have much more often than the rest.

// slipLog is each slip's send time (Unix ns) and round trip, in the order measured.
type slipLog struct {
	mu  sync.Mutex
	at  []int64
	rtt []time.Duration
}

func (l *slipLog) add(at time.Time, rtt time.Duration) {
	l.mu.Lock()
	l.at, l.rtt = append(l.at, at.UnixNano()), append(l.rtt, rtt)
	l.mu.Unlock()
}

func (l *slipLog) addAll(at []int64, rtt []time.Duration) {
	l.mu.Lock()
	l.at, l.rtt = append(l.at, at...), append(l.rtt, rtt...)
	l.mu.Unlock()
}

func (l *slipLog) values() ([]int64, []time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.at), slices.Clone(l.rtt)
}

// gcWatch notes the time each GC cycle of this process completes, polling the runtime's count
// of cycles every millisecond (a metrics read, about a microsecond) until stop.
type gcWatch struct {
	mu   sync.Mutex
	ends []int64
	stop chan struct{}
}

func watchGC() *gcWatch {
	w := &gcWatch{stop: make(chan struct{})}
	go func() {
		s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
		metrics.Read(s)
		last := s[0].Value.Uint64()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case now := <-tick.C:
				metrics.Read(s)
				if n := s[0].Value.Uint64(); n != last {
					last = n
					w.mu.Lock()
					w.ends = append(w.ends, now.UnixNano())
					w.mu.Unlock()
				}
			}
		}
	}()
	return w
}

// Ends is the completion times noted so far (Unix ns), and forgets them.
func (w *gcWatch) Ends() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.ends
	w.ends = nil
	return e
}

func (w *gcWatch) Stop() { close(w.stop) }

// period is one measured round's wagering period, as Unix ns.
type period struct{ open, deadline int64 }

// gcWindow is how long before a GC cycle's completion a slip in flight is counted as meeting
// it: the concurrent mark of these heaps takes a few milliseconds (GODEBUG=gctrace=1).
const gcWindow = 5 * time.Millisecond

// slowReport writes the report on the slowest 1 % of slips.
func slowReport(out io.Writer, at []int64, rtt []time.Duration, periods []period, serverGC, termGC []int64) {
	if len(at) == 0 {
		return
	}
	sorted := slices.Clone(rtt)
	slices.Sort(sorted)
	threshold := sorted[min(len(sorted)-1, int(0.99*float64(len(sorted))))]
	slices.Sort(serverGC)
	slices.Sort(termGC)
	meets := func(gc []int64, i int) bool {
		// a GC completion in [sent, answered + window]: the slip was in flight during its end
		// or its concurrent mark
		j, _ := slices.BinarySearch(gc, at[i])
		return j < len(gc) && gc[j] <= at[i]+int64(rtt[i])+int64(gcWindow)
	}
	type share struct{ n, server, term int }
	var all, slow share
	var secAll, secSlow [64]int // by second of the period
	for i := range at {
		s := &all
		isSlow := rtt[i] >= threshold
		if isSlow {
			s = &slow
		}
		s.n++
		if meets(serverGC, i) {
			s.server++
		}
		if meets(termGC, i) {
			s.term++
		}
		for _, p := range periods {
			if at[i] >= p.open && at[i] < p.deadline {
				sec := min(int((at[i]-p.open)/int64(time.Second)), len(secAll)-1)
				secAll[sec]++
				if isSlow {
					secSlow[sec]++
				}
			}
		}
	}
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	fmt.Fprintf(out, "slowest 1%% of slips (%d of %d, ≥ %v): in flight across a server GC %.0f%% (all slips %.0f%%; %d GCs), across a terminal-process GC %.0f%% (all %.0f%%; %d GCs)\n",
		slow.n, all.n+slow.n, threshold.Round(10*time.Microsecond), pct(slow.server, slow.n), pct(all.server+slow.server, all.n+slow.n), len(serverGC),
		pct(slow.term, slow.n), pct(all.term+slow.term, all.n+slow.n), len(termGC))
	// Stalls: slow slips bunched in a few 10-ms windows were held up by one thing at once.
	windows := map[int64]int{}
	for i := range at {
		if rtt[i] >= threshold {
			windows[at[i]/int64(10*time.Millisecond)]++
		}
	}
	keys := slices.Collect(maps.Keys(windows))
	slices.SortFunc(keys, func(a, b int64) int { return windows[b] - windows[a] })
	nearest := func(gc []int64, t int64) string {
		j, _ := slices.BinarySearch(gc, t)
		best := int64(-1)
		for _, k := range []int{j - 1, j} {
			if k >= 0 && k < len(gc) {
				if d := abs(gc[k] - t); best < 0 || d < best {
					best = d
				}
			}
		}
		if best < 0 {
			return "none"
		}
		return time.Duration(best).Round(100 * time.Microsecond).String()
	}
	fmt.Fprintf(out, "  slow slips sent in %d distinct 10-ms windows; the busiest (slow slips, nearest server GC, nearest terminal GC, second of its period):", len(keys))
	for _, k := range keys[:min(8, len(keys))] {
		t := k * int64(10*time.Millisecond)
		sec := "-"
		for _, p := range periods {
			if t >= p.open && t < p.deadline {
				sec = fmt.Sprintf("%.2f", float64(t-p.open)/1e9)
			}
		}
		fmt.Fprintf(out, " [%d, %s, %s, %s]", windows[k], nearest(serverGC, t), nearest(termGC, t), sec)
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "  by second of the period, slow/all:")
	for s := range secAll {
		if secAll[s] > 0 {
			fmt.Fprintf(out, " %d:%d/%d", s, secSlow[s], secAll[s])
		}
	}
	fmt.Fprintln(out)
}

func abs(d int64) int64 {
	if d < 0 {
		return -d
	}
	return d
}
