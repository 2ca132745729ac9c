package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// An -idle reading runs this test binary again as its child (idle.go): it must act the child.
func TestMain(m *testing.M) {
	if orders := os.Getenv(childEnv); orders != "" {
		os.Exit(child(orders))
	}
	os.Exit(m.Run())
}

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

// -idle measures both backends in one run, each in its own process over live lines (the
// printer's status answered), and reports each one's CPU and wake-ups; a tarm line wakes its
// process more than the poller's (the reason the poller is Linux's default).
func TestIdleMeasuresBothBackendsSideBySide(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-idle", "1500ms", "-warmup", "500ms", "-rounds", "1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	t.Log(out.String())
	wake := map[string]float64{}
	for _, m := range regexp.MustCompile(`(?m)^round 1 (\w+)\s+cpu\s+[\d.]+ % of a core,\s+(\d+) wake-ups/s`).FindAllStringSubmatch(out.String(), -1) {
		wake[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	if len(wake) != 2 || wake["poller"] == 0 || wake["tarm"] == 0 {
		t.Fatalf("want a reading of each backend, got %v in %q", wake, out.String())
	}
	if !strings.Contains(out.String(), "poller idle, three lines") || !strings.Contains(out.String(), "tarm   idle, three lines") {
		t.Fatalf("no summary per backend in %q", out.String())
	}
}

// Bad flags are refused with a clear error, not run.
func TestIdleRefusesAnUnknownBackend(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-idle", "1s", "-backends", "poller,termios2"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "termios2") {
		t.Fatalf("exit %d, %q", code, errb.String())
	}
}
