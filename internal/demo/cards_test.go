package demo

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// Issue 31: the carded demo's cards are each in the state its screen needs — no limits yet, a
// loss limit reached, a break due, barred, lost — and registering them again (a demo started
// again on its state directory) changes none of them.
func TestSPEC10_DemoCardsAreInTheStatesTheirScreensNeed(t *testing.T) {
	led, err := ledger.Open(filepath.Join(t.TempDir(), "demo-table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	s := &precommit.LedgerStore{L: led}
	ctx, now := context.Background(), time.Now()
	for range 2 {
		if err := registerCards(ctx, s, now); err != nil {
			t.Fatal(err)
		}
	}
	card := func(id string) precommit.Card {
		c, err := s.Card(ctx, id, now)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		return c
	}
	if c := card(DemoCard); c.State != precommit.Registered || c.Limits.Set() {
		t.Errorf("the demo card: %+v", c)
	}
	if c := card(DemoCardReached); c.BarredFor != "loss" || !c.BarredUntil.After(now.Add(23*time.Hour)) {
		t.Errorf("the loss limit reached: %+v", c)
	}
	if c := card(DemoCardBreak); !c.BreakUntil.After(now.Add(14 * time.Minute)) {
		t.Errorf("the break: %+v", c)
	}
	if c := card(DemoCardBarred); c.State != precommit.Barred {
		t.Errorf("barred: %+v", c)
	}
	if c := card(DemoCardLost); c.State != precommit.Lost {
		t.Errorf("lost: %+v", c)
	}
}
