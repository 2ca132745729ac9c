package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The slow-slip report finds what the slowest 1 % share: of 1,000 slips sent a millisecond
// apart, the 10 slow ones are the 10 in flight as a server GC ended, none near a terminal GC,
// all in the fifth second of the period and bunched in one 10-ms window.
func TestSlowReportFindsWhatTheSlowSlipsShare(t *testing.T) {
	open := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC).UnixNano()
	var at []int64
	var rtt []time.Duration
	gc := open + int64(4*time.Second+510*time.Millisecond) // the slow ones: sent from 4.500 s to 4.509 s
	for i := range 1000 {
		sent := open + int64(4*time.Second) + int64(i)*int64(time.Millisecond)
		d := 500 * time.Microsecond
		if sent >= gc-int64(10*time.Millisecond) && sent < gc {
			d = 30 * time.Millisecond // held up by the GC ending at gc
		}
		at, rtt = append(at, sent), append(rtt, d)
	}
	var out bytes.Buffer
	slowReport(&out, at, rtt, []period{{open, open + int64(20*time.Second)}}, []int64{gc}, []int64{open + int64(15*time.Second)})
	report := out.String()
	for _, want := range []string{
		"slowest 1% of slips (10 of 1000, ≥ 30ms): in flight across a server GC 100%",
		"across a terminal-process GC 0%",
		"4:10/1000",
		"slow slips sent in 1 distinct 10-ms windows",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}
