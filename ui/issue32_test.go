package ui

// Issue 32: what the screen shows of the terminal's model — the balance less the chips on the
// layout, the message line's words, the dealer's offer, a correction, the round's amount won,
// the records of a round not recognised.

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
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
)

// 001 §3.2.2, 000 §10.4.2, §11.4.2 (issue 32 point 2): the BALANCE drops as chips are placed, by
// what they stake; Cash out still offers the chip account's whole balance.
func TestRule001_3_2_2_BalanceDropsAsChipsArePlaced(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, w := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	red, _ := l.Outside(roulette.Red, 0)
	test.Tap(findChip(t, s.Content(), "5"))
	r, _ := s.geom.Region(red)
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	s.update(term.View())
	if s.balance.Text != "990.00" || s.bet.Text != "10.00 …" && s.bet.Text != "10.00" {
		t.Fatalf("BET %q with BALANCE %q, want 990.00", s.bet.Text, s.balance.Text)
	}
	test.Tap(findButton(t, s.Content(), "Cash out"))
	var asked string
	walkObjects(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Cash out") {
			asked = l.Text
		}
	})
	if !strings.Contains(asked, "1,000.00") {
		t.Fatalf("Cash out asks %q: the ticket is for the whole chip account", asked)
	}
}

// Issue 32 point 22: the message line starts with a capital, even where the message begins
// with a bet's name ("straight 17: …"), and a wager reduced to the maximum says to what.
func TestMessageLineStartsWithACapital(t *testing.T) {
	s, term, _, l := screenA(t)
	s17, _ := l.Inside(roulette.Straight, []roulette.Number{17})
	term.SelectChip(10000)
	r, _ := s.geom.Region(s17)
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	s.update(term.View())
	if got := s.message.Text; !strings.HasPrefix(got, "Straight 17: above the maximum") {
		t.Fatalf("a straight-up over its maximum: the line says %q", got)
	}
	if max := testLimits.For(roulette.Straight).Max; !strings.HasSuffix(s.message.Text, s.cash(max)) {
		t.Fatalf("the line says %q: not the %s it was reduced to", s.message.Text, s.cash(max))
	}
}

// 004 §6.3(c), §6.4(b) (issue 32 point 21): a tap on the layout while the dealer's buy-in
// waits is answered where the player looks — the offer's row, over the message line — and once
// the offer is accepted the message line says what was credited.
func TestRule004_6_3c_TapDuringTheOfferIsAnswered(t *testing.T) {
	s, term, link, l := screenA(t)
	link.Push(table.BuyInOffered{ID: "B9", Amount: 5000})
	if !testwait.For(3*time.Second, func() bool { return term.View().BuyIn != nil }) {
		t.Fatal("no offer")
	}
	s.update(term.View())
	red, _ := l.Outside(roulette.Red, 0)
	r, _ := s.geom.Region(red)
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	s.update(term.View())
	var said []string
	walkObjects(s.buyIn, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			said = append(said, l.Text)
		}
	})
	if len(said) == 0 || !strings.Contains(said[0], "Confirm the dealer's buy-in of 50.00") {
		t.Fatalf("a tap during the offer: the offer's row says %q", said)
	}
	if err := term.ConfirmBuyIn(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	s.update(term.View())
	if s.buyInRow.Visible() || s.message.Text != "Credited 50.00" {
		t.Fatalf("after accepting: offer shown %v, the line says %q", s.buyInRow.Visible(), s.message.Text)
	}
}

// 001 §9.4 (issue 32 point 15): a corrected outcome's tile in the recent outcomes is marked, so
// the number the player saw change stands apart; the others are not.
func TestRule001_9_4_CorrectedTileIsMarked(t *testing.T) {
	s, term, link, _ := screenA(t)
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R0", Number: 5}})
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 17}})
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 20, Corrected: true}})
	if !testwait.For(3*time.Second, func() bool { v := term.View(); return len(v.History) > 1 && v.History[0].Corrected }) {
		t.Fatalf("history %+v", term.View().History)
	}
	s.update(term.View())
	if tile := s.tiles[0]; tile.num.Text != "20" || tile.bg.StrokeColor != warnColour || tile.bg.StrokeWidth < 3 {
		t.Errorf("the corrected tile %q is framed %v × %v", tile.num.Text, tile.bg.StrokeColor, tile.bg.StrokeWidth)
	}
	if tile := s.tiles[1]; tile.bg.StrokeColor == warnColour {
		t.Errorf("the uncorrected tile %q is marked too", tile.num.Text)
	}
}

// 001 §9.4 (issue 32 point 15): the frozen state is visible — the words that say why stand
// under the status, in the side panel's width, not drawn over it.
func TestRule001_9_4_FrozenIsExplainedUnderTheStatus(t *testing.T) {
	s, term, link, _ := screenA(t)
	link.Push(table.FrozenChanged{Frozen: true})
	if !testwait.For(3*time.Second, func() bool { return term.View().Frozen }) {
		t.Fatal("never frozen")
	}
	s.update(term.View())
	st, ex := s.status, s.explain
	if !ex.Visible() || ex.Position().Y < st.Position().Y+st.Size().Height-1 || ex.Size().Width < sidePanelWidth/2 {
		t.Fatalf("status %q at %v %v; the explanation at %v %v", st.Text, st.Position(), st.Size(), ex.Position(), ex.Size())
	}
}

// 000 §11.2 (issue 32 point 22): Diagram U's AMOUNT WON is the round's: the figure of the
// round just settled while its result shows, 0.00 once the next round opens.
func TestAmountWonIsThisRounds(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramU, l, fyne.NewSize(1920, 1080))
	link.Push(table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R7"})
	link.Push(table.Settled{RoundID: "R7", Number: 17, Recognised: true, Staked: 500, Returned: 18000, Balance: 117500})
	if !testwait.For(3*time.Second, func() bool { return term.View().LastWin != nil }) {
		t.Fatal("never settled")
	}
	s.update(term.View())
	if s.wonMeter.Text != "180.00" {
		t.Fatalf("at the result AMOUNT WON reads %q", s.wonMeter.Text)
	}
	link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R8", Deadline: t0.Add(time.Minute)})
	if !testwait.For(3*time.Second, func() bool { return term.View().RoundID == "R8" }) {
		t.Fatal("no next round")
	}
	s.update(term.View())
	if s.wonMeter.Text != "0.00" {
		t.Fatalf("in the next round AMOUNT WON still reads %q", s.wonMeter.Text)
	}
}

// 001 §4.3.3 (issue 32 point 4): a game whose wagers were under the table's minimum reads in the
// records as the live message said it — not recognised, the wagers' amount returned — with the
// outcome the spin had, never "Void: wagers of 0.00 returned".
func TestRule001_4_3_3_RecordsSayNotRecognisedWithTheOutcome(t *testing.T) {
	r := recall.Round{ID: "R7", Layout: roulette.Layout{Wheel: roulette.SingleZero}, Settled: true, Number: 17,
		Wagers:        []recall.Wager{{Accepted: 100}},
		BalanceBefore: 10000, BalanceAfter: 10000}
	got := roundText("AUD", r, nil)
	for _, want := range []string{"Outcome 17", "not recognised", "A$1.00"} {
		if !strings.Contains(got, want) {
			t.Errorf("the record reads %q: no %q", got, want)
		}
	}
	if strings.Contains(got, "Void") || strings.Contains(got, "A$0.00 returned") {
		t.Errorf("the record reads %q", got)
	}
}

// screenA is Diagram A on a single-zero table at 1920×1080, on the fake table.
func screenA(t *testing.T) (*Screen, *app.Terminal, *apptest.Link, roulette.Layout) {
	t.Helper()
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	return s, term, link, l
}
