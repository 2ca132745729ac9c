package ui

import (
	"strings"
	"testing"

	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
)

// 001 §4.3.3 (issue 32 point 4): a game whose wagers were under the table's minimum reads in the
// records as the live message said it — not recognised, the wagers' amount returned — with the
// outcome the spin had, never "Void: wagers of 0.00 returned".
func TestRule001_4_3_3_RecordsSayNotRecognisedWithTheOutcome(t *testing.T) {
	r := recall.Round{ID: "R7", Layout: roulette.Layout{Wheel: roulette.SingleZero}, Settled: true, Number: 17,
		Wagers:        []recall.Wager{{Accepted: 100}},
		BalanceBefore: 10000, BalanceAfter: 10000}
	got := roundText("AUD", r, nil)
	for _, want := range []string{"Outcome 17", "not recognised", "A$1.00"} {
		if !strings.Contains(got, want) {
			t.Errorf("the record reads %q: no %q", got, want)
		}
	}
	if strings.Contains(got, "Void") || strings.Contains(got, "A$0.00 returned") {
		t.Errorf("the record reads %q", got)
	}
}
