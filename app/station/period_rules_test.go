package station_test

import (
	"testing"
	"time"

	"github.com/tablegames/ats/server"
)

// TestRule001_5_1_2_WageringPeriodOnTheTerminal: "If the casino operator has not made a
// determination, the wagering period is 30 seconds" (001 §5.1.2), through the real table server
// and a real station. A table left at its default configuration tells the terminal a period of
// 30 s, and the terminal's countdown starts from 30 s; once the operator sets 45 s (the dealer's
// period command), the next round's countdown starts from 45 s.
func TestRule001_5_1_2_WageringPeriodOnTheTerminal(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) { c.Period = server.DefaultConfig().Period }})
	v := r.ready()
	if v.Config.WageringPeriod != 30*time.Second {
		t.Fatalf("the terminal was told a period of %v, want 30s", v.Config.WageringPeriod)
	}
	countdown := func(want time.Duration) string {
		t.Helper()
		round := r.startRound()
		// Read at once: the countdown is the period less the little the test took to get here.
		if left := r.st.Terminal.Remaining(); left > want || left < want-2*time.Second {
			t.Fatalf("the countdown of %s starts at %v, want %v", round, left, want)
		}
		return round
	}
	round := countdown(30 * time.Second)
	r.dropAndEnter(round, "5")
	if _, err := r.demo.Table.SetWageringPeriod("dealer:test", 45*time.Second); err != nil {
		t.Fatal(err)
	}
	countdown(45 * time.Second)
}
