package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/server/ledger"
)

// TestMain lets the test binary be its own children: the harness starts os.Args[0] with
// "terminal …" or "server …", as the real binary starts itself.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "terminal" || os.Args[1] == "server") {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func harnessRun(t *testing.T, kill string, n int, seed uint64) *harness {
	t.Helper()
	if testing.Short() {
		t.Skip("the crash harness takes a while")
	}
	h := newHarness(options{Kill: kill, N: n, Seed: seed, Dir: t.TempDir(), Self: []string{os.Args[0]}}, testLog{t})
	rep, err := h.runIn()
	if rep != nil {
		t.Log("\n" + rep.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Each kind of failure at random points, then the books: the full 1,000-point runs are
// cmd/crashtest's job (figures in docs/guides/crash-harness.md); these keep the harness and the code it
// checks honest on every test run.
func TestKillTerminal(t *testing.T) {
	h := harnessRun(t, "terminal", 12, 11)
	// The checks must be able to fail: plant a double payment and a phantom credit, and see
	// each named.
	ctx := context.Background()
	led, err := ledger.Open(ledgerPath(h.dir))
	if err != nil {
		t.Fatal(err)
	}
	tickets, err := led.Tickets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	planted := false
	for _, tk := range tickets {
		if tk.State == ledger.TicketRedeemed {
			tk.State = ledger.TicketPrinted
			err = led.Update(ctx, time.Now(), func(tx *ledger.Tx) error { return tx.PutTicket(tk) })
			planted = true
			break
		}
	}
	led.Close()
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(journalPath(h.dir), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Append(ctx, journal.Record{Kind: "credited", Key: "note:67:planted", Amount: 10000, Flow: journal.Done})
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.check()
	if err == nil {
		t.Fatal("the checks passed books with a planted phantom credit")
	}
	if !strings.Contains(err.Error(), "the terminal journal credited") {
		t.Errorf("phantom credit not named: %v", err)
	}
	if planted && !strings.Contains(err.Error(), "paid twice") {
		t.Errorf("ticket both stacked and owed not named: %v", err)
	}
}

func TestKillServer(t *testing.T) { harnessRun(t, "server", 6, 12) }

func TestCutNetwork(t *testing.T) { harnessRun(t, "network", 6, 13) }

// Planted faults in the records, one of each kind between kills (tamper.go): deleted records,
// an amount edited with the chain recomputed, an older copy, a forged credit owed (with and
// without the terminal's key), a raised ledger balance — each must be caught, and the books
// at the end show that none was paid.
func TestPlantedRecordFaults(t *testing.T) { harnessRun(t, "tamper", len(tamperFaults), 14) }
