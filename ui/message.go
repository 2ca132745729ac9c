package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Colours of the message line: dark type on a light strip while it says something, which
// stands out from the green felt and the dark panels; a strip barely lighter than the panel
// while it is empty, so an empty line does not look like a field to type in.
var (
	messageBg    = color.NRGBA{R: 0xf5, G: 0xf0, B: 0xe1, A: 0xff}
	messageInk   = color.NRGBA{R: 0x14, G: 0x14, B: 0x14, A: 0xff}
	messageEmpty = color.NRGBA{R: 0x1c, G: 0x33, B: 0x24, A: 0xff}
)

// messageLine is the line that shows the one message the terminal chose for the player (why a
// chip was refused or reduced, 001 §4.3, what the money devices are doing): a label whose strip
// lights up while it has a message. Which message, and for how long, is app's decision.
type messageLine struct {
	widget.Label
	strip *canvas.Rectangle
}

func newMessageLine() *messageLine {
	m := &messageLine{strip: canvas.NewRectangle(messageEmpty)}
	m.Wrapping = fyne.TextWrapWord
	m.TextStyle = fyne.TextStyle{Bold: true}
	m.strip.CornerRadius = 6
	m.ExtendBaseWidget(m)
	return m
}

// SetText shows a message, lighting the strip; "" empties it.
func (m *messageLine) SetText(s string) {
	fill := color.Color(messageBg)
	if s == "" {
		fill = messageEmpty
	}
	if m.strip.FillColor != fill {
		m.strip.FillColor = fill
		m.strip.Refresh()
	}
	m.SizeName = m.sizeFor(s, m.Size().Width)
	m.Label.SetText(s)
}

// Resize fits the message's size to its new width.
func (m *messageLine) Resize(size fyne.Size) {
	if n := m.sizeFor(m.Text, size.Width); n != m.SizeName {
		m.SizeName = n
		m.Refresh()
	}
	m.Label.Resize(size)
}

// The message line keeps one height whatever it says (nothing under a finger moves when a
// message comes, issue 18): a message that fits one line at the line's size is shown at it, a
// longer one at messageSmall, in up to two lines, in the same height (messageSlot).
const (
	messageLarge = 24
	messageSmall = 16
)

// sizeFor is the size name a message is shown at in a line of the given width.
func (m *messageLine) sizeFor(s string, width float32) fyne.ThemeSizeName {
	pad := 2 * messageSizes[theme.SizeNameInnerPadding]
	if width <= 0 || fyne.MeasureText(s, messageLarge, m.TextStyle).Width <= width-pad {
		return theme.SizeNameText
	}
	return theme.SizeNameCaptionText
}

// height is the message line's one height: two lines at the small size or one at the large,
// whichever is taller, with the label's padding and the strip's.
func (m *messageLine) height() float32 {
	line := func(size float32) float32 { return fyne.MeasureText("Ag", size, m.TextStyle).Height }
	text := max(line(messageLarge), 2*line(messageSmall)+messageSizes[theme.SizeNameLineSpacing])
	return text + 2*messageSizes[theme.SizeNameInnerPadding] + 2*theme.Padding()
}

// messageSlot is the row under the controls: the message line, or while the dealer offers a
// buy-in, the offer over it. Its height is the same whatever it shows — a message of one line
// or two, an offer or none — so the felt, the racetrack and the tray above never move.
type messageSlot struct {
	line     *messageLine
	controls fyne.CanvasObject // the offer's buttons are the controls' size
}

func (l *messageSlot) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (l *messageSlot) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w float32
	for _, o := range objs {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	return fyne.NewSize(w, max(l.line.height(), l.controls.MinSize().Height))
}

// view is the strip with the label on it, at the message line's size and ink.
func (m *messageLine) view(sizing *touchSizing) fyne.CanvasObject {
	return sizing.sized(container.NewStack(m.strip, container.NewPadded(m)), messageSizes,
		map[fyne.ThemeColorName]color.Color{theme.ColorNameForeground: messageInk})
}
