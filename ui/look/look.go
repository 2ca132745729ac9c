// Package look is what every screen of the table shares so they look and speak alike: the
// colours of the numbers (red, black, the zeros' green), of the statistics board and of the
// round's states (look.go); the translations, the language spoken, and the base theme with the
// embedded Chinese glyphs (speak.go). The kiosk (ui), the dealer's console (console) and the
// winning number display (wnd) all draw with it; nothing but the kiosk's wiring imports ui, so
// what a second screen needs of the kiosk's lives here, and it is small on purpose.
package look

import (
	"image/color"

	"github.com/tablegames/ats/app/roulette"
)

// The numbers' colours, as on the felt and the wheel. Red and black are also told apart by
// shape where a screen shows them (a diamond marks red), so they read the same to a player who
// does not see red.
var (
	Red   = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	Black = color.NRGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	Green = color.NRGBA{R: 0x1b, G: 0x7a, B: 0x32, A: 0xff}
)

// The statistics board's colours beside the numbers': the hot and the cold numbers' captions,
// and the shares of a split that are not a number's colour (two or three shades a player tells
// apart, each under white text), on an empty bar's colour.
var (
	Hot         = color.NRGBA{R: 0xff, G: 0x8a, B: 0x3d, A: 0xff}
	Cold        = color.NRGBA{R: 0x7c, G: 0xc4, B: 0xff, A: 0xff}
	SplitBlue   = color.NRGBA{R: 0x2b, G: 0x5d, B: 0x8c, A: 0xff}
	SplitPurple = color.NRGBA{R: 0x5e, G: 0x3f, B: 0x8a, A: 0xff}
	SplitBrown  = color.NRGBA{R: 0x80, G: 0x5a, B: 0x24, A: 0xff}
	BarEmpty    = color.NRGBA{R: 0x2a, G: 0x36, B: 0x2e, A: 0xff}
)

// The round's state in colour, read at a glance (000 §10.6.2): open, closed; and the panels'
// background and dim text.
var (
	Open    = color.NRGBA{R: 0x4c, G: 0xaf, B: 0x50, A: 0xff}
	Closed  = color.NRGBA{R: 0xe5, G: 0x39, B: 0x35, A: 0xff}
	Panel   = color.NRGBA{R: 0x10, G: 0x22, B: 0x16, A: 0xff}
	DimText = color.NRGBA{R: 0xb0, G: 0xb0, B: 0xb0, A: 0xff}
)

// NumberColour is the colour a number of that colour is drawn on.
func NumberColour(c roulette.Colour) color.Color {
	switch c {
	case roulette.ColourRed:
		return Red
	case roulette.ColourBlack:
		return Black
	}
	return Green
}
