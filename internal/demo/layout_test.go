package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablegames/ats/app/roulette"
)

// A demo state directory keeps the layout its table was made for: the same layout opens it
// again, another is refused with a message naming both and the way out, and a directory with a
// table from before the choice (no layout file) is single zero's.
func TestStateDirectoryKeepsItsWheel(t *testing.T) {
	dz, sz := roulette.DoubleZero, roulette.SingleZero
	fresh := t.TempDir()
	if err := keepLayout(fresh, dz, roulette.Star); err != nil {
		t.Fatalf("a new directory: %v", err)
	}
	if err := keepLayout(fresh, dz, roulette.Star); err != nil {
		t.Fatalf("the same layout again: %v", err)
	}
	for _, c := range []struct {
		w    roulette.Wheel
		p    roulette.Profile
		want string
	}{
		{dz, roulette.CrownRapid, "holds a double-zero star demo table, not double-zero crown-rapid"},
		{sz, roulette.CrownRapid, "holds a double-zero star demo table, not single-zero"},
	} {
		err := keepLayout(fresh, c.w, c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "ATS_STATE_DIR") {
			t.Errorf("%v %v in a double-zero star directory: %v, want %q", c.w, c.p, err, c.want)
		}
	}

	old := t.TempDir() // a single-zero demo's directory from before the layout file
	if err := os.WriteFile(filepath.Join(old, "demo-table.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := keepLayout(old, dz, roulette.CrownRapid); err == nil || !strings.Contains(err.Error(), "holds a single-zero demo table") {
		t.Errorf("double zero in an old single-zero directory: %v", err)
	}
	if err := keepLayout(old, sz, roulette.CrownRapid); err != nil {
		t.Errorf("single zero in an old single-zero directory: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(old, layoutFile)); err != nil || strings.TrimSpace(string(b)) != "single-zero" {
		t.Errorf("the old directory's layout file: %q, %v", b, err)
	}
}
