package console

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/console/model"
)

// A guest's inside bets (000 §11.4.2(b), §11.7): the dealer touches the numbers the guest
// announces on the wheel's grid, each touch taking a number in or out; the panel names the bet
// they make at this table as it is built — decided by the rules engine the table parses wagers
// with (model.View.InsideBet), never by the console's own idea of the felt — and Place sends it
// at the pad's amount. A set that is no bet of this table is said so and cannot be placed.

// toggle is a touch on the inside grid: the number in, or out if it was in.
func (s *Screen) toggle(n string) func() {
	return func() {
		if i := slices.Index(s.sel, n); i >= 0 {
			s.sel = slices.Delete(slices.Clone(s.sel), i, i+1)
		} else {
			s.sel = append(slices.Clone(s.sel), n)
		}
		s.draw()
	}
}

// insidePanel is the inside grid (zeros and numbers as numberGrid lays them) under the bet the
// selection makes, with Back, Clear and Place.
func (s *Screen) insidePanel(zeros, numbers fyne.CanvasObject) fyne.CanvasObject {
	seat, cents := s.seat, s.padCents()
	title, fg := T("Touch the numbers of the bet"), ink
	var place func()
	if len(s.sel) > 0 {
		sp, err := s.v.InsideBet(s.sel)
		if err != nil {
			title, fg = fmt.Sprintf(T("%s: not a bet at this table"), touched(s.sel)), refusedFg
		} else {
			title = betName(sp) + " · " + T("Pays") + " " + fmt.Sprintf(T("%d to 1"), sp.Kind.Odds())
			w := model.InsideWager(sp, cents)
			placed := s.placed(seat, T("Bet placed for %s: %s"), func(ctx context.Context) (int64, string, error) { return s.act.PlaceWager(ctx, seat, w) })
			place = func() { s.sel = nil; placed() }
		}
	}
	// Place says for whom and how much on its second line; without a bet it is drawn greyed
	// and does nothing.
	placeFill, placeInk := action, ink
	if place == nil {
		placeFill, placeInk = seatOff, dim
	}
	size := fyne.NewSize(minTarget*2, minTarget)
	bar := container.NewGridWithColumns(3, s.button(T("Back"), seatOff, s.back),
		s.button(T("Clear"), seatOff, func() { s.sel = nil; s.draw() }),
		newTarget(placeFill, placeInk, s.textSize(), size, place, T("Place"), seat+" · "+s.money(cents)))
	head := container.NewCenter(s.text(title, fg, s.textSize()*1.1, true))
	return container.NewVBox(head, zeros, numbers, bar)
}

// touched lists the numbers touched as the panel's title says them: the first six, then "…"
// (no inside bet has more, and the title must fit the panel).
func touched(sel []string) string {
	if len(sel) > 6 {
		return strings.Join(sel[:6], ", ") + ", …"
	}
	return strings.Join(sel, ", ")
}

// betName names an inside bet as the dealer says it: "Split 17–20", "Street 16-17-18", "Trio
// 0-1-2", "Corner 17-18-20-21", "Basket 0-1-2-3", "Five line 0-00-1-2-3", "Six line 13–18".
func betName(sp roulette.Spot) string {
	var ns []string
	zero := false
	for _, n := range sp.Mask.Numbers() {
		ns = append(ns, n.String())
		zero = zero || n == 0 || n == roulette.DoubleZeroNumber
	}
	dashed := strings.Join(ns, "-")
	switch sp.Kind {
	case roulette.Straight:
		return fmt.Sprintf(T("Straight up %s"), dashed)
	case roulette.Split:
		return fmt.Sprintf(T("Split %s"), strings.Join(ns, "–"))
	case roulette.Street:
		if zero {
			return fmt.Sprintf(T("Trio %s"), dashed)
		}
		return fmt.Sprintf(T("Street %s"), dashed)
	case roulette.Corner:
		if zero {
			return fmt.Sprintf(T("Basket %s"), dashed)
		}
		return fmt.Sprintf(T("Corner %s"), dashed)
	case roulette.FiveLine:
		return fmt.Sprintf(T("Five line %s"), dashed)
	case roulette.SixLine:
		return fmt.Sprintf(T("Six line %s"), ns[0]+"–"+ns[len(ns)-1])
	}
	return sp.String()
}
