package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/assets"
)

// Theme is the kiosk's theme: Fyne's own, and on a terminal whose locale is Chinese, the
// embedded Chinese glyphs first. Fyne looks a character up in the theme's font, then in its
// own Latin font, so Latin text draws exactly as in English; an English screen keeps Fyne's
// fonts untouched.
func Theme() fyne.Theme {
	if strings.HasPrefix(lang.SystemLocale().String(), "zh") {
		return chineseTheme{theme.DefaultTheme()}
	}
	return theme.DefaultTheme()
}

type chineseTheme struct{ fyne.Theme }

func (t chineseTheme) Font(s fyne.TextStyle) fyne.Resource {
	switch {
	case s.Symbol:
		return t.Theme.Font(s)
	case s.Bold:
		return assets.ChineseBold
	}
	return assets.ChineseRegular
}
