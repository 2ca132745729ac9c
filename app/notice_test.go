package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// The message rules, through the screen model: one message, chosen by the terminal with a
// priority and a minimum time on screen.
func TestMessageRules(t *testing.T) {
	t.Run("a cap survives 3 s of unrelated events", func(t *testing.T) {
		h := newHarness(t)
		h.term.SelectChip(2500)
		h.term.Place(spot(t, roulette.Straight, 17))
		h.term.Place(spot(t, roulette.Straight, 17)) // 50.00 on a straight: reduced to its 25.00 maximum
		capped := h.term.View().Message
		if capped.Priority != Answer || !strings.Contains(capped.String(), "maximum") {
			t.Fatalf("the cap is not told: %+v", capped)
		}
		// Unrelated events, and a lower-ranked hint, for just under 3 s.
		for i := range 29 {
			h.clk.Advance(100 * time.Millisecond)
			h.link.Push(table.JackpotMeter{Amount: int64(1000 + i)})
			h.link.Push(table.BalanceChanged{Balance: 10000})
			h.term.Explain(spot(t, roulette.Straight, 5))
			h.term.MoneyChanged(MoneyStatus{}) // a printer poll with nothing to say
		}
		h.waitFor(func(v View) bool { return v.Jackpot == 1028 })
		if got := h.term.View().Message; !got.Msg.Equal(capped.Msg) {
			t.Fatalf("after 2.9 s the line says %q, want the cap %q", got, capped)
		}
		// Its 3 s are up: the newest hint, still fresh, takes its place.
		h.clk.Advance(150 * time.Millisecond)
		if got := h.term.View().Message; got.Priority != Hint || !strings.Contains(got.String(), "pays 35 to 1") {
			t.Fatalf("after 3 s: %+v", got)
		}
	})

	t.Run("a stale message never returns after a newer one", func(t *testing.T) {
		h := newHarness(t)
		h.term.MoneyChanged(MoneyStatus{Message: msg.New("Credited %s", "100.00")})
		h.term.SelectChip(50)
		h.term.Place(outside(t, roulette.Red, 0)) // below the minimum, under the money message: waits
		h.clk.Advance(time.Second)
		h.term.MoneyChanged(MoneyStatus{Message: msg.New("Please take your ticket")}) // newer money: drops the waiting refusal
		h.clk.Advance(20 * time.Second)
		for _, said := range []string{"Credited", "below"} {
			if strings.Contains(h.term.View().Message.String(), said) {
				t.Fatalf("a stale message came back: %q", h.term.View().Message)
			}
		}
		// News goes when stale: the line does not say "Credited 100.00" for 13 rounds.
		if !h.term.View().Message.IsZero() {
			t.Fatalf("after 21 s the line still says %q", h.term.View().Message)
		}
	})

	t.Run("money outranks the rest", func(t *testing.T) {
		h := newHarness(t)
		h.term.SelectChip(50)
		h.term.Place(outside(t, roulette.Red, 0)) // a refusal
		h.clk.Advance(500 * time.Millisecond)
		h.term.MoneyChanged(MoneyStatus{Message: msg.New("Credited %s", "50.00")})
		if got := h.term.View().Message; got.Priority != MoneyNews {
			t.Fatalf("money arrived over a refusal: %+v", got)
		}
		h.clk.Advance(time.Second)
		h.term.Place(outside(t, roulette.Red, 0)) // a refusal inside the money's 5 s: waits
		if got := h.term.View().Message; got.Priority != MoneyNews {
			t.Fatalf("a refusal displaced money inside its minimum time: %+v", got)
		}
		h.clk.Advance(4 * time.Second) // the money's 5 s are up: the refusal, still fresh, shows
		if got := h.term.View().Message; got.Priority != Answer {
			t.Fatalf("after the money's minimum time: %+v", got)
		}
	})

	t.Run("a fault stands until it clears, and comes back after news", func(t *testing.T) {
		h := newHarness(t)
		fault := msg.New("Printer: %s", "paper out")
		h.term.MoneyChanged(MoneyStatus{Fault: fault})
		h.term.MoneyChanged(MoneyStatus{Fault: fault}) // told again by the next poll: nothing new
		h.clk.Advance(6 * time.Second)
		h.term.SelectChip(50)
		h.term.Place(outside(t, roulette.Red, 0)) // after the fault's minimum time: the refusal shows
		if got := h.term.View().Message; got.Priority != Answer {
			t.Fatalf("refusal after the fault's minimum time: %+v", got)
		}
		h.clk.Advance(9 * time.Second) // the refusal is stale: the standing fault again
		if got := h.term.View().Message; !got.Msg.Equal(fault) {
			t.Fatalf("the fault did not come back: %+v", got)
		}
		h.term.MoneyChanged(MoneyStatus{}) // cleared
		if got := h.term.View().Message; !got.IsZero() {
			t.Fatalf("a cleared fault still shown: %+v", got)
		}
	})

	t.Run("a second credit of the same amount is news again", func(t *testing.T) {
		h := newHarness(t)
		credited := msg.New("Credited %s", "100.00")
		h.term.MoneyChanged(MoneyStatus{Message: credited, Said: 1})
		h.clk.Advance(14 * time.Second)
		h.term.MoneyChanged(MoneyStatus{Message: credited, Said: 2})
		h.clk.Advance(14 * time.Second) // 28 s after the first: shown only because the second is new
		if got := h.term.View().Message; !got.Msg.Equal(credited) {
			t.Fatalf("the second credit was not told: %+v", got)
		}
	})

	t.Run("at 0.00 the terminal says how to buy in, until money is in", func(t *testing.T) {
		h := startHarness(t, nil, func(c *Config) { c.Cashier = noCashOut{} })
		h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseWagering,
			RoundID: "R1", Deadline: h.clk.Now().Add(time.Minute), Limits: limits})
		v := h.waitFor(func(v View) bool { return v.RoundID == "R1" })
		if v.Message.Priority != Hint || !strings.Contains(v.Message.String(), "Insert notes") || v.CanCashOut {
			t.Fatalf("at 0.00: %+v, cash out %v", v.Message, v.CanCashOut)
		}
		h.link.Push(table.BalanceChanged{Balance: 5000, Delta: 5000})
		v = h.waitFor(func(v View) bool { return v.Balance == 5000 })
		if strings.Contains(v.Message.String(), "Insert notes") || !v.CanCashOut {
			t.Fatalf("with 50.00: %+v, cash out %v", v.Message, v.CanCashOut)
		}
	})

	t.Run("the view is told when a message's time runs out", func(t *testing.T) {
		h := newHarness(t)
		h.term.SelectChip(50)
		h.term.Place(outside(t, roulette.Red, 0))
		h.waitFor(func(v View) bool { return v.Message.Priority == Answer })
		h.clk.Advance(maxShown[Answer])
		h.waitFor(func(v View) bool { return v.Message.IsZero() })
	})
}

// The board on its own: the order of arrivals against the clock, as a table.
func TestBoard(t *testing.T) {
	news := func(s string) msg.Msg { return msg.New(s) }
	type step struct {
		after time.Duration
		do    func(b *board)
		want  string
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"equal rank replaces at once", []step{
			{0, func(b *board) { b.say(news("a"), Answer) }, "a"},
			{time.Millisecond, func(b *board) { b.say(news("b"), Answer) }, "b"},
		}},
		{"lower rank waits, then shows while fresh", []step{
			{0, func(b *board) { b.say(news("money"), MoneyNews) }, "money"},
			{time.Second, func(b *board) { b.say(news("hint"), Hint) }, "money"},
			{4 * time.Second, nil, "hint"},
		}},
		{"news under a condition shows after its minimum time, then the condition again", []step{
			{0, func(b *board) { b.set("dev", news("fault"), MoneyNews) }, "fault"},
			{time.Second, func(b *board) { b.say(news("hint"), Hint) }, "fault"},
			{3 * time.Second, func(b *board) { b.set("dev", news("fault 2"), MoneyNews) }, "fault 2"}, // new words, same standing
			{time.Second, nil, "hint"},        // the fault's 5 s are up
			{2 * time.Second, nil, "fault 2"}, // the hint is stale 6 s after it arrived
		}},
		{"a newer message drops the one waiting", []step{
			{0, func(b *board) { b.say(news("credited"), MoneyNews) }, "credited"},
			{time.Second, func(b *board) { b.say(news("refused"), Answer) }, "credited"},
			{time.Second, func(b *board) { b.say(news("ticket"), MoneyNews) }, "ticket"},
			{10 * time.Second, nil, "ticket"}, // never "refused": it waited under "credited", and is older than "ticket"
			{6 * time.Second, nil, ""},        // money news is stale after 15 s
		}},
		{"withdrawn condition shows the next one", []step{
			{0, func(b *board) { b.set("round", news("void"), TableNews) }, "void"},
			{time.Second, func(b *board) { b.set("dev", news("fault"), MoneyNews) }, "fault"},
			{time.Second, func(b *board) { b.set("dev", msg.Msg{}, MoneyNews) }, "void"},
			{time.Second, func(b *board) { b.set("round", msg.Msg{}, TableNews) }, ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := clocktest.New(start)
			var b *board
			b = newBoard(clk, func() { b.tick() })
			for i, s := range c.steps {
				clk.Advance(s.after)
				if s.do != nil {
					s.do(b)
				}
				if got := b.notice().Msg.Key; got != s.want {
					t.Fatalf("step %d: shows %q, want %q", i, got, s.want)
				}
			}
		})
	}
}

// noCashOut is a cashier that is never asked to cash out.
type noCashOut struct{}

func (noCashOut) CashOut(context.Context) error { return errors.New("not in this test") }

// The result stays on the layout: winning wagers with what they returned, losing ones at 0,
// until the next round opens; the number is called out.
func TestResultStaysUntilTheNextRound(t *testing.T) {
	h := newHarness(t)
	s17, red := spot(t, roulette.Straight, 17), outside(t, roulette.Red, 0)
	h.term.SelectChip(500)
	h.term.Place(s17)
	h.term.Place(red)
	h.waitFor(func(v View) bool { return v.Acked && v.SlipTotal == 1000 })
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 1000, Returned: 18000, Balance: 27000})
	v := h.waitFor(func(v View) bool { return v.Balance == 27000 })
	if len(v.Stakes) != 0 || len(v.Result) != 2 {
		t.Fatalf("after the settlement: stakes %v result %+v", v.Stakes, v.Result)
	}
	if r := v.Result[0]; r.Bet != s17 || r.Staked != 500 || r.Returned != 18000 {
		t.Fatalf("straight 17: %+v", r)
	}
	if r := v.Result[1]; r.Bet != red || r.Staked != 500 || r.Returned != 0 {
		t.Fatalf("red on black 17: %+v", r)
	}
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.clk.Now().Add(time.Minute)})
	if v := h.waitFor(func(v View) bool { return v.RoundID == "R2" }); v.Result != nil {
		t.Fatalf("the result stayed into the next round: %+v", v.Result)
	}
	for n, want := range map[roulette.Number]string{17: "BLACK · ODD · 2nd 12 · 1 to 18", 0: "GREEN", 36: "RED · EVEN · 3rd 12 · 19 to 36",
		roulette.DoubleZeroNumber: "GREEN", 1: "RED · ODD · 1st 12 · 1 to 18"} {
		if got := Callout(n).String(); got != want {
			t.Errorf("%v: %q, want %q", n, got, want)
		}
	}
}
