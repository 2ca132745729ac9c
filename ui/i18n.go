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

// The languages the kiosk speaks, by their translation file's code, each named in itself.
var languages = []struct{ code, name string }{{"en", "English"}, {"zh_Hans", "中文"}}

// Speaking is the code of the language the screen speaks now ("en" or "zh_Hans").
func Speaking() string {
	if strings.HasPrefix(lang.SystemLocale().String(), "zh") {
		return "zh_Hans"
	}
	return "en"
}

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
			s.language.SetText(l.name)
			s.language.OnTapped = func() { choose(code) }
			s.langBox.Show()
			return
		}
	}
}
