package ui

import (
	"image/color"
	"maps"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/ui/look"
)

// Racetrack is the oval of the wheel's numbers for neighbours bets, with the named sectors
// inside on a single-zero table (000 §6.4, §11.2), and below it the Asian racetrack's groups
// when the table offers one (002 §3.2). A tap reports what it means through OnTapped.
type Racetrack struct {
	widget.BaseWidget
	track *diagrams.Racetrack

	// OnTapped is called with the number or sector tapped.
	OnTapped func(diagrams.TrackRegion)

	stakes map[diagrams.TrackTarget]int64 // call bets, each a chip where it was placed
	// covered are the numbers the call bets placed cover, lit on the ring (SetCovered)
	covered roulette.Mask
	closed  bool // no more bets: veiled as the felt is
}

// SetClosed veils the racetrack while the table takes no bets, as the felt is (SetClosed), so
// it does not look live after NO MORE BETS (issue 32 point 9).
func (r *Racetrack) SetClosed(closed bool) {
	if r.closed != closed {
		r.closed = closed
		r.Refresh()
	}
}

// SetStakes shows the call bets as chips: a neighbours bet on the number it is centred on, a
// sector bet on its sector.
func (r *Racetrack) SetStakes(stakes map[diagrams.TrackTarget]int64) {
	if maps.Equal(stakes, r.stakes) || len(stakes) == 0 && len(r.stakes) == 0 {
		return // a view change that moved no call bet redraws nothing
	}
	r.stakes = stakes
	r.Refresh()
}

// SetCovered lights the numbers the call bets placed cover (issue 32 point 5): a player sees
// which numbers voisins or 17±4 is on, not only a chip on a name or a number.
func (r *Racetrack) SetCovered(m roulette.Mask) {
	if m != r.covered {
		r.covered = m
		r.Refresh()
	}
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

// trackNumberEm is a number's label size on the racetrack, in cells: 0.38 of a 53-pixel cell
// at 1280×800 is a 20-pixel label.
const trackNumberEm = 0.38

// MinSize keeps the boxes big enough for a finger at 1280×800.
func (r *Racetrack) MinSize() fyne.Size { return fyne.NewSize(540, 100) }

// CreateRenderer draws the ring and the sectors as one cached picture.
func (r *Racetrack) CreateRenderer() fyne.WidgetRenderer {
	var boxes []artBox
	for _, reg := range r.track.Numbers {
		boxes = append(boxes, artBox{rect: reg.Rect, fill: look.NumberColour(reg.Colour), label: reg.Label, em: trackNumberEm, marker: reg.Colour == roulette.ColourRed})
	}
	for _, reg := range r.track.Sectors {
		label := reg.Label
		if label == "ZERO" { // go-i18n reserves the key "zero" (a plural form): asked by another
			label = "ZERO GAME"
		}
		label = T(label) // ZERO, VOISINS, ORPHELINS, TIER in the player's language
		boxes = append(boxes, artBox{rect: reg.Rect, fill: feltGreen, label: label, em: 0.3})
	}
	if l := r.track.Legend; l != nil { // the band without sectors: what the racetrack is for
		boxes = append(boxes, artBox{rect: l.Rect, fill: feltGreen, label: T(l.Label), em: 0.3})
	}
	for _, reg := range r.track.Asian { // the Asian racetrack's groups (002 §3.2)
		boxes = append(boxes, artBox{rect: reg.Rect, fill: feltGreen, label: reg.Label, em: 0.3})
	}
	art := newBoxArt(r.track.Bounds, nil, 1.5, boxes)
	dim := canvas.NewRectangle(closedDim)
	dim.Hidden = !r.closed
	return &trackRenderer{w: r, art: art, dim: dim, objs: []fyne.CanvasObject{art.raster, dim}}
}

type trackRenderer struct {
	w    *Racetrack
	art  *boxArt
	dim  *canvas.Rectangle // over the track while the table takes no bets
	objs []fyne.CanvasObject
	// drawn are the call bets' chips drawn into the picture by the last layout (as the felt's:
	// a chip as a dozen objects made every frame dearer, issue 18).
	drawn []trackChip
	lit   []roulette.Number // the numbers lit as covered by a call bet (SetCovered)
}

// trackChip is a call bet's chip as drawn into the racetrack's picture.
type trackChip struct {
	amount int64
	at     fyne.Position // its centre in the widget
	d      float32       // its diameter
}

func (t *trackRenderer) Layout(size fyne.Size) {
	t.art.raster.Resize(size)
	t.dim.Resize(size)
	t.dim.Hidden = !t.w.closed
	t.drawn, t.lit = t.drawn[:0], t.lit[:0]
	var sprites []artSprite
	scale, _ := fit(t.w.track.Bounds, size)
	// The covered numbers first, under the chips: a frame inside each number's box, in the
	// gold of the chosen chip, which no number's colour is.
	for _, reg := range t.w.track.Numbers {
		if n := reg.Target.Centre; t.w.covered.Has(n) {
			tl, br := t.w.ToScreen(reg.Rect.Min), t.w.ToScreen(reg.Rect.Max)
			sprites = append(sprites, litSprite(tl, fyne.NewSize(br.X-tl.X, br.Y-tl.Y)))
			t.lit = append(t.lit, n)
		}
	}
	if len(t.w.stakes) > 0 {
		ringTop, ringBottom := t.w.track.Numbers[0].Rect.Min.Y, t.w.track.Numbers[0].Rect.Max.Y
		for _, reg := range t.w.track.Numbers {
			ringTop, ringBottom = min(ringTop, reg.Rect.Min.Y), max(ringBottom, reg.Rect.Max.Y)
		}
		mid := diagrams.Point{X: (t.w.track.Bounds.Min.X + t.w.track.Bounds.Max.X) / 2, Y: (ringTop + ringBottom) / 2}
		for k, regs := range [][]diagrams.TrackRegion{t.w.track.Numbers, t.w.track.Sectors, t.w.track.Asian} {
			for _, reg := range regs { // a number's target is the neighbours bet centred on it; a group's, its Asian Neighbour
				a := t.w.stakes[reg.Target]
				if a <= 0 {
					continue
				}
				rc := reg.Rect
				side := min(rc.Max.X-rc.Min.X, rc.Max.Y-rc.Min.Y)
				d := side * scale * 0.82
				at := diagrams.Point{X: (rc.Min.X + rc.Max.X) / 2, Y: (rc.Min.Y + rc.Max.Y) / 2}
				if k == 0 {
					// A neighbours chip stands across its number's inner edge, smaller: on the
					// number it hid the number (issue 32 point 5); the lit numbers around it
					// say what it covers.
					d = side * scale * 0.56
					switch {
					case rc.Max.Y <= mid.Y: // the top row
						at.Y = rc.Max.Y
					case rc.Min.Y >= mid.Y: // the bottom row
						at.Y = rc.Min.Y
					case at.X < mid.X: // the left end
						at.X = rc.Max.X
					default: // the right end
						at.X = rc.Min.X
					}
				}
				if k == 1 {
					// A sector's chip stands at its end: in the middle it hid the sector's name
					// (issue 32 point 5).
					at.X = rc.Max.X - side/2
				}
				c := t.w.ToScreen(at)
				sprites = append(sprites, chipSprite(a, false, c, d))
				t.drawn = append(t.drawn, trackChip{amount: a, at: c, d: d})
			}
		}
	}
	t.art.setSprites(sprites)
}

// litSprite is the frame of a number a call bet covers, inside its box of size at tl.
func litSprite(tl fyne.Position, size fyne.Size) artSprite {
	const stroke = 4
	return artSprite{
		key: struct {
			lit  bool
			size fyne.Size
		}{true, size}, at: tl, size: size,
		objs: func() []fyne.CanvasObject {
			f := canvas.NewRectangle(color.Transparent)
			f.StrokeColor, f.StrokeWidth = selectedChip, stroke
			f.Move(fyne.NewPos(stroke/2+1, stroke/2+1))
			f.Resize(size.SubtractWidthHeight(stroke+2, stroke+2))
			return []fyne.CanvasObject{f}
		},
	}
}

func (t *trackRenderer) MinSize() fyne.Size { return t.w.MinSize() }

// Refresh lays the chips out again: a change of them composes the picture again.
func (t *trackRenderer) Refresh() { t.Layout(t.w.Size()) }

func (t *trackRenderer) Destroy() {}

// Objects is the picture, and the veil over it only while closed: at rest a frame draws the one
// raster (issue 18).
func (t *trackRenderer) Objects() []fyne.CanvasObject {
	if t.w.closed {
		return t.objs
	}
	return t.objs[:1]
}
