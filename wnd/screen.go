// Package wnd is the winning number display and the jackpot meter display (issue 29; 001
// §2.2.4, §2.2.8, 004 §2.2(d)): a Fyne screen on a TV at the table that everyone there sees.
// It shows the latest number large in its colour, the last outcomes as a strip, the hot and
// cold numbers and the even-money splits with their sample, the table's limits, the closure
// sign, and with a jackpot the meter, the operator's promotional text and the winning jackpot
// message. When the link to the table is lost it says so over what it showed last.
//
// It draws what it is given (State, from client.WatchDisplay) and decides nothing. It takes no
// input: it is made only of canvas objects (no widget), so a tap or a key does nothing.
//
// Everything is placed on a 1920×1080 design, scaled to the window (one factor for both axes,
// the picture centred): a 4K TV (3840×2160) shows the same screen at twice the size.
package wnd

import (
	"fmt"
	"image/color"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/assets"
	"github.com/tablegames/ats/ui/look"
)

func init() {
	// The kiosk's English and simplified Chinese strings; Fyne picks by the system locale.
	if err := lang.AddTranslationsFS(assets.Translations, "translations"); err != nil {
		panic("wnd: embedded translations are invalid: " + err.Error()) // caught by any test run
	}
}

// T translates a string of the screen.
func T(s string) string { return lang.L(s) }

// SetLanguage makes the screen speak a language ("en" or "zh_Hans"; "" leaves the system
// locale's), as the kiosk does (ui.SetLanguage): call it before New.
func SetLanguage(code string) error {
	if code == "" {
		return nil
	}
	if err := os.Setenv("LANGUAGE", code); err != nil {
		return err
	}
	return lang.AddTranslationsFS(assets.Translations, "translations")
}

// Chinese reports whether the screen speaks Chinese: the app's theme then draws with the
// embedded Chinese font first (look.ChineseTheme).
func Chinese() bool { return strings.HasPrefix(lang.SystemLocale().String(), "zh") }

// State is what the display shows: the table's state as last received, whether the link is up,
// and whether it ever was (before the first state the screen waits for the table).
type State struct {
	Display table.Display
	Up      bool
	Ever    bool
	Now     time.Time // for the closure sign's minutes left; zero: Display.At
}

// The design's size: every place and size below is in these units.
const (
	designW = 1920
	designH = 1080
	strip   = table.DisplayHistory
)

// Colours of the display's own (the numbers', the states', the panels' and the statistics
// board's are look's, as the kiosk's).
var (
	panelColour = color.NRGBA{R: 0x18, G: 0x30, B: 0x20, A: 0xff}
	white       = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	gold        = color.NRGBA{R: 0xff, G: 0xc8, B: 0x3d, A: 0xff}
	amber       = color.NRGBA{R: 0xb8, G: 0x6e, B: 0x00, A: 0xff}
	veil        = color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xc0}
	winBg       = color.NRGBA{R: 0x8a, G: 0x10, B: 0x10, A: 0xff}
)

// label is a text of the screen; its design size is in Screen.sizes, and the layout scales it.
type label = canvas.Text

// tile is a number on its colour with an optional count under it.
type tile struct {
	bg    *canvas.Rectangle
	num   *label
	count *label
}

// segment is one share of a split bar.
type segment struct {
	bg    *canvas.Rectangle
	text  *label
	name  string
	full  string // the name and the share; the layout shows what fits of it
	count int
}

// Screen is the display's one screen. Make it with New, put Content() in a window, and call
// Show with each State (on Fyne's goroutine: fyne.Do).
type Screen struct {
	content *fyne.Container
	lay     *layout
	st      State

	bg                         *canvas.Rectangle
	title, phase               *label
	closeBg                    *canvas.Rectangle
	closeText                  *label
	numHead                    *label
	numBg                      *canvas.Rectangle
	numText, numWord           *label
	panel                      *canvas.Rectangle
	stripHead                  *label
	tiles                      [strip]tile
	hotHead, coldHead, hotNote *label
	hot, cold                  [table.DisplayHotCold]tile
	bars                       [4][]*segment
	barBg                      [4]*canvas.Rectangle
	limits, aggregate          *label
	jackBg                     *canvas.Rectangle
	jackHead, jackMeter, promo *label
	winBg                      *canvas.Rectangle
	winText                    *label
	veil                       *canvas.Rectangle
	lostHead, lostText         *label
	zeroSegs                   []*segment
	objects                    []fyne.CanvasObject
	sizes                      map[*label]float32 // each text's size on the design
}

// New builds the screen, waiting for the table.
func New() *Screen {
	s := &Screen{}
	rect := func(c color.Color) *canvas.Rectangle {
		r := canvas.NewRectangle(c)
		s.objects = append(s.objects, r)
		return r
	}
	s.sizes = map[*label]float32{}
	text := func(size float32, c color.Color, bold bool) *label {
		l := canvas.NewText("", c)
		l.TextStyle.Bold = bold
		s.sizes[l] = size
		s.objects = append(s.objects, l)
		return l
	}
	s.bg = rect(look.Panel)
	s.title = text(40, white, true)
	s.phase = text(40, white, true)
	s.phase.Alignment = fyne.TextAlignTrailing
	s.closeBg = rect(amber)
	s.closeText = text(36, white, true)
	s.closeText.Alignment = fyne.TextAlignCenter
	s.numHead = text(36, look.DimText, true)
	s.numHead.Alignment = fyne.TextAlignCenter
	s.numBg = rect(look.Green)
	s.numBg.StrokeColor, s.numBg.StrokeWidth = white, 6
	s.numText = text(300, white, true)
	s.numText.Alignment = fyne.TextAlignCenter
	s.numWord = text(48, white, true)
	s.numWord.Alignment = fyne.TextAlignCenter
	s.panel = rect(panelColour)
	s.stripHead = text(30, look.DimText, false)
	newTile := func(numSize, countSize float32) tile {
		t := tile{bg: rect(look.Green), num: text(numSize, white, true)}
		t.bg.StrokeColor, t.bg.StrokeWidth = white, 1
		t.num.Alignment = fyne.TextAlignCenter
		if countSize > 0 {
			t.count = text(countSize, white, false)
			t.count.Alignment = fyne.TextAlignCenter
		}
		return t
	}
	for i := range s.tiles {
		s.tiles[i] = newTile(40, 0)
	}
	s.hotHead = text(32, look.Hot, true)
	s.coldHead = text(32, look.Cold, true)
	s.hotNote = text(30, look.DimText, false)
	s.hotNote.Alignment = fyne.TextAlignCenter
	for i := range s.hot {
		s.hot[i] = newTile(40, 24)
		s.cold[i] = newTile(40, 24)
	}
	seg := func(c color.Color, name string) *segment {
		g := &segment{bg: rect(c), name: name}
		g.text = text(26, white, true)
		g.text.Alignment = fyne.TextAlignCenter
		return g
	}
	zero := func() *segment {
		z := seg(look.Green, "0")
		s.zeroSegs = append(s.zeroSegs, z)
		return z
	}
	for i := range s.barBg {
		s.barBg[i] = rect(look.BarEmpty)
	}
	s.bars[0] = []*segment{seg(look.Red, T("RED")), zero(), seg(look.Black, T("BLACK"))}
	s.bars[1] = []*segment{seg(look.SplitBlue, T("ODD")), zero(), seg(look.SplitPurple, T("EVEN"))}
	s.bars[2] = []*segment{seg(look.SplitBlue, T("1 to 18")), zero(), seg(look.SplitPurple, T("19 to 36"))}
	s.bars[3] = []*segment{zero(), seg(look.SplitBlue, T("1st")), seg(look.SplitBrown, T("2nd")), seg(look.SplitPurple, T("3rd"))}
	s.limits = text(32, white, false)
	s.aggregate = text(32, white, false)
	s.jackBg = rect(panelColour)
	s.jackHead = text(44, gold, true)
	s.jackMeter = text(88, gold, true)
	s.jackMeter.Alignment = fyne.TextAlignTrailing
	s.promo = text(36, white, false)
	s.promo.Alignment = fyne.TextAlignCenter
	s.winBg = rect(winBg)
	s.winBg.StrokeColor, s.winBg.StrokeWidth = gold, 6
	s.winText = text(56, gold, true)
	s.winText.Alignment = fyne.TextAlignCenter
	s.veil = rect(veil)
	s.lostHead = text(96, look.Closed, true)
	s.lostHead.Alignment = fyne.TextAlignCenter
	s.lostText = text(44, white, false)
	s.lostText.Alignment = fyne.TextAlignCenter
	s.lay = &layout{s: s}
	s.content = container.New(s.lay, s.objects...)
	s.Show(State{})
	return s
}

// Content is the screen's one canvas object, for the window.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Show draws a state. Call it on Fyne's goroutine.
func (s *Screen) Show(st State) {
	s.st = st
	d := st.Display
	now := st.Now
	if now.IsZero() {
		now = d.At
	}
	name := d.TableID
	if d.Venue != "" {
		name = d.Venue + " · " + d.TableID
	}
	s.title.Text = name
	ph, c := phaseWords(d.Phase)
	s.phase.Text, s.phase.Color = ph, c

	// The closure sign (001 §12.7), as the terminals show it.
	s.closeBg.Hidden, s.closeText.Hidden = true, true
	if !d.ClosingAt.IsZero() && d.Phase != table.PhaseClosed {
		left := max(int(d.ClosingAt.Sub(now).Round(time.Minute)/time.Minute), 0)
		s.closeText.Text = fmt.Sprintf(T("This table closes at %s: %d min left"), d.ClosingAt.Local().Format("15:04"), left)
		s.closeBg.Hidden, s.closeText.Hidden = false, false
	}

	// The latest number, large, in its colour, named in words for who does not see colour.
	s.numHead.Text = T("WINNING NUMBER")
	if o, ok := d.Latest(); ok {
		s.numText.Text = o.Number.String()
		s.numBg.FillColor = look.NumberColour(o.Number.Colour())
		s.numWord.Text = colourWord(o.Number)
	} else {
		s.numText.Text, s.numWord.Text = "", T("No spins yet")
		s.numBg.FillColor = panelColour
	}

	s.stripHead.Text = fmt.Sprintf(T("Last %d spins"), len(d.History))
	for i := range s.tiles {
		t := &s.tiles[i]
		on := i < len(d.History)
		t.bg.Hidden, t.num.Hidden = !on, !on
		if on {
			n := d.History[i].Number
			t.num.Text, t.bg.FillColor = n.String(), look.NumberColour(n.Colour())
		}
	}

	s.hotHead.Text, s.coldHead.Text = T("HOT"), T("COLD")
	s.hotNote.Text = fmt.Sprintf(T("HOT and COLD after %d spins"), table.HotColdMinSpins)
	s.hotNote.Hidden = len(d.Hot) > 0 || len(d.Cold) > 0
	setCounts(s.hot[:], d.Hot)
	setCounts(s.cold[:], d.Cold)

	sp := d.Splits
	zeroName := "0"
	if d.Wheel == roulette.DoubleZero {
		zeroName = "0/00"
	}
	for _, z := range s.zeroSegs {
		z.name = zeroName
	}
	counts := [4][]int{{sp.Red, sp.Zeros, sp.Black}, {sp.Odd, sp.Zeros, sp.Even}, {sp.Low, sp.Zeros, sp.High},
		{sp.Zeros, sp.Dozens[0], sp.Dozens[1], sp.Dozens[2]}}
	for b, segs := range s.bars {
		for i, g := range segs {
			g.count = counts[b][i]
			g.full = ""
			if sp.Sample > 0 && g.count > 0 {
				g.full = fmt.Sprintf("%s %d%%", g.name, (g.count*100+sp.Sample/2)/sp.Sample)
			}
		}
	}

	l := d.Limits
	s.limits.Text = fmt.Sprintf(T("Limits: min %s  max %s  unit %s"), money.InCurrency(d.Currency, l.Default.Min),
		money.InCurrency(d.Currency, l.Default.Max), money.InCurrency(d.Currency, l.Default.Unit))
	s.aggregate.Text = ""
	if l.AggregateMin > 0 {
		s.aggregate.Text = fmt.Sprintf(T("Table minimum per spin %s"), money.InCurrency(d.Currency, l.AggregateMin))
	}

	// The jackpot meter display (001 §2.2.8): the meter, the promotion, the winning message.
	jack := d.Jackpot
	s.jackHead.Text = T("JACKPOT")
	s.jackMeter.Text = money.InCurrency(d.Currency, d.JackpotMeter)
	s.promo.Text = d.Promotion
	win := jack && d.JackpotWin != nil
	s.jackBg.Hidden, s.jackHead.Hidden, s.jackMeter.Hidden = !jack, !jack, !jack
	s.promo.Hidden = d.Promotion == "" || win
	s.winBg.Hidden, s.winText.Hidden = !win, !win
	if win {
		s.winText.Text = fmt.Sprintf(T("Jackpot of %s won at terminal %s"), money.InCurrency(d.Currency, d.JackpotWin.Amount), d.JackpotWin.Seat)
	}

	// The link: before the first state the screen waits; lost, it says so over the last.
	lost := !st.Up
	s.veil.Hidden, s.lostHead.Hidden, s.lostText.Hidden = !lost, !lost, !lost
	if !st.Ever {
		s.lostHead.Text, s.lostText.Text = T("WAITING FOR THE TABLE"), ""
		s.lostHead.Color = look.DimText
	} else {
		s.lostHead.Text, s.lostText.Text = T("RECONNECTING…"), T("not connected to the table")
		s.lostHead.Color = look.Closed
	}
	s.content.Refresh()
}

func setCounts(tiles []tile, cs []table.NumberCount) {
	for i := range tiles {
		t := &tiles[i]
		on := i < len(cs)
		t.bg.Hidden, t.num.Hidden, t.count.Hidden = !on, !on, !on
		if on {
			t.num.Text, t.bg.FillColor = cs[i].Number.String(), look.NumberColour(cs[i].Number.Colour())
			t.count.Text = fmt.Sprintf("×%d", cs[i].Count)
		}
	}
}

// phaseWords are the round's state as the terminals word it.
func phaseWords(p table.Phase) (string, color.Color) {
	switch p {
	case table.PhaseClosed:
		return T("TABLE CLOSED"), look.Closed
	case table.PhaseWagering:
		return T("PLACE YOUR BETS"), look.Open
	case table.PhaseNoMoreBets:
		return T("NO MORE BETS"), look.Closed
	case table.PhaseResult:
		return T("RESULT"), white
	}
	return "", white
}

// colourWord names a number's colour: a player who does not see red reads it.
func colourWord(n roulette.Number) string {
	switch n.Colour() {
	case roulette.ColourRed:
		return T("RED")
	case roulette.ColourBlack:
		return T("BLACK")
	}
	return ""
}

// layout places everything on the 1920×1080 design, scaled to the window and centred.
type layout struct {
	s      *Screen
	u      float32 // the scale
	ox, oy float32 // the design's origin in the window
}

func (l *layout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(designW/4, designH/4) }

// put places an object at a design rectangle.
func (l *layout) put(o fyne.CanvasObject, x, y, w, h float32) {
	o.Move(fyne.NewPos(l.ox+x*l.u, l.oy+y*l.u))
	o.Resize(fyne.NewSize(w*l.u, h*l.u))
}

// text places a label in a design box, its text centred in the box's height.
func (l *layout) text(t *label, x, y, w, h float32) {
	t.TextSize = l.s.sizes[t] * l.u
	th := fyne.MeasureText("0", t.TextSize, t.TextStyle).Height / l.u
	// Fit the width: a long promotion or a translation shrinks rather than runs off the box.
	if tw := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width / l.u; tw > w && tw > 0 {
		t.TextSize *= w / tw
		th *= w / tw
	}
	l.put(t, x, y+(h-th)/2, w, th)
}

func (l *layout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	s := l.s
	l.u = min(size.Width/designW, size.Height/designH)
	l.ox, l.oy = (size.Width-designW*l.u)/2, (size.Height-designH*l.u)/2
	s.bg.Move(fyne.NewPos(0, 0))
	s.bg.Resize(size)
	s.bg.Refresh()

	// Top: the table's name, the phase; under it the closure sign.
	l.text(s.title, 40, 10, 1100, 80)
	l.text(s.phase, 1160, 10, 720, 80)
	l.put(s.closeBg, 0, 95, designW, 60)
	l.text(s.closeText, 40, 95, designW-80, 60)

	// Left: the latest number.
	l.text(s.numHead, 40, 165, 640, 50)
	l.put(s.numBg, 90, 220, 540, 460)
	s.numBg.CornerRadius = 40 * l.u
	s.numBg.StrokeWidth = 6 * l.u
	l.text(s.numText, 90, 230, 540, 360)
	l.text(s.numWord, 90, 600, 540, 70)

	// Right: hot and cold, the splits, the limits.
	l.put(s.panel, 720, 165, 1160, 560)
	s.panel.CornerRadius = 16 * l.u
	const tw, th, tg = 96, 96, 12
	l.text(s.hotHead, 750, 180, 200, 50)
	l.text(s.coldHead, 1320, 180, 200, 50)
	l.text(s.hotNote, 750, 240, 1100, 110)
	for i := range s.hot {
		l.tile(&s.hot[i], 750+float32(i)*(tw+tg), 235, tw, th)
		l.tile(&s.cold[i], 1320+float32(i)*(tw+tg), 235, tw, th)
	}
	for b, segs := range s.bars {
		y := float32(355 + b*62)
		l.bar(s.barBg[b], segs, 750, y, 1100, 52)
	}
	l.text(s.limits, 750, 610, 1100, 50)
	l.text(s.aggregate, 750, 660, 1100, 50)

	// The strip of the last outcomes, newest first.
	l.text(s.stripHead, 40, 730, 800, 40)
	const sw, sg = 86, 7
	for i := range s.tiles {
		l.tile(&s.tiles[i], 40+float32(i)*(sw+sg), 775, sw, 86)
	}
	for i := range s.tiles[:1] { // the latest, marked in the strip too
		s.tiles[i].bg.StrokeWidth = 4 * l.u
	}

	// Bottom: the jackpot meter, the promotion, the winning message.
	l.put(s.jackBg, 0, 885, designW, 195)
	l.text(s.jackHead, 40, 895, 500, 90)
	l.text(s.jackMeter, 560, 885, 1320, 105)
	l.text(s.promo, 40, 1010, designW-80, 60)
	l.put(s.winBg, 20, 995, designW-40, 80)
	s.winBg.StrokeWidth = 4 * l.u
	l.text(s.winText, 40, 995, designW-80, 80)
	if !s.st.Display.Jackpot { // without a jackpot, the promotion still shows
		l.text(s.promo, 40, 960, designW-80, 80)
	}

	// Lost: a veil over all of it, and why.
	s.veil.Move(fyne.NewPos(0, 0))
	s.veil.Resize(size)
	l.text(s.lostHead, 40, 380, designW-80, 160)
	l.text(s.lostText, 40, 540, designW-80, 80)
	for _, o := range s.objects {
		o.Refresh()
	}
}

// tile places a number tile: the number, and its count under it where it has one.
func (l *layout) tile(t *tile, x, y, w, h float32) {
	l.put(t.bg, x, y, w, h)
	t.bg.CornerRadius = 6 * l.u
	if t.count == nil {
		l.text(t.num, x, y, w, h)
		return
	}
	l.text(t.num, x, y+2, w, h*0.62)
	l.text(t.count, x, y+h*0.6, w, h*0.36)
}

// bar places a split bar: each share as wide as its part of the sample; its words where they
// fit.
func (l *layout) bar(bg *canvas.Rectangle, segs []*segment, x, y, w, h float32) {
	l.put(bg, x, y, w, h)
	total := 0
	for _, g := range segs {
		total += g.count
	}
	at := x
	for _, g := range segs {
		if total == 0 || g.count == 0 {
			g.bg.Hidden, g.text.Hidden = true, true
			continue
		}
		gw := w * float32(g.count) / float32(total)
		g.bg.Hidden = false
		l.put(g.bg, at, y, gw, h)
		g.text.Hidden = false
		g.text.Text = g.full
		if fyne.MeasureText(g.full, l.s.sizes[g.text]*l.u, g.text.TextStyle).Width/l.u > gw-8 {
			// Too narrow for the name: the share alone, or nothing.
			g.text.Text = g.full[strings.LastIndexByte(g.full, ' ')+1:]
			if fyne.MeasureText(g.text.Text, l.s.sizes[g.text]*l.u, g.text.TextStyle).Width/l.u > gw-4 {
				g.text.Text = ""
			}
		}
		l.text(g.text, at, y, gw, h)
		at += gw
	}
}
