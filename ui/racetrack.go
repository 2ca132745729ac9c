package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Racetrack is the oval of the wheel's numbers for neighbours bets, with the named sectors
// inside on a single-zero table (000 §6.4, §11.2). A tap reports what it means through OnTapped.
type Racetrack struct {
	widget.BaseWidget
	track *diagrams.Racetrack

	// OnTapped is called with the number or sector tapped.
	OnTapped func(diagrams.TrackRegion)
}

// NewRacetrack returns the racetrack widget of a wheel's track.
func NewRacetrack(rt *diagrams.Racetrack) *Racetrack {
	r := &Racetrack{track: rt}
	r.ExtendBaseWidget(r)
	return r
}

// ToScreen converts a track point to a widget position.
func (r *Racetrack) ToScreen(p diagrams.Point) fyne.Position {
	scale, off := fit(r.track.Bounds, r.Size())
	return fyne.NewPos(off.X+(p.X-r.track.Bounds.Min.X)*scale, off.Y+(p.Y-r.track.Bounds.Min.Y)*scale)
}

// Tapped reports the region under the touch.
func (r *Racetrack) Tapped(e *fyne.PointEvent) {
	if r.OnTapped == nil {
		return
	}
	scale, off := fit(r.track.Bounds, r.Size())
	p := diagrams.Point{X: (e.Position.X-off.X)/scale + r.track.Bounds.Min.X, Y: (e.Position.Y-off.Y)/scale + r.track.Bounds.Min.Y}
	if reg, ok := r.track.Hit(p); ok {
		r.OnTapped(reg)
	}
}

// MinSize keeps the boxes big enough for a finger at 1280×800.
func (r *Racetrack) MinSize() fyne.Size { return fyne.NewSize(540, 100) }

// CreateRenderer draws the ring and the sectors.
func (r *Racetrack) CreateRenderer() fyne.WidgetRenderer {
	rr := &trackRenderer{w: r}
	add := func(reg diagrams.TrackRegion, fill color.Color) {
		rect := canvas.NewRectangle(fill)
		rect.StrokeColor, rect.StrokeWidth = feltLine, 1.5
		label := canvas.NewText(reg.Label, textColour)
		label.Alignment = fyne.TextAlignCenter
		label.TextStyle = fyne.TextStyle{Bold: true}
		rr.boxes = append(rr.boxes, trackBox{reg: reg, rect: rect, label: label})
	}
	for _, reg := range r.track.Numbers {
		add(reg, numberColour(reg.Colour))
	}
	for _, reg := range r.track.Sectors {
		add(reg, feltGreen)
	}
	return rr
}

type trackBox struct {
	reg   diagrams.TrackRegion
	rect  *canvas.Rectangle
	label *canvas.Text
}

type trackRenderer struct {
	w     *Racetrack
	boxes []trackBox
}

func (t *trackRenderer) Layout(size fyne.Size) {
	scale, _ := fit(t.w.track.Bounds, size)
	for _, b := range t.boxes {
		tl, br := t.w.ToScreen(b.reg.Rect.Min), t.w.ToScreen(b.reg.Rect.Max)
		b.rect.Move(tl)
		b.rect.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
		b.label.TextSize = scale * 0.38
		if b.reg.Target.Call != roulette.Neighbours {
			b.label.TextSize = scale * 0.3
		}
		b.label.Move(tl)
		b.label.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
	}
}

func (t *trackRenderer) MinSize() fyne.Size { return t.w.MinSize() }
func (t *trackRenderer) Refresh()           { t.Layout(t.w.Size()); canvas.Refresh(t.w) }
func (t *trackRenderer) Destroy()           {}

func (t *trackRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, 2*len(t.boxes))
	for _, b := range t.boxes {
		objs = append(objs, b.rect, b.label)
	}
	return objs
}
