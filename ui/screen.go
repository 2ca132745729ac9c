package ui

import (
	"context"
	"fmt"
	"github.com/tablegames/ats/ui/look"
	"image/color"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Screen is the player's screen of one design (Diagram A, L or U): the felt with its chips and
// the panels around it, following a Model. It is made of regions, each a type of its own that
// makes its widgets and draws its part of the view (update):
//
//   - statusRegion (screen_status.go): the period status and the countdown;
//   - feltRegion (screen_felt.go): the betting layout and its chips;
//   - trackRegion (screen_track.go): the neighbours spread, the call bets and the racetrack;
//   - trayRegion (screen_tray.go): the chip tray and the actions under the layout;
//   - sideRegion (screen_side.go): the side panel — chip account, result, statistics,
//     history, Lucky Ball, jackpot, limits, a tournament's panel;
//   - messageRegion (screen_message.go): the message bar and the buy-in offer in its place.
//
// The regions are embedded, so the screen's other files name their widgets as the screen's own
// (s.felt, s.balance, s.controls).
type Screen struct {
	term   Model
	design diagrams.Design
	geom   *diagrams.Geometry

	*statusRegion
	*feltRegion
	*trackRegion
	*trayRegion
	*sideRegion
	*messageRegion

	left   *fyne.Container // the play area: the felt and the rows under it
	sizing *touchSizing
	card   *cardPlay // carded play: the strip and the card screens (cardplay.go)

	// Elements maps each element the design requires to the object that shows it.
	Elements map[diagrams.Element]fyne.CanvasObject
	root     fyne.CanvasObject
	last     app.View

	// do runs a UI change on the Fyne thread: fyne.Do. A headless test sets its own Fyne
	// thread here, since the test driver runs fyne.Do on the caller's goroutine.
	do func(func())
	// told is the latest view the terminal told (Follow), toldCount how many it told;
	// applied is the number of the latest drawn (on the Fyne thread only).
	told      atomic.Pointer[toldView]
	toldCount atomic.Uint64
	applied   uint64

	service *serviceScreen // technician mode (technician.go); nil without it
}

// Status colours: the period states must read at a glance (000 §10.6.2).
var (
	openColour   = look.Open // the states' colours are every screen's (ui/look)
	warnColour   = color.NRGBA{R: 0xff, G: 0xa0, B: 0x00, A: 0xff}
	closedColour = look.Closed
	panelText    = color.NRGBA{R: 0xf0, G: 0xf0, B: 0xf0, A: 0xff}
	panelDimText = look.DimText
	panelBg      = look.Panel
	selectedChip = color.NRGBA{R: 0xf2, G: 0xc1, B: 0x2e, A: 0xff}
)

func text(s string, size float32, c color.Color) *canvas.Text {
	t := canvas.NewText(s, c)
	t.TextSize = size
	t.TextStyle = fyne.TextStyle{Bold: true}
	return t
}

// NewScreen builds the screen of a design for a terminal on a layout: its regions, the
// elements the design requires, and the regions in their places — the play area (the felt,
// the racetrack, the tray, the controls and the message bar) on the left, the side panel the
// full height on the right.
func NewScreen(term Model, design diagrams.Design, l roulette.Layout) (*Screen, error) {
	geom, err := diagrams.New(l)
	if err != nil {
		return nil, err
	}
	s := &Screen{term: term, design: design, geom: geom, do: fyne.Do, sizing: &touchSizing{}}
	s.feltRegion = newFeltRegion(s, geom)
	s.statusRegion = newStatusRegion()
	s.sideRegion = newSideRegion(s)
	if s.trackRegion, err = newTrackRegion(s, l); err != nil {
		return nil, err
	}
	s.trayRegion = newTrayRegion(s, design)
	s.messageRegion = newMessageRegion(s, design, s.controlsRow)

	s.Elements = map[diagrams.Element]fyne.CanvasObject{
		diagrams.ElemLayout: s.felt, diagrams.ElemChipSelector: s.chips, diagrams.ElemBalance: s.balance,
		diagrams.ElemCountdown: s.countdown, diagrams.ElemPeriodStatus: s.status, diagrams.ElemOutcome: s.outcomeBox,
		diagrams.ElemAmountWon: s.won, diagrams.ElemAmountBet: s.bet, diagrams.ElemLimitSign: s.limits.box,
		diagrams.ElemCashOut: s.cashOut, diagrams.ElemHistory: s.history, diagrams.ElemGameStatus: s.status,
		diagrams.ElemRemoveAll: s.removeAll, diagrams.ElemRemoveLast: s.removeLast, diagrams.ElemRepeat: s.repeat,
		diagrams.ElemDouble: s.double, diagrams.ElemHelp: s.help, diagrams.ElemRacetrack: s.neighbours,
		diagrams.ElemNoteBuyIn:      s.noteBuyIn,
		diagrams.ElemPendingMinimum: s.pending, diagrams.ElemLuckyBall: s.lucky,
		diagrams.ElemJackpotMeter: s.jackpot,
	}
	s.sideRegion.compose()
	s.card = newCardPlay(s)
	s.side.Objects = append(s.side.Objects, s.card.strip)
	s.explained = func() { s.side.Refresh() } // its column laid out again: the words under the status

	fb := s.geom.Bounds
	play := &playArea{feltAspect: (fb.Max.X - fb.Min.X) / (fb.Max.Y - fb.Min.Y), track: s.neighbours.Layout.(*trackRow),
		tray: s.trayL, sizing: s.sizing}
	s.left = container.New(play, s.felt, s.neighbours, s.tray, s.controlsRow, s.bottom)
	s.favourites.changed = s.relayout
	panel := container.NewStack(backdrop(), container.NewPadded(s.side))
	// The panel runs the full height on the right and the controls sit under the layout, so the
	// screen fits 1280×800 as well as 1920×1080.
	s.root = container.NewBorder(nil, nil, nil, container.New(sidePanel{width: sidePanelWidth, height: s.fitSide}, panel),
		container.NewStack(backdrop(), container.New(inset{rowGap}, s.left), s.card.area)) // a card screen over the play area (cardplay.go)
	s.update(term.View())
	return s, nil
}

// cash is an amount of money with the table's currency symbol, as balances, stakes, wins and
// offers show it (issue 18: the symbol wherever money shows).
func (s *Screen) cash(cents int64) string {
	return inCurrency(s.last.Config.Currency, cents)
}

// relayout lays the play area out again after a row changed its height or appeared: the GL
// driver would find that on its next frame, the test driver would not.
func (s *Screen) relayout() {
	if s.left != nil {
		s.left.Refresh()
	}
}

func slicesContains(es []diagrams.Element, e diagrams.Element) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// Content is the screen's canvas object.
func (s *Screen) Content() fyne.CanvasObject { return s.root }

// ScheduleWith replaces how the screen queues its changes onto the Fyne thread (fyne.Do by
// default); call it before Follow. The kiosk's queues a change and then wakes its event loop
// from an idle wait (internal/idleloop), so that no change waits for the wait to end.
func (s *Screen) ScheduleWith(do func(func())) { s.do = do }

// Follow keeps the screen current: every view change, and the countdown each time its second
// changes, each applied on the Fyne thread through fyne.Do, until ctx ends.
func (s *Screen) Follow(ctx context.Context) {
	wake := make(chan struct{}, 1)
	s.term.OnChange(func(v app.View) {
		// The terminal tells its views one at a time, in order: the numbers follow that order.
		told := &toldView{v: v, n: s.toldCount.Add(1)}
		s.told.Store(told)
		s.do(func() { s.apply(told) })
		select { // the countdown may have started or stopped: time the next tick again
		case wake <- struct{}{}:
		default:
		}
	})
	go func() {
		t := time.NewTimer(0)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-wake:
			case <-t.C:
				s.do(s.tick)
			}
			t.Reset(s.untilNextSecond())
		}
	}()
}

// toldView is a view the terminal told, numbered in the order it told them.
type toldView struct {
	v app.View
	n uint64
}

// apply draws a told view on the Fyne thread, unless a later one is drawn already (touched
// draws a touch's view before the queue reaches it).
func (s *Screen) apply(t *toldView) {
	if t.n <= s.applied {
		return
	}
	s.applied = t.n
	s.update(t.v)
}

// touched runs a terminal call made by a touch, on the Fyne thread, and draws the view it told
// at once (issue 18, tap to pixels). Through fyne.Do alone the view waits for the Fyne loop's
// next turn: the frame the loop draws right after the touch's events — a pressed button's or
// a chip's — went out without the answer, which came a frame (in software GL ~35 ms) later.
// The queued copy is then skipped (apply).
func (s *Screen) touched(call func()) {
	call()
	if t := s.told.Load(); t != nil {
		s.apply(t)
	}
}

// untilNextSecond is the wait until the countdown shows another number: just after the table's
// clock crosses the next whole second while wagering, otherwise a slow beat that only keeps the
// status honest (the views bring every other change).
func (s *Screen) untilNextSecond() time.Duration {
	rem := s.term.Remaining()
	if rem <= 0 {
		return time.Second
	}
	return rem%time.Second + 5*time.Millisecond
}

// tick redraws the countdown from the terminal's estimate of the server clock.
func (s *Screen) tick() { s.statusRegion.tick(s.last, s.term.Remaining) }

// update draws view v: each region its part, then technician mode's overlays and the countdown.
func (s *Screen) update(v app.View) {
	s.last = v
	s.trayRegion.update(v)
	s.messageRegion.update(v)
	s.statusRegion.update(v)
	s.feltRegion.update(v)
	s.trackRegion.update(v)
	s.sideRegion.update(v)
	s.card.update(v)
	s.serviceSeen(v) // technician mode's overlays (technician.go)
	s.tick()
}

// setText sets a text and refreshes it, only when it changes.
func setText(t *canvas.Text, s string) {
	if t.Text != s {
		t.Text = s
		t.Refresh()
	}
}

// setLabel sets a label's text only when it changes: SetText shapes and lays the text out
// again even when it is the same.
func setLabel(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

// confirmBuyIn answers the dealer's buy-in offer. The answer goes to the table server off the
// Fyne thread, so the screen never waits on the network; a refusal is reported back on it.
func (s *Screen) confirmBuyIn(accept bool) {
	go s.term.ConfirmBuyIn(context.Background(), accept)
}

// helpText is the help screen (000 §11.2): how to play, the payouts generated from the rules
// engine, this table's limits for every kind of bet, and what happens when something fails.
// The help's paragraphs (i18n keys), shared by helpText and the help screen (help.go).
var (
	howToPlay = []string{
		"Choose a chip, then touch a spot on the layout to place it; touch again to add another.",
		"Drag a chip to move it; drag it off the layout to take it back. Remove last and Remove all undo.",
		"Touch and hold a spot to see what it pays and its limits.",
		"Bets can be placed, changed or removed until the countdown ends: then no more bets.",
		"A chip shows … until the table has accepted it. Winnings are added to your balance.",
		"Cash out prints a ticket for your whole balance.",
	}
	ifWrong = []string{
		"If this terminal or the table fails before betting ends, the round's wagers are void and returned.",
		"After betting ends, wagers are settled from the table's records.",
		"A spin that does not count changes nothing: wagers stay for the next spin.",
		"Money and tickets are recorded before they are acted on: call an attendant for any question.",
	}
)

// helpText is the help screen as text, in the order helpView lays it out, with every feature
// of the screen (Double among them): the tests read it.
func helpText(v app.View) string { return helpTextFor(v, helpFeatures{double: true}) }

func helpTextFor(v app.View, f helpFeatures) string {
	var b strings.Builder
	b.WriteString(T("HOW TO PLAY") + "\n")
	for _, l := range howToPlay {
		b.WriteString("  " + T(l) + "\n")
	}
	b.WriteString("\n" + T("PAYOUTS (to 1, the stake is returned too)") + "\n")
	kinds := helpKinds(v)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-10s %3d\n", T(k.String()), k.Odds())
	}
	b.WriteString("\n" + T("LIMITS") + "\n")
	cur := v.Config.Currency
	for _, k := range kinds {
		l := v.Limits.For(k)
		fmt.Fprintf(&b, "  %-10s %s – %s, %s %s\n", T(k.String()), inCurrency(cur, l.Min), inCurrency(cur, l.Max), T("in steps of"), inCurrency(cur, l.Unit))
	}
	if v.Limits.AggregateMin > 0 {
		fmt.Fprintf(&b, "  "+T("Table minimum per spin %s")+"\n", inCurrency(cur, v.Limits.AggregateMin))
	}
	for _, sec := range helpSections(v, f) {
		b.WriteString("\n" + T(sec.heading) + "\n")
		for _, l := range sec.lines {
			b.WriteString("  " + l + "\n")
		}
		for _, row := range sec.table {
			b.WriteString(" ")
			for i, c := range row {
				if i == 0 {
					fmt.Fprintf(&b, " %-8s", c)
				} else {
					fmt.Fprintf(&b, " %9s", c)
				}
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n" + T("IF SOMETHING GOES WRONG") + "\n")
	for _, l := range ifWrong {
		b.WriteString("  " + T(l) + "\n")
	}
	return b.String()
}

// showHelp opens the help screen over the layout, with the way to call the dealer: a player who
// thinks an outcome is wrong or the game has failed says so, and the dealer must consider it
// (001 §9.5, 000 §10.9.4). The answer is on the message line.
func (s *Screen) showHelp(v app.View) {
	call := widget.NewButtonWithIcon(T("Call the dealer: a wrong result or a fault"), theme.InfoIcon(), func() {
		go s.term.CallDealer(context.Background()) // the table answers on the message line
	})
	f := helpFeatures{double: s.Elements[diagrams.ElemDouble].Visible()}
	// Beside the side panel, not over it: the period status and the countdown stay in view
	// while the player reads (issue 32 point 8).
	s.showBeside(container.NewBorder(nil, container.NewHBox(call), nil, nil, helpView(v, f, s.sizing)))
}
