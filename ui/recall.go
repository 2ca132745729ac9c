package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Recall depths the rules ask for (001 §9.9 and the labs): the current and previous 9 games,
// the last 35 tickets printed.
const (
	recallRounds  = 10
	recallTickets = 35
)

// recallView is the last-game recall: each of the last rounds drawn on the layout with the
// chips that were accepted and the winning number marked, with its figures; and the tickets
// printed and accepted.
type recallView struct {
	rounds []recall.Round
	cur    string // the table's currency, the figures are in
	i      int
	felt   *Felt
	title  *widget.Label
	detail *widget.Label
	root   fyne.CanvasObject
}

func newRecallView(geom *diagrams.Geometry, cur string, rounds []recall.Round, printed, accepted []recall.Ticket) *recallView {
	rv := &recallView{rounds: rounds, cur: cur, felt: NewFelt(geom), title: widget.NewLabel(""), detail: widget.NewLabel("")}
	rv.title.TextStyle = fyne.TextStyle{Bold: true}
	rv.detail.Wrapping = fyne.TextWrapWord
	older := widget.NewButton(T("Previous game"), func() { rv.show(rv.i + 1) })
	newer := widget.NewButton(T("Next game"), func() { rv.show(rv.i - 1) })
	games := container.NewBorder(rv.title, container.NewVBox(rv.detail, container.NewHBox(older, newer)), nil, nil, rv.felt)
	tabs := container.NewAppTabs(
		container.NewTabItem(T("Games"), games),
		container.NewTabItem(T("Tickets"), container.NewVScroll(ticketsView(cur, printed, accepted))),
	)
	rv.root = tabs
	rv.show(0)
	return rv
}

// show draws round i (0 is the newest).
func (rv *recallView) show(i int) {
	if len(rv.rounds) == 0 {
		rv.title.SetText(T("No games recorded on this terminal"))
		rv.detail.SetText("")
		rv.felt.SetStakes(nil)
		rv.felt.SetWinning(0, false)
		return
	}
	rv.i = max(0, min(i, len(rv.rounds)-1))
	r := rv.rounds[rv.i]
	stakes := map[roulette.Spot]int64{}
	bets, per, err := r.Bets()
	if err == nil {
		for k, b := range bets {
			pieces, err := b.Pieces(r.Layout)
			if err != nil {
				continue
			}
			for _, p := range pieces {
				stakes[p.Spot] += per[k] * p.Units
			}
		}
	}
	rv.felt.SetStakes(stakes)
	rv.felt.SetWinning(r.Number, r.Settled && r.Recognised)
	title := fmt.Sprintf(T("Game %d of %d: round %s"), rv.i+1, len(rv.rounds), r.ID)
	if !r.At.IsZero() {
		// When it was played, in the cabinet's local time (issue 32 point 11).
		title += " · " + r.At.Local().Format("15:04:05")
	}
	rv.title.SetText(title)
	rv.detail.SetText(roundText(rv.cur, r, err))
}

// roundText is a game's figures, in the table's currency cur.
func roundText(cur string, r recall.Round, betsErr error) string {
	var lines []string
	switch {
	case !r.Settled:
		lines = append(lines, T("In play: not settled yet"))
	default:
		o := fmt.Sprintf(T("Outcome %s %s"), r.Number, T(r.Number.Colour().String()))
		if r.Corrected {
			o += " " + T("(corrected)")
		}
		lines = append(lines, o)
		// In the live message's words (001 §4.3.3): the wagers were on the layout, the table
		// settled none of them (Staked 0), and returned what they were.
		total := r.SlipTotal()
		if total == 0 {
			total = r.Staked // a table that records the stakes of a round it did not recognise
		}
		switch {
		case !r.Recognised && total > 0:
			lines = append(lines, fmt.Sprintf(T("Your wagers of %s were below the table minimum: not recognised for this spin and returned to your balance"),
				inCurrency(cur, total)))
		case !r.Recognised:
			lines = append(lines, T("No wagers on this spin"))
		}
	}
	lines = append(lines,
		fmt.Sprintf(T("Wagered %s   Won %s"), inCurrency(cur, r.Staked), inCurrency(cur, r.Returned)),
		fmt.Sprintf(T("Balance before %s   after %s"), inCurrency(cur, r.BalanceBefore), inCurrency(cur, r.BalanceAfter)),
		fmt.Sprintf(T("Money in %s   out %s during the game"), inCurrency(cur, r.MoneyIn), inCurrency(cur, r.MoneyOut)))
	if betsErr != nil {
		lines = append(lines, betsErr.Error())
	}
	return strings.Join(lines, "\n")
}

// ticketsView is the tickets printed and accepted, a row each in a grid of four columns — when,
// the validation number (or "note"), the amount, what became of it — so the columns align in any
// language and font: a monospace text's did not in Chinese, whose font is not monospace. The
// amounts are right-aligned with their currency symbol, in the same column in both lists.
func ticketsView(cur string, printed, accepted []recall.Ticket) fyne.CanvasObject {
	cell := func(s string, align fyne.TextAlign) fyne.CanvasObject {
		l := widget.NewLabel(s)
		l.Alignment = align
		return l
	}
	list := func(ts []recall.Ticket, row func(recall.Ticket) (what, state string)) fyne.CanvasObject {
		if len(ts) == 0 {
			return widget.NewLabel("-")
		}
		g := container.NewGridWithColumns(4)
		for _, t := range ts {
			what, state := row(t)
			g.Add(cell(t.At.Local().Format("2006-01-02 15:04:05"), fyne.TextAlignLeading))
			g.Add(cell(what, fyne.TextAlignLeading))
			g.Add(cell(inCurrency(cur, t.Amount), fyne.TextAlignTrailing))
			g.Add(cell(state, fyne.TextAlignLeading))
		}
		return g
	}
	heading := func(s string) fyne.CanvasObject {
		l := widget.NewLabel(s)
		l.TextStyle.Bold = true
		return l
	}
	return container.NewVBox(
		heading(fmt.Sprintf(T("Last %d tickets printed"), recallTickets)),
		list(printed, func(t recall.Ticket) (string, string) { return t.Validation, T(t.State) }),
		heading(T("Last tickets and notes accepted")),
		list(accepted, func(t recall.Ticket) (string, string) {
			if t.Validation == "" {
				return T("note"), ""
			}
			return t.Validation, ""
		}))
}

// recordsButton is Game records: it opens the last-game recall over the screen, read from the
// terminal's records off the Fyne thread.
func (s *Screen) recordsButton() fyne.CanvasObject {
	return widget.NewButtonWithIcon(T("Game records"), theme.HistoryIcon(), func() {
		go func() {
			g, err := s.term.GameRecords(context.Background(), recallRounds, recallTickets)
			if err != nil {
				return // the terminal says why on the message line
			}
			s.do(func() { s.showRecall(g.Rounds, g.Printed, g.Accepted) })
		}()
	})
}

func (s *Screen) showRecall(rounds []recall.Round, printed, accepted []recall.Ticket) {
	_, content := s.recallContent(rounds, printed, accepted)
	s.showModal(content)
}

// recallSizes are the game records': the help's reading size, and tabs a finger can hit (issue
// 32 point 11: 13–14 px text and tabs of the same height).
var recallSizes = map[fyne.ThemeSizeName]float32{theme.SizeNameText: 20, theme.SizeNameSubHeadingText: 26,
	theme.SizeNameInnerPadding: 14, theme.SizeNameInlineIcon: 26}

// recallContent is the game records as the screen shows them, sized for reading from the seat.
func (s *Screen) recallContent(rounds []recall.Round, printed, accepted []recall.Ticket) (*recallView, fyne.CanvasObject) {
	rv := newRecallView(s.geom, s.last.Config.Currency, rounds, printed, accepted)
	return rv, s.sizing.sized(rv.root, recallSizes, nil)
}
