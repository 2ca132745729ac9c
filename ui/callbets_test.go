package ui

// Issue 32 point 5: a call bet on the felt a player trusts — chips on the pieces it covers, its
// numbers lit on the racetrack, no chip over a label, the call-bet line whole.

import (
	"math"
	"slices"
	"testing"

	"fyne.io/fyne/v2/canvas"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// callScreen is a Diagram design's screen of size with voisins at 1 a piece and neighbours
// 17±4 at 1 a piece placed.
func callScreen(t *testing.T, d diagrams.Design, size fyne.Size) (*Screen, roulette.Layout) {
	t.Helper()
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, w := screenAt(t, d, l, size)
	w.SetPadded(false)
	term.SelectChip(100)
	term.Place(roulette.Bet{Call: roulette.Voisins})
	term.Place(roulette.Bet{Call: roulette.Neighbours, Centre: 17, Spread: 4})
	waitView(t, term, "the call bets", func(v app.View) bool { return len(v.Stakes) == 2 })
	s.update(term.View())
	w.Content().Refresh()
	return s, l
}

// Voisins at 1 a piece is nine units on seven pieces: each piece shows a chip of what it
// carries on the felt (a corner of 2, a trio of 2, five splits of 1), the player's own
// chips untouched; before, the felt showed nothing of a call bet.
func TestCallBetChipsStandOnThePiecesItCovers(t *testing.T) {
	s, l := callScreen(t, diagrams.DiagramA, fyne.NewSize(1920, 1080))
	want := map[roulette.Spot]int64{}
	for _, b := range []roulette.Bet{{Call: roulette.Voisins}, {Call: roulette.Neighbours, Centre: 17, Spread: 4}} {
		ps, err := b.Pieces(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			want[p.Spot] += 100 * p.Units
		}
	}
	r := test.WidgetRenderer(s.felt).(*feltRenderer)
	got := map[roulette.Spot]int64{}
	for _, c := range r.drawn {
		if c.call {
			got[c.spot] += c.amount
		}
	}
	if len(got) != len(want) {
		t.Fatalf("the felt shows call-bet chips on %d pieces, want %d: %v", len(got), len(want), got)
	}
	for sp, a := range want {
		if got[sp] != a {
			t.Errorf("piece %v: a chip of %d on the felt, want %d", sp, got[sp], a)
		}
	}
}

// The numbers a call bet covers are lit on the racetrack: voisins' seventeen and 17±4's nine.
func TestRacetrackLightsTheNumbersACallBetCovers(t *testing.T) {
	s, l := callScreen(t, diagrams.DiagramA, fyne.NewSize(1920, 1080))
	var want []roulette.Number
	for _, b := range []roulette.Bet{{Call: roulette.Voisins}, {Call: roulette.Neighbours, Centre: 17, Spread: 4}} {
		ps, _ := b.Pieces(l)
		for _, p := range ps {
			for _, n := range p.Spot.Mask.Numbers() {
				if !slices.Contains(want, n) {
					want = append(want, n)
				}
			}
		}
	}
	r := test.WidgetRenderer(s.track).(*trackRenderer)
	got := slices.Clone(r.lit)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("the racetrack lights %v, want %v", got, want)
	}
}

// A call bet's chip on the racetrack leaves every label readable: the neighbours chip does not
// cover its number's label (it sat on 17's), a sector's chip not the sector's name.
func TestCallBetChipHidesNoRacetrackLabel(t *testing.T) {
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		s, _ := callScreen(t, diagrams.DiagramA, size)
		r := test.WidgetRenderer(s.track).(*trackRenderer)
		if len(r.drawn) != 2 {
			t.Fatalf("%v: %d chips on the racetrack, want 2", size, len(r.drawn))
		}
		scale, _ := fit(s.track.track.Bounds, s.track.Size())
		regions := append(slices.Clone(s.track.track.Numbers), s.track.track.Sectors...)
		for _, c := range r.drawn {
			for _, reg := range regions {
				// The label's box: centred in its cell, em high, as wide as its words at that size.
				em := float32(trackNumberEm)
				if reg.Target.Call != roulette.Neighbours {
					em = 0.3
				}
				side := min(reg.Rect.Max.X-reg.Rect.Min.X, reg.Rect.Max.Y-reg.Rect.Min.Y)
				h := em * side * scale
				lw := fyne.MeasureText(T(reg.Label), h, fyne.TextStyle{Bold: true}).Width
				mid := s.track.ToScreen(diagrams.Point{X: (reg.Rect.Min.X + reg.Rect.Max.X) / 2, Y: (reg.Rect.Min.Y + reg.Rect.Max.Y) / 2})
				// the nearest point of the label's box to the chip's centre
				nx := float32(math.Max(float64(mid.X-lw/2), math.Min(float64(c.at.X), float64(mid.X+lw/2))))
				ny := float32(math.Max(float64(mid.Y-h/2), math.Min(float64(c.at.Y), float64(mid.Y+h/2))))
				if dx, dy := nx-c.at.X, ny-c.at.Y; dx*dx+dy*dy < c.d*c.d/4 {
					t.Errorf("%v: the chip of %d at %v covers the label %q", size, c.amount, c.at, reg.Label)
				}
			}
		}
	}
}

// The call-bet line is whole: at its size, inside its row (it was cut off below at 1920×1080,
// and drawn at 14 points where everything round it is 18 and more).
func TestCallBetLineIsWholeAndReadable(t *testing.T) {
	for _, d := range diagrams.Designs {
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			s, _ := callScreen(t, d, size)
			c := s.calls
			if ts := fyne.CurrentApp().Settings().Theme().Size(c.SizeName); c.SizeName == "" || ts < 17 {
				t.Errorf("%s %v: the call-bet line at %v points (%q)", d.Name, size, ts, c.SizeName)
			}
			if c.Size().Height < c.MinSize().Height {
				t.Errorf("%s %v: the call-bet line is %v high, needs %v", d.Name, size, c.Size().Height, c.MinSize().Height)
			}
			row := s.Elements[diagrams.ElemRacetrack]
			cp := fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
			rp := fyne.CurrentApp().Driver().AbsolutePositionForObject(row)
			if cp.Y+c.Size().Height > rp.Y+row.Size().Height+0.5 {
				t.Errorf("%s %v: the call-bet line ends at %v, below its row's end %v", d.Name, size, cp.Y+c.Size().Height, rp.Y+row.Size().Height)
			}
		}
	}
}

// Seven call bets make more words than the column beside the racetrack holds: the line shows
// the lines that fit, the last cut with an ellipsis, and none below its row.
func TestCallBetLineOfManyBetsStaysInItsRow(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, c := range []struct {
		d    diagrams.Design
		size fyne.Size
	}{{diagrams.DiagramA, fyne.NewSize(1920, 1080)}, {diagrams.DiagramU, fyne.NewSize(1920, 1080)}, {diagrams.DiagramA, fyne.NewSize(1280, 800)}} {
		size := c.size
		s, term, _, w := screenAt(t, c.d, l, size)
		w.SetPadded(false)
		term.SelectChip(100)
		for _, c := range []roulette.Call{roulette.Tier, roulette.Orphelins, roulette.Voisins, roulette.ZeroGame} {
			term.Place(roulette.Bet{Call: c})
		}
		for _, n := range []roulette.Number{4, 17, 32} {
			term.Place(roulette.Bet{Call: roulette.Neighbours, Centre: n, Spread: 2})
		}
		waitView(t, term, "the call bets", func(v app.View) bool { return len(v.Stakes) == 7 })
		s.update(term.View())
		w.Content().Refresh()
		row := s.Elements[diagrams.ElemRacetrack]
		end := fyne.CurrentApp().Driver().AbsolutePositionForObject(row).Y + row.Size().Height
		lines := 0
		for _, o := range test.LaidOutObjects(s.calls) {
			if tx, ok := o.(*canvas.Text); ok && o.Visible() && tx.Text != "" {
				lines++
				if y := fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Y + o.Size().Height; y > end+0.5 {
					t.Errorf("%v: the call-bet line %q ends at %v, below its row's end %v", size, tx.Text, y, end)
				}
			}
		}
		if lines == 0 {
			t.Errorf("%v: the call-bet line shows nothing", size)
		}
	}
}
