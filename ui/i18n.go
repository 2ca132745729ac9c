package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/assets"
	"github.com/tablegames/ats/ui/look"
	// What Fyne reads from the environment as it initialises: English for the POSIX locale (issue
	// 18 point 10), its caches' lifetime (issue 18 memory). Before Fyne's own packages.
	_ "github.com/tablegames/ats/internal/fyneenv"
)

// T translates a UI string (the translations are look's, shared with the dealer's console).
func T(s string) string { return look.T(s) }

// The languages the kiosk speaks, by their translation file's code, each named in itself.
var languages = []struct{ code, name string }{{"en", "English"}, {"zh_Hans", "中文"}}

// Speaking is the code of the language the screen speaks now ("en" or "zh_Hans").
func Speaking() string { return look.Speaking() }

// OfferLanguages puts the language button in the controls row: it names the other language,
// and a touch calls choose with that language's code. The screen's texts are made when it is
// built, so choose is the kiosk's to act on: set the language (SetLanguage) and build the screen
// again. Call it before the screen is shown: the button takes its place in the row then, so
// nothing moves under a finger later.
func (s *Screen) OfferLanguages(choose func(code string)) {
	now := Speaking()
	for _, l := range languages {
		if l.code != now {
			code := l.code
			s.languageName.set(l.name)
			s.language.OnTapped = func() { choose(code) }
			s.langBox.Show()
			return
		}
	}
}

// languageName is the language button's label, drawn over the button (whose own label stays
// empty) in the embedded Chinese font at the button's text size and colour. Fyne measures a
// button's own label in the app theme's font whatever theme the button is in: on an English
// screen "中文" was measured in the Latin font, and Fyne looked for the glyphs among the
// system's fonts and loaded a whole CJK font from disk — 20 MB of the kiosk's heap for two
// characters (issue 18; none found on a cabinet without one). A text with its font source set
// is measured and drawn in that font alone.
type languageName struct {
	widget.BaseWidget
	text *canvas.Text
}

func newLanguageName() *languageName {
	n := &languageName{text: canvas.NewText("", color.Black)}
	n.text.TextStyle = fyne.TextStyle{Bold: true} // as a button's label
	n.text.Alignment = fyne.TextAlignCenter
	n.text.FontSource = assets.ChineseBold // the kiosk's Chinese font has ASCII too ("English")
	n.ExtendBaseWidget(n)
	return n
}

func (n *languageName) set(name string) {
	n.text.Text = name
	n.Refresh()
}

func (n *languageName) CreateRenderer() fyne.WidgetRenderer { return &languageNameRenderer{n} }

type languageNameRenderer struct{ n *languageName }

// style takes the text size and colour of the theme the button is in (the touch sizes, which
// change with the screen's size), and gives its inner padding.
func (r *languageNameRenderer) style() (pad float32) {
	th := r.n.Theme()
	r.n.text.TextSize = th.Size(theme.SizeNameText)
	r.n.text.Color = th.Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
	return th.Size(theme.SizeNameInnerPadding)
}

// MinSize is a button's with this label: the text inside the button's padding (twice the
// inner padding), a line of the app's font high as every other button (the Chinese font's line
// is taller): the controls row keeps its height with the language button in it.
func (r *languageNameRenderer) MinSize() fyne.Size {
	if r.n.text.Text == "" {
		return fyne.Size{}
	}
	pad := r.style()
	line := fyne.MeasureText("M", r.n.text.TextSize, r.n.text.TextStyle).Height
	return fyne.NewSize(r.n.text.MinSize().Width, line).Add(fyne.NewSquareSize(2 * pad))
}

func (r *languageNameRenderer) Layout(size fyne.Size) {
	r.style()
	h := r.n.text.MinSize().Height
	r.n.text.Move(fyne.NewPos(0, (size.Height-h)/2))
	r.n.text.Resize(fyne.NewSize(size.Width, h))
}

func (r *languageNameRenderer) Refresh() {
	r.Layout(r.n.Size())
	r.n.text.Refresh()
}

func (r *languageNameRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.n.text} }
func (r *languageNameRenderer) Destroy()                     {}
