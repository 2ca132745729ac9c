package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// cardReader is a seat's reader holding a card.
type cardReader struct{ card string }

func (r cardReader) Touched() bool        { return true }
func (r cardReader) Card() (string, bool) { return r.card, r.card != "" }

// cardScreen is Diagram A at a carded table at 1280×800, the seat's card told the terminal as st.
func cardScreen(t *testing.T, st table.CardState, check time.Duration) (*Screen, *app.Terminal, *apptest.CardLink, fyne.Window) {
	t.Helper()
	l := roulette.Layout{Wheel: roulette.SingleZero}
	clk := clocktest.New(t0)
	cl := apptest.WithCards(apptest.NewLink(clk.Now, 0, time.Millisecond, l, testLimits))
	cl.SetCard(st)
	term := app.New(app.Config{Link: cl, Clock: clk, Cashier: printerReady{}, Gate: cardReader{st.Card}})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go term.Run(ctx)
	cl.Push(table.Connection{Up: true})
	cl.Push(table.Snapshot{
		Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second, Currency: "AUD",
			PlayerCardRequired: true, Carded: true, RealityCheck: check, Helpline: "Gambler's Help 1800 858 858"},
		Phase: table.PhaseWagering, RoundID: "R7", Deadline: t0.Add(12 * time.Second),
		Limits: testLimits, Balance: 100000, AccountOpen: true,
	})
	waitView(t, term, "the card told", func(v app.View) bool { return v.RoundID == "R7" && v.Card.State != nil })
	s, err := NewScreen(term, diagrams.DiagramA, l)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(1280, 800))
	s.update(term.View()) // in its window now: the card screen goes over the play area
	return s, term, cl, w
}

// overlayButton is the button reading label on the card screen over the play area.
func overlayButton(t *testing.T, s *Screen, label string) *widget.Button {
	t.Helper()
	if !s.card.area.Visible() {
		t.Fatalf("no card screen over the play area for %q", label)
	}
	return findButton(t, s.card.area, label)
}

var registered = table.CardState{Card: "4242", State: "registered", At: t0}

// SPEC §10 (limits set before play): a card without limits puts the limits screen over the play
// area — loss limit, time limit, bar period by touch — and the player's choice goes to the table.
func TestSPEC10_LimitsScreenSetsTheCardsLimits(t *testing.T) {
	test.NewTempApp(t)
	st := registered
	st.NeedsLimits, st.Refusal = true, "no limits"
	s, term, cl, w := cardScreen(t, st, 0)
	texts := shownTexts(test.RenderToMarkup(w.Canvas()))
	for _, want := range []string{"SET YOUR LIMITS", "Loss limit", "Time limit", "Bar period", "Gambler's Help 1800 858 858"} {
		if !shows(texts, want) {
			t.Errorf("the limits screen does not show %q: %q", want, texts)
		}
	}
	test.AssertRendersToImage(t, "cardplay/limits.png", w.Canvas())
	// 100.00, 2 h, 7 days.
	s.card.lossSeg.selected, s.card.timeSeg.selected, s.card.barSeg.selected = 1, 2, 1
	test.Tap(overlayButton(t, s, "Set these limits"))
	waitView(t, term, "the limits set", func(v app.View) bool { return v.Card.Strip && !v.Card.SetLimits })
	if got := cl.LimitsSet(); len(got) != 1 || got[0] != (table.CardLimits{Loss: 10000, Time: 2 * time.Hour, Bar: 7 * 24 * time.Hour}) {
		t.Fatalf("limits set: %+v", got)
	}
	s.update(term.View())
	texts = shownTexts(test.RenderToMarkup(w.Canvas()))
	if shows(texts, "SET YOUR LIMITS") || !shows(texts, "A$100.00") || !shows(texts, "2h 00m") {
		t.Errorf("after the limits are set: %q", texts)
	}
}

// Issue 31 (real-time updates, a limit reached): the strip shows time played and left, loss
// left and the session's result; a loss limit reached puts up what was reached, a countdown to
// when play may resume and Cash out, over the play area only (the side panel, where a settling
// round shows, stays in view).
func TestSPEC10_LimitReachedScreenCountsDownAndOffersCashOut(t *testing.T) {
	test.NewTempApp(t)
	st := registered
	st.Limits = table.CardLimits{Loss: 10000, Time: 3 * time.Hour, Bar: 24 * time.Hour}
	st.PeriodStart, st.TimeUp, st.SessionStart = t0.Add(-75*time.Minute), t0.Add(105*time.Minute), t0.Add(-75*time.Minute)
	st.NetLoss, st.SessionResult = 10000, -10000
	st.BarredUntil, st.BarredFor = t0.Add(24*time.Hour), "loss"
	s, _, _, w := cardScreen(t, st, 0)
	texts := shownTexts(test.RenderToMarkup(w.Canvas()))
	for _, want := range []string{"PLAY STOPPED", "Play may resume in 24:00:00", "Wagers already closed settle as usual.", "Time played", "1h 15m", "Loss left", "A$0.00", "−A$100.00"} {
		if !shows(texts, want) {
			t.Errorf("the limit reached does not show %q: %q", want, texts)
		}
	}
	if !strings.Contains(strings.Join(texts, "\n"), "Your loss limit of A$100.00 is reached: play is barred until") {
		t.Errorf("what was reached is not said: %q", texts)
	}
	overlayButton(t, s, "Cash out")
	test.AssertRendersToImage(t, "cardplay/loss_limit_reached.png", w.Canvas())
}

// Issue 31 (the reality check): shown between rounds at the operator's interval, it says the
// time played and the session's result; Continue playing acknowledges it to the table.
func TestSPEC10_RealityCheckScreenIsAcknowledged(t *testing.T) {
	test.NewTempApp(t)
	st := registered
	st.Limits = table.CardLimits{Loss: 50000, Time: 5 * time.Hour, Bar: 24 * time.Hour}
	st.LossLeft, st.SessionStart, st.PeriodStart, st.TimeUp = 46000, t0.Add(-time.Hour), t0.Add(-time.Hour), t0.Add(4*time.Hour)
	st.SessionResult = -4000
	s, term, cl, w := cardScreen(t, st, 30*time.Minute)
	term.ConfirmCardLimits()
	waitView(t, term, "the reality check", func(v app.View) bool { return v.Card.RealityCheck })
	s.update(term.View())
	texts := shownTexts(test.RenderToMarkup(w.Canvas()))
	if !shows(texts, "REALITY CHECK") || !shows(texts, "Your session result is −A$40.00.") {
		t.Errorf("the reality check: %q", texts)
	}
	test.AssertRendersToImage(t, "cardplay/reality_check.png", w.Canvas())
	test.Tap(overlayButton(t, s, "Continue playing"))
	waitView(t, term, "acknowledged", func(v app.View) bool { return !v.Card.RealityCheck })
	if len(cl.Acks()) != 1 {
		t.Fatalf("acks: %v", cl.Acks())
	}
}

// SPEC §10 (refused at the pad): a lost card is refused with words the player reads and where to go.
func TestSPEC10_RefusedCardScreen(t *testing.T) {
	test.NewTempApp(t)
	st := table.CardState{Card: "5001", State: "lost", Refusal: "lost", At: t0}
	_, _, _, w := cardScreen(t, st, 0)
	texts := shownTexts(test.RenderToMarkup(w.Canvas()))
	if !shows(texts, "PLAYER CARD NOT ACCEPTED") || !strings.Contains(strings.Join(texts, "\n"), "Player card 5001 has been reported lost: please see the cage") {
		t.Errorf("a lost card: %q", texts)
	}
	test.AssertRendersToImage(t, "cardplay/card_lost.png", w.Canvas())
}

// Issue 31 (Help): at a carded table Help gives the helpline and each bet's return to player
// from the payouts on this wheel (a straight on a single zero: 36/37, 97.30%; on a double zero 36/38, 94.74%).
func TestSPEC10_HelpGivesTheHelplineAndReturnToPlayer(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	v := app.View{Config: table.TableConfig{Layout: l}, Card: app.CardView{Carded: true, Helpline: "Gambler's Help 1800 858 858"}}
	secs := cardHelp(v)
	if len(secs) != 1 || !strings.Contains(strings.Join(secs[0].lines, "\n"), "1800 858 858") {
		t.Fatalf("help: %+v", secs)
	}
	rtp := map[string]string{}
	for _, row := range secs[0].table[1:] {
		rtp[row[0]] = row[1]
	}
	if rtp["straight"] != "97.30%" || rtp["red"] != "97.30%" || rtp["dozen"] != "97.30%" {
		t.Errorf("return to player: %v", rtp)
	}
	v.Config.Layout = roulette.Layout{Wheel: roulette.DoubleZero}
	rtp = map[string]string{}
	for _, row := range cardHelp(v)[0].table[1:] {
		rtp[row[0]] = row[1]
	}
	if rtp["straight"] != "94.74%" || rtp["dozen"] != "94.74%" {
		t.Errorf("return to player, double zero: %v", rtp)
	}
	if cardHelp(app.View{Config: table.TableConfig{Layout: l}}) != nil {
		t.Error("an uncarded table's help has the carded section")
	}
}
