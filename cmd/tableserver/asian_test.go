package main

import (
	"strings"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// The Asian racetrack's flags (002 §3.2): off by default, the default groups with
// -asian-racetrack, a table's own with -asian-groups; bad groups are refused with a reason.
func TestRule002_3_2_AsianRacetrackFlags(t *testing.T) {
	if g, err := asianRacetrack(roulette.SingleZero, false, ""); err != nil || g.Offered() {
		t.Errorf("no flags: %v, %v", g, err)
	}
	if g, err := asianRacetrack(roulette.DoubleZero, true, ""); err != nil || g != roulette.DefaultAsianGroups(roulette.DoubleZero) {
		t.Errorf("-asian-racetrack: %v, %v", g, err)
	}
	g, err := asianRacetrack(roulette.DoubleZero, false, "0-00-1, 28-9-26")
	if err != nil || g.String() != "0-00-1 9-26-28" {
		t.Errorf("-asian-groups: %v, %v", g, err)
	}
	for _, bad := range []string{"1-2", "1-2-3,3-4-5", "1-2-00", "a-b-c"} {
		if _, err := asianRacetrack(roulette.SingleZero, true, bad); err == nil || !strings.Contains(err.Error(), "-asian-groups") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
