package main

import (
	"bytes"
	"strings"
	"testing"
)

// A short run works end to end and reports both figures; the cash box matches the credits.
func TestShortRun(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-notes", "2", "-poll", "50ms", "-baud", "115200"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "vend valid -> credit") || !strings.Contains(out.String(), "n=2") {
		t.Fatalf("report %q", out.String())
	}
}
