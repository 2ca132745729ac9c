package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
)

// helpSizes are the help screen's: read at arm's length, like the controls (issue 18: help had
// been a 16-pixel monospace dump whose columns misaligned in Chinese).
var helpSizes = map[fyne.ThemeSizeName]float32{theme.SizeNameText: 20, theme.SizeNameSubHeadingText: 26, theme.SizeNameInnerPadding: 6}

// helpView is the help screen: how to play, the payout table from the rules engine with this
// table's limits beside each bet, and what happens when something goes wrong. The same facts as
// helpText, laid out as headings, paragraphs and a table of columns that align in any language.
func helpView(v app.View, sizing *touchSizing) fyne.CanvasObject {
	heading := func(s string) fyne.CanvasObject {
		l := widget.NewLabel(T(s))
		l.SizeName, l.TextStyle = theme.SizeNameSubHeadingText, fyne.TextStyle{Bold: true}
		return l
	}
	para := func(s string) fyne.CanvasObject {
		l := widget.NewLabel("• " + T(s))
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	box := container.NewVBox(heading("HOW TO PLAY"))
	for _, l := range howToPlay {
		box.Add(para(l))
	}
	box.Add(heading("PAYOUTS (to 1, the stake is returned too)"))
	cell := func(s string, bold bool) *widget.Label {
		l := widget.NewLabel(s)
		l.TextStyle.Bold = bold
		return l
	}
	table := container.NewGridWithColumns(5, cell(T("Bet"), true), cell(T("Pays"), true),
		cell(T("Minimum"), true), cell(T("Maximum"), true), cell(T("in steps of"), true))
	for k := roulette.Straight; k <= roulette.Black; k++ {
		l := v.Limits.For(k)
		table.Add(cell(T(k.String()), false))
		table.Add(cell(fmt.Sprintf(T("%d to 1"), k.Odds()), true))
		table.Add(cell(inCurrency(v.Config.Currency, l.Min), false))
		table.Add(cell(inCurrency(v.Config.Currency, l.Max), false))
		table.Add(cell(inCurrency(v.Config.Currency, l.Unit), false))
	}
	box.Add(table)
	if v.Config.LuckyBall {
		box.Add(para("Lucky Ball: the odds of each colour are shown on the layout every round"))
	}
	if v.Limits.AggregateMin > 0 {
		box.Add(widget.NewLabel(fmt.Sprintf(T("Table minimum per spin %s"), inCurrency(v.Config.Currency, v.Limits.AggregateMin))))
	}
	box.Add(heading("IF SOMETHING GOES WRONG"))
	for _, l := range ifWrong {
		box.Add(para(l))
	}
	return sizing.sized(container.NewVScroll(box), helpSizes, nil)
}
