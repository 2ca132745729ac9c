package ui

// The tournament panel (000 §12, 001 §11, 003 §10): while the table plays a tournament, the
// side panel shows it in place of the chip account — the round (n of N, or the playoff), the
// player's tournament chips and their wager this round, the round's minimum and maximum, the
// standings (place, seat, chips; an undisclosed wager shown as such), and the toggle for an
// undisclosed wager with how many are left. The countdown above it is the round's time left.
// After the last round it shows the final places and prizes until the next round opens.
// With an order of wagering (003 §10.9) it says whose turn it is and whose box has the marker
// (an M on that player's line of the standings, the seat to wager highlighted), and offers the
// player whose turn it is END TURN (or PASS, with nothing on the layout and a pass card left):
// the wager is final once the table takes it. A touch out of turn is refused by the model with
// "wait your turn: T02 wagers now".
// Tournament chips are drawn as the chip tray draws chips (100 = a 1 chip), never as money.

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/table"
)

// maxStandingRows is how many lines of the standings the panel has room for at 1280×800; the
// player's own line is always among them.
const maxStandingRows = 6

type tournamentPanel struct {
	box       *fyne.Container
	title     *canvas.Text
	round     *canvas.Text
	chips     *canvas.Text
	bet       *canvas.Text
	limits    *canvas.Text
	rows      *fyne.Container
	secret    *widget.Check
	secretWhy *canvas.Text   // why the box cannot be ticked now (issue 32 point 16)
	pass      *canvas.Text   // a pass card the table played for this seat (003 §10.7)
	turn      *canvas.Text   // the order of wagering: whose turn it is
	endTurn   *widget.Button // END TURN / PASS for the player whose turn it is
	seen      bool           // the check's state as last drawn, so drawing it does not call the model
	cashParts []fyne.CanvasObject
}

func newTournamentPanel(term Model, cashParts ...fyne.CanvasObject) *tournamentPanel {
	p := &tournamentPanel{cashParts: cashParts}
	p.title = text("", 18, selectedChip)
	p.round = text("", 22, panelText)
	p.chips = text("", 34, panelText)
	p.bet = text("", 20, panelText)
	p.limits = text("", 15, panelDimText)
	p.rows = container.NewVBox()
	p.secret = widget.NewCheck(T("Undisclosed wager"), func(on bool) {
		if on != p.seen {
			term.SetSecret(on)
		}
	})
	p.secretWhy = text("", 15, panelDimText)
	p.pass = text("", 16, selectedChip)
	p.turn = text("", 18, selectedChip)
	p.endTurn = widget.NewButton(T("END TURN"), func() { term.EndTurn() })
	p.endTurn.Importance = widget.HighImportance
	p.box = container.NewVBox(p.title, p.round,
		text(T("TOURNAMENT CHIPS"), 16, panelDimText), p.chips,
		p.bet, p.limits, p.secret, p.secretWhy, p.pass, p.turn, p.endTurn,
		widget.NewSeparator(),
		text(T("STANDINGS"), 16, panelDimText), p.rows)
	p.box.Hide()
	return p
}

// shown reports whether the panel is up for the view: while the tournament is played, and
// after it until the next round opens.
func tournamentShown(v app.View) bool {
	tr := v.Tournament.Tournament
	if tr == nil || tr.Status == table.TournamentNone {
		return false
	}
	return tr.Status.Playing() || (tr.Status == table.TournamentFinished && v.Phase != table.PhaseWagering)
}

// update draws the view's tournament, and reports whether the panel is shown.
func (p *tournamentPanel) update(v app.View) bool {
	if !tournamentShown(v) {
		if p.box.Visible() {
			p.box.Hide()
			for _, o := range p.cashParts {
				o.Show()
			}
		}
		return false
	}
	for _, o := range p.cashParts {
		o.Hide()
	}
	tr, me := v.Tournament.Tournament, v.Tournament.Me
	name := tr.Terms.Name
	if name == "" {
		name = tr.Terms.ID
	}
	p.title.Text = T("TOURNAMENT") + " · " + name
	p.title.TextSize = fitText(p.title.Text, 18, sidePanelWidth-24, p.title.TextStyle)
	switch {
	case tr.Status == table.TournamentFinished:
		p.round.Text = T("FINAL RESULTS")
	case tr.Status == table.TournamentPlayoff:
		// Numbered within the playoff, which follows the scheduled rounds (never "round 4 of 3").
		p.round.Text = fmt.Sprintf(T("PLAYOFF · ROUND %d"), tr.Round-tr.Terms.Rounds)
	default:
		p.round.Text = fmt.Sprintf(T("ROUND %d OF %d"), tr.Round, tr.Terms.Rounds)
	}
	p.chips.Text, p.bet.Text = "—", ""
	if me != nil {
		p.chips.Text = money(me.Chips)
		switch {
		// The final place and prize first: a player eliminated before the end may still have
		// placed, and won a prize (issue 32 point 16: "Eliminated" hid a second place).
		case tr.Status == table.TournamentFinished && me.Rank > 0:
			p.bet.Text = fmt.Sprintf(T("Place %d"), me.Rank)
			if me.Prize > 0 {
				p.bet.Text += " · " + fmt.Sprintf(T("prize %s"), inCurrency(v.Config.Currency, me.Prize))
			}
		case me.State == table.PlayerEliminated:
			p.bet.Text = T("Eliminated")
		case me.State == table.PlayerDisqualified:
			p.bet.Text = T("Disqualified")
		case tr.Status == table.TournamentPlayoff && !me.InPlayoff:
			p.bet.Text = T("Waiting for the playoff")
		default:
			p.bet.Text = T("BET") + " " + money(v.SlipTotal)
			if v.Tournament.Secret {
				p.bet.Text += " · " + T("undisclosed")
			}
		}
	} else {
		p.bet.Text = T("This table is reserved for the tournament")
	}
	p.bet.TextSize = fitText(p.bet.Text, 20, sidePanelWidth-24, p.bet.TextStyle)
	if tr.Status.Playing() {
		p.limits.Text = fmt.Sprintf(T("Minimum %s"), money(tr.Minimum()))
		if tr.Terms.Maximum > 0 {
			p.limits.Text += " · " + fmt.Sprintf(T("maximum %s"), money(tr.Terms.Maximum))
		}
	} else {
		p.limits.Text = fmt.Sprintf(T("Prize pool %s"), inCurrency(v.Config.Currency, tr.PrizePool))
	}
	for _, t := range []*canvas.Text{p.title, p.round, p.chips, p.bet, p.limits} {
		t.Refresh()
	}
	// The undisclosed wager: offered to a player who plays this round and has one left (or has
	// marked this round's).
	p.seen = v.Tournament.Secret
	p.secret.SetChecked(v.Tournament.Secret)
	p.secretWhy.Text = ""
	if v.Tournament.Playing && me != nil && (me.SecretsLeft > 0 || v.Tournament.Secret) {
		p.secret.Text = fmt.Sprintf(T("Undisclosed wager (%d left)"), me.SecretsLeft)
		// A box that cannot be ticked now is greyed and says why beneath it, rather than
		// doing nothing at the touch (issue 32 point 16).
		if why := v.Tournament.SecretWhy; why.IsZero() {
			p.secret.Enable()
		} else {
			p.secret.Disable()
			p.secretWhy.Text = say(why)
		}
		p.secret.Refresh()
		p.secret.Show()
	} else {
		p.secret.Hide()
	}
	showLine(p.secretWhy, 15)
	p.pass.Text = ""
	if v.Tournament.PassUsed > 0 && me != nil {
		p.pass.Text = fmt.Sprintf(T("Pass card used for round %d (%d left)"), v.Tournament.PassUsed, me.PassesLeft)
	}
	showLine(p.pass, 16)
	p.updateTurn(v)
	p.rows.RemoveAll()
	for _, s := range standingsShown(tr.Standings, v.Tournament.Me) {
		p.rows.Add(standingRow(s, me != nil && s.Terminal == me.Terminal, tr.Status == table.TournamentFinished, tr, v.Config.Currency))
	}
	p.box.Show()
	return true
}

// updateTurn draws the order of wagering: whose turn it is, and END TURN (or PASS) for the
// player whose turn it is.
func (p *tournamentPanel) updateTurn(v app.View) {
	tr, me := v.Tournament.Tournament, v.Tournament.Me
	p.turn.Text = ""
	p.endTurn.Hide()
	if tr.Terms.OrderOfWagering && tr.Status.Playing() && v.Phase == table.PhaseWagering && v.Tournament.Playing && me != nil {
		switch {
		case v.Tournament.MyTurn:
			p.turn.Text = T("YOUR TURN TO WAGER")
			p.endTurn.SetText(T("END TURN"))
			if v.SlipTotal == 0 && me.PassesLeft > 0 {
				p.endTurn.SetText(fmt.Sprintf(T("PASS (%d left)"), me.PassesLeft))
			}
			p.endTurn.Show()
		case me.WageredInTurn || v.Tournament.TurnEnded:
			p.turn.Text = T("Your wager is made")
		case tr.Turn != "":
			p.turn.Text = fmt.Sprintf(T("Wait your turn: %s wagers now"), tr.Turn)
		}
	}
	if p.turn.Text == "" {
		p.turn.Hide()
	} else {
		p.turn.TextSize = fitText(p.turn.Text, 18, sidePanelWidth-24, p.turn.TextStyle)
		p.turn.Refresh()
		p.turn.Show()
	}
}

// showLine shows a line of the panel with its text fitted to the panel's width, or hides it
// when it has none.
func showLine(t *canvas.Text, size float32) {
	if t.Text == "" {
		t.Hide()
		return
	}
	t.TextSize = fitText(t.Text, size, sidePanelWidth-24, t.TextStyle)
	t.Refresh()
	t.Show()
}

// standingsShown is the top of the standings, with the player's own line in place of the last
// if it would not be among them.
func standingsShown(all []table.TournamentStanding, me *table.TournamentStanding) []table.TournamentStanding {
	if len(all) <= maxStandingRows {
		return all
	}
	out := append([]table.TournamentStanding(nil), all[:maxStandingRows]...)
	if me == nil {
		return out
	}
	for _, s := range out {
		if s.Terminal == me.Terminal {
			return out
		}
	}
	out[maxStandingRows-1] = *me
	return out
}

// standingRow is one line: place, seat, chips, and what the others may know of the seat's
// wager this round (an undisclosed one shows only that it is).
func standingRow(s table.TournamentStanding, mine, final bool, tr *table.Tournament, cur string) fyne.CanvasObject {
	c := panelText
	if mine {
		c = selectedChip
	}
	// The order of wagering: M marks the marker's box; the seat to wager says so.
	marker, turn := "", false
	if tr.Terms.OrderOfWagering && tr.Status.Playing() {
		if s.Terminal == tr.Marker {
			marker = T("M")
		}
		turn = s.Terminal == tr.Turn
	}
	place := "–"
	if s.Rank > 0 {
		place = fmt.Sprint(s.Rank)
	}
	note := ""
	switch {
	case final && s.Prize > 0: // a prize, even for a player out before the end (issue 32 point 16)
		note = inCurrency(cur, s.Prize) // money, in the table's currency; the chips beside it are not
	case s.State == table.PlayerEliminated:
		note = T("out")
	case s.State == table.PlayerDisqualified:
		note = T("DQ")
	case s.InPlayoff:
		note = T("playoff")
	case turn:
		note = T("to wager")
	case s.Secret && s.RoundStake == 0:
		note = T("undisclosed")
	case s.RoundStake > 0:
		note = T("bet") + " " + money(s.RoundStake)
	}
	cell := func(t string, w float32, align fyne.TextAlign) fyne.CanvasObject {
		x := text(t, 16, c)
		x.Alignment = align
		x.TextStyle = fyne.TextStyle{Bold: mine}
		return container.New(&fixedWidth{w}, x)
	}
	row := []fyne.CanvasObject{cell(place, 24, fyne.TextAlignLeading), cell(s.Terminal, 56, fyne.TextAlignLeading),
		cell(money(s.Chips), 72, fyne.TextAlignTrailing), cell(note, 110, fyne.TextAlignTrailing)}
	if tr.Terms.OrderOfWagering {
		m := text(marker, 16, selectedChip)
		m.TextStyle = fyne.TextStyle{Bold: true}
		row = append([]fyne.CanvasObject{container.New(&fixedWidth{16}, m)}, row...)
	}
	return container.NewHBox(row...)
}

// fixedWidth lays its one object out at a fixed width, so the standings' columns line up.
type fixedWidth struct{ w float32 }

func (f *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(fyne.NewSize(f.w, size.Height))
	}
}

func (f *fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(f.w, h)
}
