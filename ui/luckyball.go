package ui

import (
	"fmt"
	"image/color"
	"strings"

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

// luckyBallPanel shows the four Lucky Ball numbers in their coloured borders with the odds each
// pays, the Super or Mega colour marked once chosen, and the four betting areas (003 §7): each
// with the chip of what is staked on it, and its Bet button dimmed while the table takes no
// bets (open false).
func luckyBallPanel(d *roulette.LuckyBallDraw, version roulette.LuckyBallVersion, staked map[roulette.Spot]int64, open bool, place func(roulette.BallColour)) fyne.CanvasObject {
	row := container.NewGridWithColumns(4)
	draw := roulette.LuckyBallDraw{Version: version}
	if d != nil {
		draw = *d
	}
	for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
		border := canvas.NewRectangle(color.Transparent)
		border.StrokeColor, border.StrokeWidth = ballColours[c], 5
		number := "?"
		if d != nil {
			number = d.Numbers[c].String()
		}
		mark := ""
		switch {
		case draw.HasMega && draw.Mega == c:
			mark = " MEGA"
		case draw.HasSuper && draw.Super == c:
			mark = " SUPER"
		}
		num := text(number, 30, panelText)
		num.Alignment = fyne.TextAlignCenter
		odds := text(fmt.Sprintf("%d:1", draw.Odds(c)), 14, ballColours[c])
		odds.Alignment = fyne.TextAlignCenter
		// SUPER / MEGA on a line of its own, so a 1000:1 pays line still fits its cell.
		marked := text(strings.TrimSpace(mark), 12, ballColours[c])
		marked.Alignment = fyne.TextAlignCenter
		c := c
		bet := widget.NewButton(T("Bet"), func() { place(c) })
		if !open {
			bet.Disable()
		}
		// The stake's chip stands at the right of the number, which moves left for it: the cell
		// is a quarter of the side panel, too narrow for both side by side centred.
		top := fyne.CanvasObject(num)
		if a := staked[roulette.LuckyBallSpot(c)]; a > 0 {
			num.Alignment = fyne.TextAlignLeading
			top = container.NewStack(num, newStakeMark(a))
		}
		row.Add(container.NewStack(border, container.NewPadded(container.NewVBox(top, odds, marked, bet))))
	}
	return container.NewVBox(text(T("LUCKY BALL"), 16, panelDimText), row)
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

func (r *stakeMarkRenderer) Layout(size fyne.Size) {
	d := min(30, size.Height, size.Width*0.42)
	r.objs, _ = stakeChip(r.m.amount, fyne.NewPos(size.Width-d/2, size.Height/2), d)
}
func (r *stakeMarkRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *stakeMarkRenderer) Refresh()                     { r.Layout(r.m.Size()) }
func (r *stakeMarkRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *stakeMarkRenderer) Destroy()                     {}
