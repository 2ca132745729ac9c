package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablegames/ats/server"
)

// `tableserver supervisor set-pin` writes a supervisor's PIN (read from stdin, never in the
// arguments) to the supervisors' PIN file in the technicians' format; the table checks it with
// the supervisors' throttle. A missing PIN and an unknown action are refused.
func TestSupervisorSetPIN(t *testing.T) {
	file := filepath.Join(t.TempDir(), "supervisors")
	var errOut bytes.Buffer
	if code := runSetPIN("supervisor", []string{"set-pin", "-file", file, "-id", "S1", "-iterations", "1000"}, strings.NewReader("482913\n"), &errOut); code != 0 {
		t.Fatalf("set-pin: %d %s", code, errOut.String())
	}
	pins, err := server.LoadSupervisors(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := pins.Verify("S1", "482913"); err != nil {
		t.Fatalf("the PIN set: %v", err)
	}
	if err := pins.Verify("S1", "000000"); err == nil || !strings.Contains(err.Error(), "of 5 tries") {
		t.Fatalf("a wrong PIN under the supervisors' throttle: %v", err)
	}
	if code := runSetPIN("supervisor", []string{"set-pin", "-file", file, "-id", "S2"}, strings.NewReader(""), &errOut); code != 1 {
		t.Errorf("no PIN on stdin: %d", code)
	}
	if code := runSetPIN("supervisor", []string{"frob"}, strings.NewReader(""), &errOut); code != 2 || !strings.Contains(errOut.String(), "tableserver supervisor set-pin") {
		t.Errorf("an unknown action: %d %s", code, errOut.String())
	}
}
