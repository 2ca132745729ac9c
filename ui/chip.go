package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// chipStyle is how a denomination looks: the body, the edge spots and inlay ring, and the ink
// of the value printed on it.
type chipStyle struct {
	body, insert, ink color.NRGBA
}

// chipBands maps denominations to the colours casinos use for them, by the band a value falls
// in: the largest "from" at or under it. Every denomination the table sends gets a colour, and
// the same value always the same one; two values in one band share a colour but never a label.
// Colour is not the only cue: the value is printed on every chip.
var chipBands = []struct {
	from  int64 // cents
	style chipStyle
}{
	{0, chipStyle{body: rgb(0x9e, 0x9e, 0x9e), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0x1a, 0x1a, 0x1a)}},        // under 1: grey
	{100, chipStyle{body: rgb(0xf2, 0xf2, 0xee), insert: rgb(0x1e, 0x5a, 0xb4), ink: rgb(0x1a, 0x1a, 0x1a)}},      // 1: white
	{500, chipStyle{body: rgb(0xc6, 0x28, 0x28), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}},      // 5: red
	{1000, chipStyle{body: rgb(0x1e, 0x5a, 0xb4), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}},     // 10: blue
	{2500, chipStyle{body: rgb(0x2e, 0x8b, 0x3e), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}},     // 25: green
	{10000, chipStyle{body: rgb(0x1c, 0x1c, 0x1c), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}},    // 100: black
	{50000, chipStyle{body: rgb(0x6a, 0x1b, 0x9a), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}},    // 500: purple
	{100000, chipStyle{body: rgb(0xf9, 0xa8, 0x25), insert: rgb(0x1c, 0x1c, 0x1c), ink: rgb(0x1a, 0x1a, 0x1a)}},   // 1,000: yellow
	{500000, chipStyle{body: rgb(0x8d, 0x55, 0x24), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}},   // 5,000: brown
	{1000000, chipStyle{body: rgb(0xe9, 0x6a, 0x9c), insert: rgb(0x1c, 0x1c, 0x1c), ink: rgb(0x1a, 0x1a, 0x1a)}},  // 10,000: pink
	{10000000, chipStyle{body: rgb(0x00, 0x83, 0x8f), insert: rgb(0xf5, 0xf5, 0xf5), ink: rgb(0xff, 0xff, 0xff)}}, // 100,000: teal
}

func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

// styleOf is the look of a denomination in cents.
func styleOf(cents int64) chipStyle {
	st := chipBands[0].style
	for _, b := range chipBands {
		if cents >= b.from {
			st = b.style
		}
	}
	return st
}

// chipRing is the ring around the chosen chip; chipShadow the shade under every chip.
var (
	chipRing   = selectedChip
	chipShadow = color.NRGBA{A: 0x70}
)

// chipSpots is how many spots a chip has on its edge.
const chipSpots = 8

// Chip is one chip of the tray: a round chip of its denomination's colour with its value on
// it. Touched, it reports through OnTapped; the chosen one stands raised in a ring, so it is
// told by shape and position as well as by colour.
type Chip struct {
	widget.BaseWidget
	Value    int64 // cents
	Selected bool
	OnTapped func()
}

// NewChip returns a chip of a denomination in cents.
func NewChip(value int64, tapped func()) *Chip {
	c := &Chip{Value: value, OnTapped: tapped}
	c.ExtendBaseWidget(c)
	return c
}

// Label is the value printed on the chip.
func (c *Chip) Label() string { return money(c.Value) }

// SetSelected raises the chip (or lowers it), redrawing only on a change.
func (c *Chip) SetSelected(on bool) {
	if c.Selected == on {
		return
	}
	c.Selected = on
	c.Refresh()
}

// Tapped chooses the chip: the whole square it stands in takes the touch, so a finger that
// lands near the rim still counts.
func (c *Chip) Tapped(*fyne.PointEvent) {
	if c.OnTapped != nil {
		c.OnTapped()
	}
}

// chipMin is the smallest a chip is drawn: still a finger's width on a 1280×800 screen.
const chipMin = 56

// MinSize is the smallest square a chip needs; the tray gives it more where there is room.
func (c *Chip) MinSize() fyne.Size { return fyne.NewSquareSize(chipMin) }

// CreateRenderer draws the chip as a few circles and its value.
func (c *Chip) CreateRenderer() fyne.WidgetRenderer {
	r := &chipRenderer{chip: c, shadow: canvas.NewCircle(chipShadow), ring: canvas.NewCircle(color.Transparent),
		body: canvas.NewCircle(color.Transparent), inlay: canvas.NewCircle(color.Transparent), value: canvas.NewText("", nil)}
	r.value.TextStyle = fyne.TextStyle{Bold: true}
	r.value.Alignment = fyne.TextAlignCenter
	r.objs = []fyne.CanvasObject{r.shadow, r.ring, r.body}
	for i := range r.spots {
		r.spots[i] = canvas.NewCircle(color.Transparent)
		r.objs = append(r.objs, r.spots[i])
	}
	r.objs = append(r.objs, r.inlay, r.value)
	r.Refresh()
	return r
}

type chipRenderer struct {
	chip   *Chip
	shadow *canvas.Circle
	ring   *canvas.Circle // around the chosen chip
	body   *canvas.Circle
	spots  [chipSpots]*canvas.Circle
	inlay  *canvas.Circle
	value  *canvas.Text
	objs   []fyne.CanvasObject
}

// chipGeometry is the chip's diameter and centre in a square cell of side s: the body leaves room
// for the ring around it and for the lift of the chosen chip.
func chipGeometry(size fyne.Size, selected bool) (d float32, centre fyne.Position) {
	s := min(size.Width, size.Height)
	d = s * 0.8
	centre = fyne.NewPos(size.Width/2, size.Height/2)
	if selected {
		centre.Y -= s * 0.06 // lifted off the tray
	}
	return d, centre
}

func (r *chipRenderer) Layout(size fyne.Size) {
	d, c := chipGeometry(size, r.chip.Selected)
	s := min(size.Width, size.Height)
	place := func(o fyne.CanvasObject, centre fyne.Position, diameter float32) {
		o.Move(fyne.NewPos(centre.X-diameter/2, centre.Y-diameter/2))
		o.Resize(fyne.NewSquareSize(diameter))
	}
	// The shade stays on the tray; a lifted chip casts it lower and wider.
	base := fyne.NewPos(size.Width/2, size.Height/2+s*0.05)
	shade := d
	if r.chip.Selected {
		base.Y += s * 0.03
		shade = d * 1.04
	}
	place(r.shadow, base, shade)
	ringW := max(3, s*0.05)
	r.ring.StrokeWidth = ringW
	place(r.ring, c, d+ringW*2+s*0.03)
	place(r.body, c, d)
	for i, sp := range r.spots {
		a := 2 * math.Pi * float64(i) / chipSpots
		p := fyne.NewPos(c.X+float32(math.Sin(a))*d*0.41, c.Y-float32(math.Cos(a))*d*0.41)
		place(sp, p, d*0.13)
	}
	place(r.inlay, c, d*0.66)
	r.inlay.StrokeWidth = max(1.5, d*0.025)
	// The value fills the inlay: shorter values larger, "1,000" still inside it.
	r.value.TextSize = fitText(r.value.Text, d*0.3, d*0.52, r.value.TextStyle)
	r.value.Move(fyne.NewPos(c.X-d/2, c.Y-d/2))
	r.value.Resize(fyne.NewSquareSize(d))
}

func (r *chipRenderer) MinSize() fyne.Size { return r.chip.MinSize() }

func (r *chipRenderer) Refresh() {
	st := styleOf(r.chip.Value)
	r.body.FillColor, r.body.StrokeColor, r.body.StrokeWidth = st.body, darker(st.body), 1.5
	for _, sp := range r.spots {
		sp.FillColor = st.insert
	}
	r.inlay.FillColor, r.inlay.StrokeColor = st.body, st.insert
	r.value.Text, r.value.Color = r.chip.Label(), st.ink
	r.ring.FillColor, r.ring.StrokeColor = color.Transparent, color.Transparent
	if r.chip.Selected {
		r.ring.StrokeColor = chipRing
	}
	r.Layout(r.chip.Size())
	for _, o := range r.objs {
		canvas.Refresh(o)
	}
}

func (r *chipRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *chipRenderer) Destroy()                     {}

// darker is a colour's edge: the same hue at 60 % brightness, so a white chip still has a rim
// on a light background.
func darker(c color.NRGBA) color.NRGBA {
	return color.NRGBA{R: uint8(float32(c.R) * 0.6), G: uint8(float32(c.G) * 0.6), B: uint8(float32(c.B) * 0.6), A: c.A}
}

// chipTray lays out the chips in a row of squares as large as the height allows and the width
// leaves room for, down to chipMin.
type chipTray struct{ max float32 }

func (t chipTray) side(objs []fyne.CanvasObject, size fyne.Size) float32 {
	n := float32(len(objs))
	if n == 0 {
		return 0
	}
	s := min(size.Height, (size.Width-trayGap*(n-1))/n)
	if t.max > 0 {
		s = min(s, t.max)
	}
	return max(s, chipMin)
}

// trayGap is the space between two chips.
const trayGap = 8

func (t chipTray) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	s := t.side(objs, size)
	x := float32(0)
	for _, o := range objs {
		o.Move(fyne.NewPos(x, (size.Height-s)/2))
		o.Resize(fyne.NewSquareSize(s))
		x += s + trayGap
	}
}

func (t chipTray) MinSize(objs []fyne.CanvasObject) fyne.Size {
	n := float32(len(objs))
	if n == 0 {
		return fyne.Size{}
	}
	return fyne.NewSize(n*chipMin+(n-1)*trayGap, chipMin)
}

// stakeChip draws a stake of amount cents centred on c, d across: the chip of the tray whose
// band the amount falls in — body, edge spots, inlay — with the amount printed on the inlay as
// large as fits, so the felt, the racetrack and the Lucky Ball areas read like the tray (issue
// 18: every stake had been the same flat yellow disc, call bets and Lucky Ball wagers none). A
// stake of more than one chip of its band stands on a second chip's rim, a stack. body is the
// chip's disc, for a caller that marks it.
func stakeChip(amount int64, c fyne.Position, d float32) (objs []fyne.CanvasObject, body *canvas.Circle) {
	st := styleOf(amount)
	place := func(o fyne.CanvasObject, centre fyne.Position, diameter float32) {
		o.Move(fyne.NewPos(centre.X-diameter/2, centre.Y-diameter/2))
		o.Resize(fyne.NewSquareSize(diameter))
	}
	if band := bandOf(amount); band > 0 && amount > band {
		under := canvas.NewCircle(darker(st.body))
		under.StrokeColor, under.StrokeWidth = st.insert, max(1, d*0.03)
		place(under, fyne.NewPos(c.X, c.Y+d*0.1), d)
		objs = append(objs, under)
	}
	body = canvas.NewCircle(st.body)
	body.StrokeColor, body.StrokeWidth = darker(st.body), max(1, d*0.03)
	place(body, c, d)
	objs = append(objs, body)
	for i := 0; i < chipSpots; i++ {
		a := 2 * math.Pi * float64(i) / chipSpots
		sp := canvas.NewCircle(st.insert)
		place(sp, fyne.NewPos(c.X+float32(math.Sin(a))*d*0.41, c.Y-float32(math.Cos(a))*d*0.41), d*0.12)
		objs = append(objs, sp)
	}
	inlay := canvas.NewCircle(st.body)
	inlay.StrokeColor, inlay.StrokeWidth = st.insert, max(1, d*0.025)
	place(inlay, c, d*0.7)
	label := canvas.NewText(money(amount), st.ink)
	label.TextStyle, label.Alignment = fyne.TextStyle{Bold: true}, fyne.TextAlignCenter
	label.TextSize = fitText(label.Text, d*0.34, d*0.64, label.TextStyle)
	place(label, c, d)
	return append(objs, inlay, label), body
}

// bandOf is the lower bound, in cents, of the colour band an amount falls in (0 under 1.00).
func bandOf(cents int64) int64 {
	from := int64(0)
	for _, b := range chipBands {
		if cents >= b.from {
			from = b.from
		}
	}
	return from
}
