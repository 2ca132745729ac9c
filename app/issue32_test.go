package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Issue 32: what the screen model tells the player, on a fake table.

// 001 §3.2.2, 000 §10.4.2, §11.4.2: chips placed on the layout make "a corresponding change" to
// the amount shown as standing to the player's credit. The server's balance stays the authority
// (cash-out, the records); the balance shown while betting is what is left to bet with.
func TestRule001_3_2_2_ShownBalanceDropsAsChipsArePlaced(t *testing.T) {
	h := newHarness(t)
	h.term.SelectChip(2500)
	h.term.Place(outside(t, roulette.Red, 0))
	h.term.Place(spot(t, roulette.Straight, 17))
	v := h.term.View()
	if v.SlipTotal != 5000 || v.ShownBalance != 10000-5000 {
		t.Fatalf("bet %d: balance shown %d, want %d", v.SlipTotal, v.ShownBalance, 10000-5000)
	}
	if v.Balance != 10000 {
		t.Fatalf("the chip account itself moved: %d", v.Balance)
	}
	// The balance drops under the slip (a cash-out elsewhere, a correction): never below zero.
	h.link.Push(table.BalanceChanged{Balance: 3000})
	v = h.waitFor(func(v View) bool { return v.Balance == 3000 })
	if v.ShownBalance != 0 {
		t.Fatalf("balance 3000 under a slip of 5000 shows %d", v.ShownBalance)
	}
	// At the result the shown balance is the server's figure again.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	v = h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	if v.ShownBalance != 0 {
		t.Fatalf("no more bets: the wagers are still on the layout, shown %d", v.ShownBalance)
	}
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 5000, Returned: 2500*36 + 5000, Balance: 97000})
	v = h.waitFor(func(v View) bool { return v.LastWin != nil })
	if v.ShownBalance != 97000 || v.Balance != 97000 {
		t.Fatalf("after the result: shown %d, balance %d, want 97000", v.ShownBalance, v.Balance)
	}
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	v = h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	if v.ShownBalance != 97000 {
		t.Fatalf("a new round with an empty layout shows %d", v.ShownBalance)
	}
}

// Issue 32 point 3: a cash-out with no wagers on the layout closes the account and the table's
// stream with it; the line must not say wagers were voided that never were.
func TestLostTableWithNoWagersSaysNoWagersVoid(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.Connection{Up: false})
	v := h.waitFor(func(v View) bool { return !v.Connected })
	if !v.Void.IsZero() || strings.Contains(v.Message.String(), "void") {
		t.Fatalf("no wagers, yet the line says %q (void %q)", v.Message, v.Void)
	}
	// With wagers it is said, starting with a capital.
	h = newHarness(t)
	h.term.Place(outside(t, roulette.Red, 0))
	h.link.Push(table.Connection{Up: false})
	v = h.waitFor(func(v View) bool { return !v.Connected })
	if s := v.Message.String(); !strings.HasPrefix(s, "Connection to the table lost") || !strings.Contains(s, "void") {
		t.Fatalf("wagers lost with the table: the line says %q", s)
	}
}

// Issue 32 point 3, 001 §3.7: a touch after the period ends is answered then, even while the
// table's news of a moment ago is on the line; the answer is about that period, so it never
// shows once the next one has opened.
func TestRule001_3_7_NoMoreBetsIsSaidThenNotInTheNextRound(t *testing.T) {
	h := newHarness(t)
	h.link.Refuse = errors.New("too late")
	h.clk.Advance(29500 * time.Millisecond)
	h.term.Place(outside(t, roulette.Red, 0))
	h.waitFor(func(v View) bool { return v.Message.Priority == TableNews }) // "the table did not accept..."
	h.clk.Advance(time.Second)                                              // past the lock
	h.term.Place(outside(t, roulette.Red, 0))
	if got := h.term.View().Message.String(); !strings.Contains(got, "No more bets") {
		t.Fatalf("a tap during no more bets: the line says %q", got)
	}

	// Under money news (which a touch does not displace) the answer waits; the next round
	// opens before the money's time is up: the answer is dropped, not shown in the new round.
	h = newHarness(t)
	h.clk.Advance(31 * time.Second)
	h.term.MoneyChanged(MoneyStatus{Message: msg.New("Credited %s", "100.00")})
	h.term.Place(outside(t, roulette.Red, 0))
	h.clk.Advance(time.Second)
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	for range 10 {
		h.clk.Advance(time.Second)
		if got := h.term.View().Message.String(); strings.Contains(strings.ToLower(got), "no more bets") {
			t.Fatalf("in the next round the line says %q", got)
		}
	}
}

// Issue 32 point 3: Remove last undoes a Double: what the Double was told (reduced to the
// limits) is no longer true and leaves the line.
func TestUndoWithdrawsTheAnswerItUndid(t *testing.T) {
	h := newHarness(t)
	h.term.SelectChip(2500)
	h.term.Place(spot(t, roulette.Straight, 17))
	h.clk.Advance(4 * time.Second)
	if err := h.term.Double(); err != nil {
		t.Fatal(err)
	}
	if got := h.term.View().Message.String(); !strings.Contains(got, "maximum") {
		t.Fatalf("the double's clamp is not told: %q", got)
	}
	if err := h.term.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := h.term.View().Message.String(); strings.Contains(got, "maximum") {
		t.Fatalf("after Remove last undid the double the line still says %q", got)
	}
}

// Issue 32 point 3, 001 §4.3.2: a wager reduced to the next lowest permitted one says to what.
func TestRule001_4_3_2_ClampSaysTheAmount(t *testing.T) {
	h := newHarness(t)
	h.term.SelectChip(2500)
	h.term.Place(spot(t, roulette.Straight, 17))
	h.term.Place(spot(t, roulette.Straight, 17))
	m := h.term.View().Message.Msg
	var amount bool
	for _, a := range m.Args {
		if a == any(money.Amount(2500)) {
			amount = true
		}
	}
	if !amount || !strings.Contains(m.String(), "25.00") {
		t.Fatalf("the clamp says %q (args %v): not the amount it reduced to", m, m.Args)
	}
}

// 001 §4.3.3, 004 §4.3(c) (issue 32 point 4): wagers under the aggregate minimum are told while
// there is time to add to them, with both amounts; the warning goes when the slip reaches the
// minimum, and at the result the words agree with it ("not recognised").
func TestRule001_4_3_3_BelowTheAggregateMinimumIsToldWhileOpen(t *testing.T) {
	h := newHarness(t)
	h.term.Place(outside(t, roulette.Red, 0)) // 1.00 against 5.00 a spin
	v := h.term.View()
	said := v.Message.Msg
	if !strings.Contains(said.String(), "below the table minimum") || !hasAmount(said, 100) || !hasAmount(said, 500) {
		t.Fatalf("1.00 against a 5.00 minimum: the line says %q", said)
	}
	if said.Key[0] < 'A' || said.Key[0] > 'Z' {
		t.Fatalf("%q does not start with a capital", said.Key)
	}
	// An answer to a touch may cover it; it stands, and comes back.
	h.term.Explain(spot(t, roulette.Straight, 5))
	h.clk.Advance(7 * time.Second)
	if got := h.term.View().Message.String(); !strings.Contains(got, "below the table minimum") {
		t.Fatalf("the warning did not come back: %q", got)
	}
	h.term.SelectChip(500)
	h.term.Place(outside(t, roulette.Black, 0))
	if got := h.term.View().Message.String(); strings.Contains(got, "below the table minimum") {
		t.Fatalf("6.00 against 5.00: the line still says %q", got)
	}
	h.term.Undo()
	if got := h.term.View().Message.String(); !strings.Contains(got, "below the table minimum") {
		t.Fatalf("back to 1.00: the line says %q", got)
	}
	// A touch whose own answer matters (reduced to the unit) is told first; the warning after.
	h.term.Clear()
	h.clk.Advance(4 * time.Second)
	h.term.SelectChip(150)
	h.term.Place(outside(t, roulette.Odd, 0))
	if got := h.term.View().Message.String(); !strings.Contains(got, "reduced") {
		t.Fatalf("the touch's answer is covered: the line says %q", got)
	}
	h.clk.Advance(3 * time.Second)
	if got := h.term.View().Message.String(); !strings.Contains(got, "below the table minimum") {
		t.Fatalf("after the answer's time the line says %q", got)
	}
	// The period ends under the minimum: the settlement says "not recognised", and the
	// warning does not stand beside it.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.link.Push(table.Settled{RoundID: "R1", Number: 1, Recognised: false, Balance: 10000})
	v = h.waitFor(func(v View) bool { return v.LastWin != nil })
	if got := v.Message.String(); !strings.Contains(got, "not recognised") {
		t.Fatalf("at the result the line says %q", got)
	}
}

func hasAmount(m msg.Msg, cents int64) bool {
	for _, a := range m.Args {
		if a == any(money.Amount(cents)) {
			return true
		}
	}
	return false
}

// 001 §9.4 (issue 32 point 15): a correction that takes a win away is told — the number it was
// and the number it is, the win and the balance before and after — and the frozen state it
// happens under is on the screen long enough to be seen, though the table freezes and
// unfreezes the accounts in one breath.
func TestRule001_9_4_CorrectionIsToldWithBeforeAndAfter(t *testing.T) {
	h := newHarness(t)
	h.term.SelectChip(2500)
	h.term.Place(spot(t, roulette.Straight, 17))
	h.waitFor(func(v View) bool { return v.Acked && v.SlipTotal == 2500 })
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 17}})
	h.link.Push(table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R1"})
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 2500, Returned: 90000, Balance: 97500})
	h.waitFor(func(v View) bool { return v.LastWin != nil && v.Balance == 97500 })
	h.clk.Advance(20 * time.Second) // the win's news is long gone

	h.link.Push(table.FrozenChanged{Frozen: true})
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 20, Corrected: true}})
	h.link.Push(table.Settled{RoundID: "R1", Number: 20, Recognised: true, Staked: 2500, Returned: 0, Balance: 7500, Correction: true})
	h.link.Push(table.FrozenChanged{Frozen: false})
	h.link.Push(table.JackpotMeter{Amount: 1}) // a barrier: every event before it is applied
	v := h.waitFor(func(v View) bool { return v.Jackpot == 1 })
	m := v.Message.Msg
	if s := m.String(); !strings.Contains(s, "17") || !strings.Contains(s, "20") ||
		!hasAmount(m, 90000) || !hasAmount(m, 0) || !hasAmount(m, 97500) || !hasAmount(m, 7500) {
		t.Fatalf("the correction is told %q", s)
	}
	if v.Message.Priority != MoneyNews {
		t.Fatalf("a correction of money told at %v", v.Message.Priority)
	}
	if !v.Frozen || v.Period != PeriodFrozen {
		t.Fatalf("frozen and unfrozen in one breath: the screen never shows it (frozen %v, period %v)", v.Frozen, v.Period)
	}
	if len(v.History) == 0 || !v.History[0].Corrected || v.History[0].Number != 20 {
		t.Fatalf("history %+v", v.History)
	}
	h.clk.Advance(minFrozen)
	v = h.waitFor(func(v View) bool { return !v.Frozen })
	if v.Period != PeriodResult || v.LastWin.Returned != 0 || v.ShownBalance != 7500 {
		t.Fatalf("after the freeze: period %v, win %+v, balance %d", v.Period, v.LastWin, v.ShownBalance)
	}
}

// 001 §9.4: an earlier round's correction names the round, the numbers and the balances.
func TestRule001_9_4_EarlierCorrectionIsToldWithBeforeAndAfter(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R0", Number: 1}})
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R0", Number: 2, Corrected: true}})
	h.link.Push(table.Settled{RoundID: "R0", Number: 2, Recognised: true, Staked: 1000, Balance: 8000, Correction: true})
	v := h.waitFor(func(v View) bool { return v.Balance == 8000 })
	m := v.Message.Msg
	if s := m.String(); !strings.Contains(s, "R0") || !strings.Contains(s, "from 1 to 2") || !hasAmount(m, 10000) || !hasAmount(m, 8000) {
		t.Fatalf("the correction is told %q", s)
	}
}

// 004 §6.3(c), §6.4(b) (issue 32 point 21): a touch while the dealer's buy-in waits is refused
// with the offer's amount; once accepted, the line says what was credited — never the refusal
// of a moment ago.
func TestRule004_6_3c_AcceptedBuyInSaysCredited(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.BuyInOffered{ID: "B1", Amount: 5000})
	h.waitFor(func(v View) bool { return v.BuyIn != nil })
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); !errors.Is(err, ErrBuyInPending) {
		t.Fatalf("a touch while the offer is open: %v", err)
	}
	m := h.term.View().Message.Msg
	if !strings.HasPrefix(m.String(), "Confirm the dealer's buy-in") || !hasAmount(m, 5000) {
		t.Fatalf("a touch while the offer is open: the line says %q", m)
	}
	if err := h.term.ConfirmBuyIn(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	m = h.term.View().Message.Msg
	if !strings.HasPrefix(m.String(), "Credited") || !hasAmount(m, 5000) {
		t.Fatalf("after the buy-in was accepted the line says %q", m)
	}
}

// 001 §5.1–5.2 (issue 32 point 17): the dealer changes the wagering period between rounds; the
// table tells no terminal, but each round opens with its deadline, so the view's period — the
// countdown bar's full length — is the new round's, not the one of the snapshot.
func TestRule001_5_2_CountdownTakesTheNewPeriod(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100}, WageringPeriod: 120 * time.Second},
		Phase:  table.PhaseResult, RoundID: "R1", Limits: limits, Balance: 10000, AccountOpen: true,
	})
	h.waitFor(func(v View) bool { return v.Config.WageringPeriod == 120*time.Second })
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(10 * time.Second)})
	v := h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	if v.Config.WageringPeriod != 10*time.Second {
		t.Fatalf("a round of 10 s opened: the view's period is %v", v.Config.WageringPeriod)
	}
}
