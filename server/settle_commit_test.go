package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// No terminal is told of its settlement before the transaction that records it has committed:
// with the ledger's commit held (sealed, not yet committed), nothing of the outcome is on any
// Watch stream's queue, however long the commit takes. Once it commits, every stream gets the
// outcome, the result phase and its own settlement, in that order and numbered in that order
// (deliverOutcome queues them a terminal at a time).
func TestSettledNeverSentBeforeCommit(t *testing.T) {
	r, ids, subs := engineTable(t, 3)
	spots := r.table.layout.Spots()
	st, err := r.table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		w := []SlipWager{{Spec: roulette.Bet{Spot: spots[i]}.Spec(), Amount: 100}}
		if _, err := r.table.UpdateSlip(id, st.RoundId, 1, w); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Add(time.Minute)
	r.table.Advance(r.clock.Now())
	for _, s := range subs {
		for len(s.ch) > 0 {
			<-s.ch
		}
	}
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	r.led.BeforeCommit(func() {
		once.Do(func() { close(held); <-release })
	})
	defer r.led.BeforeCommit(nil)
	var freed sync.Once
	free := func() { freed.Do(func() { close(release) }) }
	defer free() // a failing test lets the outcome finish, or the table's lock stays held
	done := make(chan error, 1)
	go func() {
		_, err := r.table.EnterOutcome("dealer:test", st.RoundId, "17")
		done <- err
	}()
	select {
	case <-held:
	case err := <-done:
		t.Fatalf("the outcome was entered without a commit: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the settlement never reached its commit")
	}
	time.Sleep(50 * time.Millisecond) // time for an early event to show
	for i, s := range subs {
		if n := len(s.ch); n > 0 {
			t.Fatalf("%s: %d events queued while the settlement's commit was held (first: %T)", ids[i], n, (<-s.ch)[0].ev)
		}
	}
	free()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r.led.BeforeCommit(nil)
	for i, s := range subs {
		var got []string
		var seq uint64
		var evs []*event
		for len(s.ch) > 0 {
			evs = append(evs, <-s.ch...)
		}
		for _, ev := range evs {
			if ev.seq <= seq {
				t.Fatalf("%s: event %d after %d", ids[i], ev.seq, seq)
			}
			seq = ev.seq
			switch e := ev.ev.(type) {
			case table.OutcomeEntered:
				got = append(got, "outcome "+e.Outcome.Number.String())
			case table.PhaseChanged:
				got = append(got, "phase "+e.Phase.String())
			case table.Settled:
				got = append(got, "settled")
				var bal int64
				if err := r.led.Update(context.Background(), r.clock.Now(), func(tx *ledger.Tx) error {
					var err error
					bal, _, err = tx.Account(ids[i])
					return err
				}); err != nil {
					t.Fatal(err)
				}
				if e.Balance != bal {
					t.Fatalf("%s: told balance %d, the ledger holds %d", ids[i], e.Balance, bal)
				}
			}
		}
		want := "outcome 17 | phase " + table.PhaseResult.String() + " | settled"
		if g := join(got); g != want {
			t.Fatalf("%s: events %s, want %s", ids[i], g, want)
		}
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " | "
		}
		out += x
	}
	return out
}
