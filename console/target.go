package console

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// minTarget is the least height and width of anything the dealer touches, in pixels: 72 px is
// 17.9 mm on a 21.5" 1920×1080 panel (0.248 mm a pixel) and 18.9 mm on a 15.6" 1280×800 one
// (0.262 mm), over the 15 mm a finger in a hurry needs (issue 28).
const minTarget = 72

// target is a touch target: a coloured block with its lines of text, the first large. A nil
// onTap draws it as a display only (no touch does anything).
type target struct {
	widget.BaseWidget
	bg    *canvas.Rectangle
	lines []*canvas.Text
	min   fyne.Size
	onTap func()
}

func newTarget(fill color.Color, ink color.Color, size float32, min fyne.Size, onTap func(), lines ...string) *target {
	t := &target{bg: canvas.NewRectangle(fill), onTap: onTap, min: min}
	t.bg.CornerRadius = 6
	for i, l := range lines {
		tx := canvas.NewText(l, ink)
		tx.Alignment = fyne.TextAlignCenter
		tx.TextSize = size
		if i == 0 {
			tx.TextStyle.Bold = true
		} else {
			tx.TextSize = size * 0.72
		}
		t.lines = append(t.lines, tx)
	}
	t.ExtendBaseWidget(t)
	return t
}

func (t *target) Tapped(*fyne.PointEvent) {
	if t.onTap != nil {
		t.onTap()
	}
}

func (t *target) CreateRenderer() fyne.WidgetRenderer {
	objs := []fyne.CanvasObject{}
	for _, l := range t.lines {
		objs = append(objs, l)
	}
	return &targetRenderer{t: t, text: container.NewVBox(objs...)}
}

type targetRenderer struct {
	t    *target
	text *fyne.Container
}

func (r *targetRenderer) Layout(s fyne.Size) {
	r.t.bg.Resize(s)
	m := r.text.MinSize()
	r.text.Resize(fyne.NewSize(s.Width, m.Height))
	r.text.Move(fyne.NewPos(0, (s.Height-m.Height)/2))
}

func (r *targetRenderer) MinSize() fyne.Size {
	m := r.text.MinSize()
	return fyne.NewSize(max(m.Width+16, r.t.min.Width), max(m.Height+8, r.t.min.Height))
}

func (r *targetRenderer) Refresh() {
	r.t.bg.Refresh()
	for _, l := range r.t.lines {
		l.Refresh()
	}
}

func (r *targetRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.t.bg, r.text}
}

func (r *targetRenderer) Destroy() {}
