package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// 003 §9.12 on the terminal, on a fake table: the supervisor's refusal puts exactly the table's
// slip on the layout, says the supervisor refused the wager and why, leaves no undo that puts
// the refused wager back, and the next touch is a newer version than the table's; a refusal of
// a round already gone changes nothing. Through the real server:
// app/station.TestRule003_9_12_SupervisorRefusesAWager.
func TestRule003_9_12_RefusalTakesTheChipsOffAndSaysWhy(t *testing.T) {
	h := newHarness(t)
	s17, red, s5 := spot(t, roulette.Straight, 17), outside(t, roulette.Red, 0), spot(t, roulette.Straight, 5)
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	h.term.SelectChip(500)
	if _, err := h.term.Place(red); err != nil {
		t.Fatal(err)
	}
	if _, err := h.term.Place(s17); err != nil {
		t.Fatal(err)
	}
	h.waitFor(func(v View) bool { return v.Acked && len(v.Stakes) == 2 })
	last, _ := h.link.LastSlip()
	refusedAt := last.Version + 1
	h.link.Push(table.WagerRefused{Slip: table.SlipAck{RoundID: "R2", Version: refusedAt, Total: 500,
		Bets: []table.SlipBet{{Bet: red, Amount: 500}}, Results: []table.BetResult{{Accepted: 500}}},
		Refused: []table.SlipBet{{Bet: s17, Amount: 500}}, Reason: "past-posting suspected", By: "supervisor:S1"})
	const told = "The casino supervisor refused your wager on %s (%s) and removed it: %s"
	v := h.waitFor(func(v View) bool { return v.Message.Msg.Key == told })
	if !slices.Equal(v.Stakes, []Stake{{red, 500}}) || v.SlipTotal != 500 || !v.Acked {
		t.Fatalf("after the refusal: %v total %d acked %v", v.Stakes, v.SlipTotal, v.Acked)
	}
	if !strings.Contains(v.Message.Msg.String(), "past-posting suspected") || !strings.Contains(v.Message.Msg.String(), "5.00") {
		t.Fatalf("told %q", v.Message.Msg.String())
	}
	if err := h.term.Undo(); err == nil {
		if v := h.term.View(); slices.Contains(v.Stakes, Stake{s17, 500}) {
			t.Fatal("undo put the refused wager back")
		}
	}
	if _, err := h.term.Place(s5); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the next touch sent newer than the refusal", func() bool {
		s, ok := h.link.LastSlip()
		return ok && s.Version > refusedAt && len(s.Bets) == 2 && s.Bets[1].Bet == s5
	})

	// A refusal of a round already gone changes nothing.
	h.link.Push(table.WagerRefused{Slip: table.SlipAck{RoundID: "R1", Version: 9}, Reason: "x"})
	h.link.Push(table.JackpotMeter{Amount: 1}) // a barrier: applied after it
	v = h.waitFor(func(v View) bool { return v.Jackpot == 1 })
	if len(v.Stakes) != 2 {
		t.Fatalf("a stale refusal changed the layout: %v", v.Stakes)
	}
}
