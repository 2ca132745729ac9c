package station_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
)

// TestDealerPlacedWagers_002_3_2B: a racetrack call bet the player declares orally is placed by
// the dealer for the seat (002 §3.2B), through the real table server and a real station. Before:
// the console had no way to place a wager for a seat. Now:
//   - the table takes it only in the wagering period, against the seat's balance less its slip,
//     under the limits: below the minimum it is void (refused, nothing placed), off the unit it
//     is void beyond the next lowest permitted amount (002 irregularities);
//   - the terminal shows it apart from the player's own wagers, marked with the dealer, counts
//     it in the amount bet and the balance available, and says so;
//   - the player's own slip updates keep it (the player cannot withdraw it from the screen);
//   - it settles with the slip, exactly once, and is in the audit log with the dealer's identity.
func TestDealerPlacedWagers_002_3_2B(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(5000)
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	round := st.RoundId
	r.waitView("the round open", func(v app.View) bool { return v.RoundID == round && v.Phase == table.PhaseWagering })
	r.place(500)

	voisins := func(cents int64) server.SlipWager {
		return server.SlipWager{Spec: roulette.BetSpec{Name: "voisins"}, Amount: cents}
	}
	// Below the minimum (1.00 a piece): void, refused, nothing on the slip.
	if _, err := r.demo.Table.PlaceWager("dealer:D1", "T01", round, voisins(50)); code(err) != codes.FailedPrecondition {
		t.Fatalf("an oral wager below the minimum: %v, want FailedPrecondition", err)
	}
	// An ordinary bet is the player's to place on the screen.
	if _, err := r.demo.Table.PlaceWager("dealer:D1", "T01", round, server.SlipWager{Spec: roulette.BetSpec{Name: "red"}, Amount: 100}); code(err) != codes.InvalidArgument {
		t.Fatalf("the dealer placing red: %v, want InvalidArgument", err)
	}
	// 1.50 a piece is off the unit of 1.00: void beyond 1.00 a piece.
	res, err := r.demo.Table.PlaceWager("dealer:D1", "T01", round, voisins(150))
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != 900 || res.Reason == "" {
		t.Fatalf("voisins at 1.50 a piece: accepted %d (%q), want 9.00 and a reason", res.Accepted, res.Reason)
	}
	v := r.waitView("the dealer's wager on the terminal", func(v app.View) bool { return len(v.DealerStakes) == 1 })
	d := v.DealerStakes[0]
	if d.Bet.Call != roulette.Voisins || d.Amount != 100 || d.PlacedBy != "dealer:D1" {
		t.Fatalf("the dealer's stake on the terminal: %+v", d)
	}
	if v.SlipTotal != 1400 || v.Available != 3600 || len(v.Stakes) != 1 {
		t.Fatalf("amount bet %d available %d own stakes %v", v.SlipTotal, v.Available, v.Stakes)
	}
	r.waitView("the player told", func(v app.View) bool {
		return strings.HasPrefix(v.Message.Msg.Key, "The dealer placed") && strings.Contains(v.Message.Msg.String(), "9.00")
	})

	// The player adds a chip: the table keeps the dealer's wager on the slip.
	r.place(500)
	v = r.waitView("the slip with both", func(v app.View) bool { return v.SlipTotal == 1900 && len(v.DealerStakes) == 1 && len(v.Stakes) == 1 })
	if s := r.server(); s.SlipTotal != 1900 {
		t.Fatalf("the table holds %d on the slip, want 19.00", s.SlipTotal)
	}

	// After no more bets nothing more is placed.
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.PlaceWager("dealer:D1", "T01", round, voisins(100)); code(err) != codes.FailedPrecondition {
		t.Fatalf("an oral wager after no more bets: %v", err)
	}
	// 0: red loses 10.00; voisins wins on its 0/2/3 street, two units of 1.00 at 11 to 1: 24.00 back.
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, "0"); err != nil {
		t.Fatal(err)
	}
	v = r.waitView("settled", func(v app.View) bool {
		return v.Phase == table.PhaseResult && v.LastWin != nil && v.LastWin.RoundID == round
	})
	if v.Balance != 5000-1000-900+2400 || v.LastWin.Staked != 1900 || v.LastWin.Returned != 2400 {
		t.Fatalf("balance %d staked %d returned %d, want 55.00, 19.00, 24.00", v.Balance, v.LastWin.Staked, v.LastWin.Returned)
	}
	if len(v.DealerStakes) != 0 {
		t.Fatalf("the dealer's stakes still shown after the settlement: %v", v.DealerStakes)
	}
	if !r.auditLogHas("dealer-wager", "dealer:D1") {
		t.Fatal("the dealer's wager is not in the audit log with the dealer's identity")
	}
	r.conserved()
}

// TestPlayersOwnRacetrackWagerVoid_002_3_2B: at a table whose racetrack wagers are declared to
// the dealer, a call bet the player places on the screen is void: the table accepts nothing of
// it, the chips go from the screen, and the player is told the dealer places it.
func TestPlayersOwnRacetrackWagerVoid_002_3_2B(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) { c.OralRacetrack = true }})
	r.ready()
	r.buyIn(5000)
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	r.waitView("the round open", func(v app.View) bool { return v.RoundID == st.RoundId && v.Phase == table.PhaseWagering })
	r.st.Terminal.SelectChip(100)
	if _, err := r.st.Terminal.Place(roulette.Bet{Call: roulette.Voisins}); err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the void call bet off the screen", func(v app.View) bool {
		return v.Acked && len(v.Stakes) == 0 && v.Message.Msg.Key == "Racetrack bets are declared to the dealer, who places them"
	})
	if v.SlipTotal != 0 || r.server().SlipTotal != 0 {
		t.Fatalf("the void wager counted: screen %d, table %d", v.SlipTotal, r.server().SlipTotal)
	}
}
