package ui

import (
	"fyne.io/fyne/v2/lang"

	"github.com/tablegames/ats/assets"
)

func init() {
	// English and simplified Chinese; Fyne picks by the system locale.
	if err := lang.AddTranslationsFS(assets.Translations, "translations"); err != nil {
		panic("ui: embedded translations are invalid: " + err.Error()) // caught by any test run
	}
}

// T translates a UI string.
func T(s string) string { return lang.L(s) }
