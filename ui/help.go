package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
)

// helpFeatures are the screen's own features the help explains, beyond what the view says of
// the table: Double is not on every design's controls.
type helpFeatures struct{ double bool }

// helpKinds are the kinds of bet this table's layout has, in the payout table's order: a
// five-line only on a double-zero wheel that has it (000 §8.4.1, 003 §3.2.5), the Asian
// Neighbour only with an Asian racetrack (002 §3.2) — issue 32 point 8: a single-zero table's
// help listed the five-line at 6 to 1.
func helpKinds(v app.View) []roulette.Kind {
	has := map[roulette.Kind]bool{}
	for _, sp := range v.Config.Layout.Spots() {
		has[sp.Kind] = true
	}
	var kinds []roulette.Kind
	for k := roulette.Straight; k <= roulette.Black; k++ {
		if has[k] {
			kinds = append(kinds, k)
		}
	}
	if v.Config.Layout.Asian.Offered() {
		kinds = append(kinds, roulette.AsianNeighbour)
	}
	return kinds
}

// helpSection is a part of the help after the payouts: a heading, lines, and a table (its
// first row the headings).
type helpSection struct {
	heading string
	lines   []string
	table   [][]string
}

// helpSections are the help's parts on what this table and this screen offer beyond the
// layout: the racetrack's call bets with what each costs, Lucky Ball's odds and limits, and
// Double, the favourites and the statistics (issue 32 point 8).
func helpSections(v app.View, f helpFeatures) []helpSection {
	var out []helpSection
	l := v.Config.Layout
	track := helpSection{heading: "RACETRACK"}
	if v.Config.Racetrack {
		for c := roulette.Tier; c < roulette.Neighbours; c++ {
			pieces, err := l.CallPieces(c, 0, 0)
			if err != nil {
				continue // a single-zero sector, on a double-zero table
			}
			var names []string
			var chips int64
			for _, p := range pieces {
				name := betName(roulette.Bet{Spot: p.Spot})
				if p.Units > 1 {
					name = fmt.Sprintf("%d× %s", p.Units, name)
				}
				names = append(names, name)
				chips += p.Units
			}
			track.lines = append(track.lines, fmt.Sprintf(T("%s: %d chips, one on each of: %s"), T(c.String()), chips, strings.Join(names, ", ")))
		}
		track.lines = append(track.lines, fmt.Sprintf(T("neighbours: a number and the %d either side of it on the wheel, a chip straight up on each (%d chips); the Neighbours buttons 1 to 4 choose how many either side"),
			roulette.DefaultSpread, 2*roulette.DefaultSpread+1))
	} else {
		track.lines = append(track.lines, T("Racetrack bets are declared to the dealer, who places them"))
	}
	out = append(out, track)
	if v.Config.LuckyBall {
		lb := helpSection{heading: "LUCKY BALL", lines: []string{T("Lucky Ball: a wager on a colour wins if the ball lands on that colour's number.")}}
		mega := v.Config.LuckyBallVersion == roulette.LuckyMega
		head := []string{T("Colour"), T("Standard"), "SUPER"}
		if mega {
			lb.lines = append(lb.lines, T("At no more bets one colour is marked SUPER or MEGA (1000 to 1): this table plays the Mega version."))
			head = append(head, "MEGA")
		} else {
			lb.lines = append(lb.lines, T("At no more bets one colour is marked SUPER and pays its Super odds."))
		}
		lb.table = append(lb.table, head)
		for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
			std := roulette.LuckyBallDraw{Version: v.Config.LuckyBallVersion}
			sup := std
			sup.Super, sup.HasSuper = c, true
			row := []string{T(c.String()), fmt.Sprintf(T("%d to 1"), std.Odds(c)), fmt.Sprintf(T("%d to 1"), sup.Odds(c))}
			if mega {
				row = append(row, fmt.Sprintf(T("%d to 1"), roulette.MegaOdds))
			}
			lb.table = append(lb.table, row)
		}
		lim, cur := v.Limits.For(roulette.LuckyBall), v.Config.Currency
		lb.lines = append(lb.lines, fmt.Sprintf(T("Lucky Ball, each colour: %s – %s, in steps of %s"), inCurrency(cur, lim.Min), inCurrency(cur, lim.Max), inCurrency(cur, lim.Unit)))
		out = append(out, lb)
	}
	also := helpSection{heading: "ALSO ON THE SCREEN"}
	if f.double {
		also.lines = append(also.lines, T("Double doubles every wager on the layout, within the limits."))
	}
	also.lines = append(also.lines, T("Save favourite keeps the wagers on the layout; touch a saved favourite to place them again."),
		T("HOT and COLD are the numbers that came up most and least often in the last spins; the bars show how the recent outcomes split: red and black, odd and even, the halves and the dozens."))
	return append(append(out, cardHelp(v)...), also) // carded play's (cardplay.go)
}

// helpSizes are the help screen's: read at arm's length, like the controls (issue 18: help had
// been a 16-pixel monospace dump whose columns misaligned in Chinese).
var helpSizes = map[fyne.ThemeSizeName]float32{theme.SizeNameText: 20, theme.SizeNameSubHeadingText: 26, theme.SizeNameInnerPadding: 6}

// helpView is the help screen: how to play, the payout table from the rules engine with this
// table's limits beside each bet, and what happens when something goes wrong. The same facts as
// helpText, laid out as headings, paragraphs and a table of columns that align in any language.
func helpView(v app.View, f helpFeatures, sizing *touchSizing) fyne.CanvasObject {
	heading := func(s string) fyne.CanvasObject {
		l := widget.NewLabel(T(s))
		l.SizeName, l.TextStyle = theme.SizeNameSubHeadingText, fyne.TextStyle{Bold: true}
		return l
	}
	para := func(s string) fyne.CanvasObject {
		l := widget.NewLabel("• " + s)
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	box := container.NewVBox(heading("HOW TO PLAY"))
	for _, l := range howToPlay {
		box.Add(para(T(l)))
	}
	box.Add(heading("PAYOUTS (to 1, the stake is returned too)"))
	cell := func(s string, bold bool) *widget.Label {
		l := widget.NewLabel(s)
		l.TextStyle.Bold = bold
		return l
	}
	table := container.NewGridWithColumns(5, cell(T("Bet"), true), cell(T("Pays"), true),
		cell(T("Minimum"), true), cell(T("Maximum"), true), cell(T("in steps of"), true))
	for _, k := range helpKinds(v) {
		l := v.Limits.For(k)
		table.Add(cell(T(k.String()), false))
		table.Add(cell(fmt.Sprintf(T("%d to 1"), k.Odds()), true))
		table.Add(cell(inCurrency(v.Config.Currency, l.Min), false))
		table.Add(cell(inCurrency(v.Config.Currency, l.Max), false))
		table.Add(cell(inCurrency(v.Config.Currency, l.Unit), false))
	}
	box.Add(table)
	if v.Limits.AggregateMin > 0 {
		box.Add(widget.NewLabel(fmt.Sprintf(T("Table minimum per spin %s"), inCurrency(v.Config.Currency, v.Limits.AggregateMin))))
	}
	for _, sec := range helpSections(v, f) {
		box.Add(heading(sec.heading))
		for _, l := range sec.lines {
			box.Add(para(l))
		}
		if len(sec.table) > 0 {
			g := container.NewGridWithColumns(len(sec.table[0]))
			for i, row := range sec.table {
				for _, c := range row {
					g.Add(cell(c, i == 0))
				}
			}
			box.Add(g)
		}
	}
	box.Add(heading("IF SOMETHING GOES WRONG"))
	for _, l := range ifWrong {
		box.Add(para(T(l)))
	}
	return sizing.sized(container.NewVScroll(box), helpSizes, nil)
}
