package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// 004 §6.2, §6.6 and 000 §11.7.2, §11.7.6 on the screen: at a table that takes money only
// through the dealer the TouchBet station's note prompt is gone, and Cash out stays for the
// player to select — the answer sends them to the dealer, who pays in chips; nothing prints.
// The Crown table keeps its prompt.
func TestRule004_6_6_ScreenSendsCashOutToTheDealer(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, dealerOnly := range []bool{true, false} {
		clk := clocktest.New(t0)
		link := apptest.NewLink(clk.Now, 0, time.Millisecond, l, testLimits)
		term := app.New(app.Config{Link: link, Clock: clk, Cashier: printerReady{}})
		ctx, cancel := context.WithCancel(context.Background())
		go term.Run(ctx)
		link.Push(table.Connection{Up: true})
		link.Push(table.Snapshot{
			Config: table.TableConfig{Layout: l, Chips: []int64{100, 500}, DealerCashOnly: dealerOnly},
			Phase:  table.PhaseIdle, Limits: testLimits, Balance: 5000, AccountOpen: true,
		})
		waitView(t, term, "the snapshot taken", func(v app.View) bool { return v.Connected && v.Balance == 5000 })
		s, err := NewScreen(term, diagrams.DiagramL, l)
		if err != nil {
			t.Fatal(err)
		}
		w := test.NewTempWindow(t, s.Content())
		w.Resize(fyne.NewSize(1920, 1080))
		s.update(term.View())
		if s.noteBuyIn.Visible() == dealerOnly {
			t.Errorf("dealer cash only %v: note prompt shown %v", dealerOnly, s.noteBuyIn.Visible())
		}
		if s.cashOut.Disabled() {
			t.Errorf("dealer cash only %v: Cash out disabled with 50.00 on the account", dealerOnly)
		}
		if dealerOnly {
			test.Tap(s.cashOut)
			if got := shown(s); !strings.Contains(got, "Cash out at the dealer") {
				t.Errorf("Cash out at a dealer-only table says %q", got)
			}
		}
		cancel()
	}
}
