package ui

import (
	"fmt"
	"image/color"
	"slices"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// painted is one object the GL painter draws in a frame: its kind, where it is in the window
// and the pixels it shades.
type painted struct {
	o          fyne.CanvasObject
	kind       string
	pos        fyne.Position
	size       fyne.Size
	area       float32 // pixels the painter shades for it (its rectangle, clipped to the window)
	shaderWork bool    // a rectangle through the rounded/stroked shader
}

// paintedObjects walks a canvas's tree as Fyne's GL painter does each frame (v2.7.3,
// internal/driver/common canvas.paint: every visible object, widgets through their renderers'
// objects) and lists the objects it draws: canvas primitives it does not skip. The painter
// skips a rectangle only when both its fill and stroke are nil or exactly color.Transparent
// (compared as interfaces, so an NRGBA of alpha 0 is drawn: a full pass of transparent pixels).
func paintedObjects(c fyne.Canvas) []painted {
	var out []painted
	win := c.Size()
	var walk func(o fyne.CanvasObject, at fyne.Position)
	walk = func(o fyne.CanvasObject, at fyne.Position) {
		if o == nil || !o.Visible() {
			return
		}
		pos := at.Add(o.Position())
		switch x := o.(type) {
		case *fyne.Container:
			for _, k := range x.Objects {
				walk(k, pos)
			}
			return
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(x).Objects() {
				walk(k, pos)
			}
			return
		}
		p := painted{o: o, pos: pos, size: o.Size(), kind: fmt.Sprintf("%T", o)}
		switch o.(type) {
		case *canvas.Circle, *canvas.Line, *canvas.Image, *canvas.Raster, *canvas.LinearGradient,
			*canvas.RadialGradient, *canvas.Polygon, *canvas.Arc:
		default:
			if _, ok := o.(*canvas.Rectangle); !ok {
				if _, ok := o.(*canvas.Text); !ok {
					return // not a primitive the painter draws (a spacer)
				}
			}
		}
		switch x := o.(type) {
		case *canvas.Rectangle:
			if drawsNothing(x.FillColor) && (drawsNothing(x.StrokeColor) || x.StrokeWidth == 0) {
				return
			}
			p.shaderWork = x.CornerRadius > 0 || x.StrokeWidth > 0
		case *canvas.Text:
			if x.Text == "" || x.Text == " " {
				return
			}
			p.size = x.MinSize() // the painter draws a text's texture at its own size
		}
		w := min(pos.X+p.size.Width, win.Width) - max(pos.X, 0)
		h := min(pos.Y+p.size.Height, win.Height) - max(pos.Y, 0)
		if w > 0 && h > 0 {
			p.area = w * h
		}
		out = append(out, p)
	}
	walk(c.Content(), fyne.Position{})
	for _, o := range c.Overlays().List() {
		walk(o, fyne.Position{})
	}
	return out
}

// drawsNothing is the GL painter's own test of a colour it need not draw.
func drawsNothing(c color.Color) bool { return c == nil || c == color.Transparent }

// The kiosk's frame draws nothing a player cannot see (issue 18). Fyne's GL driver repaints the
// whole window for any change — the countdown's number once a second — and in software GL
// (llvmpipe) a frame costs in proportion to the pixels its objects shade: every object is a
// shaded, blended pass over its rectangle, a hidden-behind one as much as a seen one. In every
// design at both kiosk sizes, during a wagering period with bets on the felt: no object is
// drawn wholly under a later opaque one, no object is drawn in colours of no alpha the painter
// does not recognise as transparent (it skips only color.Transparent itself), and the objects
// together shade less than one window's area (2026-11-24: 0.82–0.89; one more full-window
// layer, like the two backdrops the screen once had, would take it past 1.8). The census —
// objects by kind, painted area, the largest objects — is logged (go test -v) as issue 18's
// breakdown of a frame.
func TestFrameDrawsNothingUnseen(t *testing.T) {
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
		for _, d := range diagrams.Designs {
			s, term, _, w := screenAt(t, d, l, size)
			Kiosk(w)
			w.Resize(size)
			s17, _ := l.Inside(roulette.Straight, []roulette.Number{17})
			red, _ := l.Outside(roulette.Red, 0)
			v := term.View()
			v.Stakes = append(slices.Clone(v.Stakes), app.Stake{Bet: roulette.Bet{Spot: s17}, Amount: 500},
				app.Stake{Bet: roulette.Bet{Spot: red}, Amount: 2500}, app.Stake{Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 900})
			s.update(v)
			objs := paintedObjects(w.Canvas())
			winArea := size.Width * size.Height
			var total float32
			for _, p := range objs {
				total += p.area
				if clearButDrawn(p.o) {
					t.Errorf("Diagram %s at %v: %s at %v size %v is drawn in colours of no alpha (%s)", d.Name, size, p.kind, p.pos, p.size, describe(p.o))
				}
			}
			for _, p := range covered(objs) {
				t.Errorf("Diagram %s at %v: %s at %v size %v (%s) is drawn wholly under an opaque object", d.Name, size, p.kind, p.pos, p.size, describe(p.o))
			}
			if total > winArea {
				t.Errorf("Diagram %s at %v: the frame shades %.2f windows' area, want under 1", d.Name, size, total/winArea)
			}
			t.Log(census(d.Name, size, objs))
		}
	}
}

// census is a frame's breakdown: objects and area by kind, and the largest objects.
func census(design string, size fyne.Size, objs []painted) string {
	winArea := size.Width * size.Height
	var total float32
	type tally struct {
		n    int
		area float32
	}
	kinds := map[string]tally{}
	for _, p := range objs {
		total += p.area
		k := kinds[p.kind]
		kinds[p.kind] = tally{k.n + 1, k.area + p.area}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Diagram %s at %v: %d objects drawn, painted area %.2f windows\n", design, size, len(objs), total/winArea)
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(&b, "  %-22s %4d objects %.3f windows\n", k, kinds[k].n, kinds[k].area/winArea)
	}
	big := slices.Clone(objs)
	sort.SliceStable(big, func(i, j int) bool { return big[i].area > big[j].area })
	for _, p := range big[:min(8, len(big))] {
		fmt.Fprintf(&b, "    %.3f %s at %v size %v %s\n", p.area/winArea, p.kind, p.pos, p.size, describe(p.o))
	}
	return b.String()
}

// clearButDrawn reports an object the GL painter draws although every colour it has is of
// alpha 0: a rectangle or circle whose fill and stroke are nil, color.Transparent (skipped) or
// another colour of no alpha (not skipped: shaded for nothing).
func clearButDrawn(o fyne.CanvasObject) bool {
	var fill, stroke color.Color
	var width float32
	switch x := o.(type) {
	case *canvas.Rectangle:
		fill, stroke, width = x.FillColor, x.StrokeColor, x.StrokeWidth
	case *canvas.Circle:
		fill, stroke, width = x.FillColor, x.StrokeColor, x.StrokeWidth
	default:
		return false
	}
	if drawsNothing(fill) && (drawsNothing(stroke) || width == 0) {
		return false // the painter skips it
	}
	noAlpha := func(c color.Color) bool {
		if c == nil {
			return true
		}
		_, _, _, a := c.RGBA()
		return a == 0
	}
	return noAlpha(fill) && (noAlpha(stroke) || width == 0)
}

// The frame's checks find what they look for: a rectangle under an opaque one is covered, and a
// rectangle of NRGBA{} is drawn for nothing.
func TestFrameChecksFindWaste(t *testing.T) {
	test.NewTempApp(t)
	under, over := canvas.NewRectangle(color.White), canvas.NewRectangle(color.Black)
	clear := canvas.NewRectangle(color.NRGBA{})
	content := container.NewStack(under, over, clear)
	w := test.NewTempWindow(t, content)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(200, 100))
	objs := paintedObjects(w.Canvas())
	if len(objs) != 3 {
		t.Fatalf("%d objects drawn, want 3 (the clear NRGBA rectangle is drawn too)", len(objs))
	}
	if c := covered(objs); len(c) != 1 || c[0].o != under {
		t.Errorf("covered: %v, want the rectangle under the opaque one", c)
	}
	if !clearButDrawn(clear) || clearButDrawn(under) || clearButDrawn(canvas.NewRectangle(color.Transparent)) {
		t.Error("clearButDrawn does not tell a rectangle of NRGBA{} from a seen one and a skipped one")
	}
}

func describe(o fyne.CanvasObject) string {
	switch x := o.(type) {
	case *canvas.Rectangle:
		return fmt.Sprintf("fill %v stroke %v/%v radius %v", x.FillColor, x.StrokeColor, x.StrokeWidth, x.CornerRadius)
	case *canvas.Text:
		return fmt.Sprintf("%q", x.Text)
	}
	return ""
}

// opaque reports whether a painted object covers its whole rectangle with opaque colour.
func opaque(p painted) bool {
	switch x := p.o.(type) {
	case *canvas.Rectangle:
		_, _, _, a := x.FillColor.RGBA()
		return x.FillColor != nil && a == 0xffff && x.CornerRadius == 0
	case *canvas.Raster:
		return x == nil // a raster's pixels are not known here
	}
	return false
}

// covered lists the painted objects wholly under a later opaque one: drawn for nothing.
func covered(objs []painted) []painted {
	var out []painted
	for i, p := range objs {
		for _, q := range objs[i+1:] {
			if opaque(q) && q.pos.X <= p.pos.X && q.pos.Y <= p.pos.Y &&
				q.pos.X+q.size.Width >= p.pos.X+p.size.Width && q.pos.Y+q.size.Height >= p.pos.Y+p.size.Height {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// A frame costs the same after any amount of play (issue 18: idle 4.5 % of a core fresh, 6–7 %
// after 300 taps). The frame is the whole window in Fyne's GL driver, once a second for the
// countdown, and what it costs is its draw calls and the pixels they shade; a stake chip drawn
// as canvas objects was 12 more of each (body, stack, eight edge spots, inlay, value), so a
// felt covered in chips made every idle frame 430 draws and ~0.6 Mpx of shading dearer. The
// chips are drawn into the felt's and the racetrack's pictures: with a stake on every number,
// every outside bet and seven call bets the frame draws the same objects over the same area as
// the fresh screen.
func TestFrameCostsTheSameAfterPlay(t *testing.T) {
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	l := roulette.Layout{Wheel: roulette.SingleZero}
	size := fyne.NewSize(1920, 1080)
	s, term, _, w := screenAt(t, diagrams.DiagramA, l, size)
	Kiosk(w)
	w.Resize(size)
	fresh := term.View()
	s.update(fresh)
	// What the felt and the racetrack draw: the objects of the frame inside them.
	frame := func() (int, float32) {
		var area float32
		n := 0
		for _, p := range paintedObjects(w.Canvas()) {
			if in(p.o, s.felt) || in(p.o, s.track) {
				n++
				area += p.area
			}
		}
		return n, area
	}
	whole := func() int { return len(paintedObjects(w.Canvas())) }
	all0 := whole()
	n0, area0 := frame()
	played := fresh
	played.Stakes = slices.Clone(fresh.Stakes)
	for n := roulette.Number(0); n <= 36; n++ {
		sp, err := l.Inside(roulette.Straight, []roulette.Number{n})
		if err != nil {
			t.Fatal(err)
		}
		played.Stakes = append(played.Stakes, app.Stake{Bet: roulette.Bet{Spot: sp}, Amount: 100 + int64(n)*700})
	}
	for _, o := range []roulette.Kind{roulette.Red, roulette.Black, roulette.Odd, roulette.Even, roulette.Low, roulette.High} {
		sp, err := l.Outside(o, 0)
		if err != nil {
			t.Fatal(err)
		}
		played.Stakes = append(played.Stakes, app.Stake{Bet: roulette.Bet{Spot: sp}, Amount: 2500})
	}
	// And call bets on the racetrack, where they stand as chips too.
	for _, c := range []roulette.Call{roulette.Tier, roulette.Orphelins, roulette.Voisins, roulette.ZeroGame} {
		played.Stakes = append(played.Stakes, app.Stake{Bet: roulette.Bet{Call: c}, Amount: 900})
	}
	for _, n := range []roulette.Number{4, 17, 32} {
		played.Stakes = append(played.Stakes, app.Stake{Bet: roulette.Bet{Call: roulette.Neighbours, Centre: n, Spread: 2}, Amount: 500})
	}
	s.update(played)
	own, pieces := 0, 0
	for _, c := range test.WidgetRenderer(s.felt).(*feltRenderer).drawn {
		if c.call {
			pieces++
		} else {
			own++
		}
	}
	if own != 43 || pieces == 0 {
		t.Fatalf("%d chips on the felt and %d call-bet pieces, want 43 and the pieces", own, pieces)
	}
	if got := len(test.WidgetRenderer(s.track).(*trackRenderer).drawn); got != 7 {
		t.Fatalf("%d chips on the racetrack, want 7", got)
	}
	n1, area1 := frame()
	if n1 != n0 || area1 != area0 {
		t.Errorf("with a chip on every number, outside bet and call bet the felt and racetrack draw %d objects over %.0f px; fresh %d over %.0f px", n1, area1, n0, area0)
	}
	// The rest of the screen says what was bet (the call bets' list, the amounts): a few texts;
	// the call bets' list wraps in the column beside the racetrack, a text a line (issue 32
	// point 5: it was cut to one line of 14 points).
	if all1 := whole(); all1 > all0+6 {
		t.Errorf("with the stakes the frame draws %d objects, fresh %d", all1, all0)
	}
	// The next round: the chips cleared, the same frame as before.
	s.update(fresh)
	if n2, area2 := frame(); n2 != n0 || area2 != area0 || whole() != all0 {
		t.Errorf("after the chips were cleared the felt and racetrack draw %d objects over %.0f px, the frame %d; fresh %d over %.0f px, %d", n2, area2, whole(), n0, area0, all0)
	}
}

// in tells whether o is w or drawn by w (among its renderer's objects, at any depth).
func in(o fyne.CanvasObject, w fyne.Widget) bool {
	var walk func(fyne.CanvasObject) bool
	walk = func(x fyne.CanvasObject) bool {
		if x == o {
			return true
		}
		switch k := x.(type) {
		case *fyne.Container:
			return slices.ContainsFunc(k.Objects, walk)
		case fyne.Widget:
			return slices.ContainsFunc(test.WidgetRenderer(k).Objects(), walk)
		}
		return false
	}
	return walk(w)
}
