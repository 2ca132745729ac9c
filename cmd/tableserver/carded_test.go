package main

import "testing"

// SPEC §10: Crown's table games play carded (VGCCC, from December 2025); the other rule books
// do not unless the operator says -carded.
func TestSPEC10_CrownProfileAsksForCardedPlay(t *testing.T) {
	for rules, want := range map[string]bool{"crown": true, "vic-1999": false, "star": false, "touchtable": false, "nosuch": false} {
		if got := cardedByDefault(rules); got != want {
			t.Errorf("-rules %s: carded %v, want %v", rules, got, want)
		}
	}
}
