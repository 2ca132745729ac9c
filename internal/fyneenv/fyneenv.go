// Package fyneenv sets what Fyne reads from the environment in its own package initialisers,
// before those run: the language of the POSIX locale, and how long Fyne keeps what it drew.
//
// Fyne reads both once, as its packages initialise (fyne.io/fyne/v2/lang the locale,
// fyne.io/fyne/v2/internal/cache FYNE_CACHE), so main cannot set them: by then it is too late.
// This package imports only os, strings and time, so Go — which initialises, of the packages whose
// imports are ready, the one with the smallest import path first — runs it as soon as os is
// ready: before net/url, which Fyne's root package needs, and so before any of Fyne's packages
// (TestFyneReadsTheEnvironmentAfterThisPackage in internal/kiosk checks the order in the kiosk's
// own binary). Import it for its effect, from the kiosk (internal/kiosk) and from ui:
//
//	import _ "github.com/tablegames/ats/internal/fyneenv"
package fyneenv

import (
	"os"
	"strings"
	"time"
)

// CacheLifetime is how long Fyne keeps a texture, a text's rasterisation, a widget's renderer or
// a text's measurements after it was last drawn (Fyne's default is a minute). The kiosk's texts
// change every round — a balance, a win, a bet total, a call-out — and each text drawn is a
// texture in Mesa's C heap until it expires: with rounds a second apart (packaging/soak-kiosk.sh)
// a minute held some 37 rounds of them, and the resident set grew ~5 MB over the first minute
// whatever the rounds after (issue 18: ≤ 5 MB from round 10 to 510). What is on the screen is
// drawn, so kept, at least once a second during wagering (the countdown); what expires is what
// was replaced. So that nothing on the screen expires while it shows — the next frame would draw
// it all afresh, ~20 ms of texts and the felt's picture — the kiosk redraws a screen that has
// not changed for a quarter of this (internal/kiosk/keepdrawn.go).
const CacheLifetime = 10 * time.Second

// fyneDefault is Fyne's own lifetime, where FYNE_CACHE names none it can read.
const fyneDefault = time.Minute

// Lifetime is the lifetime Fyne read: FYNE_CACHE as Fyne parses it (this package's
// CacheLifetime unless the environment named another), or Fyne's minute.
func Lifetime() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("FYNE_CACHE")); err == nil {
		return d
	}
	return fyneDefault
}

func init() {
	set(os.Getenv, os.Setenv)
}

// set puts English in place of the POSIX locale, and CacheLifetime as FYNE_CACHE unless the
// environment names one (an operator's or a test's choice stands).
func set(getenv func(string) string, setenv func(k, v string) error) {
	if v, ok := posixLocale(getenv); ok {
		setenv(v, "en_US.UTF-8")
	}
	if getenv("FYNE_CACHE") == "" {
		setenv("FYNE_CACHE", CacheLifetime.String())
	}
}

// posixLocale reports whether the locale in force — the first set of LC_ALL, LC_MESSAGES and
// LANG, which it names — is the POSIX one ("C", "C.UTF-8", "POSIX"), or none is set (then
// LANG). It names no language, and Fyne's lang logs "Error parsing user locale C" when it reads
// one (issue 18 point 10); here it means English.
func posixLocale(getenv func(string) string) (string, bool) {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := getenv(v); l != "" {
			l, _, _ = strings.Cut(l, ".")
			return v, l == "C" || l == "POSIX"
		}
	}
	return "LANG", true
}
