package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The settlement oracle learns the Asian Neighbour (002 §3.2, 11 to 1): every default group of
// both wheels against every outcome of the wheel, 00 included on double zero. The groups are
// written out here from the wheel orders of SPEC §1 (three neighbours at a time, clockwise from
// 0, never across a zero), not taken from the code under test; the expected result is worked
// from the group's own numbers.
func TestRule002_3_2_SettleAsianNeighbourEveryGroupEveryOutcome(t *testing.T) {
	wheels := []struct {
		name    string
		order   string
		numbers []string
	}{
		{"single-zero", "0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 9 22 18 29 7 28 12 35 3 26", nil},
		{"double-zero", "0 28 9 26 30 11 7 20 32 17 5 22 34 15 3 24 36 13 1 00 27 10 25 29 12 8 19 31 18 6 21 33 16 4 23 35 14 2", nil},
	}
	for _, w := range wheels {
		order := strings.Fields(w.order)
		var groups [][]string
		var run []string
		for _, n := range order {
			if n == "0" || n == "00" {
				run = nil
				continue
			}
			run = append(run, n)
			if len(run) == 3 {
				groups = append(groups, run)
				run = nil
			}
		}
		if len(groups) != 12 {
			t.Fatalf("%s: %d groups written out", w.name, len(groups))
		}
		for _, g := range groups {
			for _, outcome := range order {
				in := fmt.Sprintf(`{"wheel":%q,"outcome":%q,"wagers":[{"bet":"asian-neighbour","numbers":[%q,%q,%q],"amount":250}]}`,
					w.name, outcome, g[2], g[0], g[1]) // in any order
				out, code, stderr := settleJSON(t, in)
				if code != 0 {
					t.Fatalf("%s %v on %s: exit %d: %s", w.name, g, outcome, code, stderr)
				}
				won := outcome == g[0] || outcome == g[1] || outcome == g[2]
				want := wagerOutput{Index: 0, Accepted: 250, Result: "lost"}
				if won {
					want.Result, want.Returned = "won", 250*12
				}
				if len(out.Wagers) != 1 || out.Wagers[0] != want || out.TotalReturned != want.Returned || !out.Recognised {
					t.Errorf("%s %v on %s: %+v, want %+v", w.name, g, outcome, out, want)
				}
			}
		}
	}
}

// A table's own groups (asian_groups) replace the default; three numbers that are no group,
// malformed groups and a table without the racetrack are refused with a reason.
func TestRule002_3_2_SettleAsianNeighbourConfiguredGroups(t *testing.T) {
	groups := `"asian_groups":[["1","2","3"],["0","4","5"]]`
	for _, c := range []struct {
		outcome  string
		returned int64
	}{{"0", 1200}, {"4", 1200}, {"5", 1200}, {"1", 0}, {"36", 0}} {
		out, code, stderr := settleJSON(t, `{"wheel":"single-zero","outcome":"`+c.outcome+`",`+groups+
			`,"wagers":[{"bet":"asian-neighbour","numbers":["5","0","4"],"amount":100}]}`)
		if code != 0 || out.TotalReturned != c.returned {
			t.Errorf("outcome %s: %+v, exit %d %s; want %d returned", c.outcome, out, code, stderr, c.returned)
		}
	}
	// Limits apply as to any individual wager, under its own per-bet limit, and to the total on
	// the group (SPEC §3.7): the second wager on it finds it at its maximum and adds nothing.
	out, code, stderr := settleJSON(t, `{"wheel":"single-zero","outcome":"15","limits":{"min":100,"max":5000,"unit":100,
		"per_bet":{"asian-neighbour":{"min":300,"max":900,"unit":300}}},
		"wagers":[{"bet":"asian-neighbour","numbers":["32","15","19"],"amount":1000},{"bet":"asian-neighbour","numbers":["32","15","19"],"amount":200}]}`)
	if code != 0 || out.Wagers[0].Accepted != 900 || out.Wagers[0].Returned != 900*12 || out.Wagers[1].Accepted != 0 ||
		out.Wagers[1].Reason != "above-maximum" {
		b, _ := json.Marshal(out)
		t.Errorf("limits: %s, exit %d %s", b, code, stderr)
	}
	for _, c := range []struct{ input, want string }{
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"asian-neighbour","numbers":["1","2","3"],"amount":100}]}`, "not a group of this table's Asian racetrack"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"asian-neighbour","numbers":["32","15"],"amount":100}]}`, "3 numbers"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"asian-neighbour","numbers":["32","15","00"],"amount":100}]}`, "00 is not on a single-zero wheel"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"asian-neighbour","numbers":["32","15","19"],"which":1,"amount":100}]}`, `"which" does not apply`},
		{`{"wheel":"single-zero","outcome":"1","asian_groups":[],"wagers":[{"bet":"asian-neighbour","numbers":["32","15","19"],"amount":100}]}`, "no Asian racetrack"},
		{`{"wheel":"single-zero","outcome":"1","asian_groups":[["1","2"]],"wagers":[]}`, "asian_groups: asian racetrack: group 1 has 2 numbers"},
		{`{"wheel":"single-zero","outcome":"1","asian_groups":[["1","2","3"],["3","4","5"]],"wagers":[]}`, "repeats 3"},
		{`{"wheel":"single-zero","outcome":"1","asian_groups":[["1","2","00"]],"wagers":[]}`, "not on a single-zero wheel"},
	} {
		_, code, stderr := settleJSON(t, c.input)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want one line containing %q", c.input, code, stderr, c.want)
		}
	}
}
