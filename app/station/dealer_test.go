package station_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/client"
)

// offerBuyIn has the dealer offer a buy-in to T01 and waits for the screen to show it.
func (r *rig) offerBuyIn(cents int64) *table.BuyInOffered {
	r.t.Helper()
	res, err := r.demo.Table.CreditPlayer("D1", creditReq("T01", cents))
	if err != nil {
		r.t.Fatal(err)
	}
	v := r.waitView("the buy-in offered", func(v app.View) bool { return v.BuyIn != nil && v.BuyIn.ID == res.BuyInId })
	return v.BuyIn
}

// dealerIn is the dealer buy-ins the journal counts as money in (what the meters add up).
func (r *rig) dealerIn() (n int, cents int64) {
	rs := r.records(recall.KindBuyInConfirmed)
	return len(rs), sum(rs)
}

// A dealer buy-in the player accepts is journalled, with the key the table is asked with, before
// the table is asked; its answer after. The terminal going down between the two loses nothing
// and counts nothing twice: the next start asks again with the same key.
func TestDealerBuyInJournalledBeforeTheTable(t *testing.T) {
	t.Run("down before the table was told", func(t *testing.T) {
		r := newRig(t, rigOptions{manual: true})
		r.ready()
		b := r.offerBuyIn(5000)
		// The link goes the moment the acceptance is on disk: the table never hears of it.
		r.st.Journal.Observe(func(rec journal.Record) {
			if rec.Kind == recall.KindBuyInAccepted {
				r.net.Cut()
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		err := r.st.Terminal.ConfirmBuyIn(ctx, true)
		cancel()
		r.st.Journal.Observe(nil)
		if err == nil {
			t.Fatal("the buy-in was confirmed with the link cut the moment it was journalled: it was not journalled first")
		}
		acc := r.records(recall.KindBuyInAccepted)
		if len(acc) != 1 || acc[0].Amount != 5000 || string(acc[0].Body) != "buy-in-"+b.ID {
			t.Fatalf("acceptance journalled: %+v", acc)
		}
		if c := r.conserved(); c != 0 {
			t.Fatalf("the table credited %d it was never told of", c)
		}
		r.stop() // the terminal goes down with the acceptance open
		r.net.Restore()
		r.start()
		r.waitView("the buy-in credited after the restart", func(v app.View) bool { return v.Balance == 5000 && v.BuyIn == nil })
		r.noPending()
		if n, c := r.dealerIn(); n != 1 || c != 5000 {
			t.Fatalf("dealer buy-ins journalled: %d of %d cents, want 1 of 5000", n, c)
		}
		if c := r.conserved(); c != 5000 {
			t.Fatalf("ledger balance %d, want 5000", c)
		}
	})

	t.Run("down after the table credited", func(t *testing.T) {
		r := newRig(t, rigOptions{manual: true})
		r.ready()
		b := r.offerBuyIn(5000)
		r.stop()
		// What the terminal had done when it went: journalled the acceptance (as ConfirmBuyIn
		// does) and had the table credit it, but not recorded the answer.
		ctx := context.Background()
		j, err := journal.Open(filepath.Join(r.dir, "terminal.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		a := table.AcceptedBuyIn{ID: b.ID, Key: "buy-in-" + b.ID, Amount: b.Amount}
		if err := (recall.Writer{J: j}).BuyInAccepted(ctx, a); err != nil {
			t.Fatal(err)
		}
		j.Close()
		cli, err := client.Dial(client.Config{Addr: r.demo.Addr, TLS: r.demo.ClientTLS})
		if err != nil {
			t.Fatal(err)
		}
		m, err := cli.ConfirmBuyIn(ctx, a.Key, a.ID, true)
		cli.Close()
		if err != nil || m.Amount != 5000 {
			t.Fatalf("the table crediting the buy-in: %+v %v", m, err)
		}

		r.start()
		r.eventually("the buy-in's answer recorded", func() bool { n, _ := r.dealerIn(); return n == 1 })
		r.noPending()
		r.waitView("the balance", func(v app.View) bool { return v.Balance == 5000 && v.BuyIn == nil })
		if n, c := r.dealerIn(); n != 1 || c != 5000 {
			t.Fatalf("dealer buy-ins journalled: %d of %d cents, want 1 of 5000", n, c)
		}
		if c := r.conserved(); c != 5000 {
			t.Fatalf("ledger balance %d, want 5000: credited twice?", c)
		}
		// Another restart finds nothing open and records nothing again.
		r.restart()
		r.ready()
		r.buyIn(100) // a barrier: the terminal is up and money flows again
		if n, c := r.dealerIn(); n != 1 || c != 5000 {
			t.Fatalf("after a second restart: %d dealer buy-ins of %d cents", n, c)
		}
	})
}

// The dealer closes the account while the terminal is down (001 §6.5.2): the terminal never saw
// the close, but when it comes back the table's snapshot says so and the terminal journals the
// dealer cash-out — once, however often it restarts or the snapshot repeats it, and alongside
// the closes it saw live.
func TestDealerCloseWhileTheTerminalIsDown(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(5000)
	r.stop()
	if res, err := r.closeAccount("close-1"); err != nil || res.Amount != 5000 {
		t.Fatalf("close while the terminal is down: %+v %v", res, err)
	}
	r.start()
	r.waitView("the account shown closed", func(v app.View) bool { return v.Connected && !v.AccountOpen && v.Balance == 0 })
	r.eventually("the dealer cash-out journalled", func() bool { return len(r.records(recall.KindDealerCashOut)) == 1 })
	if out := r.records(recall.KindDealerCashOut); out[0].Amount != 5000 {
		t.Fatalf("dealer cash-out journalled: %+v", out)
	}

	// Up again: a note, and a close the terminal sees live.
	r.ready()
	r.buyIn(2000)
	if res, err := r.closeAccount("close-2"); err != nil || res.Amount != 2000 {
		t.Fatalf("close with the terminal up: %+v %v", res, err)
	}
	r.eventually("the live close journalled", func() bool { return len(r.records(recall.KindDealerCashOut)) == 2 })
	// Restarts replay both closes in the snapshot: nothing is journalled again.
	for range 2 {
		r.restart()
		r.ready()
		r.buyIn(100) // a barrier: the snapshot has been handled
	}
	if out := r.records(recall.KindDealerCashOut); len(out) != 2 || sum(out) != 7000 {
		t.Fatalf("dealer cash-outs journalled: %+v, want 5000 and 2000 once each", out)
	}
	if b := r.conserved(); b != 200 {
		t.Fatalf("ledger balance %d, want 200", b)
	}

	// Both recorded, both acknowledged: the table tells them no more. A terminal starting on a
	// new journal (a replaced disk, a RAM clear) does not book closes an old journal holds.
	r.eventually("the table told of both acknowledgements", func() bool {
		sub, snap := r.demo.Table.Subscribe("T01")
		r.demo.Table.Unsubscribe(sub)
		return len(snap.DealerCloses) == 0
	})
	r.stop()
	old, err := filepath.Glob(filepath.Join(r.dir, "terminal.db*"))
	if err != nil || len(old) == 0 {
		t.Fatalf("the journal's files: %v %v", old, err)
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	// The table has an anchor for this terminal's journal: the new one is refused until a
	// supervisor says the old one is gone for good.
	r.start()
	r.eventually("the new journal refused", func() bool { return errors.Is(r.st.Refused(), journal.ErrAnchor) })
	r.stop()
	if err := r.demo.Table.ClearJournalAnchor("T01", "supervisor S1"); err != nil {
		t.Fatal(err)
	}
	r.start()
	r.ready()
	r.buyIn(100)
	if out := r.records(recall.KindDealerCashOut); len(out) != 0 {
		t.Fatalf("a new journal booked old dealer closes: %+v", out)
	}
}
