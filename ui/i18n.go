package ui

import (
	"os"
	"strings"

	"fyne.io/fyne/v2/lang"

	"github.com/tablegames/ats/assets"
)

func init() {
	// The POSIX locale ("C", as a service or a container starts with) names no language: Fyne
	// logs an error parsing it on every start. It means English here, so say so.
	if v, ok := posixLocale(); ok {
		os.Setenv(v, "en_US.UTF-8")
	}
	// English and simplified Chinese; Fyne picks by the system locale.
	if err := lang.AddTranslationsFS(assets.Translations, "translations"); err != nil {
		panic("ui: embedded translations are invalid: " + err.Error()) // caught by any test run
	}
}

// posixLocale reports whether the locale in force — the first set of LC_ALL, LC_MESSAGES and
// LANG, which it names — is the POSIX one, or none is set (then LANG).
func posixLocale() (string, bool) {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := os.Getenv(v); l != "" {
			l, _, _ = strings.Cut(l, ".")
			return v, l == "C" || l == "POSIX"
		}
	}
	return "LANG", true
}

// T translates a UI string.
func T(s string) string { return lang.L(s) }
