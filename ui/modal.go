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
	box := closeBox(content, func() { c.Overlays().Remove(layer) })
	layer = container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameShadow)), container.New(centred{0.9}, box))
	if inKiosk(c) {
		layer.Add(newCursorHider())
	}
	layer.Resize(c.Size()) // the canvas sizes its overlays when it is resized, not when they are added
	c.Overlays().Add(layer)
}

// closeBox is an overlay's box: content on the overlay's background, Close at its foot.
func closeBox(content fyne.CanvasObject, close func()) fyne.CanvasObject {
	closeB := widget.NewButton(T("Close"), close)
	return container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		container.NewPadded(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), closeB), nil, nil, content)))
}

// showBeside shows content like showModal, but over the screen left of the side panel only:
// the period status and the countdown there stay in view and keep counting while the player
// reads (issue 32 point 8: Help, a modal over everything, hid the countdown). Touches reach
// only the overlay, so the side panel is seen, not touched, until Close.
func (s *Screen) showBeside(content fyne.CanvasObject) {
	c := fyne.CurrentApp().Driver().CanvasForObject(s.root)
	if c == nil {
		return
	}
	var layer *fyne.Container
	box := closeBox(content, func() { c.Overlays().Remove(layer) })
	edge := func() float32 {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(s.side).X - theme.Padding()
	}
	layer = container.New(leftOf{edge: edge, fraction: 0.96},
		canvas.NewRectangle(theme.Color(theme.ColorNameShadow)), box)
	if inKiosk(c) {
		layer.Add(newCursorHider()) // laid over the whole screen, the side panel included
	}
	layer.Resize(c.Size())
	c.Overlays().Add(layer)
}

// leftOf lays out an overlay left of an edge (the side panel's): its first object, the dimmed
// backdrop, fills that part; the second, the box, is centred in it at a fraction of its size;
// any further object (the kiosk's cursor hider) takes the whole size.
type leftOf struct {
	edge     func() float32
	fraction float32
}

func (l leftOf) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w := size.Width
	if e := l.edge(); e > 0 && e < w {
		w = e
	}
	for i, o := range objs {
		switch i {
		case 0:
			o.Move(fyne.NewPos(0, 0))
			o.Resize(fyne.NewSize(w, size.Height))
		case 1:
			in := fyne.NewSize(w*l.fraction, size.Height*l.fraction).Max(o.MinSize()).Min(fyne.NewSize(w, size.Height))
			o.Resize(in)
			o.Move(fyne.NewPos((w-in.Width)/2, (size.Height-in.Height)/2))
		default:
			o.Move(fyne.NewPos(0, 0))
			o.Resize(size)
		}
	}
}

func (l leftOf) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) > 1 {
		return objs[1].MinSize()
	}
	return fyne.Size{}
}

// confirm asks the player to confirm an action that cannot be taken back (Cash out ends the
// session): the question large, the action's button beside "Keep playing", over a dimmed
// screen. Only the action's button acts; anything else keeps the player where they were.
func (s *Screen) confirm(question, action string, onYes func()) {
	c := fyne.CurrentApp().Driver().CanvasForObject(s.root)
	if c == nil {
		return
	}
	var layer *fyne.Container
	done := func() { c.Overlays().Remove(layer) }
	yes := widget.NewButton(action, func() { done(); onYes() })
	yes.Importance = widget.WarningImportance
	no := widget.NewButton(T("Keep playing"), done)
	q := widget.NewLabel(question)
	q.Wrapping, q.Alignment, q.TextStyle = fyne.TextWrapWord, fyne.TextAlignCenter, fyne.TextStyle{Bold: true}
	q.SizeName = theme.SizeNameSubHeadingText // the amount is read from the seat
	buttons := s.sizing.sized(container.NewGridWithColumns(2, no, yes), nil, nil)
	// The question takes the box's whole width and wraps in it, centred top to bottom above the
	// buttons. In a centring container a wrapping label is given its minimum width, one
	// character: the prompt ran down the screen a letter a line, the amount behind the
	// buttons (issue 32 point 1).
	centredQ := container.NewVBox(layout.NewSpacer(), q, layout.NewSpacer())
	box := container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		container.NewPadded(container.NewBorder(nil, buttons, nil, nil, centredQ)))
	layer = container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameShadow)), container.New(centred{0.4}, box))
	if inKiosk(c) {
		layer.Add(newCursorHider())
	}
	layer.Resize(c.Size())
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
