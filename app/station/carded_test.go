package station_test

import (
	"context"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/server"
)

// SPEC §10 (the card read at the seat), end to end: the emulated ID pad's reader, the station,
// the terminal, real gRPC and the table's SQLite ledger. A lost card and a card in use are
// refused at the pad with the player's words; a registered card without limits asks for them,
// and once they are set at the terminal the layout takes a wager under them and the strip
// shows what is left.
func TestSPEC10_CardReadAtThePadIsPresentedToTheTable(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, idpad: true, cfg: func(c *server.Config) { c.Carded = true }})
	r.ready()
	r.buyIn(10000)
	term := r.st.Terminal
	if err := r.idPad.InsertCard(1, demo.DemoCardLost); err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the lost card refused", func(v app.View) bool { return !v.Card.Refused.IsZero() })
	if v.Card.Refused.Key != "Player card %s has been reported lost: please see the cage" {
		t.Fatalf("a lost card: %+v", v.Card)
	}
	if err := r.idPad.InsertCard(1, demo.DemoCard); err != nil {
		t.Fatal(err)
	}
	v = r.waitView("the limits screen", func(v app.View) bool { return v.Card.SetLimits && v.Card.Refused.IsZero() })
	round := r.round()
	term.SelectChip(500)
	red := roulette.Bet{Spot: spotOf(t, r, roulette.Red)}
	if _, err := term.Place(red); err != app.ErrCardLimitsFirst {
		t.Fatalf("a wager before the limits: %v", err)
	}
	if err := term.SetCardLimits(context.Background(), table.CardLimits{Loss: 5000, Time: time.Hour, Bar: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := term.Place(red); err != nil {
		t.Fatal(err)
	}
	v = r.waitView("the wager acknowledged under the limits", func(v app.View) bool { return v.Acked && v.SlipTotal == 500 })
	if !v.Card.Strip || v.Card.LossLeft != 4500 || v.Card.State.Card != demo.DemoCard {
		t.Fatalf("the strip: %+v", v.Card)
	}
	if s := r.settle(round, "2"); s.Staked != 500 { // 2 is black: the red wager lost
		t.Fatalf("settled %+v", s)
	}
	v = r.waitView("the settlement on the card", func(v app.View) bool { return v.Card.State.SessionResult == -500 })
	if v.Card.LossLeft != 4500 || v.Card.State.NetLoss != 500 {
		t.Fatalf("after the settlement: %+v", v.Card)
	}
}
