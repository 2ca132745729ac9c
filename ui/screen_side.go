package ui

import (
	"fmt"
	"github.com/tablegames/ats/ui/look"
	"image/color"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// sideRegion is the side panel under the status and countdown: the chip account and the amount
// bet (U's meters), the result — the winning number on its colour, what it is, the win — in
// turns with the statistics of the recent outcomes, the history's tiles, the Lucky Ball panel,
// the jackpot, the limit sign with the personal-limit marker and a pending change of limits,
// and a tournament's panel in the chip account's place while one is played. sidefit.go fits
// the column to the panel's height.
type sideRegion struct {
	screen      *Screen
	balance     *canvas.Text
	bet         *canvas.Text
	outcome     *canvas.Text
	outcomeBg   *canvas.Rectangle // the winning number sits on a tile of its colour
	outcomeMark fyne.CanvasObject
	outcomeBox  *fyne.Container // the outcome's tile, as the design's element
	won         *canvas.Text
	callout     *canvas.Text // what the winning number is: RED · ODD · 2nd 12 · 1 to 18
	wonMeter    *canvas.Text // U's amount-won meter; nil in A and L
	history     *fyne.Container
	tiles       []*historyTile // the history's tiles, made once and reused (showHistory)
	historyRows int            // the rows of tiles shown: 2, or fewer where the panel is short (fitSide)
	sideH       float32        // the side panel's height, as last laid out (fitSide)
	// historyGaveWay: fitSide hid the history, the panel being short of height for it
	historyGaveWay bool
	tilesTall      bool            // the history's tiles are tall (fitSide)
	sideFor        sideShown       // what the side panel was fitted with (refitSide)
	limits         *limitBoard     // the table's limit sign (stats.go)
	personal       *fyne.Container // the distinctive marker: this seat plays to its own limits (000 §4.3)
	pending        *widget.Label
	stats          *statsBoard     // the statistics of the recent outcomes (stats.go)
	resultBox      *fyne.Container // the outcome, its call-out and the win: in the statistics' place while shown
	slot           *resultSlot
	side           *fyne.Container // the side panel's column
	lucky          *fyne.Container
	luckyFor       luckyShown // what the Lucky Ball panel shows (showLuckyBall)
	luckyMade      bool
	jackpot        *canvas.Text // the meter, when the table has a jackpot
	jackpotWin     *widget.Label
	tournament     *tournamentPanel // tournament play (tournament.go), shown while one is played
}

// newSideRegion makes the side panel's parts; compose puts them in their column, once the
// design's top (sideTop) can be made.
func newSideRegion(s *Screen) *sideRegion {
	r := &sideRegion{screen: s}
	r.balance = text("", 34, panelText)
	r.bet = text("", 24, panelText)
	r.outcome = text("", 72, textColour)
	r.outcome.Alignment = fyne.TextAlignCenter
	r.outcomeBg = canvas.NewRectangle(color.Transparent)
	r.outcomeBg.CornerRadius = 8
	r.outcomeMark = redMark(textColour, 14)
	r.outcomeMark.Hide()
	r.outcomeBox = container.NewStack(r.outcomeBg, container.NewBorder(nil, container.NewCenter(r.outcomeMark), nil, nil, r.outcome))
	r.won = text("", 26, panelText)
	r.callout = text("", 18, panelText)
	r.callout.Alignment = fyne.TextAlignCenter
	r.history = container.NewGridWithColumns(historyColumns) // two rows of six, read from the seat
	for range historyShown {
		t := newHistoryTile()
		r.tiles = append(r.tiles, t)
		r.history.Add(t.box)
	}
	r.limits = newLimitBoard()
	r.personal = personalMarker()
	r.pending = widget.NewLabel("")
	r.stats = newStatsBoard()
	r.lucky = container.NewStack()
	r.jackpot = text("", 24, selectedChip)
	r.jackpotWin = widget.NewLabel("")
	r.jackpotWin.Wrapping = fyne.TextWrapWord
	return r
}

// compose lays the side panel's column out: the design's top (the status and the countdown,
// the chip account: sideTop), the tournament's panel, the result in turns with the statistics,
// the history, Lucky Ball, the jackpot and the limit sign.
func (r *sideRegion) compose() {
	s := r.screen
	top, cash := s.sideTop() // what the design puts first (designs.go)
	// In a tournament its panel takes the place of the chip account's and of the history.
	r.tournament = newTournamentPanel(s.term, append(cash, r.history, r.stats.box, r.limits.box, r.pending)...)
	side := container.NewVBox(top...)
	r.side = side
	// The result and the statistics take turns in one place, kept at the taller's height: the
	// result while it stands, the statistics of the recent outcomes the rest of the round. Both
	// at once do not fit the panel at 1280×800 with the history and the limit sign.
	r.resultBox = container.NewVBox(container.NewCenter(r.outcomeBox), r.callout, r.won)
	r.slot = &resultSlot{result: r.resultBox, stats: r.stats.box, reserve: true}
	side.Objects = append(side.Objects,
		r.tournament.box,
		widget.NewSeparator(),
		container.New(r.slot, r.resultBox, r.stats.box),
		r.history,
		widget.NewSeparator(),
		r.lucky,
		r.jackpot, r.jackpotWin,
		r.personal, r.limits.box, r.pending,
	)
}

func (r *sideRegion) update(v app.View) {
	s := r.screen
	cash := func(cents int64) string { return inCurrency(v.Config.Currency, cents) }
	// Each object is refreshed only when what it shows changed (issue 18): a refresh of a label
	// shapes its text again, and every view change — a tap, the table's every event — comes
	// through here on the Fyne thread before the frame that answers a tap.
	// What is left to bet with (001 §3.2.2): the chips on the layout are off it (app decides).
	setText(r.balance, cash(v.ShownBalance))
	bet := cash(v.SlipTotal)
	if !v.Acked && v.SlipTotal > 0 {
		bet += " …"
	}
	if v.SlipTotal == 0 && v.Phase != table.PhaseWagering && v.Phase != table.PhaseNoMoreBets {
		// While the result stands the amount bet is the settled round's stake, beside its win:
		// the slip is empty by then, and 0.00 beside a win could not be compared with it
		// (issue 32 point 9).
		var staked int64
		for _, res := range v.Result {
			staked += res.Staked
		}
		bet = cash(staked)
	}
	setText(r.bet, bet)
	r.showJackpot(v)

	showResult := resultShown(v)
	r.showOutcome(v, showResult)
	wonText := ""
	if w := v.LastWin; w != nil && showResult {
		switch {
		case w.Returned > 0:
			wonText = T("WON") + " " + cash(w.Returned)
		case w.Staked > 0:
			wonText = T("No win") // never "WON 0.00"
		}
	}
	setText(r.won, wonText)
	s.showWonMeter(v)

	r.showHistory(v.History)
	r.stats.show(v.History, v.Config.Layout.Wheel)
	laid := chipsOnLayout(v)
	r.showLuckyBall(v, laid.stakes, laid.won, showResult)
	r.limits.show(v.Limits, v.Config.Currency, v.PersonalLimits)
	if v.PersonalLimits { // the sign above is this player's own (000 §4.3, 003 §4.6)
		r.personal.Show()
	} else {
		r.personal.Hide()
	}
	// An empty label still takes a line: the pending minimum takes its place in the side
	// panel only while there is one, which leaves a Lucky Ball table room at 1280×800.
	if p := v.Pending; p != nil {
		setLabel(r.pending, fmt.Sprintf(T("From %s: %s"), p.At.Local().Format("15:04"), limitSign(p.Limits, v.Config.Currency)))
		r.pending.Show()
	} else {
		setLabel(r.pending, "")
		r.pending.Hide()
	}
	inTournament := r.tournament.update(v)
	if !inTournament {
		// No tournament: the labels it hid take their own rules again (as above).
		r.pending.Hidden = v.Pending == nil
	}
	r.showSlot(v, showResult, inTournament)
	s.refitSide() // what the side panel shows may need more than its height (sidefit.go)
}

// luckyShown is what the Lucky Ball panel was made for: it is made again only when that changes.
type luckyShown struct {
	on      bool
	draw    roulette.LuckyBallDraw
	hasDraw bool
	version roulette.LuckyBallVersion
	staked  [4]int64
	open    bool
	drawing bool // the Super/Mega mark is being drawn (app.View.LuckyMarkPending)
	winner  int  // the colour whose number came up, at the result; -1 for none
	won     [4]int64
}

// showLuckyBall shows the Lucky Ball panel on a table that plays it. It is made again only when
// the draw, a Lucky Ball stake or whether bets are taken changed, not on every view change
// (a panel is some thirty objects, four of them buttons).
func (r *sideRegion) showLuckyBall(v app.View, stakes, won map[roulette.Spot]int64, showResult bool) {
	want := luckyShown{on: v.Config.LuckyBall, version: v.Config.LuckyBallVersion,
		open: v.Period == app.PeriodOpen || v.Period == app.PeriodWarning, drawing: v.LuckyMarkPending(), winner: -1}
	res := luckyResult{won: won}
	if v.LuckyBall != nil {
		want.draw, want.hasDraw = *v.LuckyBall, true
		// At the result, the colour whose number came up (003 §7.5), marked on the panel.
		if o := v.LastOutcome; showResult && o != nil && !v.LuckyBall.Void {
			for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
				if v.LuckyBall.Numbers[c] == o.Number {
					res.winner, res.hasWinner, want.winner = c, true, int(c)
				}
			}
		}
	}
	for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
		want.staked[c] = stakes[roulette.LuckyBallSpot(c)]
		want.won[c] = won[roulette.LuckyBallSpot(c)]
	}
	if r.luckyMade && want == r.luckyFor {
		return
	}
	r.luckyMade, r.luckyFor = true, want
	r.lucky.RemoveAll()
	r.lucky.Hidden = !want.on // an empty stack would still take the panel's padding
	if want.on {
		r.lucky.Add(luckyBallPanel(v.LuckyBall, v.Config.LuckyBallVersion, stakes, res, want.open, want.drawing, func(c roulette.BallColour) {
			r.screen.touched(func() { r.screen.term.Place(roulette.Bet{Spot: roulette.LuckyBallSpot(c)}) })
		}))
	}
}

// showOutcome shows the last outcome while it is the result: white on a tile of the number's
// colour, with a light edge (black reads on the dark panel), red also told by the diamond
// (the felt marks the number too: feltRegion). Only what changed is refreshed.
func (r *sideRegion) showOutcome(v app.View, showResult bool) {
	number, callout := "", ""
	var fill color.Color = color.Transparent
	var stroke float32
	red := false
	if o := v.LastOutcome; o != nil && showResult {
		number, callout = o.Number.String(), say(app.Callout(o.Number))
		fill, stroke = look.NumberColour(o.Number.Colour()), 2
		red = o.Number.Colour() == roulette.ColourRed
		r.outcomeBg.StrokeColor = feltLine
		r.outcomeBg.SetMinSize(fyne.NewSize(200, 100)) // refreshes only when it changes
	}
	setText(r.outcome, number)
	setText(r.callout, callout)
	if fill != r.outcomeBg.FillColor || stroke != r.outcomeBg.StrokeWidth {
		r.outcomeBg.FillColor, r.outcomeBg.StrokeWidth = fill, stroke
		r.outcomeBg.Refresh()
	}
	if red != r.outcomeMark.Visible() {
		if red {
			r.outcomeMark.Show()
		} else {
			r.outcomeMark.Hide()
		}
		r.outcomeMark.Refresh()
	}
}

// redMark is the diamond beside a red number: red is told by shape as well as by colour. It is
// drawn, not a "◆" glyph, which the embedded fonts lack (a system font would draw it, differently
// on every machine).
func redMark(c color.Color, size float32) fyne.CanvasObject {
	d := canvas.NewPolygon(4, c)
	d.SetMinSize(fyne.NewSize(size, size))
	return d
}

// historyColumns is how many recent outcomes a row of the side panel shows.
const historyColumns = 6

// historyShown is how many recent outcomes the side panel shows: two rows of historyColumns.
const historyShown = 2 * historyColumns

// historyTile is one recent outcome: white on its colour with a light edge (black reads on the
// dark panel), a diamond under a red number; two rows of six fill the side panel at 22 points
// (issue 18: twelve 22×30 tiles in one row were not read from the seat).
//
// The twelve tiles are made with the screen and shown again with each new outcome, never made
// anew: every view change used to replace all twelve (a tile is nine canvas objects), and each
// object replaced stayed in Fyne's caches for a minute after — a resident-memory growth of
// tens of MB over a soak of 500 rounds, and work for the collector (issue 18).
//
// A tile with no outcome yet keeps its cell in the grid, empty (its face hidden): the grid is
// two rows from the start, so nothing under it moves when the first outcomes come.
type historyTile struct {
	box   *fyne.Container // what the history's grid holds
	cell  *tileCell       // the box's layout: the tile's height
	inner *fyne.Container // the column the number and its diamond stand in
	bg    *canvas.Rectangle
	num   *canvas.Text
	plain fyne.CanvasObject // a black or green number: a spacer where a red one has its diamond
	mark  fyne.CanvasObject // a red number's diamond
	shown roulette.Number
	// corrected: the outcome shown replaced another (001 §9.4)
	corrected bool
}

// correctedEdge is the width of a corrected outcome's frame.
const correctedEdge = 4

func newHistoryTile() *historyTile {
	t := &historyTile{bg: canvas.NewRectangle(look.NumberColour(roulette.ColourGreen)), num: text("", 22, textColour),
		plain: layout.NewSpacer(), mark: container.NewCenter(redMark(textColour, 7))}
	t.bg.StrokeColor, t.bg.StrokeWidth = feltLine, 1
	t.num.Alignment = fyne.TextAlignCenter
	t.mark.Hide()
	// The column lays out only what is visible: with one of plain and mark hidden it is the
	// column of a tile made for its number alone (spacer, number, mark, spacer).
	t.inner = container.New(layout.NewCustomPaddedVBoxLayout(0), layout.NewSpacer(), t.num, t.plain, t.mark, layout.NewSpacer())
	t.cell = &tileCell{height: tileShort}
	t.box = container.New(t.cell, t.bg, t.inner)
	t.bg.Hide()
	t.inner.Hide()
	return t
}

// tileCell stacks a history tile's objects in a cell of the tile's size, shown or empty: tall
// where the side panel has the height (tall, fitSide), short where it has not.
type tileCell struct{ height float32 }

// The history tiles' heights and their numbers' sizes: tall at 1920×1080, where the panel has
// the room (issue 32 point 7: 40-pixel tiles of 22 points beside empty space), short at 1280×800.
const (
	tileShort, tileShortText = 40, 22
	tileTall, tileTallText   = 56, 28
)

func (c *tileCell) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(44, c.height) }

// setTall makes the tile tall or short; it reports whether that changed it.
func (t *historyTile) setTall(tall bool) bool {
	h, size := float32(tileShort), float32(tileShortText)
	if tall {
		h, size = tileTall, tileTallText
	}
	if t.cell.height == h {
		return false
	}
	t.cell.height, t.num.TextSize = h, size
	t.num.Refresh()
	return true
}

func (*tileCell) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// shows reports whether the tile shows an outcome.
func (t *historyTile) shows() bool { return t.bg.Visible() }

// show draws n on the tile, redrawing only what changed; it reports whether the tile was
// empty before.
func (t *historyTile) show(n roulette.Number, corrected bool) (appeared bool) {
	appeared = !t.shows()
	if !appeared && t.shown == n && t.corrected == corrected {
		return false
	}
	t.shown, t.corrected = n, corrected
	// A corrected outcome (001 §9.4) is framed in the warning colour, thick, so the number the
	// player saw change stands apart from the rest.
	t.bg.StrokeColor, t.bg.StrokeWidth = feltLine, 1
	if corrected {
		t.bg.StrokeColor, t.bg.StrokeWidth = warnColour, correctedEdge
	}
	t.bg.FillColor = look.NumberColour(n.Colour())
	t.num.Text = n.String()
	red := n.Colour() == roulette.ColourRed
	if red != t.mark.Visible() {
		if red {
			t.plain.Hide()
			t.mark.Show()
		} else {
			t.mark.Hide()
			t.plain.Show()
		}
		t.inner.Refresh()
	}
	t.bg.Show()
	t.inner.Show()
	t.bg.Refresh()
	t.num.Refresh()
	if appeared {
		t.box.Refresh()
	}
	return appeared
}

// clear empties the tile.
func (t *historyTile) clear() {
	if t.shows() {
		t.bg.Hide()
		t.inner.Hide()
		t.box.Refresh()
	}
}

// showHistory shows the recent outcomes, newest first, on the tiles; tiles past the last
// outcome are empty, in their place.
func (r *sideRegion) showHistory(h []table.Outcome) {
	for i, t := range r.tiles {
		if i < len(h) {
			t.show(h[i].Number, h[i].Corrected)
		} else {
			t.clear()
		}
	}
}

// resultSlot lays out the result and the statistics in one place (see NewScreen): each at the
// top, the place as tall as the taller of the two whichever is shown, so nothing under it moves
// when one gives way to the other (issue 18, point 5). In a tournament its panel stands in the
// statistics' place (newTournamentPanel), and the place keeps only the result's height.
//
// Where the panel is tall enough for both (1920×1080), the statistics stand under the result's
// place and never give way (fitSide).
type resultSlot struct {
	result, stats fyne.CanvasObject
	reserve       bool // keep the statistics' height
	short         bool // but not where the panel is short of it (fitSide)
	both          bool // the statistics under the result, always shown
}

// resultSlotGap is the space between the result and the statistics under it.
const resultSlotGap = 8

func (l *resultSlot) MinSize([]fyne.CanvasObject) fyne.Size {
	m := l.result.MinSize()
	if l.reserve && !l.short {
		sm := l.stats.MinSize()
		h := max(m.Height, sm.Height)
		if l.both {
			h = m.Height + resultSlotGap + sm.Height
		}
		m = fyne.NewSize(max(m.Width, sm.Width), h)
	}
	return m
}

func (l *resultSlot) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	rh := l.result.MinSize().Height
	l.result.Move(fyne.NewPos(0, 0))
	l.result.Resize(fyne.NewSize(size.Width, rh))
	y := float32(0)
	if l.both {
		y = rh + resultSlotGap
	}
	l.stats.Move(fyne.NewPos(0, y))
	l.stats.Resize(fyne.NewSize(size.Width, l.stats.MinSize().Height))
}

// showSlot shows the result while it stands and the statistics otherwise, or always where the
// panel has room for both (resultSlot).
func (r *sideRegion) showSlot(v app.View, showResult, inTournament bool) {
	result := showResult && v.LastOutcome != nil
	stats := (r.slot.both || !result) && !inTournament
	changed := result != r.resultBox.Visible() || stats != r.stats.box.Visible() || r.slot.reserve == inTournament
	if !changed {
		return
	}
	r.resultBox.Hidden, r.stats.box.Hidden = !result, !stats
	// The slot lays out both where they stand, shown or not, at the height it reserves: a turn
	// of the two needs only theirs refreshed. Only a tournament coming or going changes the
	// slot's height, and so the panel's layout. (The whole screen refreshed at every result
	// redrew every object from scratch — each widget's icons rendered again, every text's
	// texture made anew — twice a round.)
	relayout := r.slot.reserve == inTournament
	r.slot.reserve = !inTournament
	r.resultBox.Refresh()
	r.stats.box.Refresh()
	if relayout && r.screen.left != nil {
		r.screen.root.Refresh()
	}
}

// personalMarker is the distinctive marker (000 §1.1: "a marker button labelled with ... the
// words personal limit or higher limit") shown above the limit sign while the player plays to
// limits of their own (000 §4.3, 003 §4.6): dark text on the gold of the selected chip, so it
// stands apart from everything else on the panel. Hidden until the view says so.
func personalMarker() *fyne.Container {
	bg := canvas.NewRectangle(selectedChip)
	bg.CornerRadius = 6
	label := text(T("PERSONAL LIMIT"), 18, panelBg)
	label.Alignment = fyne.TextAlignCenter
	m := container.NewStack(bg, container.NewPadded(label))
	m.Hide()
	return m
}

// limitSign is a limit sign in words — minimum, maximum and unit, per bet kind where they
// differ (001 §4.1–4.2, 003 §2.5.4), amounts in the table's currency (ISO 4217 code) — as the
// pending minimum tells the limits to come (the table's own are on limitBoard).
func limitSign(l roulette.Limits, currency string) string {
	cash := func(c int64) string { return inCurrency(currency, c) }
	d := l.For(roulette.Red)
	lines := []string{fmt.Sprintf(T("Limits: min %s  max %s  unit %s"), cash(l.Default.Min), cash(l.Default.Max), cash(l.Default.Unit))}
	var kinds []roulette.Kind
	for k := range l.PerKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	for _, k := range kinds {
		pk := l.PerKind[k]
		if pk != d {
			lines = append(lines, fmt.Sprintf(T("%s: %s – %s by %s"), T(k.String()), cash(pk.Min), cash(pk.Max), cash(pk.Unit)))
		}
	}
	if l.AggregateMin > 0 {
		lines = append(lines, fmt.Sprintf(T("Table minimum per spin %s"), cash(l.AggregateMin)))
	}
	return strings.Join(lines, "\n")
}

// showJackpot shows the meter when the table has a jackpot (001 §8.3.7), and a hit: the
// winner is told the prize waits for the pit boss, then that it is credited (§8.3.9).
func (r *sideRegion) showJackpot(v app.View) {
	if !v.Config.Jackpot {
		r.jackpot.Hide()
		r.jackpotWin.Hide()
		return
	}
	cur := v.Config.Currency
	setText(r.jackpot, T("JACKPOT")+" "+inCurrency(cur, v.Jackpot))
	r.jackpot.Show()
	w := v.JackpotWon
	switch {
	case w == nil:
		r.jackpotWin.Hide()
		return
	case v.JackpotMine && w.Confirmed:
		setLabel(r.jackpotWin, fmt.Sprintf(T("Jackpot %s credited to your account"), inCurrency(cur, w.Amount)))
	case v.JackpotMine:
		setLabel(r.jackpotWin, fmt.Sprintf(T("JACKPOT! You won %s: the pit boss is confirming it"), inCurrency(cur, w.Amount)))
	default:
		setLabel(r.jackpotWin, fmt.Sprintf(T("Jackpot of %s won at terminal %s"), inCurrency(cur, w.Amount), w.TerminalID))
	}
	r.jackpotWin.Show()
}
