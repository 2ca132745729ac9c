package station_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/devices/emulator"
)

// A note jammed in the stacker and pulled out by the attendant ("clear-out") has no credit point
// and was not returned: the station leaves it unresolved. The attendant counts the cash box,
// stops the terminal and resolves it (atsctl records resolve); the started terminal credits a
// note found in the box exactly once, from its start-up recovery, and credits nothing for one
// that is not. The emulator hands the pulled note to the attendant, so which answer is true is
// the attendant's count: both are played.
func TestAttendantResolvesALostNote(t *testing.T) {
	for _, tc := range []struct {
		count    string
		inBox    bool
		credited int64
	}{
		{"in-box", true, 2000},
		{"not-in-box", false, 0},
	} {
		t.Run(tc.count, func(t *testing.T) {
			r := newRig(t, rigOptions{acceptor: func(c *emulator.NoteAcceptorConfig) { c.Stack = 2 * time.Second }})
			ctx := context.Background()
			path := filepath.Join(r.dir, "terminal.db")
			r.ready()
			r.buyIn(1000)
			r.jamWhileStacking(2000)
			if _, err := r.acc.Command("clear-out"); err != nil {
				t.Fatal(err)
			}
			var key string
			r.eventually("the note left open for the attendant", func() bool {
				fs, err := r.st.Journal.Pending(ctx)
				if err != nil || len(fs) != 1 || fs[0].State != cashier.Unresolved || fs[0].Amount != 2000 {
					return false
				}
				key = fs[0].Key
				return true
			})

			// While the terminal runs the journal is its own: the attendant's tool is refused.
			if j, err := journal.Open(path, nil); !errors.Is(err, journal.ErrInUse) {
				if err == nil {
					j.Close()
				}
				t.Fatalf("journal opened beside the running terminal: %v, want ErrInUse", err)
			}
			r.stop()
			j, err := journal.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = cashier.ResolveUnresolved(ctx, j, key, tc.inBox)
			j.Close()
			if err != nil {
				t.Fatal(err)
			}
			if b := r.conserved(); b != 1000 {
				t.Fatalf("ledger balance %d while the terminal is stopped, want 1000: resolving credits nothing by itself", b)
			}

			r.start() // returns once start-up recovery has finished
			r.ready()
			want := 1000 + tc.credited
			r.waitView("the balance after the attendant's count", func(v app.View) bool { return v.Balance == want })
			r.noPending()
			if b := r.conserved(); b != want || r.view().Balance != b {
				t.Fatalf("ledger balance %d, screen %d, want %d", b, r.view().Balance, want)
			}
			credits := 0
			for _, rec := range r.records("credited") {
				if rec.Key == key {
					credits++
				}
			}
			if wantCredits := map[bool]int{true: 1}[tc.inBox]; credits != wantCredits {
				t.Fatalf("%d credits journalled for the lost note, want %d", credits, wantCredits)
			}

			// Another restart recovers nothing more.
			r.restart()
			r.ready()
			r.noPending()
			if b := r.conserved(); b != want || r.view().Balance != b {
				t.Fatalf("after another restart: ledger balance %d, screen %d, want %d", b, r.view().Balance, want)
			}
		})
	}
}
