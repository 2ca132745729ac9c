package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/ui/look"
)

// Theme is the kiosk's theme: Fyne's own, and on a terminal whose locale is Chinese, the
// embedded Chinese glyphs first. Fyne looks a character up in the theme's font, then in its
// own Latin font, so Latin text draws exactly as in English; an English screen keeps Fyne's
// fonts untouched.
//
// Its background is the panels' colour: the window is cleared to it before every frame, so the
// screen needs no full-window rectangle of its own (see backdrop).
func Theme() fyne.Theme { return panelTheme{look.Base()} }

// panelTheme clears the window to the panels' colour.
type panelTheme struct{ fyne.Theme }

func (t panelTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameBackground {
		return panelBg
	}
	return t.Theme.Color(n, v)
}

// backdrop is the panels' colour behind the screen, hidden where the window is already cleared
// to it (Theme; a test's theme differs, and its renders show the rectangle). The theme is the
// app's before the screen is built and only Theme's variants replace it, all of one background.
//
// On the GL driver every refresh repaints the whole window (Fyne 2.7 keeps one dirty flag per
// canvas; a frame clears the window and paints every object): the countdown's once-a-second
// number costs a full frame. In software GL a full-window rectangle is a shaded, blended pass
// over two million pixels; the two the screen had took a quarter of the idle CPU (issue 18,
// packaging/idle-cpu.sh: 6.9 % → 5.1 % of a core). The clear that starts each frame paints the
// same colour for nothing.
func backdrop() *canvas.Rectangle {
	r := canvas.NewRectangle(panelBg)
	r.Hidden = sameColour(theme.Color(theme.ColorNameBackground), panelBg)
	return r
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// touchTheme is the app's theme with some sizes and colours of its own: the controls around
// the felt are touched with a finger at arm's length, often standing, so their text and the
// padding around it are larger than a desktop's. The sizes come in two classes, chosen by the
// screen's width (see touchSizing); the rest (fonts — the Chinese ones included — icons, the
// dark variant) is whatever theme the app has when it draws.
type touchTheme struct {
	sizing          *touchSizing
	normal, compact map[fyne.ThemeSizeName]float32
	colours         map[fyne.ThemeColorName]color.Color
}

func (t touchTheme) base() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (t touchTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if c, ok := t.colours[n]; ok {
		return c
	}
	return t.base().Color(n, v)
}

func (t touchTheme) Font(s fyne.TextStyle) fyne.Resource     { return t.base().Font(s) }
func (t touchTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base().Icon(n) }

func (t touchTheme) Size(n fyne.ThemeSizeName) float32 {
	sizes := t.normal
	if t.sizing.compact && t.compact != nil {
		sizes = t.compact
	}
	if s, ok := sizes[n]; ok {
		return s
	}
	return t.base().Size(n)
}

// Sizes of the controls: 22-point text in buttons 62 pixels tall (Fyne's own are 14 points in
// 36 pixels); on a 1280-pixel screen, where seven of them share a row, 18 points, still 56
// pixels tall. The message line's text is 24 points.
var (
	controlSizes = map[fyne.ThemeSizeName]float32{
		theme.SizeNameText: 22, theme.SizeNameInnerPadding: 16, theme.SizeNameInlineIcon: 28, theme.SizeNamePadding: 6,
	}
	compactSizes = map[fyne.ThemeSizeName]float32{
		theme.SizeNameText: 18, theme.SizeNameInnerPadding: 13, theme.SizeNameInlineIcon: 22, theme.SizeNamePadding: 4,
	}
	messageSizes = map[fyne.ThemeSizeName]float32{theme.SizeNameText: messageLarge, theme.SizeNameCaptionText: messageSmall,
		theme.SizeNameInnerPadding: 10, theme.SizeNameLineSpacing: 4}
)

// touchSizing is the size class of a screen's controls, and the objects drawn in it.
type touchSizing struct {
	compact   bool
	overrides []*container.ThemeOverride
}

// compactBelow is the width of the play area under which the controls are compact.
const compactBelow = 1400

// sized puts objects under the controls' sizes (or the message line's, when sizes is given),
// with colours of their own if given.
func (z *touchSizing) sized(o fyne.CanvasObject, sizes map[fyne.ThemeSizeName]float32, colours map[fyne.ThemeColorName]color.Color) *container.ThemeOverride {
	th := touchTheme{sizing: z, normal: controlSizes, compact: compactSizes, colours: colours}
	if sizes != nil {
		th.normal, th.compact = sizes, nil
	}
	t := container.NewThemeOverride(o, th)
	z.overrides = append(z.overrides, t)
	return t
}

// fit sets the size class for the width of the play area. On a change the overrides are
// refreshed, which applies the theme again to every object under them and measures them anew.
func (z *touchSizing) fit(width float32) {
	compact := width < compactBelow
	if compact == z.compact {
		return
	}
	z.compact = compact
	for _, o := range z.overrides {
		restyle(o)
	}
}

// restyle applies an override's theme to what is under it — objects added since too — and
// lays them out again at their new sizes: a container lays its objects out before it
// refreshes them, so that first pass measures them in the theme they had.
func restyle(o *container.ThemeOverride) {
	o.Refresh()
	o.Content.Refresh()
}
