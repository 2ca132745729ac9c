package main

import (
	"image"
	"os"
	"path/filepath"
	"testing"
)

// The Lucky Ball journey reads red's odds from the demo dealer's draw answer; a draw without
// them is an error, not odds of 0.
func TestOddsOfTheDealersDraw(t *testing.T) {
	draw := "red 23 at 5:1, green 1 at 100:1, blue 12 at 20:1, yellow 32 at 1000:1"
	for c, want := range map[string]int64{"red": 5, "green": 100, "yellow": 1000} {
		if got, err := oddsOf(draw, c); err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", c, got, err, want)
		}
	}
	if _, err := oddsOf("green 1 at 12:1", "red"); err == nil {
		t.Error("no red in the draw, and no error")
	}
}

// A crop's words are placed back on the screen: the side panel's "BALANCE" read at (5,7) of a
// crop from (1344,0) is at (1349,7) of the screen, where a tap must land.
func TestAreaReadPlacedOnTheScreen(t *testing.T) {
	r := reading{lines: []line{{{Text: "BALANCE", X: 5, Y: 7, W: 40, H: 10}}}}
	r.shift(image.Pt(1344, 0))
	if w := r.lines[0][0]; w.X != 1349 || w.Y != 7 {
		t.Fatalf("placed at %d,%d", w.X, w.Y)
	}
	k := &kioskRun{size: "1920x1080"}
	if got := sidePanel(k); got != image.Rect(1344, 0, 1920, 1080) {
		t.Fatalf("side panel %v", got)
	}
	if got := messageBar(k); got != image.Rect(0, 918, 1920, 1080) {
		t.Fatalf("message bar %v", got)
	}
}

// The demo dealer's answers are read back from the kiosk's log, in order, among its other lines.
func TestRepliesFromTheKioskLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "kiosk.log")
	text := "time=… level=INFO msg=\"first frame\"\nok: the auto-dealer holds\nALSA lib …\nerror: spin: no round is taking bets\n"
	if err := os.WriteFile(log, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	got := (&kioskRun{logPath: log}).replies()
	if len(got) != 2 || got[0] != "ok: the auto-dealer holds" || got[1] != "error: spin: no round is taking bets" {
		t.Fatalf("replies %q", got)
	}
}
