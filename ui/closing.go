package ui

// The sign of the table's announced closure (001 §12.7, 003 §9.9; issue 32 point 20): framed in
// the no-more-bets red at the end of the message line, apart from it, so a refusal on the line
// never takes it away; its words are app's (View.Closing), the time of closure and the minutes
// left, which app counts down.

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/tablegames/ats/app"
)

type closingSign struct {
	box   *fyne.Container
	frame *canvas.Rectangle
	text  *canvas.Text
	row   *fyne.Container // the message line with the sign at its end, laid out again when the sign changes
	fit   *fyne.Container // the whole row, the pad's sign included: the sign's size is a share of it
}

func newClosingSign() *closingSign {
	c := &closingSign{frame: canvas.NewRectangle(color.Transparent), text: text("", 22, closedColour)}
	c.frame.StrokeColor, c.frame.StrokeWidth, c.frame.CornerRadius = closedColour, 3, 6
	c.box = container.NewCenter(container.NewStack(c.frame, container.NewPadded(c.text)))
	c.box.Hide()
	return c
}

// update shows the sign while a closure is announced, with its words now.
func (c *closingSign) update(v app.View) {
	s := ""
	if !v.Closing.IsZero() {
		s = sayIn(v.Config.Currency, v.Closing)
	}
	if s == c.text.Text && c.box.Visible() == (s != "") && c.text.TextSize == endSignSize(s, c.fit) {
		return
	}
	c.text.Text = s
	c.text.TextSize = endSignSize(s, c.fit)
	if s == "" {
		c.box.Hide()
	} else {
		c.text.Refresh()
		c.box.Show()
	}
	if c.row != nil {
		c.row.Refresh()
	}
}

// endSignSize is the text size of a sign at the end of the message line: 22, or less (16 at the
// least) so the sign takes at most a third of the row and the line keeps room for its message
// at 1280×800.
func endSignSize(s string, row *fyne.Container) float32 {
	if row == nil || row.Size().Width <= 0 {
		return 22
	}
	return max(fitText(s, 22, row.Size().Width*0.32, fyne.TextStyle{Bold: true}), 16)
}
