package station_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
)

// Issue 17 items 1–4, through the real table server (gRPC, mutual TLS, SQLite) and the real
// station (client, terminal, journal, drivers, emulated devices): each rule as the player meets
// it on the screen. The engine's side is in server/rules_money_test.go.

func straightBet(n roulette.Number) roulette.Bet {
	s, err := roulette.Layout{Wheel: roulette.SingleZero}.Inside(roulette.Straight, []roulette.Number{n})
	if err != nil {
		panic(err)
	}
	return roulette.Bet{Spot: s}
}

func outsideBet(k roulette.Kind) roulette.Bet {
	s, err := roulette.Layout{Wheel: roulette.SingleZero}.Outside(k, 0)
	if err != nil {
		panic(err)
	}
	return roulette.Bet{Spot: s}
}

// connected waits for the table's snapshot (without asking for the acceptor: under a profile
// that takes money only at the dealer it stays inhibited).
func (r *rig) connected() app.View {
	r.t.Helper()
	return r.waitView("connected to the table", func(v app.View) bool { return v.Connected && v.Config.Layout.Wheel != 0 })
}

// dealerBuyIn has the dealer credit the terminal and the player accept it on the screen.
func (r *rig) dealerBuyIn(cents int64) {
	r.t.Helper()
	before := r.view().Balance
	r.offerBuyIn(cents)
	if err := r.st.Terminal.ConfirmBuyIn(context.Background(), true); err != nil {
		r.t.Fatal(err)
	}
	r.waitView("the dealer's buy-in credited", func(v app.View) bool { return v.Balance == before+cents && v.BuyIn == nil })
}

// spin ends the wagering period and enters the outcome; it waits for the screen's settlement.
func (r *rig) spin(round, outcome string) table.Settled {
	r.t.Helper()
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, outcome); err != nil {
		r.t.Fatal(err)
	}
	v := r.waitView("round "+round+" settled on the screen", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == round })
	return *v.LastWin
}

func (r *rig) touch(b roulette.Bet) {
	r.t.Helper()
	if _, err := r.st.Terminal.Place(b); err != nil {
		r.t.Fatalf("placing %v: %v", b, err)
	}
}

// acked waits for the screen's slip to be the table's, at the total the table holds.
func (r *rig) acked(total int64) app.View {
	r.t.Helper()
	v := r.waitView("the slip acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == total })
	if got := r.server().SlipTotal; got != total {
		r.t.Fatalf("the screen shows %d on the layout, the table holds %d", total, got)
	}
	return v
}

// 004 §3.6(b), §3.7, §3.4: under vic-1999 a winning wager stays on the layout for the next spin.
// The screen shows the carried chips as soon as the next round opens (the table tells it the
// slip it carried and its version); the player's first touch withdraws one of them and is
// taken — not refused as "not newer" — and the round settles exactly what the screen showed.
// Before, the screen showed an empty layout, its first touch was refused and its second
// replaced the carried slip, so the winners vanished unwithdrawn.
func TestRule004_3_6_WinnersRideShownOnTerminal(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) { c.RulesProfile = table.ProfileVic1999 }})
	r.connected()
	r.dealerBuyIn(10000)

	round1 := r.round()
	r.st.Terminal.SelectChip(500)
	seventeen, black := straightBet(17), outsideBet(roulette.Black)
	r.touch(seventeen)
	r.touch(black)
	r.touch(straightBet(2))
	r.acked(1500)
	set := r.spin(round1, "17") // 17 is black: the straight and the black win, the 2 loses
	if set.Staked != 1500 || set.Returned != 18000+1000 || set.Balance != 10000-1500+19000 {
		t.Fatalf("round 1 settled %+v", set)
	}

	round2 := r.round()
	want := []app.Stake{{Bet: seventeen, Amount: 500}, {Bet: black, Amount: 500}}
	v := r.waitView("the winners carried shown on the layout", func(v app.View) bool { return v.Acked && slices.Equal(v.Stakes, want) })
	if v.SlipTotal != 1000 || v.Available != v.Balance-1000 {
		t.Fatalf("carried: slip total %d, available %d of %d", v.SlipTotal, v.Available, v.Balance)
	}
	if got := r.server().SlipTotal; got != 1000 {
		t.Fatalf("the table carried %d, the screen shows 1000", got)
	}
	// Told once the buy-in's "Credited" (money news, 5 s on the line at the least) has had its time.
	r.waitView("the player told the winners ride", func(v app.View) bool {
		return strings.Contains(v.Message.Msg.Key, "winning wagers stay on the layout")
	})
	// The carried slip is a slip the table acknowledged: in the game records (rules 9.7–9.9).
	carriedRecorded := false
	for _, rec := range r.records(recall.KindSlip) {
		if rec.Round == round2 && rec.Amount == 1000 {
			carriedRecorded = true
		}
	}
	if !carriedRecorded {
		t.Error("the carried slip is not in the terminal's game records")
	}

	// §3.7: withdrawn by a touch on the screen, taken by the table at once.
	if err := r.st.Terminal.Remove(black); err != nil {
		t.Fatalf("withdrawing a carried winner: %v", err)
	}
	v = r.acked(500)
	if !slices.Equal(v.Stakes, []app.Stake{{Bet: seventeen, Amount: 500}}) {
		t.Fatalf("after withdrawing the black the layout shows %v", v.Stakes)
	}
	if strings.Contains(v.Message.Msg.Key, "did not accept") {
		t.Fatalf("the withdrawal was refused: %v", v.Message.Msg)
	}
	shown := v.SlipTotal
	balance := v.Balance

	// §3.4: settled exactly as the screen showed it when the period expired.
	set = r.spin(round2, "17")
	if set.Staked != shown || set.Returned != 18000 || set.Balance != balance-shown+18000 {
		t.Fatalf("round 2 settled %+v, the screen showed %d on the layout", set, shown)
	}
	if c := r.conserved(); c != set.Balance {
		t.Fatalf("ledger balance %d, screen %d", c, set.Balance)
	}
}

// 004 §6.4(b) (§6.3(c)): while a further dealer buy-in waits for the player's confirmation, no
// further wager is placed. The screen refuses the touch and says why; the table refuses such a
// slip too, with its reason, if one reaches it. Withdrawing stays possible; after the player
// confirms, betting goes on. Before, a bet was accepted with the buy-in unconfirmed.
func TestRule004_6_4b_PendingBuyInBlocksBetting(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(5000)
	round := r.round()
	r.st.Terminal.SelectChip(500)
	red, black := outsideBet(roulette.Red), outsideBet(roulette.Black)
	r.touch(red)
	r.acked(500)

	r.offerBuyIn(2000)
	fb, err := r.st.Terminal.Place(black)
	if !errors.Is(err, app.ErrBuyInPending) {
		t.Fatalf("a bet with the dealer's buy-in unconfirmed: %v, want %v", err, app.ErrBuyInPending)
	}
	// Told why, in the answer to the touch (the message line may be showing money news).
	if !strings.Contains(fb.Message.Key, "Confirm the dealer's buy-in") {
		t.Fatalf("the player was told %q", fb.Message.Key)
	}
	if err := r.st.Terminal.Double(); !errors.Is(err, app.ErrBuyInPending) {
		t.Fatalf("double with the dealer's buy-in unconfirmed: %v", err)
	}
	if got := r.server().SlipTotal; got != 500 {
		t.Fatalf("the table holds %d, want the 500 placed before the offer", got)
	}
	// The table's own check, for a slip that reaches it anyway.
	_, err = r.st.Client.UpdateSlip(context.Background(), round, 1000,
		[]table.SlipBet{{Bet: red, Amount: 500}, {Bet: black, Amount: 500}})
	if !table.Refused(err) || !strings.Contains(err.Error(), "6.4(b)") {
		t.Fatalf("the table took a further wager with the buy-in unconfirmed: %v", err)
	}
	// Withdrawing is not placing.
	if err := r.st.Terminal.Remove(red); err != nil {
		t.Fatalf("withdrawing with the buy-in unconfirmed: %v", err)
	}
	r.acked(0)

	if err := r.st.Terminal.ConfirmBuyIn(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	r.waitView("the buy-in credited", func(v app.View) bool { return v.Balance == 7000 && v.BuyIn == nil })
	r.touch(black)
	r.acked(500)
}

// 004 §6.2, §6.6 and 000 §11.7.2, §11.7.6: under vic-1999, and at a TouchTable, money comes in
// only through the dealer and goes out in chips through the dealer. The station keeps the note
// acceptor inhibited (a note is handed back), the screen tells the player to buy in at the
// dealer, offers no ticket cash-out (Cash out prints nothing, tells the player the dealer pays,
// and asks the dealer, whose status shows it), and the dealer's close pays the balance out. Before, notes, tickets and the ticket cash-out stood
// whatever the profile.
func TestRule004_6_2_CashAtTheDealerOnly(t *testing.T) {
	for _, profile := range []string{table.ProfileVic1999, table.ProfileTouchTable} {
		t.Run(profile, func(t *testing.T) {
			r := newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) { c.RulesProfile = profile }})
			v := r.connected()
			if !v.Config.DealerCashOnly || v.Config.RulesProfile != profile {
				t.Fatalf("the terminal was told %q, dealer cash only %v", v.Config.RulesProfile, v.Config.DealerCashOnly)
			}
			r.eventually("the acceptor inhibited", func() bool { return !r.st.MayTakeMoney() && r.acceptorInhibited() })
			back := len(r.acc.Returned())
			if err := r.acc.InsertNote(2000); err == nil {
				t.Fatal("the acceptor took a note at a table that buys in only at the dealer")
			}
			if len(r.acc.Returned()) != back+1 {
				t.Fatal("the note was not handed back")
			}
			r.waitView("told to buy in at the dealer", func(v app.View) bool {
				return strings.Contains(v.Message.Msg.Key, "Buy in at the dealer")
			})

			r.dealerBuyIn(5000)
			r.eventually("the printer ready", func() bool { return r.view().Money.Cashier && !r.view().Money.PrinterDown })
			if v := r.view(); v.CanCashOut {
				t.Fatal("a ticket cash-out offered where the balance is paid in chips at the dealer")
			}
			r.st.Terminal.CashOut()
			v = r.waitView("told to cash out at the dealer", func(v app.View) bool {
				return strings.Contains(v.Message.Msg.Key, "Cash out at the dealer")
			})
			if n := len(r.prn.Printed()); n != 0 {
				t.Fatalf("%d tickets printed", n)
			}
			r.eventually("the dealer asked to pay out (000 §11.7.6)", func() bool { return r.server().CashOutRequested })
			if s := r.server(); s.Balance != 5000 || !s.AccountOpen {
				t.Fatalf("the table after Cash out on the screen: %v", s)
			}
			// The payout in chips: the dealer closes the account at the console.
			if _, err := r.closeAccount("pay-in-chips"); err != nil {
				t.Fatal(err)
			}
			r.waitView("the dealer's payout on the screen", func(v app.View) bool { return !v.AccountOpen && v.Balance == 0 })
			if r.server().CashOutRequested {
				t.Error("the request still stands after the dealer paid")
			}
			r.eventually("the dealer's cash-out in the journal", func() bool {
				rs := r.records(recall.KindDealerCashOut)
				return len(rs) == 1 && rs[0].Amount == 5000
			})
			if c := r.conserved(); c != 0 {
				t.Fatalf("ledger balance %d after the payout", c)
			}
		})
	}
}

// 001 §8.8: a jackpot hit in a round later invalidated, before the pit boss confirmed it, is
// void: the screen takes the hit down and says why, the meter shows the amount back on it, and
// the pit boss can no longer confirm and pay it. Before, it could still be confirmed and paid.
func TestRule001_8_8_JackpotVoidWhenRoundInvalidated(t *testing.T) {
	const seed, ceiling = 100000, 100001
	r := newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) {
		c.Jackpot = &server.JackpotConfig{Seed: seed, Ceiling: ceiling, RateBP: 10}
	}})
	r.ready()
	r.buyIn(5000)
	red := outsideBet(roulette.Red)
	play := func() string {
		round := r.round()
		r.st.Terminal.SelectChip(500)
		r.touch(red)
		r.acked(500)
		r.spin(round, "2")
		return round
	}
	play()
	round := play() // the second 5.00 takes the meter to its trigger (0.1 %: a cent in two)
	v := r.waitView("the jackpot hit on the screen", func(v app.View) bool { return v.JackpotWon != nil && v.JackpotWon.RoundID == round })
	if !v.JackpotMine || v.JackpotWon.Amount != ceiling || v.Jackpot != seed {
		t.Fatalf("hit shown %+v mine %v, meter %d", v.JackpotWon, v.JackpotMine, v.Jackpot)
	}
	before := v.Balance

	if _, err := r.demo.Table.InvalidateRound("supervisor:S1", round, "wheel fault"); err != nil {
		t.Fatal(err)
	}
	r.waitView("the player told the jackpot is void", func(v app.View) bool {
		return strings.Contains(v.Message.Msg.Key, "jackpot") && strings.Contains(v.Message.Msg.Key, "void")
	})
	r.waitView("the hit taken down, its amount back on the meter, the stake refunded", func(v app.View) bool {
		return v.JackpotWon == nil && !v.JackpotMine && v.Jackpot == ceiling && v.Balance == before+500
	})
	if _, err := r.demo.Table.ConfirmJackpot("supervisor:S1", round); err == nil || !strings.Contains(err.Error(), "void") {
		t.Fatalf("the pit boss confirmed a void jackpot: %v", err)
	}
	if got := r.server().Balance; got != before+500 {
		t.Fatalf("the table paid a void jackpot: balance %d, want %d (the stake refunded)", got, before+500)
	}
	r.conserved()
}
