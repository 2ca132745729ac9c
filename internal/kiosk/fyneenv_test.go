package kiosk

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFyneReadsTheEnvironmentAfterThisPackage checks, in a binary with the kiosk's own imports
// (this test's), that internal/fyneenv initialises before the Fyne packages that read what it
// sets: lang (the locale) and internal/cache (FYNE_CACHE). Go's initialisation order follows
// from import paths and imports, so a new import could change it: GODEBUG=inittrace=1 prints it.
func TestFyneReadsTheEnvironmentAfterThisPackage(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running the test binary: %v\n%s", err, stderr.String())
	}
	at := map[string]int{}
	n := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 2 && f[0] == "init" {
			at[f[1]] = n
			n++
		}
	}
	const ours = "github.com/tablegames/ats/internal/fyneenv"
	mine, ok := at[ours]
	if !ok {
		t.Fatalf("%s is not initialised in this binary (%d packages traced)", ours, n)
	}
	for _, fyne := range []string{"fyne.io/fyne/v2/lang", "fyne.io/fyne/v2/internal/cache"} {
		theirs, ok := at[fyne]
		if !ok {
			t.Fatalf("%s is not initialised in this binary", fyne)
		}
		if theirs < mine {
			t.Errorf("%s initialises before %s (%d < %d): it reads the environment unset", fyne, ours, theirs, mine)
		}
	}
}
