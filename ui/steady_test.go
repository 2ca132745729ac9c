package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// Nothing the player touches moves while the screen changes under a finger (issue 18: the
// layout jumped ~12 px when the dealer offered a buy-in and ~4 px when the first call bet's
// line appeared, so a tap meant for one spot landed on another). Across a buy-in offer, call
// bets placed, a long message and all of them going again, the felt, the racetrack, the
// neighbours' spread and the chip tray keep their place and size, in every design, at both
// kiosk sizes.
func TestNothingMovesUnderAFinger(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		for _, d := range diagrams.Designs {
			s, term, _, w := screenAt(t, d, l, size)
			w.SetPadded(false)
			spread := s.Elements[diagrams.ElemRacetrack].(*fyne.Container).Objects[0].(*fyne.Container).Objects[1]
			watched := map[string]fyne.CanvasObject{"felt": s.felt, "racetrack": s.track, "chip tray": s.chips, "spread": spread}
			type place struct{ pos, size fyne.Size }
			where := func() map[string]place {
				w.Content().Refresh()
				out := map[string]place{}
				for name, o := range watched {
					p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
					out[name] = place{fyne.NewSize(p.X, p.Y), o.Size()}
				}
				return out
			}
			base := term.View()
			s.update(base)
			want := where()
			offer := base
			offer.BuyIn = &table.BuyInOffered{ID: "B7", Amount: 50000}
			calls := offer
			calls.Stakes = append([]app.Stake{}, base.Stakes...)
			calls.Stakes = append(calls.Stakes,
				app.Stake{Bet: roulette.Bet{Call: roulette.Neighbours, Centre: 17, Spread: 2}, Amount: 100},
				app.Stake{Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 900},
				app.Stake{Bet: roulette.Bet{Call: roulette.Tier}, Amount: 600})
			long := calls
			long.Message = app.Notice{Msg: msg.New("The dealer offers a buy-in of %s", "500.00 — a message long enough to need a second line on the narrower screen, and more")}
			for _, step := range []struct {
				name string
				v    app.View
			}{{"a buy-in offered", offer}, {"call bets placed", calls}, {"a long message", long}, {"all gone again", base}} {
				s.update(step.v)
				got := where()
				for name, p := range want {
					if got[name] != p {
						t.Errorf("Diagram %s at %v: with %s the %s moved from %v to %v", d.Name, size, step.name, name, p, got[name])
					}
				}
			}
		}
	}
}
