package ui

// Issue 32 point 7: the side panel a player reads at a glance — nothing in it over anything
// else, every bar named, hot and cold only once there is a sample to call them by.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// rectOf is an object's place on the screen.
func rectOf(o fyne.CanvasObject) (fyne.Position, fyne.Position) {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return p, p.Add(o.Size())
}

// overlaps tells whether two shown objects' places share more than a pixel's row.
func overlaps(a, b fyne.CanvasObject) bool {
	if !a.Visible() || !b.Visible() || a.Size().IsZero() || b.Size().IsZero() {
		return false
	}
	a0, a1 := rectOf(a)
	b0, b1 := rectOf(b)
	return a0.X < b1.X-1 && b0.X < a1.X-1 && a0.Y < b1.Y-1 && b0.Y < a1.Y-1
}

// The first result of a session comes while the statistics show: the result, the statistics
// and the history keep apart, as the frame after the result draws them (no relayout of the
// whole screen in between, as on the cabinet). The result's tile grew on its first showing and
// pushed the statistics down over the history tiles.
func TestResultStatisticsAndHistoryNeverOverlap(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		for _, d := range diagrams.Designs {
			test.NewTempApp(t)
			s, term, link, w := screenAt(t, d, l, size)
			s.OfferLanguages(func(string) {})
			w.SetPadded(false)
			w.Resize(size)
			w.Content().Refresh()
			link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R7"})
			link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R7", Number: 23, At: t0}})
			link.Push(table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R7"})
			waitView(t, term, "the result", func(v app.View) bool { return v.Phase == table.PhaseResult && v.LastOutcome != nil })
			s.update(term.View())
			where := fmt.Sprintf("%s %v", d.Name, size)
			parts := map[string]fyne.CanvasObject{"the result": s.resultBox, "the statistics": s.stats.box, "the history": s.history,
				"the limit sign": s.limits.box}
			for an, a := range parts {
				for bn, b := range parts {
					if an < bn && overlaps(a, b) {
						a0, a1 := rectOf(a)
						b0, b1 := rectOf(b)
						t.Errorf("%s: %s (%v–%v) over %s (%v–%v)", where, an, a0, a1, bn, b0, b1)
					}
				}
			}
			if _, end := rectOf(s.limits.box); end.Y > size.Height+0.5 {
				t.Errorf("%s: the limit sign ends at %v, below the screen", where, end.Y)
			}
		}
	}
}

// Every share on a bar is named: "BLACK 33%", never "33%" alone (the name went where the share
// was too narrow for it), whatever the sample.
func TestStatisticsBarsAreAlwaysNamed(t *testing.T) {
	test.NewTempApp(t)
	for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
		for _, h := range [][]roulette.Number{
			{17, 0, 32},
			{17, 32, 0, 5, 26, 11, 17, 36, 2, 19, 8, 23},
			{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 25, 0},
		} {
			b := newStatsBoard()
			var hist []table.Outcome
			for i, n := range h {
				hist = append(hist, table.Outcome{RoundID: string(rune('A' + i)), Number: n})
			}
			b.show(hist, w)
			b.box.Resize(fyne.NewSize(sidePanelWidth-8, statsHeight))
			for _, bar := range b.bars {
				for _, seg := range bar.segs {
					if seg.count == 0 {
						continue
					}
					if !seg.label.Visible() || !strings.Contains(seg.label.Text, seg.name+" ") {
						t.Errorf("%v after %v: a share of %d reads %q, not named %q", w, h, seg.count, seg.label.Text, seg.name)
					}
					if mw := fyne.MeasureText(seg.label.Text, seg.label.TextSize, seg.label.TextStyle).Width; mw > seg.bg.Size().Width {
						t.Errorf("%v after %v: %q is %v wide on a share %v wide", w, h, seg.label.Text, mw, seg.bg.Size().Width)
					}
				}
			}
		}
	}
}

// Hot and cold numbers are named only from table.HotColdMinSpins spins on; before, the board
// says when they come, in their place. After one spin the number seen was "hot".
func TestHotAndColdOnlyAfterEnoughSpins(t *testing.T) {
	test.NewTempApp(t)
	b := newStatsBoard()
	var hist []table.Outcome
	for i := range table.HotColdMinSpins {
		b.show(hist, roulette.SingleZero)
		if b.hotCap.Visible() || b.coldCap.Visible() || b.hot[0].bg.Visible() || b.cold[0].bg.Visible() {
			t.Fatalf("after %d spins the board names hot or cold numbers", i)
		}
		if !b.hotColdNote.Visible() || !strings.Contains(b.hotColdNote.Text, "10") {
			t.Fatalf("after %d spins the board says %q where hot and cold will be", i, b.hotColdNote.Text)
		}
		hist = append([]table.Outcome{{RoundID: string(rune('A' + i)), Number: roulette.Number(i % 3), At: t0.Add(time.Duration(i))}}, hist...)
	}
	b.show(hist, roulette.SingleZero)
	if !b.hotCap.Visible() || !b.hot[0].bg.Visible() || b.hotColdNote.Visible() {
		t.Fatalf("after %d spins no hot numbers", len(hist))
	}
}

// The history's tiles are read from the seat: where the panel has the height (1920×1080) they
// are tall with large numbers, not the 40-pixel tiles of 22 points left beside empty space; at
// 1280×800 they keep the size that fits.
func TestHistoryTilesLargeWhereThePanelHasRoom(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, c := range []struct {
		size         fyne.Size
		height, text float32
	}{{fyne.NewSize(1920, 1080), 56, 28}, {fyne.NewSize(1280, 800), 40, 22}} {
		for _, d := range diagrams.Designs {
			test.NewTempApp(t)
			s, _, _, w := screenAt(t, d, l, c.size)
			s.OfferLanguages(func(string) {})
			w.SetPadded(false)
			w.Resize(c.size)
			w.Content().Refresh()
			tile := s.tiles[0]
			if h := tile.box.Size().Height; h < c.height-0.5 {
				t.Errorf("%s %v: history tiles %v high, want %v", d.Name, c.size, h, c.height)
			}
			if tile.num.TextSize < c.text {
				t.Errorf("%s %v: history numbers at %v points, want %v", d.Name, c.size, tile.num.TextSize, c.text)
			}
		}
	}
}
