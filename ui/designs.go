package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/diagrams"
)

// The three designs differ in what their side panel puts first (SPEC §7):
//
//   - A, the Rapid Roulette ATS (001 §2.1): the period status and the countdown, the balance and
//     the bet, the outcome and the win, recent outcomes, the limit sign.
//   - L, the TouchBet Betting Station (000 §10.3.1): the three period states as three lamps,
//     open, closing and no more bets, the one in force lit in its colour beside the countdown, so
//     the state reads from across the room by position as well as colour; and the note
//     acceptor's buy-in prompt as a sign of its own.
//   - U, the TouchTable Player Display (000 §11.2): the chip account, the amount bet and the
//     amount won as three meters, and the game status; its control set is Neighbours, Remove
//     all, Remove last, Repeat, Help and Cash out (no Double).

// periodLamps are L's three period lamps.
type periodLamps struct {
	box   *fyne.Container
	lamps [3]struct {
		bg   *canvas.Rectangle
		text *canvas.Text
		lit  color.Color
	}
}

var lampOff = color.NRGBA{R: 0x2a, G: 0x3a, B: 0x2f, A: 0xff}

func newPeriodLamps() *periodLamps {
	l := &periodLamps{box: container.New(lampColumn{})}
	for i, w := range []struct {
		label string
		lit   color.Color
	}{{T("OPEN"), openColour}, {T("CLOSING"), warnColour}, {T("NO MORE BETS"), closedColour}} {
		bg := canvas.NewRectangle(lampOff)
		bg.CornerRadius, bg.StrokeWidth, bg.StrokeColor = 6, 2, w.lit
		t := text(w.label, 22, panelDimText)
		t.Alignment = fyne.TextAlignCenter
		l.lamps[i].bg, l.lamps[i].text, l.lamps[i].lit = bg, t, w.lit
		l.box.Add(container.NewStack(bg, t))
	}
	return l
}

// set lights the lamp of a period state (none outside the three), redrawing only what changed.
func (l *periodLamps) set(p app.Period) {
	on := -1
	switch p {
	case app.PeriodOpen:
		on = 0
	case app.PeriodWarning:
		on = 1
	case app.PeriodNoMoreBets:
		on = 2
	}
	for i := range l.lamps {
		lamp := &l.lamps[i]
		fill, ink := color.Color(lampOff), color.Color(panelDimText)
		if i == on {
			fill, ink = lamp.lit, color.Color(color.Black)
		}
		if lamp.bg.FillColor != fill {
			lamp.bg.FillColor, lamp.text.Color = fill, ink
			lamp.bg.Refresh()
			lamp.text.Refresh()
		}
	}
}

// lampColumn stacks the lamps in equal rows with a small gap.
type lampColumn struct{}

const lampHeight, lampGap = 38, 2

func (lampColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	h := (size.Height - lampGap*float32(len(objs)-1)) / float32(len(objs))
	for i, o := range objs {
		o.Move(fyne.NewPos(0, float32(i)*(h+lampGap)))
		o.Resize(fyne.NewSize(size.Width, h))
	}
}

func (lampColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	n := float32(len(objs))
	return fyne.NewSize(150, n*lampHeight+(n-1)*lampGap)
}

// lampRow puts the lamps on the left and the countdown in a fixed width on the right: its number
// changes width every second, the lamps must not.
type lampRow struct{}

const countdownWidth = 100

func (lampRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.Position{})
	objs[0].Resize(fyne.NewSize(size.Width-countdownWidth-rowGap, size.Height))
	objs[1].Move(fyne.NewPos(size.Width-countdownWidth, 0))
	objs[1].Resize(fyne.NewSize(countdownWidth, size.Height))
}

func (lampRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	l, c := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(l.Width+rowGap+countdownWidth, max(l.Height, c.Height))
}

// meter is one of U's money meters: a caption over a large amount, in a frame.
func meter(caption string, value *canvas.Text) fyne.CanvasObject {
	frame := canvas.NewRectangle(color.Transparent)
	frame.StrokeColor, frame.StrokeWidth, frame.CornerRadius = panelDimText, 1, 6
	value.Alignment = fyne.TextAlignTrailing
	return container.NewStack(frame, container.NewPadded(container.NewVBox(text(caption, 15, panelDimText), value)))
}

// sideTop is the top of the side panel in a design: the period status and the countdown, in
// L with the lamps, in U over the three meters; cash are its chip-account parts, which the
// tournament panel takes the place of while a tournament is played.
func (s *Screen) sideTop() (top, cash []fyne.CanvasObject) {
	s.cd = newCountdownView(s.countdown)
	switch s.design.Name {
	case "L":
		s.lamps = newPeriodLamps()
		s.countdown.TextSize = 56
		row := container.New(lampRow{}, s.lamps.box, s.cd.view)
		// The bet on one line, its caption before it: the lamps take a row of their own, and a
		// Lucky Ball table's panel must still fit at 1280×800 (fitSide).
		s.bet.Alignment = fyne.TextAlignTrailing
		bet := container.NewBorder(nil, nil, container.NewCenter(text(T("BET"), 16, panelDimText)), nil, s.bet)
		cash = []fyne.CanvasObject{text(T("BALANCE"), 16, panelDimText), s.balance, bet}
		return append([]fyne.CanvasObject{row, s.status, s.explain, widget.NewSeparator()}, cash...), cash
	case "U":
		s.wonMeter = text("", 30, panelText)
		s.balance.TextSize, s.bet.TextSize = 30, 30
		won := meter(T("AMOUNT WON"), s.wonMeter)
		s.Elements[diagrams.ElemAmountWon] = won
		s.won.Hide() // the meter says it
		cash = []fyne.CanvasObject{meter(T("CHIP ACCOUNT"), s.balance), meter(T("AMOUNT BET"), s.bet), won}
		return append([]fyne.CanvasObject{s.status, s.explain, s.cd.view, widget.NewSeparator()}, cash...), cash
	}
	cash = []fyne.CanvasObject{text(T("BALANCE"), 16, panelDimText), s.balance, text(T("BET"), 16, panelDimText), s.bet}
	return append([]fyne.CanvasObject{s.status, s.explain, s.cd.view, widget.NewSeparator()}, cash...), cash
}

// showWonMeter keeps U's amount-won meter: what this round returned once it settles, 0.00
// before that or after a loss — never the last round's figure into the next (issue 32).
func (s *Screen) showWonMeter(v app.View) {
	if s.wonMeter == nil {
		return
	}
	t := s.cash(0)
	if w := v.LastWin; w != nil && w.RoundID == v.RoundID {
		t = s.cash(w.Returned)
	}
	if t != s.wonMeter.Text {
		s.wonMeter.Text = t
		s.wonMeter.Refresh()
	}
}
