package main

import (
	"fmt"
	"os/exec"
	"testing"
)

// The probe's reading of the winning jackpot message (001 §2.2.8), on the display's own
// goldens at 1920×1080: the message with its prize and seat is read where the display shows
// it, and its absence — the meter alone, or the message of another seat or prize — fails the
// check, so a display that never shows the hit cannot pass the real-window probe.
func TestWndProbeFailsWithoutTheWinningJackpotMessage(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (packaging/setup.sh installs it)")
	}
	hit := wndCase{amount: "1,000.00", won: "10,000.50", seat: "T07"}
	noHit := wndCase{amount: "12,345.67"}
	// The bands are read only where the page read misses what the case must read (as the
	// probe reads): seconds, not minutes, on a loaded machine.
	read := func(golden string, c wndCase) reading {
		t.Helper()
		r, err := ocr("../../wnd/testdata/"+golden, "eng", 110, c.showsJackpot)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	won, meter := read("jackpot_won.png", hit), read("jackpot_meter.png", noHit)
	if !hit.showsJackpot(won) {
		t.Errorf("the message %q was not read on jackpot_won.png; read:\n%s", hit.message(), won.summary())
	}
	for _, c := range []struct {
		what string
		c    wndCase
		r    reading
	}{
		{"the meter alone, no message", wndCase{amount: "12,345.67", won: "12,345.67", seat: "T07"}, meter},
		{"another seat's win", wndCase{amount: "1,000.00", won: "10,000.50", seat: "T01"}, won},
		{"another prize", wndCase{amount: "1,000.00", won: "10,000.51", seat: "T07"}, won},
	} {
		// What the probe says is missing is the message alone: the meter is read.
		want := fmt.Sprintf("the winning jackpot message %q", c.c.message())
		if got := c.c.jackpotMissing(c.r); len(got) != 1 || got[0] != want {
			t.Errorf("%s: missing %q, want [%s]", c.what, got, want)
		}
	}
	if !noHit.showsJackpot(meter) {
		t.Errorf("the meter %s was not read on jackpot_meter.png; read:\n%s", noHit.amount, meter.summary())
	}
}
