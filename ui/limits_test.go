package ui

import (
	"strings"
	"testing"

	"github.com/tablegames/ats/app/table"

	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// feltChips is what the felt draws: the amount printed on each chip drawn into its picture, by
// the spot under the chip's centre.
func feltChips(s *Screen) map[roulette.Spot]string {
	chips := map[roulette.Spot]string{}
	for _, c := range test.WidgetRenderer(s.felt).(*feltRenderer).drawn {
		if r, ok := s.geom.Hit(s.felt.toLayout(c.at)); ok {
			chips[r.Spot] = money(c.amount)
		}
	}
	return chips
}

// What the player sees when a touch meets the limits (rule 4.3), through the screen: below the
// minimum no chip appears and the message says why; over the maximum, off the unit or beyond
// the balance the chip shows the next lowest permitted amount and the message says so; a
// touch on a spot already at its maximum leaves the chip as it was.
func TestLimitFeedbackOnTheLayout(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	red, err := l.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	s17, err := l.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	highMin := roulette.Limits{Default: roulette.Limit{Min: 500, Max: 50000, Unit: 100}}
	cases := []struct {
		name    string
		limits  roulette.Limits
		balance int64
		chip    int64
		spot    roulette.Spot
		taps    int
		chipSay string // the chip drawn on the spot, "" for none
		says    string // in the message line
	}{
		{"below the minimum", highMin, 100000, 100, red, 1, "", "Red: below the minimum for this bet: no chips placed"},
		{"above the maximum", testLimits, 100000, 10000, s17, 1, "25", "above the maximum for this bet: reduced to the next lowest permitted wager: 25.00"},
		{"off the unit", testLimits, 100000, 250, red, 1, "2", "not a permitted multiple over the minimum: reduced to the next lowest permitted wager: 2.00"},
		{"beyond the balance", testLimits, 3000, 10000, red, 1, "30", "more than the balance covers: reduced to what the balance allows: 30.00"},
		{"again at the maximum", testLimits, 100000, 2500, s17, 2, "25", "above the maximum for this bet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			snap := tableSnap(l, table.PhaseWagering)
			snap.Limits, snap.Balance, snap.Config.Chips = c.limits, c.balance, []int64{100, c.chip}
			s, _ := stateScreen(t, stateCase{design: diagrams.DiagramA, layout: l,
				events: func(*testing.T, roulette.Layout) []table.Event { return []table.Event{up, snap} }})
			test.Tap(findChip(t, s.Content(), money(c.chip)))
			s.update(s.term.View())
			r, _ := s.geom.Region(c.spot)
			for range c.taps {
				test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
				s.update(s.term.View()) // as Follow would, on the Fyne thread
			}
			chips := feltChips(s)
			if chips[c.spot] != c.chipSay || len(chips) > 1 || len(chips) == 1 && c.chipSay == "" {
				t.Errorf("chips drawn %v, want %q on %v", chips, c.chipSay, c.spot)
			}
			if !strings.Contains(shown(s), c.says) {
				t.Errorf("the message says %q, want %q", shown(s), c.says)
			}
			if want := c.chipSay + ".00"; c.chipSay == "" && s.bet.Text != "0.00" || c.chipSay != "" && !strings.HasPrefix(s.bet.Text, want) {
				t.Errorf("BET shows %q with the chip %q", s.bet.Text, c.chipSay)
			}
		})
	}
}
