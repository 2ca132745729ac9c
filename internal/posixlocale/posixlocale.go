// Package posixlocale names English where the system's locale is the POSIX one.
//
// The POSIX locale ("C", "C.UTF-8", "POSIX", or none set, as a service or a container starts
// with) names no language, and Fyne's lang package logs "Error parsing user locale C" when its
// own init reads it (issue 18 point 10). This package's init puts en_US.UTF-8 in its place before
// that: it imports only os and strings, so Go, which initialises the ready package with the
// smallest import path first, runs it as soon as os is ready, ahead of golang.org/x/text and so
// of Fyne's lang, which needs it. Import it for its effect, from main and from ui:
//
//	import _ "github.com/tablegames/ats/internal/posixlocale"
package posixlocale

import (
	"os"
	"strings"
)

func init() {
	if v, ok := inForce(os.Getenv); ok {
		os.Setenv(v, "en_US.UTF-8")
	}
}

// inForce reports whether the locale in force — the first set of LC_ALL, LC_MESSAGES and LANG,
// which it names — is the POSIX one, or none is set (then LANG).
func inForce(getenv func(string) string) (string, bool) {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := getenv(v); l != "" {
			l, _, _ = strings.Cut(l, ".")
			return v, l == "C" || l == "POSIX"
		}
	}
	return "LANG", true
}
