package ui

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/tablegames/ats/assets"
	"github.com/tablegames/ats/diagrams"
)

// boxArt is the static part of a felt or a racetrack — boxes, their lines, labels and red
// markers — painted into one image per pixel size and shown by a single canvas.Raster.
//
// Drawn as one canvas object per box, label and marker (hundreds of them), a felt cost every
// frame a rasterised stroke, a shaped text and a compositing pass each; as one raster it costs
// one compositing pass, and the boxes are painted again only when the widget's pixel size
// changes.
//
// The stakes (chips) and the winning outline are drawn into the same picture, as sprites over
// the boxes (setSprites), not as canvas objects on top. Fyne's GL driver repaints every object
// of the window on every frame — once a second for the countdown — and a stake chip is a dozen
// objects (body, stack, eight edge spots, inlay, value): a felt covered in chips after play was
// 432 more draw calls and ~0.6 Mpx more shading per frame in software GL, idle (issue 18: 4.5 %
// of a core fresh, 6–7 % after 300 taps; counted with uprobes on glDrawArrays, 114 draws a
// frame fresh, 546 after). In the picture a frame costs the same whatever is on the felt; a
// change of the stakes composes the picture again (the boxes copied, each chip's sprite drawn
// over) and uploads it once.
type boxArt struct {
	bounds diagrams.Rect
	bg     color.Color // nil leaves the area around the boxes transparent
	lineW  float32     // line width in Fyne units; scaled by the canvas scale
	boxes  []artBox

	raster  *canvas.Raster
	base    *image.RGBA // the boxes alone, reused while the pixel size stays the same
	img     *image.RGBA // the boxes with the sprites over them (nil: none composed)
	sprites []artSprite // drawn over the boxes, in order
	stale   bool        // the sprites changed since img was composed
	cache   spriteCache
	faces   map[float32]font.Face
	font    *sfnt.Font // the labels' font, in the language the screen speaks (labelFont)
}

// artSprite is a small picture drawn over the boxes: objects (Fyne canvas primitives) rendered
// once by Fyne's software painter into an image, kept while something of the same key is
// shown, and drawn into the picture at its place.
type artSprite struct {
	key  any           // comparable; sprites of equal keys (and sizes) look the same
	at   fyne.Position // the sprite's top-left corner in the widget
	size fyne.Size     // the sprite's size in Fyne units
	// objs makes the sprite's objects, placed in a size-sized area.
	objs func() []fyne.CanvasObject
	// passing marks a sprite shown for one state only — the round's winning outline, around a
	// different number each round: the cache keeps the last such sprite alone, instead of one
	// per number until the bound (37 outlines of ~40 KB each at 1080p, issue 18's soak).
	passing bool
}

// same tells whether two sprites are drawn alike at the same place.
func (s artSprite) same(o artSprite) bool { return s.key == o.key && s.at == o.at && s.size == o.size }

// setSprites sets what is drawn over the boxes. A change composes the picture again at the next
// frame (the raster is refreshed); the same sprites at the same places change nothing.
func (a *boxArt) setSprites(s []artSprite) {
	if slices.EqualFunc(a.sprites, s, artSprite.same) {
		return
	}
	a.sprites = append(a.sprites[:0], s...)
	a.stale = true
	canvas.Refresh(a.raster)
}

// artBox is one box of the picture, in layout units.
type artBox struct {
	rect   diagrams.Rect
	fill   color.Color // nil: the background shows through
	label  string
	em     float32 // label size in layout units
	marker bool    // a diamond under the label: red is told by shape as well as by colour
}

func newBoxArt(bounds diagrams.Rect, bg color.Color, lineW float32, boxes []artBox) *boxArt {
	a := &boxArt{bounds: bounds, bg: bg, lineW: lineW, boxes: boxes, faces: map[float32]font.Face{}, font: labelFont()}
	a.raster = canvas.NewRaster(a.generate)
	a.raster.ScaleMode = canvas.ImageScalePixels
	return a
}

// generate is the raster's generator: w×h are device pixels.
func (a *boxArt) generate(w, h int) image.Image {
	if w <= 0 || h <= 0 {
		return image.NewRGBA(image.Rect(0, 0, max(w, 0), max(h, 0)))
	}
	pixScale := float32(1)
	if sz := a.raster.Size(); sz.Width > 0 {
		pixScale = float32(w) / sz.Width
	}
	if a.base == nil || a.base.Rect.Dx() != w || a.base.Rect.Dy() != h {
		a.base = a.paint(w, h, pixScale)
		a.img, a.stale = nil, true
	}
	if len(a.sprites) == 0 {
		return a.base
	}
	if a.img == nil || a.stale {
		if a.img == nil {
			a.img = image.NewRGBA(a.base.Rect)
		}
		copy(a.img.Pix, a.base.Pix)
		// The painters place the picture at its position in the window rounded to a pixel, and
		// an object of its own at its own position rounded: the sprites are placed from the
		// window's origin, so that each lands on the pixels it would as objects of its own.
		var origin fyne.Position
		if d := fyne.CurrentApp().Driver(); d != nil {
			origin = d.AbsolutePositionForObject(a.raster)
		}
		ox, oy := round(origin.X*pixScale), round(origin.Y*pixScale)
		for _, s := range a.sprites {
			// The sprite goes at a whole pixel and its objects are drawn the fraction of a pixel
			// further in it.
			x, y := (origin.X+s.at.X)*pixScale, (origin.Y+s.at.Y)*pixScale
			ix, iy := math.Floor(float64(x)), math.Floor(float64(y))
			frac := fyne.NewPos(float32(float64(x)-ix), float32(float64(y)-iy))
			im := a.cache.get(s, pixScale, frac)
			draw.Draw(a.img, im.Bounds().Add(image.Pt(int(ix)-ox, int(iy)-oy)), im, image.Point{}, draw.Over)
		}
		a.stale = false
	}
	return a.img
}

// spriteCache keeps the rendered sprites by key, size, pixel scale and place within a pixel: a
// chip placed renders its own sprite once, and the picture is composed again from the others
// as they are.
type spriteCache struct {
	m       map[spriteKey]*cachedSprite
	used    uint64 // a clock of uses: each get ticks it
	renders int    // sprites rendered so far (what the tests count)
	// The last passing sprite (artSprite.passing), kept apart from m: a picture composed again
	// while the outline shows (a chip placed, the window resized) draws it again unrendered.
	passingKey spriteKey
	passingIm  *image.NRGBA
}

type spriteKey struct {
	key   any
	size  fyne.Size
	scale float32
	frac  fyne.Position // where in its first pixel the sprite starts, in pixels
}

type cachedSprite struct {
	im   *image.NRGBA
	used uint64 // when it was last used (spriteCache.used)
}

// spriteCacheMax bounds the cache; past it, the sprite used longest ago goes. A whole felt of
// chips is 36–50 sprites at a time. The bound is memory: a chip's sprite is ~10 KB at 1080p,
// and a cache that filled up to 128 before it started again held ~1.2 MB at its fullest (the
// felt's and the racetrack's each: issue 18's soak, the Go heap +2 MB from round 10 to 110).
const spriteCacheMax = 64

func (c *spriteCache) get(s artSprite, pixScale float32, frac fyne.Position) *image.NRGBA {
	k := spriteKey{s.key, s.size, pixScale, frac}
	off := fyne.NewPos(frac.X/pixScale, frac.Y/pixScale)
	if s.passing {
		if c.passingIm == nil || c.passingKey != k {
			c.renders++
			c.passingKey, c.passingIm = k, renderSprite(s, pixScale, off)
		}
		return c.passingIm
	}
	c.used++
	if e, ok := c.m[k]; ok {
		e.used = c.used
		return e.im
	}
	if c.m == nil {
		c.m = map[spriteKey]*cachedSprite{}
	}
	if len(c.m) >= spriteCacheMax {
		var oldest spriteKey
		least := c.used
		for k, e := range c.m {
			if e.used < least {
				oldest, least = k, e.used
			}
		}
		delete(c.m, oldest)
	}
	c.renders++
	im := renderSprite(s, pixScale, off)
	c.m[k] = &cachedSprite{im: im, used: c.used}
	return im
}

// renderSprite draws a sprite's objects with Fyne's software painter — the painter of the
// reference renders, drawing canvas primitives as the screen's own objects are drawn — on a
// transparent canvas of the sprite's size (and a pixel more), the objects moved by off.
func renderSprite(s artSprite, pixScale float32, off fyne.Position) *image.NRGBA {
	c := software.NewTransparentCanvas()
	c.SetPadded(false)
	c.SetScale(pixScale)
	in := container.NewWithoutLayout(s.objs()...)
	in.Move(off)
	c.SetContent(container.NewWithoutLayout(in))
	c.Resize(s.size.AddWidthHeight(1/pixScale, 1/pixScale))
	img := c.Capture()
	if n, ok := img.(*image.NRGBA); ok {
		return n
	}
	n := image.NewNRGBA(img.Bounds())
	draw.Draw(n, n.Rect, img, img.Bounds().Min, draw.Src)
	return n
}

// paint draws the picture at w×h pixels, pixScale device pixels per Fyne unit (for the lines).
func (a *boxArt) paint(w, h int, pixScale float32) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if a.bg != nil {
		draw.Draw(img, img.Rect, image.NewUniform(a.bg), image.Point{}, draw.Src)
	}
	scale, off := fit(a.bounds, fyne.NewSize(float32(w), float32(h)))
	toPx := func(p diagrams.Point) (int, int) {
		return round(off.X + (p.X-a.bounds.Min.X)*scale), round(off.Y + (p.Y-a.bounds.Min.Y)*scale)
	}
	pxRect := func(r diagrams.Rect) image.Rectangle {
		x0, y0 := toPx(r.Min)
		x1, y1 := toPx(r.Max)
		return image.Rect(x0, y0, x1, y1)
	}
	for _, b := range a.boxes {
		if b.fill != nil {
			draw.Draw(img, pxRect(b.rect), image.NewUniform(b.fill), image.Point{}, draw.Over)
		}
	}
	// Lines after every fill, centred on the box edges, so shared edges are drawn alike.
	lw := max(1, round(a.lineW*pixScale))
	lo, hi := lw/2, lw-lw/2
	line := image.NewUniform(feltLine)
	for _, b := range a.boxes {
		r := pxRect(b.rect)
		for _, e := range []image.Rectangle{
			image.Rect(r.Min.X-lo, r.Min.Y-lo, r.Max.X+hi, r.Min.Y+hi), // top
			image.Rect(r.Min.X-lo, r.Max.Y-lo, r.Max.X+hi, r.Max.Y+hi), // bottom
			image.Rect(r.Min.X-lo, r.Min.Y-lo, r.Min.X+hi, r.Max.Y+hi), // left
			image.Rect(r.Max.X-lo, r.Min.Y-lo, r.Max.X+hi, r.Max.Y+hi), // right
		} {
			draw.Draw(img, e, line, image.Point{}, draw.Over)
		}
	}
	ink := image.NewUniform(textColour)
	for _, b := range a.boxes {
		r := pxRect(b.rect)
		cx, cy := float32(r.Min.X+r.Max.X)/2, float32(r.Min.Y+r.Max.Y)/2
		if b.label != "" {
			a.drawLabel(img, ink, b, float32(r.Dx()), cx, cy, scale)
		}
		if b.marker {
			rad := scale * 0.05
			diamond(img, cx, float32(r.Min.Y)+float32(r.Dy())*0.79, rad, rad*1.2, textColour)
		}
	}
	return img
}

// drawLabel writes a box's label centred in it, width w pixels, at (cx, cy). A label too wide
// for its box on one line (the First Five, in a box one number wide) has its words on lines of
// their own, and is made smaller only if a word is still too wide: it never spills over the
// box's lines. A label that fits is drawn exactly as before.
func (a *boxArt) drawLabel(img draw.Image, ink image.Image, b artBox, w, cx, cy, scale float32) {
	room := fixed.Int26_6(w * 0.9 * 64)
	face := a.face(b.em * scale)
	lines := []string{b.label}
	widest := font.MeasureString(face, b.label)
	if widest > room {
		lines, widest = strings.Fields(b.label), 0
		for _, l := range lines {
			widest = max(widest, font.MeasureString(face, l))
		}
		if widest > room {
			face = a.face(b.em * scale * float32(room) / float32(widest))
		}
	}
	m := face.Metrics()
	d := font.Drawer{Dst: img, Src: ink, Face: face}
	// Centred like a centred canvas.Text: the lines' boxes (ascent + descent each) in the middle.
	lineH, n := m.Ascent+m.Descent, fixed.Int26_6(len(lines))
	for i, l := range lines {
		d.Dot = fixed.Point26_6{
			X: fixed.Int26_6(cx*64) - d.MeasureString(l)/2,
			Y: fixed.Int26_6(cy*64) + (m.Ascent-m.Descent)/2 + lineH*(2*fixed.Int26_6(i)-(n-1))/2,
		}
		d.DrawString(l)
	}
}

// face returns the bold theme font at size pixels per em, cached per size.
func (a *boxArt) face(size float32) font.Face {
	size = float32(math.Round(float64(size)*4) / 4)
	if f, ok := a.faces[size]; ok {
		return f
	}
	if len(a.faces) > 8 { // sizes change with the window; keep only the current ones
		clear(a.faces)
	}
	f, err := opentype.NewFace(a.font, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("ui: embedded bold font: " + err.Error()) // the font is compiled in; caught by any test
	}
	a.faces[size] = f
	return f
}

// boldFont is Fyne's embedded bold text font, the one canvas.Text uses for bold: the same on
// every machine, so the reference renders do not depend on the fonts installed.
var boldFont = sync.OnceValue(func() *sfnt.Font {
	f, err := opentype.Parse(theme.DefaultTextBoldFont().Content())
	if err != nil {
		panic("ui: embedded bold font: " + err.Error())
	}
	return f
})

// chineseBoldFont is the embedded Chinese bold font, which also has every printable ASCII
// character (packaging/gen-fonts.sh keeps them; TestChineseLocale checks).
var chineseBoldFont = sync.OnceValue(func() *sfnt.Font {
	f, err := opentype.Parse(assets.ChineseBold.Content())
	if err != nil {
		panic("ui: embedded Chinese bold font: " + err.Error())
	}
	return f
})

// labelFont is the font the felt's and the racetrack's labels are drawn in: Fyne's bold where
// the screen speaks English, the Chinese bold where it speaks Chinese — whose labels (一打, 红,
// 邻居…) Fyne's Latin font has no glyphs for. The screen is built again when the language
// changes, and its pictures with it.
func labelFont() *sfnt.Font {
	if Speaking() == "zh_Hans" {
		return chineseBoldFont()
	}
	return boldFont()
}

// diamond fills a diamond centred on (cx, cy) with half-width rx and half-height ry, in pixels.
func diamond(dst *image.RGBA, cx, cy, rx, ry float32, c color.Color) {
	x0, y0 := int(math.Floor(float64(cx-rx))), int(math.Floor(float64(cy-ry)))
	x1, y1 := int(math.Ceil(float64(cx+rx))), int(math.Ceil(float64(cy+ry)))
	if x1 <= x0 || y1 <= y0 {
		return
	}
	z := vector.NewRasterizer(x1-x0, y1-y0)
	ox, oy := cx-float32(x0), cy-float32(y0)
	z.MoveTo(ox, oy-ry)
	z.LineTo(ox+rx, oy)
	z.LineTo(ox, oy+ry)
	z.LineTo(ox-rx, oy)
	z.ClosePath()
	z.Draw(dst, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{})
}

func round(f float32) int { return int(math.Round(float64(f))) }
