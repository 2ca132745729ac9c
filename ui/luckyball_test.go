package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
)

// TestRule003_7_6_SuperOddsShownOnceChosen: "The screen will indicate the selected number, and
// display the new payout odds" (003 §7.6). Before no more bets the Lucky Ball panel shows the four
// numbers at their standard odds (Table One) and no colour marked; once the table has chosen the
// Super colour, that colour is marked SUPER and shows its Super odds in place of the standard,
// the other three keeping theirs (§7.7).
func TestRule003_7_6_SuperOddsShownOnceChosen(t *testing.T) {
	test.NewTempApp(t)
	draw := roulette.LuckyBallDraw{Version: roulette.LuckyStandard, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	shown := func(d roulette.LuckyBallDraw) map[color.NRGBA][]string {
		got := map[color.NRGBA][]string{}
		walkObjects(luckyBallPanel(&d, d.Version, nil, true, func(roulette.BallColour) {}), func(o fyne.CanvasObject) {
			if tx, ok := o.(*canvas.Text); ok {
				if c, ok := tx.Color.(color.NRGBA); ok {
					got[c] = append(got[c], tx.Text)
				}
			}
		})
		return got
	}
	check := func(when string, got map[color.NRGBA][]string, want [4][]string) {
		t.Helper()
		for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
			g := got[ballColours[c]]
			if len(g) != len(want[c]) || g[0] != want[c][0] || g[1] != want[c][1] {
				t.Errorf("%s: %s cell shows %q, want %q", when, c, g, want[c])
			}
		}
	}
	check("before no more bets", shown(draw), [4][]string{{"6:1", ""}, {"12:1", ""}, {"20:1", ""}, {"25:1", ""}})
	draw.Super, draw.HasSuper = roulette.BallGreen, true
	check("green chosen", shown(draw), [4][]string{{"6:1", ""}, {"100:1", "SUPER"}, {"20:1", ""}, {"25:1", ""}})
}
