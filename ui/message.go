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
	// changed is called when a message takes more or fewer lines than the one before.
	changed func()
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
	lines := m.MinSize().Height
	m.Label.SetText(s)
	if m.MinSize().Height != lines && m.changed != nil {
		m.changed()
	}
}

// view is the strip with the label on it, at the message line's size and ink.
func (m *messageLine) view(sizing *touchSizing) fyne.CanvasObject {
	return sizing.sized(container.NewStack(m.strip, container.NewPadded(m)), messageSizes,
		map[fyne.ThemeColorName]color.Color{theme.ColorNameForeground: messageInk})
}
