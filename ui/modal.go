package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// showModal shows content over the whole screen with a Close button (help, game records).
//
// It is an overlay of the canvas, not a widget.PopUp: touches reach only the top overlay, so it
// is modal all the same, and in the kiosk it carries a cursor hider over all of it, the dimmed
// edge included — Fyne looks for the pointer's cursor in the top overlay alone (see Kiosk).
func (s *Screen) showModal(content fyne.CanvasObject) {
	c := fyne.CurrentApp().Driver().CanvasForObject(s.root)
	if c == nil {
		return
	}
	var layer *fyne.Container
	closeB := widget.NewButton(T("Close"), func() { c.Overlays().Remove(layer) })
	box := container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		container.NewPadded(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), closeB), nil, nil, content)))
	layer = container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameShadow)), container.New(centred{0.9}, box))
	if inKiosk(c) {
		layer.Add(newCursorHider())
	}
	layer.Resize(c.Size()) // the canvas sizes its overlays when it is resized, not when they are added
	c.Overlays().Add(layer)
}

// centred lays its objects out in the middle, at a fraction of the size it is given (at least
// their minimum, at most all of it).
type centred struct{ fraction float32 }

func (l centred) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		in := fyne.NewSize(size.Width*l.fraction, size.Height*l.fraction).Max(o.MinSize()).Min(size)
		o.Resize(in)
		o.Move(fyne.NewPos((size.Width-in.Width)/2, (size.Height-in.Height)/2))
	}
}

func (l centred) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}
