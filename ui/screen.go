package ui

import (
	"context"
	"fmt"
	"image/color"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/app/table"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// Screen is the player's screen of one design (Diagram A, L or U): the felt with its chips and
// the panels around it, following a Model.
type Screen struct {
	term     Model
	language *widget.Button // the other language (OfferLanguages): the touch and the button's face
	// languageName is the language button's label (i18n.go): the other language's name
	languageName *languageName
	langBox      fyne.CanvasObject // the button in its theme, shown once the kiosk offers it
	design       diagrams.Design
	geom         *diagrams.Geometry

	felt        *Felt
	track       *Racetrack
	spreadSel   *segmented // the neighbours spread: its chosen segment is the spread less one
	chips       *fyne.Container
	balance     *canvas.Text
	bet         *canvas.Text
	countdown   *canvas.Text
	status      *canvas.Text
	explain     *widget.Label // what a state the player cannot act in means (frozen)
	outcome     *canvas.Text
	outcomeBg   *canvas.Rectangle // the winning number sits on a tile of its colour
	outcomeMark fyne.CanvasObject
	won         *canvas.Text
	callout     *canvas.Text // what the winning number is: RED · ODD · 2nd 12 · 1 to 18
	message     *messageLine
	history     *fyne.Container
	tiles       []*historyTile // the history's tiles, made once and reused (showHistory)
	historyRows int            // the rows of tiles shown: 2, or fewer where the panel is short (fitSide)
	sideH       float32        // the side panel's height, as last laid out (fitSide)
	// historyGaveWay: fitSide hid the history, the panel being short of height for it
	historyGaveWay bool
	tilesTall      bool            // the history's tiles are tall (fitSide)
	sideFor        sideShown       // what the side panel was fitted with (refitSide)
	limits         *limitBoard     // the table's limit sign (stats.go)
	personal       *fyne.Container // the distinctive marker: this seat plays to its own limits (000 §4.3)
	pending        *widget.Label
	calls          *widget.Label
	stats          *statsBoard     // the statistics of the recent outcomes (stats.go)
	resultBox      *fyne.Container // the outcome, its call-out and the win: in the statistics' place while shown
	slot           *resultSlot
	side           *fyne.Container // the side panel's column
	lucky          *fyne.Container
	luckyFor       luckyShown // what the Lucky Ball panel shows (showLuckyBall)
	luckyMade      bool
	buyIn          *fyne.Container
	buyInRow       *container.ThemeOverride // the offer's row, hidden while there is none
	messageView    fyne.CanvasObject        // the message line's row, hidden under an offer
	controls       *fyne.Container
	jackpot        *canvas.Text // the meter, when the table has a jackpot
	jackpotWin     *widget.Label
	favourites     *favouritesRow
	left           *fyne.Container // the play area: the felt and the rows under it
	sizing         *touchSizing
	controlsRow    *container.ThemeOverride
	lamps          *periodLamps     // L's period lamps (designs.go); nil in A and U
	cd             *countdownView   // the countdown's plate and bar (countdown.go)
	wonMeter       *canvas.Text     // U's amount-won meter; nil in A and L
	bettingCtl     []*widget.Button // Remove last, Remove all, Repeat, Double: enabled only while the table takes bets
	cashOut        *widget.Button   // enabled only while a ticket can be printed (View.CanCashOut), or the dealer pays out (View.CashOutAtDealer)
	noteBuyIn      *canvas.Text     // the note acceptor's prompt (Diagram L); hidden where the buy-in is at the dealer only
	pad            *padSign         // the player-ID pad's sign, where the table requires the pad (pad.go)
	closing        *closingSign     // the sign of the table's announced closure (closing.go)

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

	tournament *tournamentPanel // tournament play (tournament.go), shown while one is played
}

// Status colours: the period states must read at a glance (000 §10.6.2).
var (
	openColour   = color.NRGBA{R: 0x4c, G: 0xaf, B: 0x50, A: 0xff}
	warnColour   = color.NRGBA{R: 0xff, G: 0xa0, B: 0x00, A: 0xff}
	closedColour = color.NRGBA{R: 0xe5, G: 0x39, B: 0x35, A: 0xff}
	panelText    = color.NRGBA{R: 0xf0, G: 0xf0, B: 0xf0, A: 0xff}
	panelDimText = color.NRGBA{R: 0xb0, G: 0xb0, B: 0xb0, A: 0xff}
	panelBg      = color.NRGBA{R: 0x10, G: 0x22, B: 0x16, A: 0xff}
	selectedChip = color.NRGBA{R: 0xf2, G: 0xc1, B: 0x2e, A: 0xff}
)

func text(s string, size float32, c color.Color) *canvas.Text {
	t := canvas.NewText(s, c)
	t.TextSize = size
	t.TextStyle = fyne.TextStyle{Bold: true}
	return t
}

// NewScreen builds the screen of a design for a terminal on a layout.
func NewScreen(term Model, design diagrams.Design, l roulette.Layout) (*Screen, error) {
	geom, err := diagrams.New(l)
	if err != nil {
		return nil, err
	}
	s := &Screen{term: term, design: design, geom: geom, Elements: map[diagrams.Element]fyne.CanvasObject{}, do: fyne.Do}
	s.felt = NewFelt(geom)
	// Every answer to a touch — a chip reduced to the limits, a refusal — comes back in the
	// view's message, chosen by the terminal: the screen only draws it.
	s.felt.OnTapped = func(r diagrams.Region) { s.touched(func() { term.Place(roulette.Bet{Spot: r.Spot}) }) }
	s.felt.OnMoved = func(from, to diagrams.Region) {
		s.touched(func() { term.Move(roulette.Bet{Spot: from.Spot}, roulette.Bet{Spot: to.Spot}) })
	}
	s.felt.OnRemoved = func(from diagrams.Region) { s.touched(func() { term.Remove(roulette.Bet{Spot: from.Spot}) }) }
	s.felt.OnHeld = func(r diagrams.Region) { s.touched(func() { term.Explain(roulette.Bet{Spot: r.Spot}) }) }
	s.balance = text("", 34, panelText)
	s.bet = text("", 24, panelText)
	s.countdown = text("", 64, openColour)
	s.countdown.Alignment = fyne.TextAlignCenter
	s.status = text("", statusSize, openColour)
	s.status.Alignment = fyne.TextAlignCenter
	s.explain = widget.NewLabel("")
	s.explain.Wrapping, s.explain.Alignment = fyne.TextWrapWord, fyne.TextAlignCenter
	s.explain.Hide()
	s.outcome = text("", 72, textColour)
	s.outcome.Alignment = fyne.TextAlignCenter
	s.outcomeBg = canvas.NewRectangle(color.Transparent)
	s.outcomeBg.CornerRadius = 8
	s.outcomeMark = redMark(textColour, 14)
	s.outcomeMark.Hide()
	outcome := container.NewStack(s.outcomeBg, container.NewBorder(nil, container.NewCenter(s.outcomeMark), nil, nil, s.outcome))
	s.won = text("", 26, panelText)
	s.callout = text("", 18, panelText)
	s.callout.Alignment = fyne.TextAlignCenter
	s.message = newMessageLine()
	s.history = container.NewGridWithColumns(historyColumns) // two rows of six, read from the seat
	for range historyShown {
		t := newHistoryTile()
		s.tiles = append(s.tiles, t)
		s.history.Add(t.box)
	}
	s.limits = newLimitBoard()
	s.personal = personalMarker()
	s.pending = widget.NewLabel("")
	s.calls = widget.NewLabel("")
	s.stats = newStatsBoard()
	s.lucky = container.NewStack()
	s.jackpot = text("", 24, selectedChip)
	s.jackpotWin = widget.NewLabel("")
	s.jackpotWin.Wrapping = fyne.TextWrapWord
	s.chips = container.New(chipTray{})
	s.sizing = &touchSizing{}
	s.favourites = newFavouritesRow(term, s.sizing)
	s.buyIn = container.NewHBox()

	// The betting controls carry no icons: on a 1280-pixel screen the row has room for their
	// words at a size read from the seat, not for both.
	undo := widget.NewButton(T("Remove last"), func() { s.touched(func() { term.Undo() }) })
	clear := widget.NewButton(T("Remove all"), func() { s.touched(func() { term.Clear() }) })
	repeat := widget.NewButton(T("Repeat"), func() { s.touched(func() { term.Repeat() }) })
	double := widget.NewButton(T("Double"), func() { s.touched(func() { term.Double() }) })
	s.bettingCtl = []*widget.Button{undo, clear, repeat, double}
	// Cash out and Help stand apart from the betting controls, at the right end, each with an
	// icon and a colour of its own: Cash out ends the session, so it is not touched in passing.
	cashOut := widget.NewButtonWithIcon(T("Cash out"), theme.DocumentPrintIcon(), func() {
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
	cashOut.Importance = widget.WarningImportance
	s.cashOut = cashOut
	help := widget.NewButtonWithIcon(T("Help"), theme.HelpIcon(), func() { s.showHelp(term.View()) })
	help.Importance = widget.HighImportance
	track, err := diagrams.NewRacetrack(l.Wheel)
	if err != nil {
		return nil, err
	}
	track.AddAsian(l.Asian) // the Asian racetrack when the table offers it (002 §3.2)
	s.spreadSel = newSegmented([]string{"1", "2", "3", "4"}, roulette.DefaultSpread-1, nil)
	spreadSel := s.spreadSel
	s.track = NewRacetrack(track)
	s.track.OnTapped = func(r diagrams.TrackRegion) {
		s.touched(func() { term.Place(r.Target.Bet(s.spreadSel.Selected() + 1)) })
	}
	s.calls.Truncation = fyne.TextTruncateEllipsis
	spreadL := &spreadColumn{}
	spreadCol := container.New(spreadL, text(T("Neighbours"), 18, panelDimText), spreadSel, s.calls)
	rb := track.Bounds
	neighbours := container.New(&trackRow{aspect: (rb.Max.X - rb.Min.X) / (rb.Max.Y - rb.Min.Y), spread: spreadL, calls: s.calls}, spreadCol, s.track)
	noteBuyIn := text(T("Insert notes or a ticket to buy in"), 18, panelDimText)
	s.noteBuyIn = noteBuyIn

	s.Elements = map[diagrams.Element]fyne.CanvasObject{
		diagrams.ElemLayout: s.felt, diagrams.ElemChipSelector: s.chips, diagrams.ElemBalance: s.balance,
		diagrams.ElemCountdown: s.countdown, diagrams.ElemPeriodStatus: s.status, diagrams.ElemOutcome: outcome,
		diagrams.ElemAmountWon: s.won, diagrams.ElemAmountBet: s.bet, diagrams.ElemLimitSign: s.limits.box,
		diagrams.ElemCashOut: cashOut, diagrams.ElemHistory: s.history, diagrams.ElemGameStatus: s.status,
		diagrams.ElemRemoveAll: clear, diagrams.ElemRemoveLast: undo, diagrams.ElemRepeat: repeat,
		diagrams.ElemDouble: double, diagrams.ElemHelp: help, diagrams.ElemRacetrack: neighbours,
		diagrams.ElemNoteBuyIn:      noteBuyIn,
		diagrams.ElemPendingMinimum: s.pending, diagrams.ElemLuckyBall: s.lucky,
		diagrams.ElemJackpotMeter: s.jackpot,
	}

	top, cash := s.sideTop() // what the design puts first (designs.go)
	// In a tournament its panel takes the place of the chip account's and of the history.
	s.tournament = newTournamentPanel(term, append(cash, s.history, s.stats.box, s.limits.box, s.pending)...)
	side := container.NewVBox(top...)
	s.side = side
	// The result and the statistics take turns in one place, kept at the taller's height: the
	// result while it stands, the statistics of the recent outcomes the rest of the round. Both
	// at once do not fit the panel at 1280×800 with the history and the limit sign.
	s.resultBox = container.NewVBox(container.NewCenter(outcome), s.callout, s.won)
	s.slot = &resultSlot{result: s.resultBox, stats: s.stats.box, reserve: true}
	side.Objects = append(side.Objects,
		s.tournament.box,
		widget.NewSeparator(),
		container.New(s.slot, s.resultBox, s.stats.box),
		s.history,
		widget.NewSeparator(),
		s.lucky,
		s.jackpot, s.jackpotWin,
		s.personal, s.limits.box, s.pending,
	)
	// The betting controls on the left, what ends or explains the session on the right:
	// Help, Game records, and Cash out at the end of the row. U's set has no Double.
	// The language button's label names the other language in its own script: a theme with the
	// Chinese glyphs draws it on an English screen too.
	s.language = widget.NewButton("", nil)
	s.languageName = newLanguageName()
	lt := container.NewThemeOverride(container.NewStack(s.language, s.languageName),
		chineseTheme{touchTheme{sizing: s.sizing, normal: controlSizes, compact: languageCompactSizes}})
	s.sizing.overrides = append(s.sizing.overrides, lt) // sized as the other controls, at 1280 too
	s.langBox = lt
	s.langBox.Hide()
	// Each in a slot of a fixed width, the same in every language (controlSlots).
	s.controls = container.New(&controlSlots{sizing: s.sizing}, s.langBox, help, s.recordsButton(), cashOut)
	betting := container.NewHBox(undo, clear, repeat, double)
	if design.Name == "U" {
		betting = container.NewHBox(clear, undo, repeat)
	}
	s.controlsRow = s.sizing.sized(container.NewBorder(nil, nil, betting, s.controls), nil, nil)
	trayL := &trayRow{favs: s.favourites.flow, box: s.favourites.box}
	tray := container.New(trayL, s.chips, s.favourites.view)
	s.buyInRow = s.sizing.sized(s.buyIn, nil, nil)
	s.buyInRow.Hide()
	message := s.message.view(s.sizing)
	// The player-ID pad's sign stands at the end of the message line too (pad.go).
	s.pad = newPadSign()
	s.closing = newClosingSign()
	// The closure's sign beside it (closing.go). A hidden sign takes no room, not even a gap.
	s.closing.row = container.NewBorder(nil, nil, nil, s.closing.box, message)
	s.pad.row = container.NewBorder(nil, nil, nil, s.pad.box, s.closing.row)
	s.closing.fit = s.pad.row
	message = s.pad.row
	if slicesContains(design.Elements, diagrams.ElemNoteBuyIn) {
		// The note acceptor's prompt stands at the end of the message line, where the player
		// looks to learn what the terminal wants; the side panel has no room left for it on a
		// Lucky Ball table at 1280×800.
		// L's prompt is a sign of its own (000 §10.3.1): larger, in the chips' gold, framed.
		noteBuyIn.TextSize, noteBuyIn.Color = 22, selectedChip
		frame := canvas.NewRectangle(color.Transparent)
		frame.StrokeColor, frame.StrokeWidth, frame.CornerRadius = selectedChip, 2, 6
		sign := container.NewStack(frame, container.NewPadded(noteBuyIn))
		message = container.NewBorder(nil, nil, nil, container.NewCenter(sign), message)
	}
	fb := s.geom.Bounds
	play := &playArea{feltAspect: (fb.Max.X - fb.Min.X) / (fb.Max.Y - fb.Min.Y), track: neighbours.Layout.(*trackRow),
		tray: trayL, sizing: s.sizing}
	// The offer stands over the message line, in its row: the row keeps its height with or
	// without an offer, and nothing above it moves (issue 18).
	s.messageView = message
	bottom := container.New(&messageSlot{line: s.message, controls: s.controlsRow}, message, s.buyInRow)
	s.left = container.New(play, s.felt, neighbours, tray, s.controlsRow, bottom)
	s.favourites.changed = s.relayout
	panel := container.NewStack(backdrop(), container.NewPadded(side))
	// The panel runs the full height on the right and the controls sit under the layout, so the
	// screen fits 1280×800 as well as 1920×1080.
	s.root = container.NewBorder(nil, nil, nil, container.New(sidePanel{width: sidePanelWidth, height: s.fitSide}, panel),
		container.NewStack(backdrop(), container.New(inset{rowGap}, s.left)))
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
func (s *Screen) tick() {
	v := s.last
	count := ""
	var left time.Duration
	second := 0
	if v.Phase == table.PhaseWagering && v.Connected {
		// Cut off from the table this terminal takes no bets: a countdown would say otherwise.
		left = s.term.Remaining()
		second = int((left + 999*time.Millisecond) / time.Second)
		count = fmt.Sprintf("%d", second)
	} else if v.Phase == table.PhaseNoMoreBets && v.BallDropping && v.Connected {
		// 001 §5.1.3: the wheel sensor saw the ball about to drop, so the time for wagering
		// is reduced to zero, and the countdown says so rather than vanish.
		count = "0"
	}
	status, c := periodStatus(v.Period)
	if s.cd != nil {
		s.cd.show(left, v.Config.WageringPeriod, v.Period, second)
		if s.cd.lastLit {
			c = color.Black // on the lit plate
		}
	}
	// Redraw only what changed: the ticker runs ten times a second for a number that changes
	// once, and every refresh repaints the window (idle cost, issue 18).
	if count != s.countdown.Text || c != s.countdown.Color {
		s.countdown.Text, s.countdown.Color = count, c
		s.countdown.Refresh()
	}
	if s.lamps != nil {
		s.lamps.set(v.Period)
	}
	if sc := statusColour(v.Period); status != s.status.Text || sc != s.status.Color {
		s.status.Text, s.status.Color = status, sc
		s.status.TextSize = fitText(status, statusSize, sidePanelWidth-12, s.status.TextStyle)
		s.status.Refresh()
	}
}

// callCost is what a call bet of perPiece a piece costs on layout l: every piece's units.
func callCost(b roulette.Bet, perPiece int64, l roulette.Layout) int64 {
	ps, err := b.Pieces(l)
	if err != nil {
		return perPiece // a bet the rules cannot decompose was refused before it was placed
	}
	return perPiece * roulette.Units(ps)
}

func statusColour(p app.Period) color.Color { _, c := periodStatus(p); return c }

// periodStatus is the words and colour of a period state (the terminal decides which holds).
func periodStatus(p app.Period) (string, color.Color) {
	switch p {
	case app.PeriodReconnecting:
		return T("RECONNECTING…"), closedColour
	case app.PeriodFrozen:
		return T("ACCOUNTS FROZEN"), warnColour
	case app.PeriodClosed:
		return T("TABLE CLOSED"), closedColour
	case app.PeriodOpen:
		return T("PLACE YOUR BETS"), openColour
	case app.PeriodWarning:
		return T("CLOSING"), warnColour
	case app.PeriodNoMoreBets:
		return T("NO MORE BETS"), closedColour
	case app.PeriodResult:
		return T("RESULT"), panelText
	case app.PeriodInService:
		return T("TERMINAL IN SERVICE"), warnColour
	}
	return T("WAITING FOR THE TABLE"), panelDimText
}

func (s *Screen) update(v app.View) {
	s.last = v
	// Each object is refreshed only when what it shows changed (issue 18): a refresh of a label
	// shapes its text again, and every view change — a tap, the table's every event — comes
	// through here on the Fyne thread before the frame that answers a tap.
	// What is left to bet with (001 §3.2.2): the chips on the layout are off it (app decides).
	setText(s.balance, s.cash(v.ShownBalance))
	bet := s.cash(v.SlipTotal)
	if !v.Acked && v.SlipTotal > 0 {
		bet += " …"
	}
	if v.SlipTotal == 0 && v.Phase != table.PhaseWagering && v.Phase != table.PhaseNoMoreBets {
		// While the result stands the amount bet is the settled round's stake, beside its win:
		// the slip is empty by then, and 0.00 beside a win could not be compared with it
		// (issue 32 point 9).
		var staked int64
		for _, r := range v.Result {
			staked += r.Staked
		}
		bet = s.cash(staked)
	}
	setText(s.bet, bet)

	// At a table that pays out in chips at the dealer (004 §6.6, 000 §11.7.6) Cash out stays
	// for the player to select, and the terminal answers it by sending them to the dealer.
	if can := v.CanCashOut || v.CashOutAtDealer; can != !s.cashOut.Disabled() {
		if can {
			s.cashOut.Enable()
		} else {
			s.cashOut.Disable()
		}
	}
	// No note acceptor prompt where the buy-in is at the dealer only (004 §6.2, 000 §11.7.2).
	if v.Config.DealerCashOnly == s.noteBuyIn.Visible() {
		if v.Config.DealerCashOnly {
			s.noteBuyIn.Hide()
		} else {
			s.noteBuyIn.Show()
		}
	}
	s.showJackpot(v)
	s.pad.update(v)
	s.closing.update(v)
	s.favourites.seen(v)
	explained := s.explain.Visible()
	if v.Frozen {
		// The status says frozen; this says why, and that it ends (001 §9.4).
		setLabel(s.explain, T("A result is being corrected: accounts are frozen until it is done"))
		s.explain.Show()
	} else {
		s.explain.Hide()
	}
	if explained != s.explain.Visible() {
		s.side.Refresh() // its column laid out again: the words under the status, not over it
	}

	// The last outcome and win are the result until the next round opens; while the ball
	// spins (no more bets) they are the previous round's, so they are not shown as a result.
	showResult := v.Phase != table.PhaseWagering && v.Phase != table.PhaseNoMoreBets
	stakes := map[roulette.Spot]int64{}
	var won map[roulette.Spot]int64
	if showResult && len(v.Stakes) == 0 {
		// Losing chips are gone; winning chips stay with what they won over the stake (001
		// §3.8): the tab's "+" is added to the chip, so it is the win, not the return (issue 32
		// point 9: "+15" on a 5 dozen was read as a profit of 15).
		for _, r := range v.Result {
			if r.Returned > 0 && !r.Bet.IsCall() {
				if won == nil {
					won = map[roulette.Spot]int64{}
				}
				stakes[r.Bet.Spot], won[r.Bet.Spot] = r.Staked, r.Returned-r.Staked
			}
		}
	}
	s.felt.SetResult(won)
	s.felt.SetClosed(v.Period == app.PeriodNoMoreBets)
	// The racetrack and the betting buttons say what the felt says: no chips now (issue 32
	// point 9: after NO MORE BETS they looked live).
	s.track.SetClosed(v.Period == app.PeriodNoMoreBets)
	takesBets := v.Period == app.PeriodOpen || v.Period == app.PeriodWarning
	for _, b := range s.bettingCtl {
		if takesBets == b.Disabled() {
			if takesBets {
				b.Enable()
			} else {
				b.Disable()
			}
		}
	}
	var calls []string
	var onTrack map[diagrams.TrackTarget]int64
	var onFelt callsOnFelt
	for _, st := range v.Stakes {
		if st.Bet.Spot.Kind == roulette.AsianNeighbour { // off the felt: a chip on its group's box, and listed as the box reads
			calls = append(calls, fmt.Sprintf("%s %s %s", T("asian-neighbour"), wheelOrder(st.Bet.Spot.Mask, v.Config.Layout.Wheel), shortInCurrency(v.Config.Currency, st.Amount)))
			if onTrack == nil {
				onTrack = map[diagrams.TrackTarget]int64{}
			}
			onTrack[diagrams.TrackTarget{Group: st.Bet.Spot.Mask}] += st.Amount
			onFelt.covered |= st.Bet.Spot.Mask // its three numbers lit on the ring, as a call bet's
		} else if st.Bet.IsCall() {
			// A call bet's amount is per piece; the line and its chip say what the bet costs,
			// all its pieces (issue 32 point 5: voisins at A$1 read "A$1" and costs A$9).
			cost := callCost(st.Bet, st.Amount, v.Config.Layout)
			onFelt.add(st.Bet, st.Amount, v.Config.Layout)
			calls = append(calls, fmt.Sprintf("%v %s", st.Bet, shortInCurrency(v.Config.Currency, cost)))
			if onTrack == nil {
				onTrack = map[diagrams.TrackTarget]int64{}
			}
			tt := diagrams.TrackTarget{Call: st.Bet.Call}
			if st.Bet.Call == roulette.Neighbours {
				tt.Centre = st.Bet.Centre
			}
			onTrack[tt] += cost
		} else {
			stakes[st.Bet.Spot] = st.Amount
		}
	}
	// The dealer's wagers for this seat (002 §3.2B), each marked as the dealer's: the player
	// did not place them on the screen and cannot take them off it.
	// They come first on the call-bet line, so the mark is never the part cut off, and stand as
	// chips on the racetrack like the player's own.
	var dealers []string
	for _, d := range v.DealerStakes {
		amount := d.Amount
		if d.Bet.IsCall() {
			amount = callCost(d.Bet, d.Amount, v.Config.Layout)
			onFelt.add(d.Bet, d.Amount, v.Config.Layout)
		}
		dealers = append(dealers, fmt.Sprintf(T("%v %s placed by the dealer"), d.Bet, shortInCurrency(v.Config.Currency, amount)))
		if d.Bet.IsCall() {
			if onTrack == nil {
				onTrack = map[diagrams.TrackTarget]int64{}
			}
			tt := diagrams.TrackTarget{Call: d.Bet.Call}
			if d.Bet.Call == roulette.Neighbours {
				tt.Centre = d.Bet.Centre
			}
			onTrack[tt] += amount
		}
	}
	calls = append(dealers, calls...)
	s.felt.SetStakes(stakes)
	s.felt.SetCalls(onFelt.pieces)
	s.track.SetStakes(onTrack)
	s.track.SetCovered(onFelt.covered)
	// The call bets in one line under the spread (their chips stand on the racetrack): the
	// line's place is kept while there are none, so the racetrack does not move when one comes.
	if t := strings.Join(calls, " · "); t != s.calls.Text {
		s.calls.SetText(t)
	}

	s.showOutcome(v, showResult)
	wonText := ""
	if w := v.LastWin; w != nil && showResult {
		switch {
		case w.Returned > 0:
			wonText = T("WON") + " " + s.cash(w.Returned)
		case w.Staked > 0:
			wonText = T("No win") // never "WON 0.00"
		}
	}
	setText(s.won, wonText)
	s.showWonMeter(v)

	s.showHistory(v.History)
	s.stats.show(v.History, v.Config.Layout.Wheel)
	s.showLuckyBall(v, stakes, won, showResult)
	s.limits.show(v.Limits, v.Config.Currency, v.PersonalLimits)
	if v.PersonalLimits { // the sign above is this player's own (000 §4.3, 003 §4.6)
		s.personal.Show()
	} else {
		s.personal.Hide()
	}
	// An empty label still takes a line: the pending minimum takes its place in the side
	// panel only while there is one, which leaves a Lucky Ball table room at 1280×800.
	if p := v.Pending; p != nil {
		setLabel(s.pending, fmt.Sprintf(T("From %s: %s"), p.At.Local().Format("15:04"), limitSign(p.Limits, v.Config.Currency)))
		s.pending.Show()
	} else {
		setLabel(s.pending, "")
		s.pending.Hide()
	}
	s.showChips(v)
	offered := s.buyInRow.Visible()
	s.buyIn.RemoveAll()
	if b := v.BuyIn; b != nil {
		// The offer stands over the message line: the answer to a touch made meanwhile (the
		// terminal's refusal, which names the offer's amount) takes the offer's words, beside
		// its buttons, or the player would get no word at all (issue 32).
		offer := fmt.Sprintf(T("The dealer offers a buy-in of %s"), s.cash(b.Amount))
		if v.Message.Priority == app.Answer && !v.Message.IsZero() {
			offer = s.say(v.Message.Msg)
		}
		s.buyIn.Add(widget.NewLabel(offer))
		accept := widget.NewButtonWithIcon(T("Accept"), theme.ConfirmIcon(), func() { s.confirmBuyIn(true) })
		accept.Importance = widget.HighImportance
		s.buyIn.Add(accept)
		s.buyIn.Add(widget.NewButtonWithIcon(T("Decline"), theme.CancelIcon(), func() { s.confirmBuyIn(false) }))
		s.buyInRow.Show()
		restyle(s.buyInRow)
		s.messageView.Hide()
	} else {
		s.buyInRow.Hide()
		s.messageView.Show()
	}
	if offered != s.buyInRow.Visible() {
		s.relayout()
	}
	// The one message the terminal chose for the player, or none.
	if said := s.say(v.Message.Msg); said != s.message.Text {
		s.message.SetText(said)
	}
	inTournament := s.tournament.update(v)
	if !inTournament {
		// No tournament: the labels it hid take their own rules again (as above).
		s.pending.Hidden = v.Pending == nil
	}
	s.showSlot(v, showResult, inTournament)
	s.refitSide()    // what the side panel shows may need more than its height (sidefit.go)
	s.serviceSeen(v) // technician mode's overlays (technician.go)
	s.tick()
}

// luckyShown is what the Lucky Ball panel was made for: it is made again only when that changes.
type luckyShown struct {
	on      bool
	draw    roulette.LuckyBallDraw
	hasDraw bool
	version roulette.LuckyBallVersion
	staked  [4]int64
	open    bool
	drawing bool // the Super/Mega mark is being drawn (app.View.LuckyMarkPending)
	winner  int  // the colour whose number came up, at the result; -1 for none
	won     [4]int64
}

// showLuckyBall shows the Lucky Ball panel on a table that plays it. It is made again only when
// the draw, a Lucky Ball stake or whether bets are taken changed, not on every view change
// (a panel is some thirty objects, four of them buttons).
func (s *Screen) showLuckyBall(v app.View, stakes, won map[roulette.Spot]int64, showResult bool) {
	want := luckyShown{on: v.Config.LuckyBall, version: v.Config.LuckyBallVersion,
		open: v.Period == app.PeriodOpen || v.Period == app.PeriodWarning, drawing: v.LuckyMarkPending(), winner: -1}
	res := luckyResult{won: won}
	if v.LuckyBall != nil {
		want.draw, want.hasDraw = *v.LuckyBall, true
		// At the result, the colour whose number came up (003 §7.5), marked on the panel.
		if o := v.LastOutcome; showResult && o != nil && !v.LuckyBall.Void {
			for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
				if v.LuckyBall.Numbers[c] == o.Number {
					res.winner, res.hasWinner, want.winner = c, true, int(c)
				}
			}
		}
	}
	for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
		want.staked[c] = stakes[roulette.LuckyBallSpot(c)]
		want.won[c] = won[roulette.LuckyBallSpot(c)]
	}
	if s.luckyMade && want == s.luckyFor {
		return
	}
	s.luckyMade, s.luckyFor = true, want
	s.lucky.RemoveAll()
	s.lucky.Hidden = !want.on // an empty stack would still take the panel's padding
	if want.on {
		s.lucky.Add(luckyBallPanel(v.LuckyBall, v.Config.LuckyBallVersion, stakes, res, want.open, want.drawing, func(c roulette.BallColour) {
			s.touched(func() { s.term.Place(roulette.Bet{Spot: roulette.LuckyBallSpot(c)}) })
		}))
	}
}

// showOutcome shows the last outcome while it is the result: white on a tile of the number's
// colour, with a light edge (black reads on the dark panel), red also told by the diamond.
// Only what changed is refreshed.
func (s *Screen) showOutcome(v app.View, showResult bool) {
	number, callout := "", ""
	var fill color.Color = color.Transparent
	var stroke float32
	red := false
	if o := v.LastOutcome; o != nil && showResult {
		number, callout = o.Number.String(), say(app.Callout(o.Number))
		fill, stroke = numberColour(o.Number.Colour()), 2
		red = o.Number.Colour() == roulette.ColourRed
		s.outcomeBg.StrokeColor = feltLine
		s.outcomeBg.SetMinSize(fyne.NewSize(200, 100)) // refreshes only when it changes
		s.felt.SetWinning(o.Number, true)
	} else {
		s.felt.SetWinning(0, false)
	}
	setText(s.outcome, number)
	setText(s.callout, callout)
	if fill != s.outcomeBg.FillColor || stroke != s.outcomeBg.StrokeWidth {
		s.outcomeBg.FillColor, s.outcomeBg.StrokeWidth = fill, stroke
		s.outcomeBg.Refresh()
	}
	if red != s.outcomeMark.Visible() {
		if red {
			s.outcomeMark.Show()
		} else {
			s.outcomeMark.Hide()
		}
		s.outcomeMark.Refresh()
	}
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

// showChips keeps the tray to the chips offered (the table's denominations, less those a
// tournament round's minimum puts out of reach: app.View.Chips), the chosen one raised. The chips are
// made again only when the denominations change: a tap on the felt updates the screen, and
// must not rebuild the tray each time.
func (s *Screen) showChips(v app.View) {
	same := len(s.chips.Objects) == len(v.Chips)
	for i := 0; same && i < len(v.Chips); i++ {
		same = s.chips.Objects[i].(*Chip).Value == v.Chips[i]
	}
	if !same {
		objs := make([]fyne.CanvasObject, len(v.Chips))
		for i, c := range v.Chips {
			objs[i] = NewChip(c, func() { s.touched(func() { s.term.SelectChip(c) }) })
		}
		s.chips.Objects = objs
		s.chips.Refresh()
	}
	for _, o := range s.chips.Objects {
		o.(*Chip).SetSelected(o.(*Chip).Value == v.Chip)
	}
}

// confirmBuyIn answers the dealer's buy-in offer. The answer goes to the table server off the
// Fyne thread, so the screen never waits on the network; a refusal is reported back on it.
func (s *Screen) confirmBuyIn(accept bool) {
	go s.term.ConfirmBuyIn(context.Background(), accept)
}

// redMark is the diamond beside a red number: red is told by shape as well as by colour. It is
// drawn, not a "◆" glyph, which the embedded fonts lack (a system font would draw it, differently
// on every machine).
func redMark(c color.Color, size float32) fyne.CanvasObject {
	d := canvas.NewPolygon(4, c)
	d.SetMinSize(fyne.NewSize(size, size))
	return d
}

// historyColumns is how many recent outcomes a row of the side panel shows.
const historyColumns = 6

// historyShown is how many recent outcomes the side panel shows: two rows of historyColumns.
const historyShown = 2 * historyColumns

// historyTile is one recent outcome: white on its colour with a light edge (black reads on the
// dark panel), a diamond under a red number; two rows of six fill the side panel at 22 points
// (issue 18: twelve 22×30 tiles in one row were not read from the seat).
//
// The twelve tiles are made with the screen and shown again with each new outcome, never made
// anew: every view change used to replace all twelve (a tile is nine canvas objects), and each
// object replaced stayed in Fyne's caches for a minute after — a resident-memory growth of
// tens of MB over a soak of 500 rounds, and work for the collector (issue 18).
//
// A tile with no outcome yet keeps its cell in the grid, empty (its face hidden): the grid is
// two rows from the start, so nothing under it moves when the first outcomes come.
type historyTile struct {
	box   *fyne.Container // what the history's grid holds
	cell  *tileCell       // the box's layout: the tile's height
	inner *fyne.Container // the column the number and its diamond stand in
	bg    *canvas.Rectangle
	num   *canvas.Text
	plain fyne.CanvasObject // a black or green number: a spacer where a red one has its diamond
	mark  fyne.CanvasObject // a red number's diamond
	shown roulette.Number
	// corrected: the outcome shown replaced another (001 §9.4)
	corrected bool
}

// correctedEdge is the width of a corrected outcome's frame.
const correctedEdge = 4

func newHistoryTile() *historyTile {
	t := &historyTile{bg: canvas.NewRectangle(numberColour(roulette.ColourGreen)), num: text("", 22, textColour),
		plain: layout.NewSpacer(), mark: container.NewCenter(redMark(textColour, 7))}
	t.bg.StrokeColor, t.bg.StrokeWidth = feltLine, 1
	t.num.Alignment = fyne.TextAlignCenter
	t.mark.Hide()
	// The column lays out only what is visible: with one of plain and mark hidden it is the
	// column of a tile made for its number alone (spacer, number, mark, spacer).
	t.inner = container.New(layout.NewCustomPaddedVBoxLayout(0), layout.NewSpacer(), t.num, t.plain, t.mark, layout.NewSpacer())
	t.cell = &tileCell{height: tileShort}
	t.box = container.New(t.cell, t.bg, t.inner)
	t.bg.Hide()
	t.inner.Hide()
	return t
}

// tileCell stacks a history tile's objects in a cell of the tile's size, shown or empty: tall
// where the side panel has the height (tall, fitSide), short where it has not.
type tileCell struct{ height float32 }

// The history tiles' heights and their numbers' sizes: tall at 1920×1080, where the panel has
// the room (issue 32 point 7: 40-pixel tiles of 22 points beside empty space), short at 1280×800.
const (
	tileShort, tileShortText = 40, 22
	tileTall, tileTallText   = 56, 28
)

func (c *tileCell) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(44, c.height) }

// setTall makes the tile tall or short; it reports whether that changed it.
func (t *historyTile) setTall(tall bool) bool {
	h, size := float32(tileShort), float32(tileShortText)
	if tall {
		h, size = tileTall, tileTallText
	}
	if t.cell.height == h {
		return false
	}
	t.cell.height, t.num.TextSize = h, size
	t.num.Refresh()
	return true
}

func (*tileCell) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// shows reports whether the tile shows an outcome.
func (t *historyTile) shows() bool { return t.bg.Visible() }

// show draws n on the tile, redrawing only what changed; it reports whether the tile was
// empty before.
func (t *historyTile) show(n roulette.Number, corrected bool) (appeared bool) {
	appeared = !t.shows()
	if !appeared && t.shown == n && t.corrected == corrected {
		return false
	}
	t.shown, t.corrected = n, corrected
	// A corrected outcome (001 §9.4) is framed in the warning colour, thick, so the number the
	// player saw change stands apart from the rest.
	t.bg.StrokeColor, t.bg.StrokeWidth = feltLine, 1
	if corrected {
		t.bg.StrokeColor, t.bg.StrokeWidth = warnColour, correctedEdge
	}
	t.bg.FillColor = numberColour(n.Colour())
	t.num.Text = n.String()
	red := n.Colour() == roulette.ColourRed
	if red != t.mark.Visible() {
		if red {
			t.plain.Hide()
			t.mark.Show()
		} else {
			t.mark.Hide()
			t.plain.Show()
		}
		t.inner.Refresh()
	}
	t.bg.Show()
	t.inner.Show()
	t.bg.Refresh()
	t.num.Refresh()
	if appeared {
		t.box.Refresh()
	}
	return appeared
}

// clear empties the tile.
func (t *historyTile) clear() {
	if t.shows() {
		t.bg.Hide()
		t.inner.Hide()
		t.box.Refresh()
	}
}

// showHistory shows the recent outcomes, newest first, on the tiles; tiles past the last
// outcome are empty, in their place.
func (s *Screen) showHistory(h []table.Outcome) {
	for i, t := range s.tiles {
		if i < len(h) {
			t.show(h[i].Number, h[i].Corrected)
		} else {
			t.clear()
		}
	}
}

// resultSlot lays out the result and the statistics in one place (see NewScreen): each at the
// top, the place as tall as the taller of the two whichever is shown, so nothing under it moves
// when one gives way to the other (issue 18, point 5). In a tournament its panel stands in the
// statistics' place (newTournamentPanel), and the place keeps only the result's height.
//
// Where the panel is tall enough for both (1920×1080), the statistics stand under the result's
// place and never give way (fitSide).
type resultSlot struct {
	result, stats fyne.CanvasObject
	reserve       bool // keep the statistics' height
	short         bool // but not where the panel is short of it (fitSide)
	both          bool // the statistics under the result, always shown
}

// resultSlotGap is the space between the result and the statistics under it.
const resultSlotGap = 8

func (l *resultSlot) MinSize([]fyne.CanvasObject) fyne.Size {
	m := l.result.MinSize()
	if l.reserve && !l.short {
		sm := l.stats.MinSize()
		h := max(m.Height, sm.Height)
		if l.both {
			h = m.Height + resultSlotGap + sm.Height
		}
		m = fyne.NewSize(max(m.Width, sm.Width), h)
	}
	return m
}

func (l *resultSlot) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	rh := l.result.MinSize().Height
	l.result.Move(fyne.NewPos(0, 0))
	l.result.Resize(fyne.NewSize(size.Width, rh))
	y := float32(0)
	if l.both {
		y = rh + resultSlotGap
	}
	l.stats.Move(fyne.NewPos(0, y))
	l.stats.Resize(fyne.NewSize(size.Width, l.stats.MinSize().Height))
}

// showSlot shows the result while it stands and the statistics otherwise, or always where the
// panel has room for both (resultSlot).
func (s *Screen) showSlot(v app.View, showResult, inTournament bool) {
	result := showResult && v.LastOutcome != nil
	stats := (s.slot.both || !result) && !inTournament
	changed := result != s.resultBox.Visible() || stats != s.stats.box.Visible() || s.slot.reserve == inTournament
	if !changed {
		return
	}
	s.resultBox.Hidden, s.stats.box.Hidden = !result, !stats
	// The slot lays out both where they stand, shown or not, at the height it reserves: a turn
	// of the two needs only theirs refreshed. Only a tournament coming or going changes the
	// slot's height, and so the panel's layout. (The whole screen refreshed at every result
	// redrew every object from scratch — each widget's icons rendered again, every text's
	// texture made anew — twice a round.)
	relayout := s.slot.reserve == inTournament
	s.slot.reserve = !inTournament
	s.resultBox.Refresh()
	s.stats.box.Refresh()
	if relayout && s.left != nil {
		s.root.Refresh()
	}
}

// wheelOrder writes a group's numbers in the order the wheel (and the racetrack) has them:
// "32 15 19", as the Asian racetrack's box reads (002 §3.2).
func wheelOrder(m roulette.Mask, w roulette.Wheel) string {
	var parts []string
	for _, n := range w.Order() {
		if m.Has(n) {
			parts = append(parts, n.String())
		}
	}
	return strings.Join(parts, " ")
}

// personalMarker is the distinctive marker (000 §1.1: "a marker button labelled with ... the
// words personal limit or higher limit") shown above the limit sign while the player plays to
// limits of their own (000 §4.3, 003 §4.6): dark text on the gold of the selected chip, so it
// stands apart from everything else on the panel. Hidden until the view says so.
func personalMarker() *fyne.Container {
	bg := canvas.NewRectangle(selectedChip)
	bg.CornerRadius = 6
	label := text(T("PERSONAL LIMIT"), 18, panelBg)
	label.Alignment = fyne.TextAlignCenter
	m := container.NewStack(bg, container.NewPadded(label))
	m.Hide()
	return m
}

// limitSign is a limit sign in words — minimum, maximum and unit, per bet kind where they
// differ (001 §4.1–4.2, 003 §2.5.4), amounts in the table's currency (ISO 4217 code) — as the
// pending minimum tells the limits to come (the table's own are on limitBoard).
func limitSign(l roulette.Limits, currency string) string {
	cash := func(c int64) string { return inCurrency(currency, c) }
	d := l.For(roulette.Red)
	lines := []string{fmt.Sprintf(T("Limits: min %s  max %s  unit %s"), cash(l.Default.Min), cash(l.Default.Max), cash(l.Default.Unit))}
	var kinds []roulette.Kind
	for k := range l.PerKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	for _, k := range kinds {
		pk := l.PerKind[k]
		if pk != d {
			lines = append(lines, fmt.Sprintf(T("%s: %s – %s by %s"), T(k.String()), cash(pk.Min), cash(pk.Max), cash(pk.Unit)))
		}
	}
	if l.AggregateMin > 0 {
		lines = append(lines, fmt.Sprintf(T("Table minimum per spin %s"), cash(l.AggregateMin)))
	}
	return strings.Join(lines, "\n")
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

// showJackpot shows the meter when the table has a jackpot (001 §8.3.7), and a hit: the
// winner is told the prize waits for the pit boss, then that it is credited (§8.3.9).
func (s *Screen) showJackpot(v app.View) {
	if !v.Config.Jackpot {
		s.jackpot.Hide()
		s.jackpotWin.Hide()
		return
	}
	cur := v.Config.Currency
	setText(s.jackpot, T("JACKPOT")+" "+inCurrency(cur, v.Jackpot))
	s.jackpot.Show()
	w := v.JackpotWon
	switch {
	case w == nil:
		s.jackpotWin.Hide()
		return
	case v.JackpotMine && w.Confirmed:
		setLabel(s.jackpotWin, fmt.Sprintf(T("Jackpot %s credited to your account"), inCurrency(cur, w.Amount)))
	case v.JackpotMine:
		setLabel(s.jackpotWin, fmt.Sprintf(T("JACKPOT! You won %s: the pit boss is confirming it"), inCurrency(cur, w.Amount)))
	default:
		setLabel(s.jackpotWin, fmt.Sprintf(T("Jackpot of %s won at terminal %s"), inCurrency(cur, w.Amount), w.TerminalID))
	}
	s.jackpotWin.Show()
}

// sidePanelWidth is the width of the panel on the right; statusSize the size of the period
// status in it, where it fits.
const (
	sidePanelWidth = 300
	statusSize     = 28
)

// fitText is the text size, at most size, at which s fits in width: the longer states
// ("WAITING FOR THE TABLE", and translations) shrink rather than run off the panel.
func fitText(s string, size, width float32, style fyne.TextStyle) float32 {
	if w := fyne.MeasureText(s, size, style).Width; w > width {
		return max(size*width/w, 12)
	}
	return size
}
