// Package ui holds the kiosk's Fyne screens and widgets. It shows what app/ says and passes the
// player's touches back to it; it holds no game rules of its own.
package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Felt colours. Red and black numbers are also told apart by shape (a diamond marks red, see
// redMarker), so the layout reads the same to a player who does not see red.
var (
	feltGreen  = color.NRGBA{R: 0x0b, G: 0x5d, B: 0x1e, A: 0xff}
	feltLine   = color.NRGBA{R: 0xf5, G: 0xf0, B: 0xe1, A: 0xff}
	numRed     = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	numBlack   = color.NRGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	numGreen   = color.NRGBA{R: 0x1b, G: 0x7a, B: 0x32, A: 0xff}
	textColour = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

func numberColour(c roulette.Colour) color.Color {
	switch c {
	case roulette.ColourRed:
		return numRed
	case roulette.ColourBlack:
		return numBlack
	}
	return numGreen
}

// Felt is the virtual betting layout: the boxes of one layout's geometry, scaled to the widget.
// A tap reports the bet spot it means through OnTapped.
type Felt struct {
	widget.BaseWidget
	geom *diagrams.Geometry

	stakes  map[roulette.Spot]int64 // chips on the layout, by spot
	winning roulette.Number
	hasWin  bool

	// OnTapped is called with the region a tap means; taps between regions are ignored.
	OnTapped func(diagrams.Region)
}

// NewFelt returns a felt for the geometry.
func NewFelt(g *diagrams.Geometry) *Felt {
	f := &Felt{geom: g}
	f.ExtendBaseWidget(f)
	return f
}

// SetStakes shows chips with their amounts on the spots.
func (f *Felt) SetStakes(stakes map[roulette.Spot]int64) {
	f.stakes = stakes
	f.Refresh()
}

// SetWinning marks the winning number's box (ok false clears it).
func (f *Felt) SetWinning(n roulette.Number, ok bool) {
	f.winning, f.hasWin = n, ok
	f.Refresh()
}

// toLayout converts a widget position to layout units.
func (f *Felt) toLayout(p fyne.Position) diagrams.Point {
	scale, off := fit(f.geom.Bounds, f.Size())
	return diagrams.Point{
		X: (p.X-off.X)/scale + f.geom.Bounds.Min.X,
		Y: (p.Y-off.Y)/scale + f.geom.Bounds.Min.Y,
	}
}

// ToScreen converts a layout point to a position in the widget.
func (f *Felt) ToScreen(p diagrams.Point) fyne.Position {
	scale, off := fit(f.geom.Bounds, f.Size())
	return fyne.NewPos(off.X+(p.X-f.geom.Bounds.Min.X)*scale, off.Y+(p.Y-f.geom.Bounds.Min.Y)*scale)
}

// fit returns the scale (pixels per unit) and the offset that fit bounds into size, centred
// and keeping the felt's proportions.
func fit(b diagrams.Rect, size fyne.Size) (float32, fyne.Position) {
	w, h := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y
	scale := min(size.Width/w, size.Height/h)
	return scale, fyne.NewPos((size.Width-w*scale)/2, (size.Height-h*scale)/2)
}

// Tapped places a chip: it reports the region under the touch.
func (f *Felt) Tapped(e *fyne.PointEvent) {
	if f.OnTapped == nil {
		return
	}
	if r, ok := f.geom.Hit(f.toLayout(e.Position)); ok {
		f.OnTapped(r)
	}
}

// MinSize is small enough for a 1280×800 screen with the side panels.
func (f *Felt) MinSize() fyne.Size { return fyne.NewSize(560, 200) }

// CreateRenderer draws the boxes.
func (f *Felt) CreateRenderer() fyne.WidgetRenderer {
	r := &feltRenderer{felt: f, bg: canvas.NewRectangle(feltGreen), win: canvas.NewRectangle(color.Transparent)}
	r.win.StrokeColor, r.win.StrokeWidth = winOutline, 6
	for _, b := range f.geom.Boxes {
		fill := color.Color(color.Transparent)
		if b.IsNum || b.Colour != roulette.ColourGreen {
			fill = numberColour(b.Colour)
		}
		rect := canvas.NewRectangle(fill)
		rect.StrokeColor = feltLine
		rect.StrokeWidth = 2
		label := canvas.NewText(b.Label, textColour)
		label.Alignment = fyne.TextAlignCenter
		label.TextStyle = fyne.TextStyle{Bold: true}
		var marker *canvas.Text
		if b.Colour == roulette.ColourRed {
			marker = canvas.NewText("◆", textColour)
			marker.Alignment = fyne.TextAlignCenter
		}
		r.boxes = append(r.boxes, boxObjects{box: b, rect: rect, label: label, marker: marker})
	}
	return r
}

type boxObjects struct {
	box    diagrams.Box
	rect   *canvas.Rectangle
	label  *canvas.Text
	marker *canvas.Text // red numbers and the RED box: a shape as well as a colour
}

type feltRenderer struct {
	felt  *Felt
	bg    *canvas.Rectangle
	boxes []boxObjects
	win   *canvas.Rectangle
	chips []fyne.CanvasObject
}

var (
	chipFill   = color.NRGBA{R: 0xf2, G: 0xc1, B: 0x2e, A: 0xff}
	chipEdge   = color.NRGBA{R: 0x6d, G: 0x4c, B: 0x00, A: 0xff}
	chipText   = color.NRGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	winOutline = color.NRGBA{R: 0xff, G: 0xee, B: 0x58, A: 0xff}
)

// layoutChips rebuilds the chip objects from the felt's stakes.
func (r *feltRenderer) layoutChips(scale float32) {
	r.chips = r.chips[:0]
	d := scale * 0.5
	for _, reg := range r.felt.geom.Regions {
		amount, ok := r.felt.stakes[reg.Spot]
		if !ok || amount == 0 {
			continue
		}
		c := r.felt.ToScreen(reg.Centre)
		disc := canvas.NewCircle(chipFill)
		disc.StrokeColor, disc.StrokeWidth = chipEdge, 3
		disc.Move(fyne.NewPos(c.X-d/2, c.Y-d/2))
		disc.Resize(fyne.NewSize(d, d))
		label := canvas.NewText(money(amount), chipText)
		label.TextSize = d * 0.32
		label.TextStyle = fyne.TextStyle{Bold: true}
		label.Alignment = fyne.TextAlignCenter
		label.Move(fyne.NewPos(c.X-d/2, c.Y-d/2))
		label.Resize(fyne.NewSize(d, d))
		r.chips = append(r.chips, disc, label)
	}
}

func (r *feltRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	scale, _ := fit(r.felt.geom.Bounds, size)
	for _, b := range r.boxes {
		tl := r.felt.ToScreen(b.box.Rect.Min)
		br := r.felt.ToScreen(b.box.Rect.Max)
		b.rect.Move(tl)
		b.rect.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
		b.label.TextSize = scale * 0.32
		b.label.Move(tl)
		b.label.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
		if b.marker != nil {
			b.marker.TextSize = scale * 0.16
			b.marker.Move(fyne.NewPos(tl.X, tl.Y+(br.Y-tl.Y)*0.55))
			b.marker.Resize(fyne.NewSize(br.X-tl.X, (br.Y-tl.Y)*0.4))
		}
	}
	r.win.Hide()
	if r.felt.hasWin {
		for _, b := range r.boxes {
			if b.box.IsNum && b.box.Number == r.felt.winning {
				r.win.Move(b.rect.Position())
				r.win.Resize(b.rect.Size())
				r.win.Show()
			}
		}
	}
	r.layoutChips(scale)
}

func (r *feltRenderer) MinSize() fyne.Size { return r.felt.MinSize() }

func (r *feltRenderer) Refresh() {
	r.Layout(r.felt.Size())
	canvas.Refresh(r.felt)
}

func (r *feltRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.bg}
	for _, b := range r.boxes {
		objs = append(objs, b.rect, b.label)
		if b.marker != nil {
			objs = append(objs, b.marker)
		}
	}
	objs = append(objs, r.win)
	return append(objs, r.chips...)
}

func (r *feltRenderer) Destroy() {}
