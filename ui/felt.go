// Package ui holds the kiosk's Fyne screens and widgets. It shows what app/ says and passes the
// player's touches back to it; it holds no game rules of its own. Every figure of money it
// shows goes through inCurrency (format.go) with the table's currency; chip values do not.
package ui

import (
	"image/color"
	"maps"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/ui/look"
)

// Felt colours. Red and black numbers are also told apart by shape (a diamond marks red, see
// redMarker), so the layout reads the same to a player who does not see red.
var (
	feltGreen  = color.NRGBA{R: 0x0b, G: 0x5d, B: 0x1e, A: 0xff}
	feltLine   = color.NRGBA{R: 0xf5, G: 0xf0, B: 0xe1, A: 0xff}
	numRed     = look.Red // the numbers' colours are every screen's (ui/look)
	numBlack   = look.Black
	numGreen   = look.Green
	textColour = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

// Felt is the virtual betting layout: the boxes of one layout's geometry, scaled to the widget.
// A tap reports the bet spot it means through OnTapped.
type Felt struct {
	widget.BaseWidget
	geom *diagrams.Geometry

	stakes map[roulette.Spot]int64 // chips on the layout, by spot
	// calls are the pieces of the call bets placed, by spot: what each piece carries (SetCalls)
	calls   map[roulette.Spot]int64
	won     map[roulette.Spot]int64 // after a result: what the chips on a winning spot returned
	winning roulette.Number
	hasWin  bool
	closed  bool // no more bets: the layout is dimmed, so a player sees it takes no chips

	// OnTapped is called with the region a tap means; taps between regions are ignored.
	OnTapped func(diagrams.Region)
	// OnMoved is called when the chips of one region are dragged onto another; OnRemoved when
	// they are dragged off the layout.
	OnMoved   func(from, to diagrams.Region)
	OnRemoved func(from diagrams.Region)
	// OnHeld is called when a region is touched and held (holdTime): the player asks for its
	// limits and odds rather than placing a chip.
	OnHeld func(diagrams.Region)

	dragging bool
	dragFrom diagrams.Region
	dragAt   fyne.Position // the dragged chips' position: the press plus every movement since
	pressAt  fyne.Position
	pressed  bool
	hold     func() bool // stops the pending hold timer
	held     bool        // the touch became a hold: its tap places nothing
	// afterFunc starts the hold timer. Tests replace it to fire the hold on their own
	// goroutine: Fyne's test driver runs fyne.Do on the caller, so a real timer would race.
	afterFunc func(time.Duration, func()) (stop func() bool)
	// panel is a simulated touch panel a tap goes through before the hit test (calibration.go);
	// nil on a cabinet, where libinput has already applied the calibration.
	panel *TouchPanel
}

// realAfterFunc is time.AfterFunc as afterFunc wants it.
func realAfterFunc(d time.Duration, fn func()) func() bool { return time.AfterFunc(d, fn).Stop }

// holdTime is how long a touch must stay to count as touch-and-hold.
const holdTime = 600 * time.Millisecond

// NewFelt returns a felt for the geometry.
func NewFelt(g *diagrams.Geometry) *Felt {
	f := &Felt{geom: g, afterFunc: realAfterFunc}
	f.ExtendBaseWidget(f)
	return f
}

// SetStakes shows chips with their amounts on the spots. A view change that moved no chip
// redraws nothing: every refresh is a whole frame in software GL (issue 18).
func (f *Felt) SetStakes(stakes map[roulette.Spot]int64) {
	same := maps.Equal(stakes, f.stakes)
	f.stakes = stakes
	if !same {
		f.Refresh()
	}
}

// SetCalls shows the pieces of the call bets placed as chips on the felt, each with what the
// piece carries (issue 32 point 5: a call bet was on the racetrack only, and a player could not
// see which splits and corners voisins had put money on). They are drawn smaller than the
// player's own chips, and beside one where a spot has both: they are not the player's to drag
// (a piece moves only with its call bet), and the felt's drag takes only its stakes.
func (f *Felt) SetCalls(pieces map[roulette.Spot]int64) {
	if maps.Equal(pieces, f.calls) || len(pieces) == 0 && len(f.calls) == 0 {
		return
	}
	f.calls = pieces
	f.Refresh()
}

// SetResult shows the winning chips of a settled round, each with what it won over its stake
// (nil: none).
func (f *Felt) SetResult(won map[roulette.Spot]int64) {
	same := maps.Equal(won, f.won)
	f.won = won
	if !same {
		f.Refresh()
	}
}

// SetClosed dims the layout while it takes no chips (no more bets, 001 §3.7).
func (f *Felt) SetClosed(closed bool) {
	if f.closed != closed {
		f.closed = closed
		f.Refresh()
	}
}

// SetWinning marks the winning number's box (ok false clears it).
func (f *Felt) SetWinning(n roulette.Number, ok bool) {
	if !ok {
		n = 0
	}
	if f.winning == n && f.hasWin == ok {
		return
	}
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
	if f.held {
		f.held = false
		return
	}
	if f.OnTapped == nil {
		return
	}
	if r, ok := f.geom.Hit(f.toLayout(touched(f.panel, f, e))); ok {
		f.OnTapped(r)
	}
}

// Dragged follows a chip being dragged; the drag starts on a region that has chips.
func (f *Felt) Dragged(e *fyne.DragEvent) {
	f.cancelHold()
	if !f.dragging {
		// Where the touch went down; without a press seen, the first event's position less
		// its movement.
		start := e.Position.Subtract(e.Dragged)
		if f.pressed {
			start = f.pressAt
		}
		r, ok := f.geom.Hit(f.toLayout(start))
		if !ok || f.stakes[r.Spot] == 0 {
			return
		}
		f.dragging, f.dragFrom, f.dragAt = true, r, start
	}
	f.dragAt = f.dragAt.Add(e.Dragged)
}

// DragEnd drops the dragged chips: on another region they move there, off the layout they are
// taken back, anywhere else (between regions) nothing happens.
func (f *Felt) DragEnd() {
	if !f.dragging {
		return
	}
	f.dragging = false
	p := f.toLayout(f.dragAt)
	if to, ok := f.geom.Hit(p); ok {
		if to.Spot != f.dragFrom.Spot && f.OnMoved != nil {
			f.OnMoved(f.dragFrom, to)
		}
		return
	}
	if !f.geom.Bounds.Contains(p) && f.OnRemoved != nil {
		f.OnRemoved(f.dragFrom)
	}
}

// MouseDown starts the hold timer (a touchscreen's touch arrives as a mouse press).
func (f *Felt) MouseDown(e *desktop.MouseEvent) {
	f.cancelHold()
	f.held = false
	f.pressAt, f.pressed = e.Position, true
	r, ok := f.geom.Hit(f.toLayout(e.Position))
	if !ok || f.OnHeld == nil {
		return
	}
	f.hold = f.afterFunc(holdTime, func() {
		fyne.Do(func() {
			// The timer may fire as the finger lifts, too late for MouseUp to stop it, and this
			// run after the release on a loaded machine: that touch was no hold, and its tap
			// must place its chip (issue 32: taps half a second apart lost one in four).
			if !f.pressed {
				return
			}
			f.held = true
			f.OnHeld(r)
		})
	})
}

// MouseUp ends a touch: before holdTime it is a tap.
func (f *Felt) MouseUp(*desktop.MouseEvent) {
	f.cancelHold()
	f.pressed = false
}

func (f *Felt) cancelHold() {
	if f.hold != nil {
		f.hold()
		f.hold = nil
	}
}

// MinSize is small enough for a 1280×800 screen with the side panels.
func (f *Felt) MinSize() fyne.Size { return fyne.NewSize(560, 200) }

// CreateRenderer draws the boxes, the chips and the winning outline as one picture (boxArt,
// whose sprites are the chips and the outline), with the chips' winnings and the closed veil as
// objects on top.
func (f *Felt) CreateRenderer() fyne.WidgetRenderer {
	boxes := make([]artBox, 0, len(f.geom.Boxes))
	for _, b := range f.geom.Boxes {
		var fill color.Color // outside boxes show the felt
		if b.IsNum || b.Colour != roulette.ColourGreen {
			fill = look.NumberColour(b.Colour)
		}
		label := b.Label
		if !b.IsNum {
			label = T(label) // 1st 12, RED, 2 to 1… in the player's language
		}
		boxes = append(boxes, artBox{rect: b.Rect, fill: fill, label: label, em: 0.32, marker: b.Colour == roulette.ColourRed})
	}
	r := &feltRenderer{felt: f, art: newBoxArt(f.geom.Bounds, feltGreen, 2, boxes), dim: canvas.NewRectangle(closedDim)}
	return r
}

type feltRenderer struct {
	felt *Felt
	art  *boxArt           // the felt's boxes, labels and red markers, with the chips drawn in
	dim  *canvas.Rectangle // over the layout while it is closed
	objs []fyne.CanvasObject
	// drawn are the chips drawn into the picture by the last layout, in drawing order.
	drawn []drawnChip
	// made keeps each winning spot's tab (what the chip returned) while it stays as it is drawn,
	// so a refresh does not make its objects again.
	made  map[roulette.Spot]wonTab
	fresh []fyne.CanvasObject // tab objects made by the last layout
}

// drawnChip is one spot's chip as drawn into the felt's picture.
type drawnChip struct {
	spot        roulette.Spot
	amount, won int64
	at          fyne.Position // its centre in the felt
	d           float32       // its diameter
	call        bool          // a piece of a call bet (SetCalls), not a chip of the player's own
}

// wonTab is a winning chip's tab: what it returned, where, and its objects.
type wonTab struct {
	won  int64
	at   fyne.Position
	d    float32
	objs []fyne.CanvasObject
}

var (
	chipText   = color.NRGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	winOutline = color.NRGBA{R: 0xff, G: 0xee, B: 0x58, A: 0xff}
	closedDim  = color.NRGBA{A: 0x70} // no more bets: the felt under a dark veil, chips still readable
	wonBadge   = color.NRGBA{R: 0x1b, G: 0x7a, B: 0x32, A: 0xff}
)

// winStroke is the width of the winning number's outline.
const winStroke = 6

// chipSprite is a stake chip (stakeChip) as a sprite of the felt's or racetrack's picture,
// centred on c, d across; won rims it in the winning colour.
func chipSprite(amount int64, won bool, c fyne.Position, d float32) artSprite {
	pad := max(2, d*0.05)                      // room for the rims' strokes and their anti-aliasing
	size := fyne.NewSize(d+2*pad, d*1.1+2*pad) // a stack's lower chip stands 0.1 d lower
	return artSprite{
		key: struct {
			amount int64
			won    bool
			d      float32
		}{amount, won, d},
		at: fyne.NewPos(c.X-d/2-pad, c.Y-d/2-pad), size: size,
		objs: func() []fyne.CanvasObject {
			objs, body := stakeChip(amount, fyne.NewPos(pad+d/2, pad+d/2), d)
			if won {
				body.StrokeColor = winOutline
			}
			return objs
		},
	}
}

// outlineSprite is the winning number's outline around a box of size, its top-left at tl.
func outlineSprite(tl fyne.Position, size fyne.Size) artSprite {
	pad := float32(winStroke)
	return artSprite{
		key: "win", at: tl.Subtract(fyne.NewPos(pad, pad)), size: size.Add(fyne.NewSize(2*pad, 2*pad)),
		passing: true, // a different number each round: not one kept per number
		objs: func() []fyne.CanvasObject {
			win := canvas.NewRectangle(color.Transparent)
			win.StrokeColor, win.StrokeWidth = winOutline, winStroke
			win.Move(fyne.NewPos(pad, pad))
			win.Resize(size)
			return []fyne.CanvasObject{win}
		},
	}
}

// layoutChips draws the felt's stakes and the winning outline into its picture, and lays out
// the tabs of the winning chips, making only those that are new or changed.
func (r *feltRenderer) layoutChips(scale float32) []fyne.CanvasObject {
	var sprites []artSprite
	if r.felt.hasWin {
		for _, b := range r.felt.geom.Boxes {
			if b.IsNum && b.Number == r.felt.winning {
				tl, br := r.felt.ToScreen(b.Rect.Min), r.felt.ToScreen(b.Rect.Max)
				sprites = append(sprites, outlineSprite(tl, fyne.NewSize(br.X-tl.X, br.Y-tl.Y)))
			}
		}
	}
	r.drawn, r.fresh = r.drawn[:0], r.fresh[:0]
	d := scale * 0.62 // most of a number's box: the value printed on it read from the seat
	was := r.made
	r.made = make(map[roulette.Spot]wonTab)
	var tabs []fyne.CanvasObject
	for _, reg := range r.felt.geom.Regions {
		if a := r.felt.calls[reg.Spot]; a > 0 {
			// A call bet's piece: a smaller chip, above and to the right of where the
			// player's own chip stands, so both are seen where a spot has both.
			c, cd := r.felt.ToScreen(reg.Centre), d*0.7
			if r.felt.stakes[reg.Spot] > 0 {
				c = c.Add(fyne.NewPos(d*0.45, -d*0.45))
			}
			r.drawn = append(r.drawn, drawnChip{spot: reg.Spot, amount: a, at: c, d: cd, call: true})
			sprites = append(sprites, chipSprite(a, false, c, cd))
		}
		amount, ok := r.felt.stakes[reg.Spot]
		if !ok || amount == 0 {
			continue
		}
		c := r.felt.ToScreen(reg.Centre)
		won := r.felt.won[reg.Spot]
		r.drawn = append(r.drawn, drawnChip{spot: reg.Spot, amount: amount, won: won, at: c, d: d})
		sprites = append(sprites, chipSprite(amount, won > 0, c, d))
		if won <= 0 {
			continue
		}
		want := wonTab{won: won, at: c, d: d}
		if m, ok := was[reg.Spot]; ok && m.won == want.won && m.at == want.at && m.d == want.d {
			r.made[reg.Spot] = m
			tabs = append(tabs, m.objs...)
			continue
		}
		// What the chip won, on a green tab under it: the winning spots, marked.
		tab := canvas.NewRectangle(wonBadge)
		tab.CornerRadius = 4
		text := canvas.NewText("+"+money(won), color.White)
		text.TextSize, text.TextStyle, text.Alignment = max(d*0.3, 14), fyne.TextStyle{Bold: true}, fyne.TextAlignCenter
		w := max(fyne.MeasureText(text.Text, text.TextSize, text.TextStyle).Width+10, d)
		h := text.TextSize * 1.4
		tab.Move(fyne.NewPos(c.X-w/2, c.Y+d/2-2))
		tab.Resize(fyne.NewSize(w, h))
		text.Move(tab.Position())
		text.Resize(tab.Size())
		want.objs = []fyne.CanvasObject{tab, text}
		r.made[reg.Spot] = want
		tabs = append(tabs, want.objs...)
		r.fresh = append(r.fresh, want.objs...)
	}
	r.art.setSprites(sprites)
	return tabs
}

func (r *feltRenderer) Layout(size fyne.Size) {
	r.art.raster.Resize(size)
	scale, _ := fit(r.felt.geom.Bounds, size)
	tabs := r.layoutChips(scale)
	r.dim.Resize(size)
	r.dim.Hidden = !r.felt.closed
	// A new slice: the canvas may still walk the one it was given.
	r.objs = append(append([]fyne.CanvasObject{r.art.raster}, tabs...), r.dim)
}

func (r *feltRenderer) MinSize() fyne.Size { return r.felt.MinSize() }

// Refresh lays out the chips and the outline again: a change of them composes the felt's
// picture again (boxArt.setSprites); the boxes themselves depend only on the size.
func (r *feltRenderer) Refresh() {
	r.Layout(r.felt.Size())
	canvas.Refresh(r.dim)
	for _, c := range r.fresh {
		canvas.Refresh(c)
	}
}

func (r *feltRenderer) Objects() []fyne.CanvasObject {
	if r.objs == nil {
		r.objs = []fyne.CanvasObject{r.art.raster, r.dim}
	}
	return r.objs
}

func (r *feltRenderer) Destroy() {}
