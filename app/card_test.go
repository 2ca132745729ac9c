package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// cardPad is a seat's reader holding a card.
type cardPad struct{ card string }

func (p *cardPad) Touched() bool        { return true }
func (p *cardPad) Card() (string, bool) { return p.card, p.card != "" }

var cardLimits = table.CardLimits{Loss: 5000, Time: 2 * time.Hour, Bar: 24 * time.Hour}

// cardHarness is a terminal at a carded table with card in its reader, told state for it.
func cardHarness(t *testing.T, state table.CardState, check time.Duration) (*harness, *apptest.CardLink) {
	t.Helper()
	var cl *apptest.CardLink
	h := startHarness(t, nil, func(c *Config) {
		cl = apptest.WithCards(c.Link.(*apptest.Link))
		cl.SetCard(state)
		c.Link, c.Gate = cl, &cardPad{card: state.Card}
	})
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100, 500, 2500}, PlayerCardRequired: true,
			Carded: true, RealityCheck: check, Helpline: "Gambler's Help 1800 858 858"},
		Phase: table.PhaseWagering, RoundID: "R1",
		Deadline: h.clk.Now().Add(2 * time.Second).Add(30 * time.Minute),
		Limits:   limits, Balance: 10000, AccountOpen: true,
	})
	h.waitFor(func(v View) bool { return v.RoundID == "R1" && v.Card.State != nil })
	return h, cl
}

func isMsg(err error, key string) bool {
	var e *msg.Error
	return errors.As(err, &e) && e.Msg.Key == key
}

// SPEC §10 (limits set before play): the card read at the seat is presented to the table; a
// card without limits puts up the limits screen and no wager is taken until the player has set
// them; set, the strip shows them and the layout takes wagers.
func TestSPEC10_CardWithoutLimitsAsksForThemBeforeAnyWager(t *testing.T) {
	h, cl := cardHarness(t, table.CardState{Card: "4242", State: "registered", NeedsLimits: true, Refusal: "no limits"}, 0)
	v := h.term.View()
	if !v.Card.SetLimits || v.Card.Strip || !v.Card.Refused.IsZero() || v.Card.Helpline != "Gambler's Help 1800 858 858" {
		t.Fatalf("a card without limits: %+v", v.Card)
	}
	if got := cl.Presented(); len(got) != 1 || got[0] != "4242" {
		t.Fatalf("presented: %v", got)
	}
	red := outside(t, roulette.Red, 0)
	if _, err := h.term.Place(red); !errors.Is(err, ErrCardLimitsFirst) {
		t.Fatalf("a wager before the limits: %v", err)
	}
	if err := h.term.SetCardLimits(context.Background(), table.CardLimits{Loss: 5000, Time: time.Hour, Bar: 36 * time.Hour}); err == nil {
		t.Fatal("a bar of 36 hours was taken")
	}
	if err := h.term.SetCardLimits(context.Background(), cardLimits); err != nil {
		t.Fatal(err)
	}
	v = h.term.View()
	if v.Card.SetLimits || !v.Card.Strip || v.Card.Limits != cardLimits || v.Card.LossLeft != 5000 || v.Card.TimeLeft != 2*time.Hour {
		t.Fatalf("limits set: %+v", v.Card)
	}
	if fb, err := h.term.Place(red); err != nil || fb.Accepted != 100 {
		t.Fatalf("a wager under the limits: %+v %v", fb, err)
	}
	if v := h.term.View(); v.Card.LossLeft != 4900 {
		t.Fatalf("loss left with a 1.00 chip on the layout: %d", v.Card.LossLeft)
	}
}

// Issue 31 (real-time updates): the strip shows time played and left and the session's result
// as the table tells them, and counts the time on between the table's events.
func TestSPEC10_StripCountsTimeBetweenTheTablesEvents(t *testing.T) {
	server := start.Add(2 * time.Second)
	st := table.CardState{Card: "4242", State: "registered", Limits: cardLimits, LossLeft: 3000, NetLoss: 2000,
		PeriodStart: server.Add(-30 * time.Minute), TimeUp: server.Add(90 * time.Minute), SessionResult: -2000, SessionStart: server.Add(-30 * time.Minute), At: server}
	h, _ := cardHarness(t, st, 0)
	v := h.term.View()
	if v.Card.TimePlayed != 30*time.Minute || v.Card.TimeLeft != 90*time.Minute || v.Card.SessionResult != -2000 || v.Card.LossLeft != 3000 {
		t.Fatalf("the strip: %+v", v.Card)
	}
	h.clk.Advance(time.Minute)
	v = h.waitFor(func(v View) bool { return v.Card.TimePlayed == 31*time.Minute })
	if v.Card.TimeLeft != 89*time.Minute {
		t.Fatalf("a minute on: %+v", v.Card)
	}
	st.SessionResult, st.LossLeft = 1500, 5000
	h.link.Push(table.CardStateChanged{State: st})
	h.waitFor(func(v View) bool { return v.Card.SessionResult == 1500 && v.Card.LossLeft == 5000 })
}

// SPEC §10 (limit reached, break): the table's state says play is barred or on a break: the
// screen says what was reached and counts down to when play may resume; no wager is taken.
func TestSPEC10_LimitReachedAndBreakStopPlayWithACountdown(t *testing.T) {
	server := start.Add(2 * time.Second)
	st := table.CardState{Card: "4242", State: "registered", Limits: cardLimits, NetLoss: 5000,
		PeriodStart: server.Add(-time.Hour), TimeUp: server.Add(time.Hour), BarredUntil: server.Add(24 * time.Hour), BarredFor: "loss", At: server}
	h, _ := cardHarness(t, st, 0)
	v := h.term.View()
	if v.Card.Stopped.Key != "Your loss limit of %s is reached: play is barred until %s" || v.Card.ResumeIn != 24*time.Hour {
		t.Fatalf("loss limit reached: %+v", v.Card)
	}
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); !isMsg(err, v.Card.Stopped.Key) {
		t.Fatalf("a wager while barred: %v", err)
	}
	h.clk.Advance(time.Second)
	h.waitFor(func(v View) bool { return v.Card.ResumeIn == 24*time.Hour-time.Second })
	st.BarredUntil, st.BarredFor, st.BreakUntil = time.Time{}, "", server.Add(15*time.Minute)
	h.link.Push(table.CardStateChanged{State: st})
	v = h.waitFor(func(v View) bool { return v.Card.Stopped.Key == "Time for a break: play may resume at %s" })
	if v.Card.ResumeIn <= 14*time.Minute || v.Card.ResumeIn > 15*time.Minute {
		t.Fatalf("the break's countdown: %v", v.Card.ResumeIn)
	}
	h.clk.Advance(15 * time.Minute)
	h.waitFor(func(v View) bool { return v.Card.Stopped.IsZero() })
}

// Issue 31 (the reality check): due at the operator's interval from the session's start, it
// waits for the round's chips to settle (between rounds), holds back the next wager until the
// player acknowledges it, and the acknowledgement goes to the table.
func TestSPEC10_RealityCheckWaitsForTheRoundAndHoldsTheNextWager(t *testing.T) {
	server := start.Add(2 * time.Second)
	st := table.CardState{Card: "4242", State: "registered", Limits: table.CardLimits{Loss: 50000, Time: 5 * time.Hour, Bar: 24 * time.Hour},
		LossLeft: 50000, SessionStart: server, At: server}
	h, cl := cardHarness(t, st, 30*time.Minute)
	red := outside(t, roulette.Red, 0)
	if v := h.term.View(); !v.Card.SetLimits || !v.Card.Confirm {
		t.Fatalf("a new session with limits: not asked to confirm them: %+v", v.Card)
	}
	if _, err := h.term.Place(red); !errors.Is(err, ErrCardLimitsFirst) {
		t.Fatalf("a wager before the limits are confirmed: %v", err)
	}
	h.term.ConfirmCardLimits()
	if _, err := h.term.Place(red); err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(31 * time.Minute)
	if v := h.term.View(); v.Card.RealityCheck {
		t.Fatal("the reality check over the player's chips in play")
	}
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.link.Push(table.Settled{RoundID: "R1", Number: 2, Recognised: true, Staked: 100, Balance: 9900})
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.clk.Now().Add(time.Minute)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" && v.SlipTotal == 0 })
	h.clk.Advance(time.Second)
	h.waitFor(func(v View) bool { return v.Card.RealityCheck })
	if _, err := h.term.Place(red); !errors.Is(err, ErrRealityCheckOpen) {
		t.Fatalf("a wager under the reality check: %v", err)
	}
	if err := h.term.AckRealityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v := h.term.View(); v.Card.RealityCheck || len(cl.Acks()) != 1 {
		t.Fatalf("acknowledged: %+v, acks %v", v.Card, cl.Acks())
	}
	if _, err := h.term.Place(red); err != nil {
		t.Fatalf("a wager after the check: %v", err)
	}
}

// SPEC §10 (refused at the pad): an unregistered card is refused with words the player reads in
// their language (a message key, not the table's English), and no wager is taken.
func TestSPEC10_CardRefusedAtThePadIsSaidAndHoldsWagers(t *testing.T) {
	h, _ := cardHarness(t, table.CardState{Card: "777", State: "unregistered", Refusal: "unregistered"}, 0)
	v := h.term.View()
	if v.Card.Refused.Key != "Player card %s is not registered: please register it at the cage before play" || v.Card.SetLimits || v.Card.Strip {
		t.Fatalf("an unregistered card: %+v", v.Card)
	}
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); !isMsg(err, v.Card.Refused.Key) {
		t.Fatalf("a wager on a refused card: %v", err)
	}
}

// The design doc's English refusals of the table are each said in the player's language: none
// falls through to the table's own words.
func TestSPEC10_TableRefusalsMapToTranslatedMessages(t *testing.T) {
	st := &table.CardState{Card: "C42", Limits: cardLimits, LossLeft: 2000}
	for _, words := range []string{
		"this table requires a player card and none was sent (003 §3.4, §9.1): insert your player card",
		"Player card C42 is not registered: please register it at the cage before play.",
		"Player card C42 has been reported lost: please see the cage.",
		"Player card C42 is barred from play: please see the cage.",
		"Please set your loss limit, time limit and bar period before play.",
		"Player card C42 is in use at another seat: one card plays at one seat at a time.",
		"This wager would take you past your loss limit: A$20.00 more may be wagered.",
		"Your time limit of 3h0m0s is reached: play is barred until 2 Dec 20:03 UTC.",
		"Your loss limit was reached: play is barred until 2 Dec 20:03 UTC.",
		"You have played for 3h0m0s without a break: play may resume at 2 Dec 23:15 UTC.",
		"Time for a break: play may resume at 2 Dec 23:15 UTC.",
		"This round's wagering has closed.",
	} {
		m := cardWordsMsg(errors.New("rpc error: code = FailedPrecondition desc = "+words), st)
		if strings.HasPrefix(m.Key, "Refused:") || m.Key == "Your player card was refused: %s" || m.IsZero() {
			t.Errorf("%q said as %q", words, m.String())
		}
	}
}
