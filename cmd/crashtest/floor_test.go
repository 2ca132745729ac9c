package main

import (
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/tablegames/ats/internal/pgtest"
)

// A floor of two table servers on a throwaway PostgreSQL, T1's tickets redeemed at T2's terminal
// and paid at the cage while either server is SIGKILLed mid-redemption (floor.go); the full runs
// are cmd/crashtest's (docs/guides/crash-harness.md). Skipped where PostgreSQL is not installed, unless
// ATS_REQUIRE_POSTGRES=1 makes that a failure.
func TestKillFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash harness takes a while")
	}
	if !pgtest.Available() {
		t.Skipf("PostgreSQL is not installed, so the floor is not crashed (set %s=1 to make that a failure)", pgtest.RequireEnv)
	}
	h := newHarness(options{Kill: "floor", N: 5, Seed: 21, Dir: t.TempDir(), Self: []string{os.Args[0]}}, testLog{t})
	// The checks must be able to fail: with the run's books in place, plant in turn a ticket
	// paid at two places, a cage payment the cashier never made and a credit at T2 of a ticket
	// the floor never issued, and see each named.
	h.checked = func() error {
		f := h.floor
		var paid string
		for v := range f.credited {
			paid = v
		}
		for v := range f.cashed {
			if paid == "" {
				paid = v
			}
		}
		if paid == "" {
			t.Error("the run paid no ticket at T2 or the cage: nothing redeemed across tables was checked")
			return nil
		}
		plant := []struct {
			what, want string
			do         func()
		}{
			{"a ticket paid at T2 or the cage paid at the other too", "paid at 2 places", func() {
				if a, ok := f.credited[paid]; ok {
					f.cashed[paid] = a
				} else {
					f.credited[paid] = f.cashed[paid]
				}
			}},
			{"a credit at T2 of a ticket the floor never issued", "never issued", func() { f.credited["999999999999999999"] = 100 }},
			{"a payment the ledger has that the cashier or T2 never made", "never", func() {
				delete(f.credited, paid)
				delete(f.cashed, paid)
			}},
		}
		for _, p := range plant {
			credited, cashed := maps.Clone(f.credited), maps.Clone(f.cashed)
			p.do()
			_, err := h.check()
			f.credited, f.cashed = credited, cashed
			if err == nil || !strings.Contains(err.Error(), p.want) {
				t.Errorf("%s: the checks said %v, want %q", p.what, err, p.want)
			}
		}
		_, err := h.check() // and the books as they were pass again
		return err
	}
	rep, err := h.runIn()
	if rep != nil {
		t.Log("\n" + rep.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep.Floor == nil || rep.Floor.T2Credited+rep.Floor.CagePaid == 0 {
		t.Errorf("no ticket of T1 was paid at T2 or the cage: %+v", rep.Floor)
	}
}
