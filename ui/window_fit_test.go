package ui

// Issue 32 point 14: after a correction, with the personal limits and the closure sign up on U
// at 1280×800, the whole screen shifted up ~30 px and stayed so: the status and the felt's top
// row were cut off, and a tap aimed at 17 landed as the split 17-18. The window's content must
// never need more than the screen, whatever it shows: each region has a fixed size.

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// crowdedCase is everything the side panel can be asked to show at once on one design: the
// player's own limits and their marker, the closure announced, a pending change of limits, a
// result being corrected (the frozen state's explanation), and a long message.
func crowdedCase(d diagrams.Design) stateCase {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	return stateCase{"crowded_" + d.Name, d, l, func(t *testing.T, l roulette.Layout) []table.Event {
		s := tableSnap(l, table.PhaseNoMoreBets)
		s.Slip = ackedSlip(t, l, "R42", inside(t, l, roulette.Straight, 500, 17), outside(t, l, roulette.Red, 0, 1000))
		own := roulette.Limits{Default: roulette.Limit{Min: 500, Max: 100000, Unit: 500}, AggregateMin: 1000}
		s.PlayerLimits = &own
		s.ClosingAt = t0.Add(24*time.Minute + 30*time.Second)
		next := roulette.Limits{Default: roulette.Limit{Min: 1000, Max: 200000, Unit: 500}, AggregateMin: 2000}
		s.Pending = &table.PendingLimits{Limits: next, At: t0.Add(30 * time.Minute)}
		win := table.Settled{RoundID: "R42", Number: 17, Recognised: true, Staked: 1500, Returned: 18000, Balance: 100000 - 1500 + 18000}
		return []table.Event{up, s,
			table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R42", Number: 17, At: t0}}, win,
			table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R42"},
			table.FrozenChanged{Frozen: true, Reason: "correcting the result of R42"},
		}
	}}
}

// The screen's smallest size is within the screen in every state of every design, at both
// kiosk sizes, in both languages, with the language button the kiosk shows; and every object
// shown lies on the screen.
func TestWindowContentNeverExceedsTheScreen(t *testing.T) {
	restoreLanguage(t)
	cases := stateCases()
	for _, d := range diagrams.Designs {
		cases = append(cases, crowdedCase(d))
	}
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		test.NewTempApp(t)
		for _, c := range cases {
			s, w := stateScreen(t, c)
			s.OfferLanguages(func(string) {})
			w.SetPadded(false)
			for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
				w.Resize(size)
				s.update(s.term.View())
				w.Content().Refresh()
				where := fmt.Sprintf("%s %s at %v", language, c.file, size)
				if m := s.Content().MinSize(); m.Width > size.Width+0.5 || m.Height > size.Height+0.5 {
					t.Errorf("%s: the screen needs %v", where, m)
				}
				regions := []fyne.CanvasObject{s.felt, s.Elements[diagrams.ElemRacetrack], s.chips, s.controlsRow, s.messageView,
					s.status, s.countdown, s.balance, s.bet, s.explain, s.resultBox, s.stats.box, s.history, s.personal,
					s.limits.box, s.pending, s.lucky, s.tournament.box}
				for _, o := range regions {
					if !o.Visible() || o.Size().IsZero() {
						continue
					}
					p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
					if end := p.Add(o.Size()); p.Y < -0.5 || end.Y > size.Height+0.5 || p.X < -0.5 || end.X > size.Width+0.5 {
						t.Errorf("%s: %T at %v–%v is off the screen", where, o, p, end)
					}
				}
			}
		}
	}
}
