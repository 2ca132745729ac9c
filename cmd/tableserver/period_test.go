package main

import (
	"bytes"
	"strings"
	"testing"
)

// 001 §5.1.2: "If the casino operator has not made a determination, the wagering period is 30
// seconds." The table server started without -period runs the table's default, 30 s: its flag's
// default, as its help prints it.
func TestRule001_5_1_2_PeriodFlagDefaultsTo30s(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-h"}, &out); code != 2 {
		t.Fatalf("-h exited %d", code)
	}
	i := strings.Index(out.String(), "-period duration")
	if i < 0 {
		t.Fatalf("no -period flag in %s", out.String())
	}
	line := out.String()[i:]
	line = line[:strings.Index(line, "\n  -")]
	if !strings.Contains(line, "(default 30s)") {
		t.Fatalf("-period: %q, want a default of 30s", line)
	}
}
