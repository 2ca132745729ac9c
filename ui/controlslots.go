package ui

import (
	"maps"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// controlSlots lays out the controls row's right-hand buttons — the language, Help, Game
// records, Cash out — each in a slot of its own fixed width, right-aligned: as wide as the
// wider of its labels in English and in 中文 at the size class's text size (measured; the
// language test checks every label fits). Laid out at their own widths, the buttons moved when
// the language changed: after 中文 the Help button's place held "English", and a touch meant
// for Help switched the language back (issue 32 point 6).
type controlSlots struct {
	sizing *touchSizing
}

// controlSlotWidths are the slots' widths, in the order of the row, at the normal size class
// (1920×1080) and at the compact one (1280×800).
var controlSlotWidths = [2][4]float32{
	{112, 118, 218, 164},
	{80, 94, 177, 132},
}

// languageCompactSizes are the language button's sizes at 1280×800: the compact controls' with
// a narrower inner padding, so that "English" in its fixed slot leaves the row within the play
// area's 964 pixels (with the compact padding the row needed 1286 of the screen's 1280).
var languageCompactSizes = func() map[fyne.ThemeSizeName]float32 {
	m := maps.Clone(compactSizes)
	m[theme.SizeNameInnerPadding] = 7
	return m
}()

// widths are the slots' widths now: a button wider than its slot (a label longer than the two
// measured) widens its slot rather than be cut.
func (c *controlSlots) widths(objs []fyne.CanvasObject) []float32 {
	row := controlSlotWidths[0]
	if c.sizing != nil && c.sizing.compact {
		row = controlSlotWidths[1]
	}
	ws := make([]float32, len(objs))
	for i, o := range objs {
		if i < len(row) {
			ws[i] = row[i]
		}
		ws[i] = max(ws[i], o.MinSize().Width)
	}
	return ws
}

// Layout places the buttons from the right end, each in its slot. A hidden button (the
// language button before the kiosk offers it) keeps its slot, so nothing moves when it shows.
func (c *controlSlots) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	ws := c.widths(objs)
	x := size.Width
	for i := len(objs) - 1; i >= 0; i-- {
		x -= ws[i]
		objs[i].Move(fyne.NewPos(x, 0))
		objs[i].Resize(fyne.NewSize(ws[i], size.Height))
		x -= rowGap / 2
	}
}

func (c *controlSlots) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, w := range c.widths(objs) {
		s.Width += w
		if i > 0 {
			s.Width += rowGap / 2
		}
		s.Height = max(s.Height, objs[i].MinSize().Height)
	}
	return s
}
