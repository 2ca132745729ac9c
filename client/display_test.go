package client

import (
	"context"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/pki"
)

// A winning number display follows a real table over gRPC: the state at once, the outcome of
// a round as it is entered, the link lost when the server stops (said, not hidden), and the
// table again when it comes back on the same address.
func TestDisplayFollowsTheTableAndReconnects(t *testing.T) {
	tt := startTable(t, time.Minute)
	cfg, err := tt.pki.ClientTLS(pki.RoleDisplay, "wnd-1")
	if err != nil {
		t.Fatal(err)
	}
	updates := make(chan DisplayUpdate, 100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- WatchDisplay(ctx, DisplayConfig{Addr: tt.addr, TLS: cfg, MaxBackoff: 200 * time.Millisecond},
			func(u DisplayUpdate) { updates <- u })
	}()
	until := func(what string, pred func(DisplayUpdate) bool) DisplayUpdate {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case u := <-updates:
				if pred(u) {
					return u
				}
			case <-timeout:
				t.Fatalf("no display update with %s", what)
			}
		}
	}
	until("the closed table", func(u DisplayUpdate) bool { return u.Up && u.State.Phase == table.PhaseClosed })
	if _, err := tt.tb.OpenTable("dealer:test", false); err != nil {
		t.Fatal(err)
	}
	st, err := tt.tb.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tt.tb.BallDropping("dealer:test", st.RoundId); err != nil {
		t.Fatal(err)
	}
	if _, err := tt.tb.EnterOutcome("dealer:test", st.RoundId, "00"); err == nil {
		t.Fatal("00 entered at a single-zero table")
	}
	if _, err := tt.tb.EnterOutcome("dealer:test", st.RoundId, "32"); err != nil {
		t.Fatal(err)
	}
	u := until("32 the latest", func(u DisplayUpdate) bool { _, ok := u.State.Latest(); return u.Up && ok })
	if l, _ := u.State.Latest(); l.Number != 32 || l.RoundID != st.RoundId || u.State.Splits.Red != 1 {
		t.Fatalf("after the round: %+v", u.State)
	}
	tt.shutdown()
	if down := until("the link down", func(u DisplayUpdate) bool { return !u.Up }); down.Err == nil {
		t.Error("the link down without a reason")
	}
	tt.start(time.Minute)
	u = until("the table again", func(u DisplayUpdate) bool { return u.Up })
	if l, ok := u.State.Latest(); !ok || l.Number != 32 {
		t.Fatalf("after the restart: %+v", u.State)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("WatchDisplay did not end with its context")
	}
}
