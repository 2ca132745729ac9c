package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// history is a run of outcomes, newest first.
func history(ns ...roulette.Number) []table.Outcome {
	h := make([]table.Outcome, len(ns))
	for i, n := range ns {
		h[i] = table.Outcome{RoundID: fmt.Sprintf("R%d", 100-i), Number: n}
	}
	return h
}

// boardAt is a statistics board laid out at the side panel's width.
func boardAt(h []table.Outcome, w roulette.Wheel) *statsBoard {
	b := newStatsBoard()
	b.box.Resize(fyne.NewSize(signWidth, statsHeight))
	b.show(h, w)
	b.box.Resize(fyne.NewSize(signWidth, statsHeight))
	b.box.Layout.Layout(b.box.Objects, b.box.Size())
	return b
}

type segShown struct {
	label string
	width float32
}

func segsOf(bar *splitBar) []segShown {
	var out []segShown
	for _, s := range bar.segs {
		if s.bg.Visible() {
			l := ""
			if s.label.Visible() {
				l = s.label.Text
			}
			out = append(out, segShown{l, s.bg.Size().Width})
		}
	}
	return out
}

// The board shows the splits of the sample as bars whose parts are as wide as their shares,
// each part's name and percentage written in it where they fit, the zeros apart in green; the
// hot and cold numbers on tiles of their colours with their counts; and the sample's size.
func TestStatsBoardShowsTheSplits(t *testing.T) {
	test.NewTempApp(t)
	// 17 black odd low 2nd; 32 red even high 3rd; 5 red odd low 1st; 26 black even high 3rd;
	// 12 red even low 1st; 13 black odd low 2nd; 24 black even high 2nd; 25 red odd high 3rd;
	// 31 black odd high 3rd: red 4, black 6, odd 6, even 4, low 5, high 5, dozens 2 4 4.
	h := history(17, 32, 0, 5, 26, 12, 13, 24, 25, roulette.DoubleZeroNumber, 17, 31)
	b := boardAt(h, roulette.DoubleZero)
	if b.heading.Text != "Last 12 spins" {
		t.Errorf("heading %q", b.heading.Text)
	}
	w := float32(signWidth)
	// Every part named (issue 32 point 7); a part too narrow for its words at the least size is
	// widened to them, from the wider parts, which keep their proportions among themselves.
	want := [4][]string{
		{"RED 33%", "0/00 17%", "BLACK 50%"},
		{"ODD 50%", "0/00 17%", "EVEN 33%"},
		{"1 to 18 42%", "0/00 17%", "19 to 36 42%"},
		{"0/00 17%", "1st 17%", "2nd 33%", "3rd 33%"},
	}
	for i, bar := range b.bars {
		got := segsOf(bar)
		if len(got) != len(want[i]) {
			t.Errorf("bar %d: %v, want %v", i, got, want[i])
			continue
		}
		var total float32
		for j := range got {
			total += got[j].width
			if got[j].label != want[i][j] {
				t.Errorf("bar %d part %d reads %q, want %q", i, j, got[j].label, want[i][j])
			}
			if lw := fyne.MeasureText(got[j].label, statsBarLeast, fyne.TextStyle{Bold: true}).Width; got[j].width < lw {
				t.Errorf("bar %d part %d: %q needs %.1f, has %.1f", i, j, got[j].label, lw, got[j].width)
			}
		}
		if math.Abs(float64(total-w)) > 0.5 {
			t.Errorf("bar %d: parts %.1f wide in all, the bar %.1f", i, total, w)
		}
	}
	// BLACK (6) is half as wide again as RED (4): both wide enough, in proportion.
	if r, k := segsOf(b.bars[0])[0].width, segsOf(b.bars[0])[2].width; math.Abs(float64(k/r-1.5)) > 0.01 {
		t.Errorf("RED %.1f and BLACK %.1f wide: not 4 to 6", r, k)
	}
	tiles := func(ts [3]*countTile) (out []string) {
		for _, t := range ts {
			if t.bg.Visible() {
				out = append(out, t.num.Text+" "+t.count.Text)
			}
		}
		return out
	}
	if got := fmt.Sprint(tiles(b.hot)); got != "[17 ×2 32 ×1 0 ×1]" { // 32 and 0 once, 32 the more recent
		t.Errorf("hot tiles %s", got)
	}
	if got := fmt.Sprint(tiles(b.cold)); got != "[1 ×0 2 ×0 3 ×0]" {
		t.Errorf("cold tiles %s", got)
	}
	if b.hot[1].bg.FillColor != numRed || !b.hot[1].mark.Visible() || b.hot[2].bg.FillColor != numGreen || b.hot[2].mark.Visible() {
		t.Errorf("hot tiles of 32 and 0 on %v (diamond %v) and %v (diamond %v)", b.hot[1].bg.FillColor, b.hot[1].mark.Visible(), b.hot[2].bg.FillColor, b.hot[2].mark.Visible())
	}

	// No history: the board says so, and keeps its place with empty bars and no tiles.
	b = boardAt(nil, roulette.SingleZero)
	if b.heading.Text != "No spins yet" || b.hotCap.Visible() || b.coldCap.Visible() {
		t.Errorf("empty: heading %q, HOT shown %v, COLD shown %v", b.heading.Text, b.hotCap.Visible(), b.coldCap.Visible())
	}
	for i, bar := range b.bars {
		if got := segsOf(bar); len(got) != 0 || !bar.bg.Visible() {
			t.Errorf("empty: bar %d shows %v (background shown %v)", i, got, bar.bg.Visible())
		}
	}
	if got := tiles(b.hot); len(got) != 0 {
		t.Errorf("empty: hot tiles %v", got)
	}
	if m := b.box.MinSize(); m.Height != statsHeight {
		t.Errorf("empty board %v tall, %v with a history: it would move what is under it", m.Height, float32(statsHeight))
	}

	// One spin: the sample said in the singular.
	if b = boardAt(history(17), roulette.SingleZero); b.heading.Text != "Last spin" {
		t.Errorf("one spin: heading %q, want %q", b.heading.Text, "Last spin")
	}

	// All zeros: one green part per bar, written in full; 00 is hot, on green.
	b = boardAt(history(roulette.DoubleZeroNumber, 0, roulette.DoubleZeroNumber), roulette.DoubleZero)
	for i, bar := range b.bars {
		if got := segsOf(bar); len(got) != 1 || got[0].label != "0/00 100%" || got[0].width != w {
			t.Errorf("all zeros: bar %d shows %v", i, got)
		}
	}
	// 00 hot, on green (from table.HotColdMinSpins spins on: before, no number is hot).
	b = boardAt(history(roulette.DoubleZeroNumber, 0, roulette.DoubleZeroNumber, 1, 2, 3, 4, 5, 6, 7), roulette.DoubleZero)
	if got := fmt.Sprint(tiles(b.hot)); got != "[00 ×2 0 ×1 1 ×1]" || b.hot[0].bg.FillColor != numGreen {
		t.Errorf("00 twice in ten: hot tiles %s on %v", got, b.hot[0].bg.FillColor)
	}
}

// The board is made once: a new history changes what its objects show, never the objects.
func TestStatsBoardReusesItsObjects(t *testing.T) {
	test.NewTempApp(t)
	b := boardAt(history(17, 5), roulette.SingleZero)
	before := append([]fyne.CanvasObject(nil), b.box.Objects...)
	for _, h := range [][]table.Outcome{history(1, 2, 3, 4), nil, history(0, 0, 36, 12, 19, 7, 7)} {
		b.show(h, roulette.SingleZero)
		b.box.Layout.Layout(b.box.Objects, b.box.Size())
		if len(b.box.Objects) != len(before) {
			t.Fatalf("the board went from %d objects to %d", len(before), len(b.box.Objects))
		}
		for i, o := range b.box.Objects {
			if o != before[i] {
				t.Fatalf("object %d was made anew", i)
			}
		}
	}
}

// The limit sign: a row per kind with limits of its own, the other bets, the unit on the
// title's row and the minimum per spin, every amount after the currency's symbol; in English and
// Chinese every row fits the panel at 20 points for limits like these.
func TestLimitSignRows(t *testing.T) {
	restoreLanguage(t)
	lim := roulette.Limits{
		Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100},
		PerKind: map[roulette.Kind]roulette.Limit{
			roulette.Straight: {Min: 100, Max: 2500, Unit: 50},
			roulette.Red:      {Min: 100, Max: 50000, Unit: 100}, // as the default: no row
		},
		AggregateMin: 500,
	}
	got := fmt.Sprint(signRows(lim, "USD"))
	want := "[{ Unit $1} {Straight $1 – $25} {Other bets $1 – $500} {Straight unit $0.50} {Minimum per spin $5}]"
	if got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	if got := fmt.Sprint(signRows(roulette.Limits{Default: roulette.Limit{Min: 500, Max: 100000, Unit: 500}}, "HKD")); got != "[{ Unit HK$5} {All bets HK$5 – HK$1,000}]" {
		t.Errorf("rows of a sign with one limit: %s", got)
	}
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		test.NewTempApp(t)
		s := newLimitBoard()
		s.show(lim, "AUD", false) // a symbol of two letters
		s.box.Resize(fyne.NewSize(signWidth, s.box.MinSize().Height))
		if s.title.Text == "" || s.unit.Text != "Unit A$1" && language == "en" {
			t.Errorf("%s: title %q, unit %q", language, s.title.Text, s.unit.Text)
		}
		for _, r := range s.rows {
			if !r[0].Visible() {
				continue
			}
			lw := fyne.MeasureText(r[0].Text, r[0].TextSize, r[0].TextStyle).Width
			vw := fyne.MeasureText(r[1].Text, r[1].TextSize, r[1].TextStyle).Width
			if r[0].TextSize < signSize || lw+vw > signWidth-2*signPad {
				t.Errorf("%s: row %q %q at %v points, %.0f wide in %d", language, r[0].Text, r[1].Text, r[0].TextSize, lw+vw, signWidth-2*signPad)
			}
		}
	}
}

// The side panel holds everything it shows — the statistics, the history and the limit sign
// below them in particular — at both kiosk sizes, in every design, on both wheels, in both
// languages, while wagering and with a result; and the history and the limit sign do not move
// when the history arrives or the result comes and goes (issue 18, points 5 and 7).
// A Lucky Ball table on Diagram L at 1280×800 (period lamps, balance, the result, the history,
// the Lucky Ball panel and the limit sign) needed 57 pixels more than the screen has: there the
// history shows its newest row only (fitSide), and everywhere else both rows.
func TestSidePanelHoldsTheStatistics(t *testing.T) {
	restoreLanguage(t)
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		test.NewTempApp(t)
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			for _, wheel := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
				for _, d := range diagrams.Designs {
					for _, lucky := range []bool{false, true} {
						if lucky && d.Name != "L" {
							continue
						}
						where := fmt.Sprintf("%s %s %s %v lucky ball %v", language, d.Name, wheel, size, lucky)
						l := roulette.Layout{Wheel: wheel}
						s, term, _, w := screenAt(t, d, l, size)
						s.OfferLanguages(func(string) {})
						w.SetPadded(false)
						base := term.View()
						base.Config.LuckyBall = lucky
						base.Config.Currency = "USD"
						empty := base
						empty.History = nil
						full := base
						full.History = referenceHistory(wheel)
						result := full
						result.Phase = table.PhaseResult
						result.LastOutcome = &full.History[0]
						result.LastWin = &table.Settled{Number: full.History[0].Number, Staked: 1000, Returned: 36000, Recognised: true}
						type place struct{ history, sign fyne.Position }
						at := func() place {
							w.Content().Refresh()
							d := fyne.CurrentApp().Driver()
							return place{d.AbsolutePositionForObject(s.history), d.AbsolutePositionForObject(s.limits.box)}
						}
						s.update(empty)
						want := at()
						for _, step := range []struct {
							name string
							v    app.View
						}{{"the history come", full}, {"a result", result}, {"wagering again", full}} {
							s.update(step.v)
							got := at()
							if got != want {
								t.Errorf("%s: with %s the history and the limit sign moved from %v to %v", where, step.name, want, got)
							}
							if m := s.side.MinSize().Height; m > s.side.Size().Height {
								t.Errorf("%s: with %s the side panel needs %.0f pixels of %.0f", where, step.name, m, s.side.Size().Height)
							}
							shownIn := func(o fyne.CanvasObject) bool {
								p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
								return o.Visible() && p.Y+o.Size().Height <= size.Height+0.5
							}
							if !shownIn(s.limits.box) || !shownIn(s.history) {
								t.Errorf("%s: with %s the limit sign or the history is not on the screen", where, step.name)
							}
							// The statistics stand while wagering; they give way to the result
							// only where the panel has no room for both.
							if stats := s.stats.box.Visible(); stats != (step.v.Phase != table.PhaseResult || s.slot.both) {
								t.Errorf("%s: with %s the statistics are shown %v (room for both: %v)", where, step.name, stats, s.slot.both)
							}
						}
						rows := 2
						if lucky && size.Height < 1080 {
							rows = 1
						}
						if s.historyRows != rows {
							t.Errorf("%s: the history shows %d rows, want %d", where, s.historyRows, rows)
						}
						if both := size.Height >= 1080; s.slot.both != both {
							t.Errorf("%s: the statistics under the result %v, want %v", where, s.slot.both, both)
						}
					}
				}
			}
		}
	}
}

// The statistics' cost per view change: the same history (every tap, every table event but one
// a round) and a new one (once a round: counting, laying out the bars, refreshing).
func BenchmarkStatsBoardShow(b *testing.B) {
	test.NewTempApp(b)
	h := referenceHistory(roulette.SingleZero)
	board := boardAt(h, roulette.SingleZero)
	b.Run("same history", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			board.show(h, roulette.SingleZero)
		}
	})
	other := history(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
	b.Run("new history", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				board.show(h, roulette.SingleZero)
			} else {
				board.show(other, roulette.SingleZero)
			}
			board.box.Layout.Layout(board.box.Objects, board.box.Size())
		}
	})
}

// Issue 32 point 22: on a double-zero wheel the zeros' share is named for both, "0/00": a
// history of 00s does not read as "0".
func TestStatsBoardNamesBothZeros(t *testing.T) {
	test.NewTempApp(t)
	dz := roulette.DoubleZeroNumber
	b := boardAt(history(dz, dz, dz, 0, 17), roulette.DoubleZero)
	if got := segsOf(b.bars[0]); len(got) < 2 || !strings.HasPrefix(got[0].label, "0/00 ") && !strings.HasPrefix(got[1].label, "0/00 ") {
		t.Errorf("double zero, four zeros in five: the colour bar reads %v", got)
	}
	b = boardAt(history(0, 0, 0, 0, 17), roulette.SingleZero)
	if got := segsOf(b.bars[0]); len(got) < 2 || !strings.HasPrefix(got[1].label, "0 ") && !strings.HasPrefix(got[0].label, "0 ") {
		t.Errorf("single zero: the colour bar reads %v", got)
	}
}
