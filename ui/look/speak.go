package look

import (
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/assets"
	// What Fyne reads from the environment as it initialises: English for the POSIX locale (issue
	// 18 point 10), its caches' lifetime (issue 18 memory). Before Fyne's own packages.
	_ "github.com/tablegames/ats/internal/fyneenv"
)

func init() {
	// English and simplified Chinese; Fyne picks by the system locale.
	if err := lang.AddTranslationsFS(assets.Translations, "translations"); err != nil {
		panic("look: embedded translations are invalid: " + err.Error()) // caught by any test run
	}
}

// T translates a UI string.
func T(s string) string { return lang.L(s) }

// Speaking is the code of the language the screen speaks now ("en" or "zh_Hans").
func Speaking() string {
	if strings.HasPrefix(lang.SystemLocale().String(), "zh") {
		return "zh_Hans"
	}
	return "en"
}

// SetLanguage makes the screen speak code ("en", "zh_Hans") instead of the system's language.
// Fyne reads the language from the environment when translations are added, so they are added
// again after it is set. Call it before the screen is built.
func SetLanguage(code string) error {
	if code == "" {
		return nil
	}
	if err := os.Setenv("LANGUAGE", code); err != nil {
		return err
	}
	return lang.AddTranslationsFS(assets.Translations, "translations")
}

// Base is Fyne's theme, and on a screen that speaks Chinese the embedded Chinese glyphs first.
// Fyne looks a character up in the theme's font, then in its own Latin font, so Latin text
// draws exactly as in English; an English screen keeps Fyne's fonts untouched.
func Base() fyne.Theme {
	if Speaking() == "zh_Hans" {
		return ChineseTheme{theme.DefaultTheme()}
	}
	return theme.DefaultTheme()
}

// ChineseTheme is a theme with the embedded Chinese glyphs first (assets, cut to the
// translation by packaging/gen-fonts.sh): text in the embedded Chinese font (which has
// printable ASCII too), symbols in the theme's own. Fyne looks a character up in the theme's
// font, then in its own Latin font, so Latin text draws exactly as in English.
type ChineseTheme struct{ fyne.Theme }

// Font is the embedded Chinese font, regular or bold; symbols stay the base theme's.
func (t ChineseTheme) Font(s fyne.TextStyle) fyne.Resource {
	switch {
	case s.Symbol:
		return t.Theme.Font(s)
	case s.Bold:
		return assets.ChineseBold
	}
	return assets.ChineseRegular
}
