package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// trackRegion is the racetrack row: the neighbours spread to choose, the call bets in a line
// under it, and the racetrack itself with the call bets' chips and the numbers they cover.
type trackRegion struct {
	track      *Racetrack
	spreadSel  *segmented // the neighbours spread: its chosen segment is the spread less one
	calls      *widget.Label
	neighbours *fyne.Container // the row: the spread's column and the racetrack
}

func newTrackRegion(s *Screen, l roulette.Layout) (*trackRegion, error) {
	track, err := diagrams.NewRacetrack(l.Wheel)
	if err != nil {
		return nil, err
	}
	track.AddAsian(l.Asian) // the Asian racetrack when the table offers it (002 §3.2)
	r := &trackRegion{calls: widget.NewLabel("")}
	r.spreadSel = newSegmented([]string{"1", "2", "3", "4"}, roulette.DefaultSpread-1, nil)
	r.track = NewRacetrack(track)
	r.track.OnTapped = func(tr diagrams.TrackRegion) {
		s.touched(func() { s.term.Place(tr.Target.Bet(r.spreadSel.Selected() + 1)) })
	}
	r.calls.Truncation = fyne.TextTruncateEllipsis
	spreadL := &spreadColumn{}
	spreadCol := container.New(spreadL, text(T("Neighbours"), 18, panelDimText), r.spreadSel, r.calls)
	rb := track.Bounds
	r.neighbours = container.New(&trackRow{aspect: (rb.Max.X - rb.Min.X) / (rb.Max.Y - rb.Min.Y), spread: spreadL, calls: r.calls}, spreadCol, r.track)
	return r, nil
}

func (r *trackRegion) update(v app.View) {
	// The racetrack says what the felt says: no chips now (issue 32 point 9: after NO MORE
	// BETS it looked live).
	r.track.SetClosed(v.Period == app.PeriodNoMoreBets)
	laid := chipsOnLayout(v)
	r.track.SetStakes(laid.onTrack)
	r.track.SetCovered(laid.onFelt.covered)
	// The call bets in one line under the spread (their chips stand on the racetrack): the
	// line's place is kept while there are none, so the racetrack does not move when one comes.
	if t := strings.Join(laid.calls, " · "); t != r.calls.Text {
		r.calls.SetText(t)
	}
}

// wheelOrder writes a group's numbers in the order the wheel (and the racetrack) has them:
// "32 15 19", as the Asian racetrack's box reads (002 §3.2).
func wheelOrder(m roulette.Mask, w roulette.Wheel) string {
	var parts []string
	for _, n := range w.Order() {
		if m.Has(n) {
			parts = append(parts, n.String())
		}
	}
	return strings.Join(parts, " ")
}
