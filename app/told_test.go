package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// The terminal tells the player what the table did (issue 17 items 5–8), on a fake table.

// 004 §4.3(c), 001 §4.3.3: a slip under the aggregate minimum settles unrecognised; the
// terminal says why, with the amounts.
func TestRule004_4_3c_NotRecognisedIsSaid(t *testing.T) {
	h := newHarness(t)
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); err != nil {
		t.Fatal(err)
	}
	h.waitFor(func(v View) bool { return v.SlipTotal == 100 })
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.link.Push(table.Settled{RoundID: "R1", Number: 1, Recognised: false, Balance: 10000})
	v := h.waitFor(func(v View) bool { return v.LastWin != nil })
	if s := v.Void.String(); !strings.Contains(s, "not recognised") || !strings.Contains(s, "1.00") || !strings.Contains(s, "5.00") {
		t.Fatalf("the terminal says %q", s)
	}
	if v.Result != nil || v.Balance != 10000 {
		t.Fatalf("an unrecognised slip shown as settled: result %+v, balance %d", v.Result, v.Balance)
	}
	// A recognised slip says nothing of the kind.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.clk.Now().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" && v.Void.IsZero() })
}

// 001 §9.2, 003 §8.1–8.9: a no spin is announced and the wagers stand; a ball-dropping close
// stays one (the countdown keeps its 0).
func TestRule001_9_2_NoSpinIsAnnounced(t *testing.T) {
	h := newHarness(t)
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); err != nil {
		t.Fatal(err)
	}
	h.waitFor(func(v View) bool { return v.SlipTotal == 100 })
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1", Deadline: h.clk.Now(), BallDropping: true})
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1", Deadline: h.clk.Now(), NoSpin: true})
	v := h.waitFor(func(v View) bool { return strings.Contains(v.Message.Msg.String(), "No spin") })
	if v.SlipTotal != 100 || !v.BallDropping || v.Phase != table.PhaseNoMoreBets {
		t.Fatalf("after the no spin: slip %d, ball dropping %v, phase %v", v.SlipTotal, v.BallDropping, v.Phase)
	}
	if h.term.Remaining() != 0 {
		t.Fatalf("time left after the ball dropped: %v", h.term.Remaining())
	}
}

// 001 §9.4: the correction of an earlier round changes the balance and its history entry, and
// leaves the current round — its slip, its result — alone.
func TestRule001_9_4_EarlierRoundCorrectionLeavesTheCurrentRound(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R0", Number: 1}})
	h.waitFor(func(v View) bool { return len(v.History) == 1 })
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); err != nil {
		t.Fatal(err)
	}
	h.waitFor(func(v View) bool { return v.SlipTotal == 100 && v.Acked })
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R0", Number: 2, Corrected: true}})
	h.link.Push(table.Settled{RoundID: "R0", Number: 2, Recognised: true, Staked: 1000, Balance: 8000, Correction: true})
	v := h.waitFor(func(v View) bool { return v.Balance == 8000 })
	if v.SlipTotal != 100 || len(v.Stakes) != 1 || v.RoundID != "R1" {
		t.Fatalf("the current slip changed: %d %+v", v.SlipTotal, v.Stakes)
	}
	if len(v.History) != 1 || v.History[0].Number != 2 || !v.History[0].Corrected {
		t.Fatalf("history %+v", v.History)
	}
	if !strings.Contains(v.Message.Msg.String(), "R0 corrected from 1 to 2") {
		t.Fatalf("the terminal says %q", v.Message.Msg)
	}
}

// 000 §10.6.2: the warning time the dealer sets with the limits reaches the terminal.
func TestRule000_10_6_2_WarningFromTheDealer(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.LimitsChanged{Limits: limits, Warning: 9 * time.Second})
	h.waitFor(func(v View) bool { return v.Config.Warning == 9*time.Second })
	h.link.Push(table.LimitsChanged{Limits: limits})
	h.link.Push(table.FrozenChanged{Frozen: true}) // a barrier: the event before it is applied
	if v := h.waitFor(func(v View) bool { return v.Frozen }); v.Config.Warning != 9*time.Second {
		t.Fatalf("limits without a warning reset it to %v", v.Config.Warning)
	}
}

// 003 §8.11: a void draw of the current round is said.
func TestRule003_8_11_VoidDrawIsSaid(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.LuckyBallDrawn{RoundID: "R1", Draw: roulette.LuckyBallDraw{Numbers: [4]roulette.Number{1, 2, 3, 4}, Void: true}})
	h.waitFor(func(v View) bool {
		return v.LuckyBall != nil && v.LuckyBall.Void && strings.Contains(v.Message.Msg.String(), "Lucky Ball display out of order")
	})
}
