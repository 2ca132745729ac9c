package ui

import (
	"fmt"
	"github.com/tablegames/ats/ui/look"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/diagrams"
)

// trayRegion is the chip tray and the actions under the layout: the chips to choose, the
// player's Sound and favourites, the betting controls (Remove last, Remove all, Repeat,
// Double), and at the row's right end what ends or explains the session — the language, Help,
// Game records, Cash out — each in a slot of its own (controlSlots).
type trayRegion struct {
	chips                                       *fyne.Container
	sound                                       *soundButton // the player's mute (sound.go)
	favourites                                  *favouritesRow
	bettingCtl                                  []*widget.Button // Remove last, Remove all, Repeat, Double: enabled only while the table takes bets
	removeLast, removeAll, repeat, double, help *widget.Button
	cashOut                                     *widget.Button // enabled only while a ticket can be printed (View.CanCashOut), or the dealer pays out (View.CashOutAtDealer)
	language                                    *widget.Button // the other language (OfferLanguages): the touch and the button's face
	// languageName is the language button's label (i18n.go): the other language's name
	languageName *languageName
	langBox      fyne.CanvasObject // the button in its theme, shown once the kiosk offers it
	controls     *fyne.Container   // the right-hand slots
	controlsRow  *container.ThemeOverride
	trayL        *trayRow
	tray         *fyne.Container // the chips and the favourites' row
	selectChip   func(amount int64)
}

func newTrayRegion(s *Screen, design diagrams.Design) *trayRegion {
	term := s.term
	r := &trayRegion{chips: container.New(chipTray{})}
	r.selectChip = func(c int64) { s.touched(func() { term.SelectChip(c) }) }
	r.sound = newSoundButton(term)
	r.favourites = newFavouritesRow(term, s.sizing, r.sound.button)
	// The betting controls carry no icons: on a 1280-pixel screen the row has room for their
	// words at a size read from the seat, not for both.
	r.removeLast = widget.NewButton(T("Remove last"), func() { s.touched(func() { term.Undo() }) })
	r.removeAll = widget.NewButton(T("Remove all"), func() { s.touched(func() { term.Clear() }) })
	r.repeat = widget.NewButton(T("Repeat"), func() { s.touched(func() { term.Repeat() }) })
	r.double = widget.NewButton(T("Double"), func() { s.touched(func() { term.Double() }) })
	r.bettingCtl = []*widget.Button{r.removeLast, r.removeAll, r.repeat, r.double}
	// Cash out and Help stand apart from the betting controls, at the right end, each with an
	// icon and a colour of its own: Cash out ends the session, so it is not touched in passing.
	r.cashOut = widget.NewButtonWithIcon(T("Cash out"), theme.DocumentPrintIcon(), func() {
		if s.last.CashOutAtDealer {
			// Nothing prints and nothing ends here: the terminal sends the player to the dealer,
			// who pays the balance in chips (004 §6.6, 000 §11.7.6).
			term.CashOut()
			return
		}
		// Cash out ends the session: the player confirms it, with the amount the ticket will carry.
		s.confirm(fmt.Sprintf(T("Cash out %s? A ticket is printed for your whole balance."), s.cash(s.last.Balance)),
			T("Cash out"), term.CashOut)
	})
	r.cashOut.Importance = widget.WarningImportance
	r.help = widget.NewButtonWithIcon(T("Help"), theme.HelpIcon(), func() { s.showHelp(term.View()) })
	r.help.Importance = widget.HighImportance
	// The betting controls on the left, what ends or explains the session on the right:
	// Help, Game records, and Cash out at the end of the row. U's set has no Double.
	// The language button's label names the other language in its own script: a theme with the
	// Chinese glyphs draws it on an English screen too.
	r.language = widget.NewButton("", nil)
	r.languageName = newLanguageName()
	lt := container.NewThemeOverride(container.NewStack(r.language, r.languageName),
		look.ChineseTheme{Theme: touchTheme{sizing: s.sizing, normal: controlSizes, compact: languageCompactSizes}})
	s.sizing.overrides = append(s.sizing.overrides, lt) // sized as the other controls, at 1280 too
	r.langBox = lt
	r.langBox.Hide()
	// Each in a slot of a fixed width, the same in every language (controlSlots).
	r.controls = container.New(&controlSlots{sizing: s.sizing}, r.langBox, r.help, s.recordsButton(), r.cashOut)
	betting := container.NewHBox(r.removeLast, r.removeAll, r.repeat, r.double)
	if design.Name == "U" {
		betting = container.NewHBox(r.removeAll, r.removeLast, r.repeat)
	}
	r.controlsRow = s.sizing.sized(container.NewBorder(nil, nil, betting, r.controls), nil, nil)
	r.trayL = &trayRow{favs: r.favourites.flow, box: r.favourites.box}
	r.tray = container.New(r.trayL, r.chips, r.favourites.view)
	return r
}

func (r *trayRegion) update(v app.View) {
	// At a table that pays out in chips at the dealer (004 §6.6, 000 §11.7.6) Cash out stays
	// for the player to select, and the terminal answers it by sending them to the dealer.
	if can := v.CanCashOut || v.CashOutAtDealer; can != !r.cashOut.Disabled() {
		if can {
			r.cashOut.Enable()
		} else {
			r.cashOut.Disable()
		}
	}
	r.sound.update(v)
	r.favourites.seen(v)
	// The betting buttons say what the felt says: no chips now (issue 32 point 9: after NO
	// MORE BETS they looked live).
	takesBets := v.Period == app.PeriodOpen || v.Period == app.PeriodWarning
	for _, b := range r.bettingCtl {
		if takesBets == b.Disabled() {
			if takesBets {
				b.Enable()
			} else {
				b.Disable()
			}
		}
	}
	r.showChips(v)
}

// showChips keeps the tray to the chips offered (the table's denominations, less those a
// tournament round's minimum puts out of reach: app.View.Chips), the chosen one raised. The chips are
// made again only when the denominations change: a tap on the felt updates the screen, and
// must not rebuild the tray each time.
func (r *trayRegion) showChips(v app.View) {
	same := len(r.chips.Objects) == len(v.Chips)
	for i := 0; same && i < len(v.Chips); i++ {
		same = r.chips.Objects[i].(*Chip).Value == v.Chips[i]
	}
	if !same {
		objs := make([]fyne.CanvasObject, len(v.Chips))
		for i, c := range v.Chips {
			objs[i] = NewChip(c, func() { r.selectChip(c) })
		}
		r.chips.Objects = objs
		r.chips.Refresh()
	}
	for _, o := range r.chips.Objects {
		o.(*Chip).SetSelected(o.(*Chip).Value == v.Chip)
	}
}
