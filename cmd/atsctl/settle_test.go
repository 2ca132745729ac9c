package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/settle")

// The examples under testdata/settle are the contract's worked examples: each input's output is
// kept beside it and reviewed by hand (the expected numbers are derived in settle_cases_test).
func TestSettleGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/settle/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"settle"}, bytes.NewReader(data), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			golden := strings.TrimSuffix(in, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(stdout.Bytes(), want) {
				t.Errorf("output differs from %s:\n got %s\nwant %s", golden, stdout.String(), want)
			}
		})
	}
}

func settleJSON(t *testing.T, input string) (settleOutput, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run([]string{"settle"}, strings.NewReader(input), &stdout, &stderr)
	var out settleOutput
	if code == 0 {
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("output is not JSON: %v: %s", err, stdout.String())
		}
	}
	return out, code, stderr.String()
}

// Each case's expected numbers are worked out by hand from the rules in the comment.
func TestSettleCases(t *testing.T) {
	cases := []struct {
		name     string
		input    string
		accepted []int64
		reasons  []string
		results  []string
		returned []int64
	}{
		{
			name:     "straight-up 35 to 1 plus the stake",
			input:    `{"wheel":"single-zero","outcome":"17","wagers":[{"bet":"straight","numbers":["17"],"amount":500}]}`,
			accepted: []int64{500}, reasons: []string{""}, results: []string{"won"}, returned: []int64{18000},
		},
		{
			name: "balance runs out in order; clamp to what remains",
			input: `{"wheel":"single-zero","outcome":"2","balance":1000,"limits":{"min":100,"max":5000,"unit":100},
				"wagers":[{"bet":"even","amount":700},{"bet":"dozen","which":1,"amount":700},{"bet":"red","amount":100}]}`,
			accepted: []int64{700, 300, 0}, reasons: []string{"", "insufficient-balance", "insufficient-balance"},
			results: []string{"won", "won", "lost"}, returned: []int64{1400, 900, 0},
		},
		{
			name: "call bet refused whole when a piece is below its minimum",
			input: `{"wheel":"single-zero","outcome":"5","limits":{"min":100,"max":5000,"unit":100},
				"wagers":[{"bet":"tier","amount":50},{"bet":"tier","amount":100}]}`,
			accepted: []int64{0, 600}, reasons: []string{"below-minimum", ""},
			results: []string{"lost", "won"}, returned: []int64{0, 1800},
		},
		{
			// Voisins 9 units at 100: 0 lands on the street 0/2/3 (2 units, 200 → 200×12).
			name:     "voisins on zero",
			input:    `{"wheel":"single-zero","outcome":"0","wagers":[{"bet":"voisins","amount":100}]}`,
			accepted: []int64{900}, reasons: []string{""}, results: []string{"won"}, returned: []int64{2400},
		},
		{
			// Zero game 0/3 split wins 17 to 1 on 3; 12/15, 32/35 and 26 lose.
			name:     "zero game on 3",
			input:    `{"wheel":"single-zero","outcome":"3","wagers":[{"bet":"zero-game","amount":100}]}`,
			accepted: []int64{400}, reasons: []string{""}, results: []string{"won"}, returned: []int64{1800},
		},
		{
			name:     "crown-rapid double zero: on 00 the 0/00 split wins, outside bets lose",
			input:    `{"wheel":"double-zero","outcome":"00","wagers":[{"bet":"split","numbers":["0","00"],"amount":100},{"bet":"low","amount":100}]}`,
			accepted: []int64{100, 100}, reasons: []string{"", ""}, results: []string{"won", "lost"}, returned: []int64{1800, 0},
		},
		{
			name: "not recognised below the aggregate minimum: stakes returned",
			input: `{"wheel":"single-zero","outcome":"1","limits":{"min":100,"max":5000,"unit":100,"aggregate_min":500},
				"wagers":[{"bet":"straight","numbers":["1"],"amount":400}]}`,
			accepted: []int64{400}, reasons: []string{""}, results: []string{"not-recognised"}, returned: []int64{400},
		},
		{
			name: "per_bet overrides the default for that piece kind",
			input: `{"wheel":"single-zero","outcome":"20","limits":{"min":100,"max":5000,"unit":100,"per_bet":{"straight":{"min":200,"max":400,"unit":200}}},
				"wagers":[{"bet":"neighbours","numbers":["20"],"spread":1,"amount":300},{"bet":"split","numbers":["17","20"],"amount":300}]}`,
			accepted: []int64{600, 300}, reasons: []string{"off-unit", ""}, results: []string{"won", "won"}, returned: []int64{200 * 36, 300 * 18},
		},
		{
			name: "lucky ball standard odds without a super colour; main game need not be bet",
			input: `{"wheel":"single-zero","outcome":"30","lucky_ball":{"version":"standard","numbers":{"red":"7","green":"13","blue":"22","yellow":"30"}},
				"wagers":[{"bet":"lucky-ball","colour":"yellow","amount":100},{"bet":"lucky-ball","colour":"red","amount":100}]}`,
			accepted: []int64{100, 100}, reasons: []string{"", ""}, results: []string{"won", "lost"}, returned: []int64{2600, 0},
		},
		{
			// 003 §8.11: the display malfunctioned: yellow's 30 comes up and its wager is only
			// returned; the main game's straight 30 is paid as ever.
			name: "lucky ball void after a display malfunction; the main game settles",
			input: `{"wheel":"single-zero","outcome":"30","lucky_ball":{"version":"standard","numbers":{"red":"7","green":"13","blue":"22","yellow":"30"},"super":"yellow","void":true},
				"wagers":[{"bet":"lucky-ball","colour":"yellow","amount":100},{"bet":"straight","numbers":["30"],"amount":100}]}`,
			accepted: []int64{100, 100}, reasons: []string{"", ""}, results: []string{"void", "won"}, returned: []int64{100, 3600},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, code, stderr := settleJSON(t, c.input)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var ta, tr int64
			for i, w := range out.Wagers {
				if w.Index != i || w.Accepted != c.accepted[i] || w.Reason != c.reasons[i] || w.Result != c.results[i] || w.Returned != c.returned[i] {
					t.Errorf("wager %d: %+v, want accepted %d reason %q result %s returned %d", i, w, c.accepted[i], c.reasons[i], c.results[i], c.returned[i])
				}
				ta += w.Accepted
				tr += w.Returned
			}
			if len(out.Wagers) != len(c.accepted) || out.TotalAccepted != ta || out.TotalReturned != tr {
				t.Errorf("totals %d/%d for %d wagers", out.TotalAccepted, out.TotalReturned, len(out.Wagers))
			}
		})
	}
}

// Invalid input: exit 2 and one line on stderr naming what is wrong (the wager index for a wager).
func TestSettleInvalidInput(t *testing.T) {
	cases := []struct{ input, want string }{
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"split","numbers":["1","5"],"amount":100}]}`, "wager 0: split 1-5: numbers are not adjacent"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":100},{"bet":"straight","numbers":["00"],"amount":100}]}`, "wager 1: straight 00: 00 is not on a single-zero wheel"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"neighbours","numbers":["17"],"spread":7,"amount":100}]}`, "wager 0: neighbours of 17: spread 7"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"corner","numbers":["1","2","3","4"],"amount":100}]}`, "wager 0: corner 1-2-3-4"},
		{`{"wheel":"double-zero","outcome":"1","wagers":[{"bet":"tier","amount":100}]}`, "wager 0: tier is a sector of the single-zero wheel"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":-5}]}`, "wager 0: amount -5"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":0}]}`, "wager 0: amount 0"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":1.5}]}`, "wager 0:"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red"}]}`, `wager 0: "amount" is required`},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":100,"colour":"red"}]}`, "wager 0: red: \"colour\" does not apply"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"basket","amount":100}]}`, `wager 0: unknown bet "basket"`},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":100,"extra":1}]}`, "wager 0:"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"red","amount":9223372036854775807}]}`, "wager 0: amount"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"lucky-ball","colour":"red","amount":100}]}`, `wager 0: lucky-ball wager, but the input has no "lucky_ball" draw`},
		{`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"column","which":4,"amount":100}]}`, "wager 0: column 4"},
		{`{"wheel":"single-zero","outcome":"00","wagers":[]}`, "outcome: 00 is not on a single-zero wheel"},
		// 000 §8.4.3(c): Diagrams V/W join 00 to 0 only (and the First Five).
		{`{"wheel":"double-zero","profile":"crown-vw","outcome":"00","wagers":[{"bet":"split","numbers":["00","3"],"amount":100}]}`, "wager 0: split 00-3: this double-zero layout (crown-vw) has no such zero bet"},
		{`{"wheel":"double-zero","profile":"crown","outcome":"00","wagers":[]}`, `profile: unknown profile "crown" (crown-rapid, star, crown-fh, crown-vw)`},
		{`{"wheel":"triple-zero","outcome":"1","wagers":[]}`, "wheel:"},
		{`{"wheel":"single-zero","outcome":"1"}`, `"wagers" is required`},
		{`{"wheel":"single-zero","outcome":"1","wagers":[],"limits":{"min":0,"max":100}}`, "limits"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[],"limits":{"min":100,"per_bet":{"bogus":{"min":1}}}}`, "per_bet"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[],"lucky_ball":{"version":"standard","numbers":{"red":"1","green":"1","blue":"2","yellow":"3"}}}`, "lucky ball"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[],"lucky_ball":{"version":"standard","numbers":{"red":"1","green":"2","blue":"3","yellow":"4"},"mega":"red"}}`, "mega"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[],"balance":-1}`, "balance"},
		{`{"wheel":"single-zero","outcome":"1","wagers":[]} {}`, "trailing"},
		{`not json`, "invalid input"},
	}
	for _, c := range cases {
		_, code, stderr := settleJSON(t, c.input)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2", c.input, code)
			continue
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: stderr %q, want one line containing %q", c.input, stderr, c.want)
		}
	}
}

func TestUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(nil, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "settle") {
		t.Errorf("no arguments: exit %d, %q", code, stderr.String())
	}
	if code := run([]string{"frobnicate"}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
	if code := run([]string{"settle", "extra"}, strings.NewReader("{}"), &stdout, &stderr); code != 2 {
		t.Errorf("settle with arguments: exit %d", code)
	}
}

// FuzzSettle: any input is either settled consistently or refused with exit 2 — never a panic.
func FuzzSettle(f *testing.F) {
	inputs, _ := filepath.Glob("testdata/settle/*.json")
	for _, in := range inputs {
		data, _ := os.ReadFile(in)
		f.Add(data)
	}
	f.Add([]byte(`{"wheel":"single-zero","outcome":"1","wagers":[{"bet":"neighbours","numbers":["0"],"spread":4,"amount":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"settle"}, bytes.NewReader(data), &stdout, &stderr)
		if code == 2 {
			if strings.Count(stderr.String(), "\n") != 1 {
				t.Fatalf("error is not one line: %q", stderr.String())
			}
			return
		}
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var out settleOutput
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		var ta, tr int64
		for _, w := range out.Wagers {
			if w.Accepted < 0 || w.Returned < 0 {
				t.Fatalf("negative amounts: %+v", w)
			}
			if !out.Recognised && (w.Result != "not-recognised" || w.Returned != w.Accepted) {
				t.Fatalf("not recognised but %+v", w)
			}
			ta += w.Accepted
			tr += w.Returned
		}
		if ta != out.TotalAccepted || tr != out.TotalReturned {
			t.Fatalf("totals do not add up: %+v", out)
		}
	})
}

// Issue 34, finding 1 (001 §4.3.2, SPEC §3.7): two straight 17 wagers of 25.00 and a
// neighbours-of-17 bet at 25.00 a piece (straight maximum 25.00) were accepted as 75.00 on
// straight 17. The slip is priced spot by spot: the first wager fills 17, the second adds
// nothing, and the neighbours bet, whose piece on 17 cannot be placed, is refused whole.
func TestAttackSettleTwoStraightsAndNeighboursOnOneSpot(t *testing.T) {
	out, code, stderr := settleJSON(t, `{"wheel":"single-zero","outcome":"17",
		"limits":{"min":100,"max":50000,"unit":100,"per_bet":{"straight":{"min":100,"max":2500,"unit":100}}},
		"wagers":[{"bet":"straight","numbers":["17"],"amount":2500},{"bet":"straight","numbers":["17"],"amount":2500},
		          {"bet":"neighbours","numbers":["17"],"spread":2,"amount":2500}]}`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []struct {
		accepted int64
		reason   string
	}{{2500, ""}, {0, "above-maximum"}, {0, "above-maximum"}}
	for i, w := range want {
		if got := out.Wagers[i]; got.Accepted != w.accepted || got.Reason != w.reason {
			t.Errorf("wager %d: accepted %d %q, want %d %q", i, got.Accepted, got.Reason, w.accepted, w.reason)
		}
	}
	if out.TotalAccepted != 2500 || out.TotalReturned != 2500*36 {
		t.Errorf("total accepted %d returned %d, want 2500 and %d (at most 875.00 won)", out.TotalAccepted, out.TotalReturned, 2500*36)
	}
}
