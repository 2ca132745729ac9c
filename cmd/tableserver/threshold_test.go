package main

import (
	"bytes"
	"strings"
	"testing"
)

// Issue 33 point 2: the cage's reporting threshold is the operator's, in cents, A$10,000.00 by
// default; a threshold of nothing or less is refused at start with what the flag wants.
func TestReportingThresholdFlag(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-h"}, &out); code != 2 {
		t.Fatalf("-h exited %d", code)
	}
	i := strings.Index(out.String(), "-reporting-threshold int")
	if i < 0 || !strings.Contains(out.String()[i:], "(default 1000000)") {
		t.Fatalf("no -reporting-threshold flag defaulting to 1000000 in %s", out.String())
	}
	for _, bad := range []string{"0", "-100"} {
		out.Reset()
		if code := run([]string{"-reporting-threshold", bad}, &out); code != 2 || !strings.Contains(out.String(), "-reporting-threshold "+bad+": cents, more than 0") {
			t.Fatalf("-reporting-threshold %s: exit %d, %s", bad, code, out.String())
		}
	}
}
