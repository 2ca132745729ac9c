package client

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Through a real table: the client asks for batches, and the outcome's batch (the outcome, the
// result phase, the terminal's settlement in one message) reaches the terminal as those three
// events, one after another, in the table's order.
func TestOutcomeBatchReadsAsItsEvents(t *testing.T) {
	tt := startTable(t, 400*time.Millisecond)
	if _, err := tt.tb.OpenTable("dealer:test", false); err != nil {
		t.Fatal(err)
	}
	c := tt.dial("T1")
	next[table.Snapshot](t, c)
	if err := c.ReportNoteEscrow(context.Background(), "note-1", 10000, "AUD100"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreditNote(context.Background(), "note-1", 10000, "AUD100"); err != nil {
		t.Fatal(err)
	}
	st, err := tt.tb.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	for ph := next[table.PhaseChanged](t, c); ph.Phase != table.PhaseWagering; ph = next[table.PhaseChanged](t, c) {
	}
	red, _ := roulette.Layout{Wheel: roulette.SingleZero}.Outside(roulette.Red, 0)
	if _, err := c.UpdateSlip(context.Background(), st.RoundId, 1, []table.SlipBet{{Bet: roulette.Bet{Spot: red}, Amount: 500}}); err != nil {
		t.Fatal(err)
	}
	for ph := next[table.PhaseChanged](t, c); ph.Phase != table.PhaseNoMoreBets; ph = next[table.PhaseChanged](t, c) {
	}
	if _, err := tt.tb.EnterOutcome("dealer:test", st.RoundId, "1"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < 3 {
		select {
		case ev := <-c.Events():
			if _, outcome := ev.(table.OutcomeEntered); !outcome && len(got) == 0 {
				continue // whatever else the period sent before the outcome (a Lucky Ball draw)
			}
			switch e := ev.(type) {
			case table.OutcomeEntered:
				got = append(got, "outcome "+e.Outcome.Number.String())
			case table.PhaseChanged:
				got = append(got, "phase "+e.Phase.String())
			case table.Settled:
				got = append(got, fmt.Sprintf("settled %d", e.Balance))
			default:
				got = append(got, fmt.Sprintf("%T", ev))
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("after %v, nothing within 5 s", got)
		}
	}
	want := fmt.Sprintf("[outcome 1 phase %s settled 10500]", table.PhaseResult)
	if g := fmt.Sprint(got); g != want {
		t.Fatalf("events %s, want %s", g, want)
	}
}
