package station_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
)

// Issue 17, items 9, 10 and 13, each through the real table server and the real terminal: the
// station's client over mutual TLS, its terminal, the emulated devices behind the real drivers.

// serverSlip is the slip the table server holds for T01 in the current round, as it would tell a
// terminal that joined now.
func (r *rig) serverSlip() *table.SlipAck {
	r.t.Helper()
	sub, snap := r.demo.Table.Subscribe("T01")
	r.demo.Table.Unsubscribe(sub) // the station's own stream stays: nothing is voided
	return snap.Slip
}

// settle closes the period and enters the outcome, and waits for the screen's settlement.
func (r *rig) settle(round, outcome string) table.Settled {
	r.t.Helper()
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, outcome); err != nil {
		r.t.Fatal(err)
	}
	v := r.waitView("round "+round+" settled", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == round })
	return *v.LastWin
}

func code(err error) codes.Code { return status.Code(err) }

// 002 §3.2: an Asian Neighbour — three numbers of a group of the table's Asian racetrack — is
// placed on the terminal, accepted by the table, and settled at 11 to 1 when one of its numbers
// is spun. The groups travel from the table's configuration to the terminal; a wager on three
// numbers that are no group is refused by the table, not only by the screen.
func TestRule002_3_2_AsianNeighbourThroughTheTable(t *testing.T) {
	groups := roulette.DefaultAsianGroups(roulette.SingleZero)
	r := newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) { c.AsianGroups = groups }})
	v := r.ready()
	if v.Config.Layout.Asian != groups {
		t.Fatalf("the terminal has the Asian groups %v, the table %v", v.Config.Layout.Asian, groups)
	}
	r.buyIn(10000)
	round := r.round()
	term := r.st.Terminal
	term.SelectChip(500)
	group := roulette.Bet{Spot: roulette.Spot{Kind: roulette.AsianNeighbour, Mask: roulette.MaskOf(32, 15, 19)}}
	if fb, err := term.Place(group); err != nil || fb.Accepted != 500 {
		t.Fatalf("Place %v: %+v, %v", group, fb, err)
	}
	r.waitView("the Asian Neighbour acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == 500 })
	if sl := r.serverSlip(); sl == nil || len(sl.Bets) != 1 || sl.Bets[0].Bet != group || sl.Total != 500 {
		t.Fatalf("the table holds %+v", sl)
	}
	// Three numbers that are no group of the table's racetrack: the table refuses the slip.
	notGroup := roulette.Bet{Spot: roulette.Spot{Kind: roulette.AsianNeighbour, Mask: roulette.MaskOf(1, 2, 3)}}
	_, err := r.st.Client.UpdateSlip(context.Background(), round, 1000, []table.SlipBet{{Bet: notGroup, Amount: 500}})
	if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "not a group") {
		t.Fatalf("a slip on 1-2-3 as an Asian Neighbour: %v", err)
	}
	// 15 is in the group: 500 back with 11 × 500.
	s := r.settle(round, "15")
	if s.Staked != 500 || s.Returned != 500*12 || s.Balance != 10000-500+6000 {
		t.Fatalf("settled %+v, want 500 staked, 6000 returned", s)
	}
	if r.conserved() != s.Balance {
		t.Fatalf("the ledger holds %d, the screen %d", r.conserved(), s.Balance)
	}
	// Next round, 4 (not in the group) is spun: the wager loses.
	round = r.round()
	if _, err := term.Place(group); err != nil {
		t.Fatal(err)
	}
	r.waitView("acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == 500 })
	if s := r.settle(round, "4"); s.Staked != 500 || s.Returned != 0 {
		t.Fatalf("settled %+v, want the 500 lost", s)
	}
}

// 002 §3.2: a table without an Asian racetrack takes no Asian Neighbour, whatever a terminal
// sends.
func TestRule002_3_2_AsianNeighbourRefusedWithoutTheRacetrack(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	if v := r.ready(); v.Config.Layout.Asian.Offered() {
		t.Fatal("the default table offers an Asian racetrack")
	}
	r.buyIn(10000)
	round := r.round()
	group := roulette.Bet{Spot: roulette.Spot{Kind: roulette.AsianNeighbour, Mask: roulette.MaskOf(32, 15, 19)}}
	if _, err := r.st.Terminal.Place(group); err == nil {
		t.Error("the terminal placed an Asian Neighbour on a table without the racetrack")
	}
	_, err := r.st.Client.UpdateSlip(context.Background(), round, 1000, []table.SlipBet{{Bet: group, Amount: 500}})
	if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "no Asian racetrack") {
		t.Fatalf("the table: %v", err)
	}
}

// 003 §3.4, §9.1: where the profile requires a player card, the terminal sends the card in the
// seat's reader with every wager, the table records it on every wager, and a slip without it —
// or with two players' cards — is refused by the table itself, not only on the screen.
func TestRule003_3_4_PlayerCardSentRecordedAndChecked(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, idpad: true, cfg: func(c *server.Config) { c.PlayerCardRequired = true }})
	r.ready()
	r.buyIn(10000)
	round := r.round()
	term := r.st.Terminal
	term.SelectChip(500)
	red := roulette.Bet{Spot: spotOf(t, r, roulette.Red)}
	black := roulette.Bet{Spot: spotOf(t, r, roulette.Black)}

	// No card: the screen refuses the touch...
	if _, err := term.Place(red); err != app.ErrNoPlayerCard {
		t.Fatalf("Place with no card: %v", err)
	}
	// ...and the table refuses a slip sent without one, whatever sent it.
	_, err := r.st.Client.UpdateSlip(context.Background(), round, 1000, []table.SlipBet{{Bet: red, Amount: 500}})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "player card") {
		t.Fatalf("a slip without a card: %v", err)
	}

	if err := r.idPad.InsertCard(1, "60420042"); err != nil {
		t.Fatal(err)
	}
	r.eventually("the card read at the seat", func() bool { c, ok := r.st.Pad.Seat(1).Card(); return ok && c == "60420042" })
	if _, err := term.Place(red); err != nil {
		t.Fatal(err)
	}
	if _, err := term.Place(black); err != nil {
		t.Fatal(err)
	}
	r.waitView("both wagers acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == 1000 })
	sl := r.serverSlip()
	if sl == nil || len(sl.Bets) != 2 {
		t.Fatalf("the table holds %+v", sl)
	}
	for i, b := range sl.Bets {
		if b.Card != "60420042" {
			t.Errorf("wager %d (%v) recorded with card %q, want 60420042", i, b.Bet, b.Card)
		}
	}
	// One slip is one player's: two cards in it are refused.
	_, err = r.st.Client.UpdateSlip(context.Background(), round, 1000,
		[]table.SlipBet{{Bet: red, Amount: 500, Card: "60420042"}, {Bet: black, Amount: 500, Card: "60420099"}})
	if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "own card") {
		t.Fatalf("a slip of two cards: %v", err)
	}
	// The card went out: the screen refuses, and what the table holds stands as placed.
	if err := r.idPad.RemoveCard(1); err != nil {
		t.Fatal(err)
	}
	r.eventually("the card taken out", func() bool { _, ok := r.st.Pad.Seat(1).Card(); return !ok })
	if _, err := term.Place(red); err != app.ErrNoPlayerCard {
		t.Fatalf("Place after the card went out: %v", err)
	}
	if s := r.settle(round, "3"); s.Staked != 1000 || s.Returned != 1000 { // 3 is red
		t.Fatalf("settled %+v", s)
	}
}

// 000 §4.3, 003 §4.6: limits agreed for one player — for the seat, or for their player card —
// replace the table's for that player: the seat shows the distinctive marker and its own limit
// sign, the touch is held to them at once, and the table holds the slip to them whatever the
// terminal sends. Cleared, the player is back on the table's sign.
func TestRule000_4_3_PlayerLimitsThroughTheTable(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, idpad: true})
	v := r.ready()
	if v.PersonalLimits {
		t.Fatal("personal limits before any were set")
	}
	sign := v.Limits
	r.buyIn(10000)
	r.buyIn(10000)
	own := roulette.Limits{Default: roulette.Limit{Min: 500, Max: 1000, Unit: 500}, AggregateMin: 500}
	if _, err := r.demo.Table.SetPlayerLimits("supervisor:test", "T01", "", &own); err != nil {
		t.Fatal(err)
	}
	r.waitView("the personal limit sign", func(v app.View) bool {
		return v.PersonalLimits && v.Limits.Default == own.Default && len(v.Limits.PerKind) == 0
	})
	round := r.round()
	term := r.st.Terminal
	red := roulette.Bet{Spot: spotOf(t, r, roulette.Red)}
	// 25.00 on red is within the table's sign, over this player's maximum: the next lowest
	// permitted wager, 10.00, is what the screen shows (001 §4.3.2 under the player's own limits).
	term.SelectChip(2500)
	if fb, err := term.Place(red); err != nil || fb.Accepted != 1000 || fb.Reason == roulette.ReasonNone {
		t.Fatalf("25.00 on red under a 10.00 maximum: %+v, %v", fb, err)
	}
	r.waitView("10.00 acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == 1000 })
	// The table holds the slip to the player's limits whatever is sent: 25.00 is cut to 10.00,
	// 1.00 (the table's minimum, under this player's 5.00) is refused.
	ack, err := r.st.Client.UpdateSlip(context.Background(), round, 1000, []table.SlipBet{
		{Bet: red, Amount: 2500}, {Bet: roulette.Bet{Spot: spotOf(t, r, roulette.Odd)}, Amount: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if ack.Results[0].Accepted != 1000 || ack.Results[1].Accepted != 0 || ack.Total != 1000 {
		t.Fatalf("the table accepted %+v", ack.Results)
	}
	if s := r.settle(round, "1"); s.Staked != 1000 || s.Returned != 2000 {
		t.Fatalf("settled %+v", s)
	}

	// Cleared: back on the table's sign, no marker.
	if _, err := r.demo.Table.SetPlayerLimits("supervisor:test", "T01", "", nil); err != nil {
		t.Fatal(err)
	}
	r.waitView("the table's sign again", func(v app.View) bool { return !v.PersonalLimits && v.Limits.Default == sign.Default })

	// A player card's own limits follow the card: the seat shows them once the card plays there.
	cardLim := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 20000, Unit: 100}}
	if _, err := r.demo.Table.SetPlayerLimits("dealer:test", "", "60420042", &cardLim); err != nil {
		t.Fatal(err)
	}
	if err := r.idPad.InsertCard(1, "60420042"); err != nil {
		t.Fatal(err)
	}
	r.eventually("the card read at the seat", func() bool { _, ok := r.st.Pad.Seat(1).Card(); return ok })
	r.round()
	term.SelectChip(10000)
	if _, err := term.Place(red); err != nil {
		t.Fatal(err)
	}
	// The first slip with the card tells the seat its player's own limits (the card's red
	// maximum is 200.00; the table's is 500.00).
	r.waitView("the card's limits at the seat", func(v app.View) bool {
		return v.Acked && v.PersonalLimits && v.Limits.Default == cardLim.Default
	})
	term.SelectChip(10000)
	if _, err := term.Place(red); err != nil {
		t.Fatal(err)
	}
	term.SelectChip(10000)
	if fb, err := term.Place(red); err != nil || fb.Accepted != 20000 {
		t.Fatalf("300.00 on red under the card's 200.00 maximum: %+v, %v", fb, err)
	}
	r.waitView("200.00 acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == 20000 })
}

// spotOf is the table's outside spot of kind k (red, black, odd …).
func spotOf(t *testing.T, r *rig, k roulette.Kind) roulette.Spot {
	t.Helper()
	s, err := r.view().Config.Layout.Outside(k, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
