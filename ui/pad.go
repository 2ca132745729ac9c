package ui

// The player-ID pad's sign (000 §11.4.2(a); issue 32 point 19). At a table that requires the
// pad, the end of the message line carries a framed sign from the start — "Touch your
// player-ID pad to bet", in the gold of the chips, the very words a refused tap gets — and
// while the pad is touched it turns green, "Player-ID pad read: place your bets", so the player
// sees the pad read them before they reach for the layout. The pad has this one name on every
// screen.

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/tablegames/ats/app"
)

type padSign struct {
	box   *fyne.Container
	frame *canvas.Rectangle
	text  *canvas.Text
	shown app.PadView
	row   *fyne.Container // the message line with the sign at its end, laid out again when the sign changes
}

func newPadSign() *padSign {
	p := &padSign{frame: canvas.NewRectangle(color.Transparent), text: text("", 22, selectedChip)}
	p.frame.StrokeWidth, p.frame.CornerRadius = 2, 6
	p.box = container.NewCenter(container.NewStack(p.frame, container.NewPadded(p.text)))
	p.box.Hide()
	p.shown.Touched = true // drawn at the first update
	return p
}

// update shows the sign while the table requires the pad, in its touched or untouched state,
// and reports whether it changed (its width with it).
func (p *padSign) update(v app.View) bool {
	if v.Pad == p.shown && p.box.Visible() == v.Pad.Required && (!v.Pad.Required || p.text.TextSize == endSignSize(p.text.Text, p.row)) {
		return false
	}
	p.shown = v.Pad
	defer func() {
		if p.row != nil {
			p.row.Refresh()
		}
	}() // the pad's row holds the closure's: laid out again with it
	if !v.Pad.Required {
		p.box.Hide()
		return true
	}
	c, s := selectedChip, T("Touch your player-ID pad to bet")
	if v.Pad.Touched {
		c, s = openColour, T("Player-ID pad read: place your bets")
	}
	p.text.Text, p.text.Color, p.frame.StrokeColor = s, c, c
	p.text.TextSize = endSignSize(s, p.row)
	p.text.Refresh()
	p.frame.Refresh()
	p.box.Show()
	return true
}
