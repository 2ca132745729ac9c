package station_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/technician"
)

// A technician takes the terminal out of play: the note acceptor is inhibited (a note is handed
// back), the player's wagers on the open spin are withdrawn at the table, and no wager is taken;
// leaving restores both, and the session is in the journal with the technician's id.
func TestTechnicianModeStopsMoneyAndBetting(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, state: true})
	if err := technician.Open(r.dir, nil).Add("tech-1", "Tess", "900001", "246810"); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.buyIn(2000)
	r.round()
	red, _ := roulette.Layout{Wheel: roulette.SingleZero}.Outside(roulette.Red, 0)
	r.st.Terminal.SelectChip(500)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatal(err)
	}
	r.eventually("the slip at the table", func() bool { return r.server().SlipTotal == 500 })

	ctx := context.Background()
	r.st.Terminal.TechnicianCard("900001")
	if err := r.st.Desk.EnterService(ctx, "246810"); err != nil {
		t.Fatal(err)
	}
	r.eventually("the acceptor inhibited in service", func() bool { return !r.st.MayTakeMoney() && r.acceptorInhibited() })
	back := len(r.acc.Returned())
	if err := r.acc.InsertNote(2000); err == nil || len(r.acc.Returned()) != back+1 {
		t.Fatalf("a note in service: err %v, returned %d (was %d)", err, len(r.acc.Returned()), back)
	}
	r.eventually("the wagers withdrawn at the table", func() bool { return r.server().SlipTotal == 0 })
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); !errors.Is(err, app.ErrInService) {
		t.Fatalf("a wager in service: %v", err)
	}
	if v := r.view(); v.Period != app.PeriodInService || v.Balance != 2000 {
		t.Fatalf("in service: period %v balance %d", v.Period, v.Balance)
	}
	if _, err := r.st.Desk.Meters(ctx); err != nil {
		t.Fatal(err)
	}

	if err := r.st.Desk.LeaveService(ctx); err != nil {
		t.Fatal(err)
	}
	r.buyIn(1000)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatalf("a wager after leaving: %v", err)
	}
	r.eventually("the slip at the table again", func() bool { return r.server().SlipTotal == 500 })
	in, out := r.records(app.ServiceEntered), r.records(app.ServiceLeft)
	if len(in) != 1 || len(out) != 1 || !contains(string(in[0].Body), "tech-1") {
		t.Fatalf("journalled sessions: in %v out %v", in, out)
	}
}
