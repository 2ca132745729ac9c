package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
)

// The Lucky Ball border colours (003 §7.4).
var ballColours = [4]color.NRGBA{
	{R: 0xe5, G: 0x39, B: 0x35, A: 0xff}, // red
	{R: 0x43, G: 0xa0, B: 0x47, A: 0xff}, // green
	{R: 0x1e, G: 0x88, B: 0xe5, A: 0xff}, // blue
	{R: 0xfd, G: 0xd8, B: 0x35, A: 0xff}, // yellow
}

// luckyResult is a settled round's Lucky Ball as the panel shows it: the colour whose number
// came up (hasWinner), and what each winning wager won over its stake.
type luckyResult struct {
	winner    roulette.BallColour
	hasWinner bool
	won       map[roulette.Spot]int64
}

// luckyBorder is the width of a Lucky Ball area's coloured border; a winning colour's is wider.
const luckyBorder, luckyWinBorder = 5, 9

// luckyBallPanel shows the four Lucky Ball numbers in their coloured borders with the odds each
// pays, the Super or Mega colour marked once chosen — the word large, as the odds it changes
// (issue 32 point 18) — and the four betting areas (003 §7): each with the chip of what is
// staked on it, inside its border, and its Bet button dimmed while the table takes no bets
// (open false). At the result the colour whose number came up is filled with its colour, and a
// winning wager shows what it won on a payout tab in place of its Bet button, as the felt's
// chips do.
//
// drawing (app.View.LuckyMarkPending) says, in the heading's place, that the Super (or
// Super/Mega) colour is being drawn: the time from the terminal's NO MORE BETS to the mark.
func luckyBallPanel(d *roulette.LuckyBallDraw, version roulette.LuckyBallVersion, staked map[roulette.Spot]int64, res luckyResult, open, drawing bool, place func(roulette.BallColour)) fyne.CanvasObject {
	row := container.NewGridWithColumns(4)
	draw := roulette.LuckyBallDraw{Version: version}
	if d != nil {
		draw = *d
	}
	// A quarter of the side panel, less the grid's gaps and the cell's padding and border.
	cell := float32(sidePanelWidth)/4 - 2*luckyWinBorder - 4
	for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
		border := canvas.NewRectangle(color.Transparent)
		border.StrokeColor, border.StrokeWidth = ballColours[c], luckyBorder
		if res.hasWinner && res.winner == c {
			fill := ballColours[c]
			fill.A = 0x70
			border.FillColor, border.StrokeWidth = fill, luckyWinBorder
		}
		number := "?"
		if d != nil {
			number = d.Numbers[c].String()
		}
		mark := ""
		switch {
		case draw.HasMega && draw.Mega == c:
			mark = "MEGA"
		case draw.HasSuper && draw.Super == c:
			mark = "SUPER"
		}
		num := text(number, 24, panelText)
		num.Alignment = fyne.TextAlignCenter
		odds := text(fmt.Sprintf("%d:1", draw.Odds(c)), 14, ballColours[c])
		odds.Alignment = fyne.TextAlignCenter
		// SUPER / MEGA on a line of its own, as large as the cell allows, so a 1000:1 pays
		// line still fits its cell.
		marked := text(mark, 17, ballColours[c])
		marked.Alignment = fyne.TextAlignCenter
		marked.TextStyle = fyne.TextStyle{Bold: true}
		if mark != "" {
			marked.TextSize = max(fitText(mark, 17, cell, marked.TextStyle), 16)
		}
		c := c
		bottom := fyne.CanvasObject(nil)
		if won := res.won[roulette.LuckyBallSpot(c)]; won > 0 {
			// What the wager won, on the felt's green payout tab, in place of the Bet button
			// (no bets are taken at the result).
			tab := canvas.NewRectangle(wonBadge)
			tab.CornerRadius = 4
			amt := text("+"+money(won), 16, color.White)
			amt.Alignment, amt.TextStyle = fyne.TextAlignCenter, fyne.TextStyle{Bold: true}
			amt.TextSize = fitText(amt.Text, 16, cell, amt.TextStyle)
			bottom = container.NewStack(tab, container.NewPadded(amt))
		} else {
			bet := widget.NewButton(T("Bet"), func() { place(c) })
			if !open {
				bet.Disable()
			}
			bottom = bet
		}
		// The stake's chip stands at the right of the number, which moves left for it: the cell
		// is a quarter of the side panel, too narrow for both side by side centred.
		top := fyne.CanvasObject(num)
		if a := staked[roulette.LuckyBallSpot(c)]; a > 0 {
			num.Alignment = fyne.TextAlignLeading
			// The number gives the chip its room (the chip is at most 0.42 of the row).
			num.TextSize = fitText(number, 24, cell*0.56, num.TextStyle)
			top = container.NewStack(num, newStakeMark(a))
		}
		row.Add(container.NewStack(border, container.NewPadded(container.NewVBox(top, odds, marked, bottom))))
	}
	// While the mark is drawn its words stand in the heading's place, in the panel's bright
	// text: a line more did not fit the side panel at 1280×800.
	heading := text(T("LUCKY BALL"), 16, panelDimText)
	if drawing {
		heading.Text = T("SUPER ODDS: DRAWING…")
		if version == roulette.LuckyMega {
			heading.Text = T("SUPER / MEGA: DRAWING…")
		}
		heading.Color = panelText
		heading.TextSize = fitText(heading.Text, 16, float32(sidePanelWidth)-8, heading.TextStyle)
	}
	return container.NewVBox(heading, row)
}

// stakeMark is a stake's chip at the right end of the row it stands in.
type stakeMark struct {
	widget.BaseWidget
	amount int64
}

func newStakeMark(amount int64) *stakeMark {
	m := &stakeMark{amount: amount}
	m.ExtendBaseWidget(m)
	return m
}

func (m *stakeMark) CreateRenderer() fyne.WidgetRenderer { return &stakeMarkRenderer{m: m} }

type stakeMarkRenderer struct {
	m    *stakeMark
	objs []fyne.CanvasObject
}

// Layout puts the chip at the right end of the row, wholly inside it: a stack's under-chip
// stands 0.1 d lower than the chip, so the chip is sized for 1.1 d of height (issue 32 point
// 18: the chip spilled over its area's border).
func (r *stakeMarkRenderer) Layout(size fyne.Size) {
	d := min(30, size.Height/1.1, size.Width*0.42)
	r.objs, _ = stakeChip(r.m.amount, fyne.NewPos(size.Width-d/2, size.Height/2-d*0.05), d)
}
func (r *stakeMarkRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *stakeMarkRenderer) Refresh()                     { r.Layout(r.m.Size()) }
func (r *stakeMarkRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *stakeMarkRenderer) Destroy()                     {}
