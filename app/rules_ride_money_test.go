package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// The terminal's side of issue 17 items 1–4, on a fake table. Through the real server:
// app/station/rules_ride_money_test.go.

// 004 §3.6(b), §3.7: the slip the table carried to the new round is shown as it is, and the next
// touch is a newer version than the table's, so it withdraws a winner instead of being refused.
func TestRule004_3_6_CarriedSlipShownAndWithdrawable(t *testing.T) {
	h := newHarness(t)
	s17, red := spot(t, roulette.Straight, 17), outside(t, roulette.Red, 0)
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	carried := table.SlipAck{RoundID: "R2", Version: 1, Total: 1000,
		Bets:    []table.SlipBet{{Bet: s17, Amount: 500}, {Bet: red, Amount: 500}},
		Results: []table.BetResult{{Accepted: 500}, {Accepted: 500}}}
	h.link.Push(table.SlipCarried{Slip: carried})
	v := h.waitFor(func(v View) bool { return len(v.Stakes) == 2 })
	if !slices.Equal(v.Stakes, []Stake{{s17, 500}, {red, 500}}) || v.SlipTotal != 1000 || !v.Acked {
		t.Fatalf("carried shown as %v (total %d, acked %v)", v.Stakes, v.SlipTotal, v.Acked)
	}
	if !strings.Contains(v.Message.Msg.Key, "winning wagers stay") {
		t.Errorf("told %q", v.Message.Msg.Key)
	}
	if err := h.term.Remove(red); err != nil {
		t.Fatal(err)
	}
	if err := h.link.WaitSlip(time.Second); err != nil {
		t.Fatal(err)
	}
	s, _ := h.link.LastSlip()
	if s.Round != "R2" || s.Version <= carried.Version || len(s.Bets) != 1 || s.Bets[0].Bet != s17 {
		t.Fatalf("the withdrawal sent as %+v: want a version above %d with the straight alone", s, carried.Version)
	}

	// A carried slip of a round already gone changes nothing.
	h.link.Push(table.SlipCarried{Slip: table.SlipAck{RoundID: "R1", Version: 1, Bets: carried.Bets, Results: carried.Results}})
	h.link.Push(table.JackpotMeter{Amount: 1}) // a barrier: applied after it
	v = h.waitFor(func(v View) bool { return v.Jackpot == 1 })
	if len(v.Stakes) != 1 {
		t.Fatalf("a stale carried slip replaced the layout: %v", v.Stakes)
	}
}

// 004 §3.6(b): a touch made before the table's word of the carried slip went out as a version
// the table refuses; the carried slip then stands on the screen, and the next touch is newer
// than both.
func TestRule004_3_6_TouchBeforeTheCarriedSlipArrives(t *testing.T) {
	h := newHarness(t)
	s17, red := spot(t, roulette.Straight, 17), outside(t, roulette.Red, 0)
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	if _, err := h.term.Place(s17); err != nil {
		t.Fatal(err)
	}
	h.link.Push(table.SlipCarried{Slip: table.SlipAck{RoundID: "R2", Version: 1, Total: 500,
		Bets: []table.SlipBet{{Bet: red, Amount: 500}}, Results: []table.BetResult{{Accepted: 500}}}})
	h.waitFor(func(v View) bool { return slices.Equal(v.Stakes, []Stake{{red, 500}}) })
	if _, err := h.term.Place(s17); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the touch sent as version 3", func() bool { s, ok := h.link.LastSlip(); return ok && s.Version == 3 })
}

// 004 §6.4(b): while the dealer's buy-in waits, a touch that places is refused and says why;
// withdrawing is not placing.
func TestRule004_6_4b_PendingBuyInRefusesPlacing(t *testing.T) {
	h := newHarness(t)
	s17, red := spot(t, roulette.Straight, 17), outside(t, roulette.Red, 0)
	if _, err := h.term.Place(red); err != nil {
		t.Fatal(err)
	}
	h.link.Push(table.BuyInOffered{ID: "B1", Amount: 5000})
	h.waitFor(func(v View) bool { return v.BuyIn != nil })
	fb, err := h.term.Place(s17)
	if !errors.Is(err, ErrBuyInPending) || !fb.Message.Equal(msg.Of(errBuyInPending(5000))) {
		t.Fatalf("placing with a buy-in waiting: %+v %v", fb, err)
	}
	for name, f := range map[string]func() error{
		"double": h.term.Double, "repeat": h.term.Repeat, "undo": h.term.Undo,
		"move": func() error { _, err := h.term.Move(red, s17); return err },
	} {
		if err := f(); !errors.Is(err, ErrBuyInPending) {
			t.Errorf("%s with a buy-in waiting: %v", name, err)
		}
	}
	if err := h.term.Remove(red); err != nil {
		t.Fatalf("withdrawing with a buy-in waiting: %v", err)
	}
	if v := h.term.View(); len(v.Stakes) != 0 {
		t.Fatalf("after withdrawing: %v", v.Stakes)
	}
	if err := h.term.ConfirmBuyIn(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	if _, err := h.term.Place(s17); err != nil {
		t.Fatalf("after confirming: %v", err)
	}
}

// 004 §6.2, §6.6; 000 §11.7.2, §11.7.6: at a table that takes money only through the dealer the
// screen offers no ticket, Cash out says to ask the dealer and calls no cashier, and the
// greeting says to buy in at the dealer.
func TestRule004_6_6_CashOutAtTheDealer(t *testing.T) {
	cash := &countingCashier{}
	h := startHarness(t, nil, func(c *Config) { c.Cashier = cash })
	h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}, DealerCashOnly: true,
		RulesProfile: table.ProfileVic1999}, Phase: table.PhaseIdle, Limits: limits})
	v := h.waitFor(func(v View) bool { return v.Connected && v.Config.DealerCashOnly })
	if !strings.Contains(v.Message.Msg.Key, "Buy in at the dealer") {
		t.Fatalf("greeting %q", v.Message.Msg.Key)
	}
	h.link.Push(table.BalanceChanged{Balance: 5000, Delta: 5000})
	h.term.MoneyChanged(MoneyStatus{Cashier: true})
	v = h.waitFor(func(v View) bool { return v.Balance == 5000 })
	if v.CanCashOut || !v.CashOutAtDealer {
		t.Fatalf("a ticket cash-out offered (%v), or Cash out not sending to the dealer (%v)", v.CanCashOut, v.CashOutAtDealer)
	}
	h.term.CashOut()
	v = h.term.View()
	if !strings.Contains(v.Message.Msg.Key, "Cash out at the dealer") {
		t.Fatalf("Cash out said %q", v.Message.Msg.Key)
	}
	time.Sleep(20 * time.Millisecond) // a cashier call would be on its way by now
	if n := cash.calls(); n != 0 {
		t.Fatalf("the cashier was asked %d times to print", n)
	}
}

// 001 §8.8: the void of a hit takes it off the screen and says so; §9.10 a confirmed hit is
// shown as before.
func TestRule001_8_8_JackpotVoidTakenOffTheScreen(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.JackpotWon{RoundID: "R1", TerminalID: "", Amount: 100001})
	h.waitFor(func(v View) bool { return v.JackpotWon != nil })
	h.link.Push(table.JackpotWon{RoundID: "R1", TerminalID: "", Amount: 100001, Void: true})
	v := h.waitFor(func(v View) bool { return v.JackpotWon == nil })
	if !strings.Contains(v.Message.Msg.Key, "jackpot") || !strings.Contains(v.Message.Msg.Key, "void") {
		t.Fatalf("told %q", v.Message.Msg.Key)
	}
	h.link.Push(table.JackpotWon{RoundID: "R3", TerminalID: "T9", Amount: 100002, Confirmed: true})
	if v := h.waitFor(func(v View) bool { return v.JackpotWon != nil }); !v.JackpotWon.Confirmed {
		t.Fatalf("confirmed hit shown as %+v", v.JackpotWon)
	}
}

// countingCashier counts the cash-outs asked of it.
type countingCashier struct{ n atomic.Int32 }

func (c *countingCashier) CashOut(context.Context) error { c.n.Add(1); return nil }
func (c *countingCashier) calls() int                    { return int(c.n.Load()) }
