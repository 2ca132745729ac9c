package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/journal"
)

func techctl(t *testing.T, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// Headless technician mode with -local-pins (a table without technician PINs): the same
// technicians file and PIN check as the kiosk's -local-technician-pins; a wrong PIN is refused
// and journalled; meters and the log read the journal; calibrate fits, refuses a
// bad check, writes the udev rule, applies it with xinput and journals the session.
func TestTechnicianHeadless(t *testing.T) {
	dir := t.TempDir()
	jpath := writeJournal(t)
	if code, _, e := techctl(t, "246810\n", "technician", "add", "-dir", dir, "-id", "tech-1", "-name", "Tess", "-card", "900001"); code != 0 {
		t.Fatalf("add: %d %s", code, e)
	}
	if code, _, _ := techctl(t, "12\n", "technician", "add", "-dir", dir, "-id", "tech-2"); code != 2 {
		t.Fatal("a 2-digit PIN accepted")
	}
	if code, _, e := techctl(t, "000000\n", "technician", "meters", "-local-pins", "-dir", dir, "-journal", jpath, "-id", "tech-1"); code != 1 || !strings.Contains(e, "wrong PIN") {
		t.Fatalf("wrong PIN: %d %s", code, e)
	}
	// device takes the flags before the device's own arguments, -local-pins (no value) among them.
	if code, _, e := techctl(t, "000000\n", "technician", "device", "-local-pins", "-dir", dir, "-journal", jpath, "-id", "tech-1", "status"); code != 1 || !strings.Contains(e, "wrong PIN") {
		t.Fatalf("device with -local-pins: %d %s", code, e)
	}
	code, out, e := techctl(t, "246810\n", "technician", "meters", "-local-pins", "-dir", dir, "-journal", jpath, "-id", "tech-1")
	if code != 0 || !strings.Contains(out, "notes in                  2000 cents") {
		t.Fatalf("meters: %d %s %s", code, out, e)
	}

	rules := filepath.Join(dir, "99-ats-touch-calibration.rules")
	logf := filepath.Join(dir, "xinput.log")
	fake := filepath.Join(dir, "xinput")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> "+logf+"\n"), 0o755)
	cal := []string{"technician", "calibrate", "-local-pins", "-dir", dir, "-journal", jpath, "-id", "tech-1", "-screen", "1920x1080",
		"-rules", rules, "-device", "Touch", "-xinput", fake}
	// A panel reporting every touch 20 px right and 10 px down.
	good := "246810\n192 108 212 118\n1728 108 1748 118\n1728 972 1748 982\n192 972 212 982\n1152 432 1172 442\n"
	code, out, e = techctl(t, good, cal...)
	if code != 0 || !strings.Contains(out, `LIBINPUT_CALIBRATION_MATRIX="1.000000 0.000000 -0.010417 0.000000 1.000000 -0.009259"`) {
		t.Fatalf("calibrate: %d %s %s", code, out, e)
	}
	rule, _ := os.ReadFile(rules)
	applied, _ := os.ReadFile(logf)
	if !strings.Contains(string(rule), "-0.010417") || !strings.Contains(string(applied), "set-prop Touch libinput Calibration Matrix 1.000000") {
		t.Fatalf("rule %s\nxinput %s", rule, applied)
	}
	bad := "246810\n192 108 212 118\n1728 108 1748 118\n1728 972 1748 982\n192 972 212 982\n1152 432 1300 600\n"
	if code, _, e := techctl(t, bad, cal...); code != 1 || !strings.Contains(e, "check target missed") {
		t.Fatalf("bad check: %d %s", code, e)
	}
	code, out, e = techctl(t, "246810\n", "technician", "log", "-local-pins", "-dir", dir, "-journal", jpath, "-id", "tech-1")
	for _, want := range []string{"technician-refused", "technician-in", "technician-calibration", "technician-out", "credited"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s: %d\n%s%s", want, code, out, e)
		}
	}
	j, err := journal.Open(jpath, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}
}
