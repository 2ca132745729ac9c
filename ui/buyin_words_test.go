package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
)

// 004 §6.3(c), §6.4(b) (issue 32 point 21): a tap on the layout while the dealer's buy-in
// waits is answered where the player looks — the offer's row, over the message line — and once
// the offer is accepted the message line says what was credited.
func TestRule004_6_3c_TapDuringTheOfferIsAnswered(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
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
