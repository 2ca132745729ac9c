package station_test

import (
	"context"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/server"
)

// 003 §7.6/§7.9, issue 32 point 18 (notes/screentech.md): the Super/Mega colour is chosen
// "once 'No More Bets' has displayed", so on the wire, over a real gRPC stream from the table
// server, no Lucky Ball draw with a mark ever comes before the round's NO MORE BETS, and the
// marked draw follows it at once — before the round's result, with no other phase between —
// rather than some later event. Three rounds of a Mega table dealt by the auto-dealer.
func TestLuckyMarkFollowsNoMoreBetsOnTheStream(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Period, cfg.LuckyBall, cfg.LuckyMega = 2*time.Second, true, true
	tbl, err := demo.StartTable(t.TempDir(), "T01", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tbl.Close() })
	cli, err := client.Dial(client.Config{Addr: tbl.Addr, TLS: tbl.ClientTLS})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	phase := map[string]table.Phase{} // each round's phase as the stream told it
	mark := map[string]bool{}         // rounds whose marked draw came
	var noMoreBetsAt time.Time
	marked := 0
	for marked < 3 {
		var e table.Event
		select {
		case e = <-cli.Events():
		case <-ctx.Done():
			t.Fatalf("only %d marked draws in time", marked)
		}
		switch e := e.(type) {
		case table.Snapshot:
			phase[e.RoundID] = e.Phase
		case table.PhaseChanged:
			if p := phase[e.RoundID]; p == table.PhaseNoMoreBets && e.Phase != table.PhaseNoMoreBets && !mark[e.RoundID] {
				t.Fatalf("round %s went %v after NO MORE BETS with no Super/Mega mark", e.RoundID, e.Phase)
			}
			phase[e.RoundID] = e.Phase
			if e.Phase == table.PhaseNoMoreBets {
				noMoreBetsAt = time.Now()
			}
		case table.LuckyBallDrawn:
			if !e.Draw.HasSuper && !e.Draw.HasMega {
				continue // the numbers at the spin: no mark yet, as it must be
			}
			if p := phase[e.RoundID]; p != table.PhaseNoMoreBets {
				t.Fatalf("round %s's Super/Mega mark told in phase %v, not right after NO MORE BETS", e.RoundID, p)
			}
			if d := time.Since(noMoreBetsAt); d > time.Second {
				t.Errorf("round %s's mark %v after NO MORE BETS on the stream", e.RoundID, d)
			}
			mark[e.RoundID] = true
			marked++
		}
	}
}
