package ui

import (
	"fmt"
	"image/color"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/ui/look"
)

// The statistics board and the limit sign of the side panel (issue 18, point 7: read from the
// seat, at arm's length). Both are drawn with few canvas objects, all made with the screen and
// reused round after round (as the history tiles are): the kiosk repaints its whole window once
// a second for the countdown, and every object made anew stays in Fyne's caches for a minute.
// Each lays its objects out itself, in one container, and a change redraws only what changed.

// Sizes of the board: a player reads its heading and tiles at 20 points and more, the numbers on
// the bars at 18.
const (
	statsHeadSize  = 20
	statsHeadH     = 26 // the caption row: HOT, the sample, COLD
	statsBarSize   = 18
	statsBarHeight = 23
	statsBarGap    = 2
	statsTileW     = 44
	statsTileH     = 46
	statsGap       = 5
)

// Colours of the splits that are not the numbers' own: two or three shades a player tells apart,
// each under white text (ui/look, shared with the winning number display).
var (
	splitBlue   = look.SplitBlue
	splitPurple = look.SplitPurple
	splitBrown  = look.SplitBrown
	barEmpty    = look.BarEmpty
	hotColour   = look.Hot
	coldColour  = look.Cold
)

// barSeg is one share of a bar: its colour, its name and its count.
type barSeg struct {
	bg    *canvas.Rectangle
	label *canvas.Text
	name  string // the words before the percentage, where they fit
	count int
}

// splitBar is one proportion bar: its segments side by side, each as wide as its share of the
// sample, on a background that shows while there is no sample.
type splitBar struct {
	bg   *canvas.Rectangle
	segs []*barSeg
}

// countTile is a hot or cold number: white on its colour, with how often it came up.
type countTile struct {
	bg    *canvas.Rectangle
	num   *canvas.Text
	count *canvas.Text
	mark  *canvas.Polygon // a red number's diamond, as on the history tiles
}

// statsBoard is the side panel's statistics board: "Last N spins", four proportion bars (red
// green black, odd even, 1 to 18 and 19 to 36, the dozens; the zeros counted apart in green), and
// the three hot and three cold numbers with their counts.
type statsBoard struct {
	box     *fyne.Container
	heading *canvas.Text
	bars    [4]*splitBar
	hotCap  *canvas.Text
	coldCap *canvas.Text
	// hotColdNote stands in the hot and cold numbers' place until table.HotColdMinSpins spins
	// are counted, saying when they come
	hotColdNote *canvas.Text
	hot, cold   [3]*countTile
	drawn       statsDrawn
	drewOnce    bool
	seen        []table.Outcome // the history drawn from, and its wheel: show returns at once on the same
	seenWheel   roulette.Wheel
	zeros       []*barSeg // the zeros' share of each bar, named for the wheel's zeros (show)
}

// statsDrawn is what the board shows; it is drawn again only when this changes (once a round).
type statsDrawn struct {
	splits    table.Splits
	hot, cold [3]table.NumberCount
	nHot      int
	nCold     int
}

func newStatsBoard() *statsBoard {
	b := &statsBoard{heading: text("", statsHeadSize, panelDimText)}
	seg := func(c color.Color, name string) *barSeg {
		s := &barSeg{bg: canvas.NewRectangle(c), label: text("", statsBarSize, textColour), name: name}
		s.label.Alignment = fyne.TextAlignCenter
		return s
	}
	zero := func() *barSeg { // 0, and 00 on a double-zero wheel: named by show
		z := seg(numGreen, "0")
		b.zeros = append(b.zeros, z)
		return z
	}
	b.bars[0] = &splitBar{segs: []*barSeg{seg(numRed, T("RED")), zero(), seg(numBlack, T("BLACK"))}}
	b.bars[1] = &splitBar{segs: []*barSeg{seg(splitBlue, T("ODD")), zero(), seg(splitPurple, T("EVEN"))}}
	b.bars[2] = &splitBar{segs: []*barSeg{seg(splitBlue, T("1 to 18")), zero(), seg(splitPurple, T("19 to 36"))}}
	b.bars[3] = &splitBar{segs: []*barSeg{zero(), seg(splitBlue, T("1st")), seg(splitBrown, T("2nd")), seg(splitPurple, T("3rd"))}}
	b.heading.Alignment = fyne.TextAlignCenter
	b.hotCap = text(T("HOT"), statsHeadSize, hotColour)
	b.coldCap = text(T("COLD"), statsHeadSize, coldColour)
	b.coldCap.Alignment = fyne.TextAlignTrailing
	b.hotColdNote = text(fmt.Sprintf(T("HOT and COLD after %d spins"), table.HotColdMinSpins), statsBarSize, panelDimText)
	b.hotColdNote.Alignment = fyne.TextAlignCenter
	objs := []fyne.CanvasObject{b.heading, b.hotColdNote}
	for _, bar := range b.bars {
		bar.bg = canvas.NewRectangle(barEmpty)
		objs = append(objs, bar.bg)
		for _, s := range bar.segs {
			s.bg.Hide()
			s.label.Hide()
			objs = append(objs, s.bg, s.label)
		}
	}
	objs = append(objs, b.hotCap, b.coldCap)
	for _, tiles := range []*[3]*countTile{&b.hot, &b.cold} {
		for i := range tiles {
			t := &countTile{bg: canvas.NewRectangle(numGreen), num: text("", 22, textColour), count: text("", statsBarSize, textColour),
				mark: canvas.NewPolygon(4, textColour)}
			t.bg.StrokeColor, t.bg.StrokeWidth, t.bg.CornerRadius = feltLine, 1, 3
			t.num.Alignment, t.count.Alignment = fyne.TextAlignCenter, fyne.TextAlignCenter
			t.bg.Hide()
			t.num.Hide()
			t.count.Hide()
			t.mark.Hide()
			tiles[i] = t
			objs = append(objs, t.bg, t.num, t.count, t.mark)
		}
	}
	b.box = container.New(&statsLayout{b: b}, objs...)
	return b
}

// statsHeight is the board's height, the same with or without a history: its place is kept
// from the start, so nothing under it moves when the first outcome comes (issue 18, point 5).
const statsHeight = statsHeadH + statsTileH + statsGap + 4*statsBarHeight + 3*statsBarGap

// show draws the history's statistics, only when they changed. It runs on every view change — a
// tap, each of the table's events — and the history changes once a round: the same history
// costs a comparison, not the counting.
func (b *statsBoard) show(h []table.Outcome, w roulette.Wheel) {
	if b.drewOnce && w == b.seenWheel && sameOutcomes(h, b.seen) {
		return
	}
	b.seen, b.seenWheel = append(b.seen[:0], h...), w
	zeros := "0"
	if w == roulette.DoubleZero {
		zeros = "0/00" // both zeros' share: a 00 is not a "0" (issue 32)
	}
	for _, z := range b.zeros {
		z.name = zeros
	}
	d := statsDrawn{splits: table.SplitsOf(h, w)}
	if d.splits.Sample >= table.HotColdMinSpins { // before, a count says nothing (table.HotColdMinSpins)
		hot, cold, _ := table.HotCold(h, w, 3)
		d.nHot, d.nCold = copy(d.hot[:], hot), copy(d.cold[:], cold)
	}
	if b.drewOnce && d == b.drawn {
		return
	}
	b.drewOnce, b.drawn = true, d
	s := d.splits
	switch s.Sample {
	case 0:
		b.heading.Text = T("No spins yet")
	case 1:
		b.heading.Text = T("Last spin") // not "Last 1 spins"
	default:
		b.heading.Text = fmt.Sprintf(T("Last %d spins"), s.Sample)
	}
	counts := [4][]int{
		{s.Red, s.Zeros, s.Black},
		{s.Odd, s.Zeros, s.Even},
		{s.Low, s.Zeros, s.High},
		{s.Zeros, s.Dozens[0], s.Dozens[1], s.Dozens[2]},
	}
	for i, bar := range b.bars {
		for j, seg := range bar.segs {
			seg.count = counts[i][j]
		}
	}
	for i, t := range b.hot {
		t.set(d.hot[i], i < d.nHot)
	}
	for i, t := range b.cold {
		t.set(d.cold[i], i < d.nCold)
	}
	b.hotCap.Hidden = d.nHot == 0
	b.coldCap.Hidden = d.nCold == 0
	b.hotColdNote.Hidden = s.Sample >= table.HotColdMinSpins
	b.box.Refresh() // lays the bars out again at their new shares
}

func sameOutcomes(a, b []table.Outcome) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].RoundID != b[i].RoundID || a[i].Number != b[i].Number || a[i].Invalidated != b[i].Invalidated {
			return false
		}
	}
	return true
}

func (t *countTile) set(n table.NumberCount, on bool) {
	for _, o := range []fyne.CanvasObject{t.bg, t.num, t.count} {
		o.(interface{ Hide() }).Hide()
		if on {
			o.(interface{ Show() }).Show()
		}
	}
	t.mark.Hidden = !on || n.Number.Colour() != roulette.ColourRed
	if !on {
		return
	}
	t.bg.FillColor = look.NumberColour(n.Number.Colour())
	t.num.Text = n.Number.String()
	t.count.Text = fmt.Sprintf("×%d", n.Count)
}

// statsLayout places the board's objects; every size is fixed but the bars' shares.
type statsLayout struct{ b *statsBoard }

func (l *statsLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(3*statsTileW+3*statsTileW+2*statsGap, statsHeight)
}

func (l *statsLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	b := l.b
	w := size.Width
	// The caption row: HOT over the hot numbers, COLD over the cold, the sample between.
	for _, t := range []*canvas.Text{b.heading, b.hotCap, b.coldCap} {
		t.Move(fyne.NewPos(0, 0))
		t.Resize(fyne.NewSize(w, statsHeadH))
	}
	y := float32(statsHeadH)
	// Three hot tiles from the left, three cold from the right, with the space between.
	gap := min(float32(statsGap), (w-6*statsTileW)/5)
	for i, t := range b.hot {
		t.layout(float32(i)*(statsTileW+gap), y)
	}
	for i, t := range b.cold {
		t.layout(w-float32(3-i)*(statsTileW+gap)+gap, y)
	}
	b.hotColdNote.Move(fyne.NewPos(0, y))
	b.hotColdNote.Resize(fyne.NewSize(w, statsTileH))
	y += statsTileH + statsGap
	for _, bar := range b.bars {
		bar.bg.Move(fyne.NewPos(0, y))
		bar.bg.Resize(fyne.NewSize(w, statsBarHeight))
		bar.bg.Hidden = b.drawn.splits.Sample > 0 // covered by the parts: not painted for nothing
		bar.layout(w, y, b.drawn.splits.Sample)
		y += statsBarHeight + statsBarGap
	}
}

func (t *countTile) layout(x, y float32) {
	t.bg.Move(fyne.NewPos(x, y))
	t.bg.Resize(fyne.NewSize(statsTileW, statsTileH))
	t.num.Move(fyne.NewPos(x, y))
	t.num.Resize(fyne.NewSize(statsTileW, 28))
	t.count.Move(fyne.NewPos(x, y+statsTileH-24))
	t.count.Resize(fyne.NewSize(statsTileW, 24))
	// The diamond in the lower left corner, clear of the number and of its count.
	t.mark.Move(fyne.NewPos(x+4, y+statsTileH-13))
	t.mark.Resize(fyne.NewSize(8, 8))
}

// statsBarLeast is the smallest size a share's words are drawn at: a narrow share gets the width
// its name and percentage need at it.
const statsBarLeast = 12

// layout sizes the bar's segments to their shares of the sample and writes in each its name
// and percentage, "BLACK 33%" (issue 32 point 7: a share too narrow for its name showed "33%"
// alone, or nothing). A share narrower than its words at statsBarLeast is widened to them, the
// width taken from the wider shares in proportion: the percentages say the shares exactly, the
// bar only roughly where a share is small.
func (bar *splitBar) layout(w, y float32, sample int) {
	labels := make([]string, len(bar.segs))
	widths := make([]float32, len(bar.segs))
	need := make([]float32, len(bar.segs))
	for i, s := range bar.segs {
		if sample == 0 || s.count == 0 {
			continue
		}
		labels[i] = s.name + " " + fmt.Sprintf("%d%%", (s.count*100+sample/2)/sample)
		need[i] = fyne.MeasureText(labels[i], statsBarLeast, s.label.TextStyle).Width + 6
	}
	// Shares below their need take it; the rest share what is left by their counts, until
	// none of them falls below its own need.
	fixed := make([]bool, len(bar.segs))
	for changed := true; changed; {
		changed = false
		left, counts := w, 0
		for i, s := range bar.segs {
			if fixed[i] {
				left -= need[i]
			} else {
				counts += s.count
			}
		}
		for i, s := range bar.segs {
			switch {
			case fixed[i]:
				widths[i] = need[i]
			case counts > 0:
				widths[i] = max(left, 0) * float32(s.count) / float32(counts)
			default:
				widths[i] = 0
			}
			if !fixed[i] && s.count > 0 && widths[i] < need[i] {
				fixed[i], changed = true, true
			}
		}
	}
	x := float32(0)
	for i, s := range bar.segs {
		if sample == 0 || s.count == 0 {
			s.bg.Hide()
			s.label.Hide()
			continue
		}
		sw := widths[i]
		s.bg.Move(fyne.NewPos(x, y))
		s.bg.Resize(fyne.NewSize(sw, statsBarHeight))
		s.bg.Show()
		size := float32(statsBarSize)
		for size > statsBarLeast && fyne.MeasureText(labels[i], size, s.label.TextStyle).Width > sw-6 {
			size--
		}
		s.label.Text, s.label.TextSize = labels[i], size
		s.label.Move(fyne.NewPos(x, y))
		s.label.Resize(fyne.NewSize(sw, statsBarHeight))
		s.label.Show()
		canvas.Refresh(s.label)
		x += sw
	}
}

// limitBoard is the table's limit sign (001 §4.1–4.2, 003 §2.5.4): framed, titled, a row for the
// bets at the table's default limits, a row for each kind of bet whose limits differ, the unit
// of the wagers and the table's minimum per spin, every amount with the currency's symbol.
// Its rows are made once and reused; only a change of limits or currency redraws them.
type limitBoard struct {
	box   *fyne.Container
	frame *canvas.Rectangle
	title *canvas.Text
	unit  *canvas.Text      // the default unit, at the end of the title's row
	rows  [][2]*canvas.Text // label, amount
	shown []signRow         // the unit's row first, then the rows under the title
}

// signRow is a row of the sign: what it is for and the amounts.
type signRow struct{ label, value string }

// Sizes of the sign: 20 points for every row a player reads; a row too long for the panel (a
// translation, a high-limit table) is drawn smaller rather than wrapped.
const (
	signSize    = 20
	signMinSize = 15
	signPad     = 5
	signRowH    = signSize * 1.25
	signWidth   = sidePanelWidth - 2*8 // the panel less its padding
)

func newLimitBoard() *limitBoard {
	s := &limitBoard{frame: canvas.NewRectangle(color.Transparent), title: text(T("TABLE LIMITS"), signSize, selectedChip),
		unit: text("", signSize, panelText)}
	s.frame.StrokeColor, s.frame.StrokeWidth, s.frame.CornerRadius = selectedChip, 2, 6
	s.unit.Alignment = fyne.TextAlignTrailing
	s.box = container.New(&signLayout{s: s}, s.frame, s.title, s.unit)
	return s
}

// signRows are the rows of the sign for limits, amounts in the currency cur: first the unit of
// the wagers, which stands on the title's row (a row less on a panel short of height at
// 1280×800), then a row per kind of bet with limits of its own, the other bets, a unit of its
// own where a kind has one, and the table's minimum per spin.
func signRows(l roulette.Limits, cur string) []signRow {
	// Whole amounts without their cents, as casinos' limit signs read ("$1 – $500").
	cash := func(c int64) string { return shortInCurrency(cur, c) }
	span := func(x roulette.Limit) string { return cash(x.Min) + " – " + cash(x.Max) }
	d := l.Default // a kind with limits of its own has its own row
	label := T("All bets")
	var kinds []roulette.Kind
	for k, pk := range l.PerKind {
		if pk != d {
			kinds = append(kinds, k)
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	if len(kinds) > 0 {
		label = T("Other bets")
	}
	rows := []signRow{{"", fmt.Sprintf(T("Unit %s"), cash(l.Default.Unit))}}
	for _, k := range kinds {
		rows = append(rows, signRow{capital(T(k.String())), span(l.PerKind[k])})
	}
	rows = append(rows, signRow{label, span(l.Default)})
	for _, k := range kinds {
		if u := l.PerKind[k].Unit; u != l.Default.Unit {
			rows = append(rows, signRow{capital(fmt.Sprintf(T("%s unit"), T(k.String()))), cash(u)})
		}
	}
	if l.AggregateMin > 0 {
		rows = append(rows, signRow{T("Minimum per spin"), cash(l.AggregateMin)})
	}
	return rows
}

// show draws the sign of limits, only when its rows changed; personal says the limits are
// this player's own (000 §4.3, 003 §4.6: under the personal-limit marker the sign is titled so).
func (s *limitBoard) show(l roulette.Limits, currency string, personal bool) {
	rows := signRows(l, currency)
	title := T("TABLE LIMITS")
	if personal {
		title = T("YOUR LIMITS")
	}
	setText(s.title, title)
	if slices.Equal(rows, s.shown) {
		return
	}
	s.shown = rows
	s.unit.Text = rows[0].value
	s.unit.Refresh()
	rows = rows[1:]
	for len(s.rows) < len(rows) {
		r := [2]*canvas.Text{text("", signSize, panelDimText), text("", signSize, panelText)}
		r[1].Alignment = fyne.TextAlignTrailing
		s.rows = append(s.rows, r)
		s.box.Objects = append(s.box.Objects, r[0], r[1])
	}
	inner := float32(signWidth - 2*signPad)
	for i, r := range s.rows {
		if i >= len(rows) {
			r[0].Hide()
			r[1].Hide()
			continue
		}
		r[0].Text, r[1].Text = rows[i].label, rows[i].value
		size := float32(signSize)
		for size > signMinSize && fyne.MeasureText(r[0].Text, size, r[0].TextStyle).Width+12+
			fyne.MeasureText(r[1].Text, size, r[1].TextStyle).Width > inner {
			size--
		}
		r[0].TextSize, r[1].TextSize = size, size
		r[0].Show()
		r[1].Show()
		r[0].Refresh()
		r[1].Refresh()
	}
	s.box.Refresh()
}

// signLayout lays the sign out: the frame around, the title, the rows.
type signLayout struct{ s *limitBoard }

func (l *signLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, 2*signPad+signRowH*float32(max(1, len(l.s.shown))))
}

func (l *signLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	s := l.s
	s.frame.Resize(size)
	s.frame.Move(fyne.NewPos(0, 0))
	w := size.Width - 2*signPad
	for _, t := range []*canvas.Text{s.title, s.unit} {
		t.Move(fyne.NewPos(signPad, signPad))
		t.Resize(fyne.NewSize(w, signRowH))
	}
	for i, r := range s.rows {
		y := signPad + signRowH*float32(i+1)
		for _, t := range r {
			t.Move(fyne.NewPos(signPad, y))
			t.Resize(fyne.NewSize(w, signRowH))
		}
	}
}

// capital is s with its first letter in capitals: the bet kinds' names are lower case, to be
// used within a sentence, and head a row of the sign.
func capital(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
