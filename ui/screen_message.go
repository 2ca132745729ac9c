package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/diagrams"
)

// messageRegion is the message bar under the controls: the one message the terminal chose for
// the player, the signs at its end (the player-ID pad's, the table's closure, L's note prompt),
// and in its place the dealer's buy-in offer with its answers while there is one.
type messageRegion struct {
	screen      *Screen
	message     *messageLine
	buyIn       *fyne.Container
	buyInRow    *container.ThemeOverride // the offer's row, hidden while there is none
	messageView fyne.CanvasObject        // the message line's row, hidden under an offer
	noteBuyIn   *canvas.Text             // the note acceptor's prompt (Diagram L); hidden where the buy-in is at the dealer only
	pad         *padSign                 // the player-ID pad's sign, where the table requires the pad (pad.go)
	closing     *closingSign             // the sign of the table's announced closure (closing.go)
	bottom      *fyne.Container          // the bar: the message's row or the offer's, under the controls row
}

func newMessageRegion(s *Screen, design diagrams.Design, controlsRow *container.ThemeOverride) *messageRegion {
	r := &messageRegion{screen: s, message: newMessageLine(), buyIn: container.NewHBox()}
	r.noteBuyIn = text(T("Insert notes or a ticket to buy in"), 18, panelDimText)
	r.buyInRow = s.sizing.sized(r.buyIn, nil, nil)
	r.buyInRow.Hide()
	message := r.message.view(s.sizing)
	// The player-ID pad's sign stands at the end of the message line too (pad.go).
	r.pad = newPadSign()
	r.closing = newClosingSign()
	// The closure's sign beside it (closing.go). A hidden sign takes no room, not even a gap.
	r.closing.row = container.NewBorder(nil, nil, nil, r.closing.box, message)
	r.pad.row = container.NewBorder(nil, nil, nil, r.pad.box, r.closing.row)
	r.closing.fit = r.pad.row
	message = r.pad.row
	if slicesContains(design.Elements, diagrams.ElemNoteBuyIn) {
		// The note acceptor's prompt stands at the end of the message line, where the player
		// looks to learn what the terminal wants; the side panel has no room left for it on a
		// Lucky Ball table at 1280×800.
		// L's prompt is a sign of its own (000 §10.3.1): larger, in the chips' gold, framed.
		r.noteBuyIn.TextSize, r.noteBuyIn.Color = 22, selectedChip
		frame := canvas.NewRectangle(color.Transparent)
		frame.StrokeColor, frame.StrokeWidth, frame.CornerRadius = selectedChip, 2, 6
		sign := container.NewStack(frame, container.NewPadded(r.noteBuyIn))
		message = container.NewBorder(nil, nil, nil, container.NewCenter(sign), message)
	}
	// The offer stands over the message line, in its row: the row keeps its height with or
	// without an offer, and nothing above it moves (issue 18).
	r.messageView = message
	r.bottom = container.New(&messageSlot{line: r.message, controls: controlsRow}, message, r.buyInRow)
	return r
}

func (r *messageRegion) update(v app.View) {
	s := r.screen
	// No note acceptor prompt where the buy-in is at the dealer only (004 §6.2, 000 §11.7.2).
	if v.Config.DealerCashOnly == r.noteBuyIn.Visible() {
		if v.Config.DealerCashOnly {
			r.noteBuyIn.Hide()
		} else {
			r.noteBuyIn.Show()
		}
	}
	r.pad.update(v)
	r.closing.update(v)
	offered := r.buyInRow.Visible()
	r.buyIn.RemoveAll()
	if b := v.BuyIn; b != nil {
		// The offer stands over the message line: the answer to a touch made meanwhile (the
		// terminal's refusal, which names the offer's amount) takes the offer's words, beside
		// its buttons, or the player would get no word at all (issue 32).
		offer := fmt.Sprintf(T("The dealer offers a buy-in of %s"), s.cash(b.Amount))
		if v.Message.Priority == app.Answer && !v.Message.IsZero() {
			offer = s.say(v.Message.Msg)
		}
		r.buyIn.Add(widget.NewLabel(offer))
		accept := widget.NewButtonWithIcon(T("Accept"), theme.ConfirmIcon(), func() { s.confirmBuyIn(true) })
		accept.Importance = widget.HighImportance
		r.buyIn.Add(accept)
		r.buyIn.Add(widget.NewButtonWithIcon(T("Decline"), theme.CancelIcon(), func() { s.confirmBuyIn(false) }))
		r.buyInRow.Show()
		restyle(r.buyInRow)
		r.messageView.Hide()
	} else {
		r.buyInRow.Hide()
		r.messageView.Show()
	}
	if offered != r.buyInRow.Visible() {
		s.relayout()
	}
	// The one message the terminal chose for the player, or none.
	if said := s.say(v.Message.Msg); said != r.message.Text {
		r.message.SetText(said)
	}
}
