package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// segmented is a row of large segments of which one is chosen (the neighbours spread). It is
// drawn in place rather than a drop-down, whose list is a pop-up that would bring the pointer
// back in the kiosk (see Kiosk) and is fiddly under a finger. The chosen segment is filled
// and its digit dark, the others outlined with light digits: told by fill and contrast, not by
// hue.
type segmented struct {
	widget.BaseWidget
	options  []string
	selected int
	// OnChanged is called with the index of a segment a touch chose.
	OnChanged func(int)
}

func newSegmented(options []string, selected int, changed func(int)) *segmented {
	s := &segmented{options: options, selected: selected, OnChanged: changed}
	s.ExtendBaseWidget(s)
	return s
}

// Selected is the index of the chosen segment.
func (s *segmented) Selected() int { return s.selected }

// Tapped chooses the segment under the touch.
func (s *segmented) Tapped(e *fyne.PointEvent) {
	n := len(s.options)
	if n == 0 || s.Size().Width <= 0 {
		return
	}
	i := min(max(int(e.Position.X/(s.Size().Width/float32(n))), 0), n-1)
	if i == s.selected {
		return
	}
	s.selected = i
	s.Refresh()
	if s.OnChanged != nil {
		s.OnChanged(i)
	}
}

// segmentMin is a segment's smallest size: a fingertip.
var segmentMin = fyne.NewSize(48, 52)

func (s *segmented) MinSize() fyne.Size {
	return fyne.NewSize(segmentMin.Width*float32(len(s.options)), segmentMin.Height)
}

func (s *segmented) CreateRenderer() fyne.WidgetRenderer {
	r := &segmentedRenderer{w: s}
	for _, o := range s.options {
		bg := canvas.NewRectangle(color.Transparent)
		bg.CornerRadius = 6
		t := canvas.NewText(o, panelText)
		t.TextStyle = fyne.TextStyle{Bold: true}
		t.Alignment = fyne.TextAlignCenter
		r.bgs, r.texts = append(r.bgs, bg), append(r.texts, t)
		r.objs = append(r.objs, bg, t)
	}
	r.Refresh()
	return r
}

type segmentedRenderer struct {
	w     *segmented
	bgs   []*canvas.Rectangle
	texts []*canvas.Text
	objs  []fyne.CanvasObject
}

// segmentGap is the space between two segments.
const segmentGap = 6

func (r *segmentedRenderer) Layout(size fyne.Size) {
	n := float32(len(r.bgs))
	if n == 0 {
		return
	}
	w := (size.Width - segmentGap*(n-1)) / n
	for i := range r.bgs {
		p := fyne.NewPos(float32(i)*(w+segmentGap), 0)
		r.bgs[i].Move(p)
		r.bgs[i].Resize(fyne.NewSize(w, size.Height))
		r.texts[i].TextSize = min(size.Height*0.5, 30)
		r.texts[i].Move(p)
		r.texts[i].Resize(fyne.NewSize(w, size.Height))
	}
}

func (r *segmentedRenderer) MinSize() fyne.Size { return r.w.MinSize() }

func (r *segmentedRenderer) Refresh() {
	for i, bg := range r.bgs {
		if i == r.w.selected {
			bg.FillColor, bg.StrokeColor, bg.StrokeWidth = selectedChip, textColour, 3
			r.texts[i].Color = chipText
		} else {
			bg.FillColor, bg.StrokeColor, bg.StrokeWidth = panelBg, panelDimText, 2
			r.texts[i].Color = panelText
		}
	}
	r.Layout(r.w.Size())
	for _, o := range r.objs {
		canvas.Refresh(o)
	}
}

func (r *segmentedRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *segmentedRenderer) Destroy()                     {}
