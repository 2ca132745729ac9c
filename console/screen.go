// Package console is the dealer's console (issue 28): a full-screen Fyne touch panel the dealer
// runs the table from. It draws a model.View — the table's state always in view along the top,
// the seats on the left, the panel of the moment on the right, the last answer and the alarms
// along the bottom — and calls the dealer's and the supervisor's actions (Actions, which
// *model.Console implements). It decides nothing the table decides: every refusal is the
// server's, shown in words where the finger is.
package console

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/console/model"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/ui/look"
)

// Actions is what the console's touches do: *model.Console.
type Actions interface {
	OpenTable(context.Context) error
	CloseTable(context.Context) error
	StartRound(context.Context) error
	Spin(context.Context) error
	NoMoreBets(context.Context) error
	Outcome(ctx context.Context, number string) error
	ConfirmWheel(context.Context) error
	NoSpin(context.Context) error
	Dispute(ctx context.Context, note string) error
	Credit(ctx context.Context, seat string, cents int64) error
	CloseAccount(ctx context.Context, seat, reason string) (int64, error)
	PlaceNeighbours(ctx context.Context, seat, number string, cents int64) (int64, string, error)
	PlaceWager(ctx context.Context, seat string, w *pb.Wager) (int64, string, error)
	LastRound() string
	Correct(ctx context.Context, s model.Supervisor, roundID, number string) error
	Invalidate(ctx context.Context, s model.Supervisor, roundID, reason string) error
	ConfirmJackpot(ctx context.Context, s model.Supervisor) error
	ClearFault(ctx context.Context, s model.Supervisor, note string) error
	ScheduleClose(ctx context.Context, s model.Supervisor, at time.Time) error
	Handpay(ctx context.Context, s model.Supervisor, validation string) error
	ReleaseHold(ctx context.Context, s model.Supervisor, validation, reason string) error
	RefuseWager(ctx context.Context, s model.Supervisor, seat, reason string) (int64, error)
	SetTableLimits(ctx context.Context, s model.Supervisor, minimum, maximum int64) error
	SetSeatLimits(ctx context.Context, s model.Supervisor, seat string, minimum, maximum int64) error
}

var _ Actions = (*model.Console)(nil)

// The console's colours: the kiosk's felt green behind, the roulette colours on the grid.
var (
	bg        = color.NRGBA{R: 0x10, G: 0x22, B: 0x16, A: 0xff}
	panel     = color.NRGBA{R: 0x1d, G: 0x3a, B: 0x27, A: 0xff}
	ink       = color.NRGBA{R: 0xf4, G: 0xf1, B: 0xe6, A: 0xff}
	dim       = color.NRGBA{R: 0xa8, G: 0xb5, B: 0xa9, A: 0xff}
	action    = color.NRGBA{R: 0x2f, G: 0x5e, B: 0x8c, A: 0xff}
	warn      = color.NRGBA{R: 0x96, G: 0x4e, B: 0x00, A: 0xff} // white on it reads at 6:1
	danger    = color.NRGBA{R: 0xa8, G: 0x1c, B: 0x1c, A: 0xff}
	redNum    = color.NRGBA{R: 0xc4, G: 0x1e, B: 0x1e, A: 0xff}
	blackNum  = color.NRGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	greenNum  = color.NRGBA{R: 0x0e, G: 0x7a, B: 0x3a, A: 0xff}
	lightGood = color.NRGBA{R: 0x2e, G: 0xc2, B: 0x4e, A: 0xff}
	seatOff   = color.NRGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}
	seatCall  = color.NRGBA{R: 0x8a, G: 0x5a, B: 0x00, A: 0xff}
	selected  = color.NRGBA{R: 0xf2, G: 0xc9, B: 0x4c, A: 0xff} // a number touched for an inside bet: gold, black on it
	refusedFg = color.NRGBA{R: 0xff, G: 0x8a, B: 0x80, A: 0xff} // a refusal's words on the panel's green
)

// T is the console's words in the language it speaks (the kiosk's translations).
func T(s string) string { return look.T(s) }

// Screen is the console's one screen.
type Screen struct {
	act  Actions
	now  func() time.Time
	win  fyne.Size
	root *fyne.Container
	// run runs an action off Fyne's thread; do brings its answer back to it. Tests make both
	// synchronous, so a golden shows the answer.
	run func(func())
	do  func(func())
	// tickDo brings the countdown's once-a-second redraw to Fyne's thread (fyne.Do). Tests,
	// whose clock stands still, drop it: their do runs on the ticker's goroutine, which would
	// draw beside the test's own.
	tickDo func(func())

	v      model.View
	mode   string   // "round", "grid", "confirm", "seat", "bets", "login", "super", "digits", "refuse", "limits", "limitseat"
	grid   string   // what the number grid is for: "outcome", "correct", "call", "straight", "inside"
	picked string   // the number picked on the grid, before its confirmation
	sel    []string // the numbers touched on the "inside" grid, in the order touched
	seat   string   // the seat selected
	pad    string   // digits typed on the pad of the moment
	card   string   // the supervisor's card id being typed (login), then held with the PIN
	pin    string
	sup    *model.Supervisor // the supervisor signed in on the panel, nil for none
	notice string            // the last answer, in words
	bad    bool              // the notice is a refusal
	ticker *time.Ticker
	// capWords is the cash cap's split of the ticket the handpay panel was refused (issue 31):
	// shown on the panel, in full, until the panel is left or another number is paid.
	capWords string

	seats, panel           fyne.CanvasObject // as last built, and what they showed
	seatsShown, panelShown string
}

// New is the console's screen for a window of size win; now is the clock the countdown reads.
func New(act Actions, now func() time.Time, win fyne.Size) *Screen {
	s := &Screen{act: act, now: now, win: win, mode: "round",
		run: func(f func()) { go f() }, do: fyne.Do, tickDo: fyne.Do}
	s.root = container.NewStack()
	s.draw()
	return s
}

// Content is the screen's content for the window.
func (s *Screen) Content() fyne.CanvasObject { return s.root }

// Show draws a new view of the table (call it on Fyne's thread).
func (s *Screen) Show(v model.View) {
	s.v = v
	s.draw()
	s.tick()
}

// tick keeps the countdown moving once a second while a wagering period runs, and only then:
// at rest the console draws nothing.
func (s *Screen) tick() {
	running := s.v.Phase == pb.Phase_PHASE_WAGERING && !s.v.Deadline.IsZero()
	if running && s.ticker == nil {
		s.ticker = time.NewTicker(time.Second)
		t := s.ticker
		go func() {
			for range t.C {
				s.tickDo(func() {
					if s.ticker == t {
						s.draw()
					}
				})
			}
		}()
	}
	if !running && s.ticker != nil {
		s.ticker.Stop()
		s.ticker = nil
	}
}

// Stop ends the countdown's ticker.
func (s *Screen) Stop() {
	if s.ticker != nil {
		s.ticker.Stop()
		s.ticker = nil
	}
}

func (s *Screen) compact() bool { return s.win.Width < 1600 }

func (s *Screen) textSize() float32 {
	if s.compact() {
		return 20
	}
	return 26
}

// draw lays the screen out again. The seats and the right-hand panel, which are touched, are
// built again only when what they show changed: a widget replaced between a finger's press and
// its release loses the touch, and the table changes (and the countdown moves) under the
// dealer's finger all the time. The bars along the top and bottom are only read.
func (s *Screen) draw() {
	if k := s.seatsKey(); k != s.seatsShown || s.seats == nil {
		s.seats, s.seatsShown = container.NewVScroll(s.seatsGrid()), k
	}
	if k := s.panelKey(); k != s.panelShown || s.panel == nil {
		s.panel, s.panelShown = container.New(&fixedWidth{w: s.panelWidth()}, s.rightPanel()), k
	}
	mid := container.NewBorder(nil, nil, nil, s.panel, s.seats)
	s.root.Objects = []fyne.CanvasObject{canvas.NewRectangle(bg), container.NewBorder(s.topBar(), s.bottomBar(), nil, nil, mid)}
	s.root.Refresh()
}

// panelWidth is the right-hand panel's width.
func (s *Screen) panelWidth() float32 {
	if s.compact() {
		return 600
	}
	return 860
}

// seatsKey is everything the seats grid shows.
func (s *Screen) seatsKey() string {
	return fmt.Sprintf("%v|%s|%v|%s|%v", s.v.Seats, s.seat, s.mode == "seat", s.v.Currency, s.compact())
}

// panelKey is everything the right-hand panel shows or acts on.
func (s *Screen) panelKey() string {
	st, _ := s.v.Seat(s.seat)
	last := ""
	if len(s.v.History) > 0 {
		last = s.v.History[0]
	}
	return fmt.Sprintf("%s|%s|%s|%v|%s|%s|%s|%v|%v|%s|%s|%v|%s|%s|%v|%v|%s|%d|%s", s.mode, s.grid, s.picked, s.sel, s.seat, s.pad, s.card, s.sup != nil,
		s.v.Phase, s.v.Proposal, s.v.RoundID, st, s.v.Currency, last, s.v.Wheel, s.v.Profile, s.v.BadProfile, len(s.v.History), s.capWords)
}

// fixedWidth lays its one object out at a fixed width.
type fixedWidth struct{ w float32 }

func (f *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

func (f *fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(f.w, h)
}

func (s *Screen) text(str string, c color.Color, size float32, bold bool) *canvas.Text {
	t := canvas.NewText(str, c)
	t.TextSize, t.TextStyle.Bold = size, bold
	return t
}

func (s *Screen) money(c int64) string { return money.InCurrency(s.v.Currency, c) }

// ---- always in view -------------------------------------------------------------------------

func (s *Screen) phaseWords() string {
	switch s.v.Phase {
	case pb.Phase_PHASE_CLOSED:
		return T("Table closed")
	case pb.Phase_PHASE_IDLE:
		return T("Between rounds")
	case pb.Phase_PHASE_WAGERING:
		return T("Place your bets")
	case pb.Phase_PHASE_NO_MORE_BETS:
		return T("No more bets")
	case pb.Phase_PHASE_RESULT:
		return T("Result")
	}
	return T("Waiting for the table")
}

func (s *Screen) topBar() fyne.CanvasObject {
	ts := s.textSize()
	light := canvas.NewCircle(lightGood)
	why := T("Green: the game may go on")
	switch {
	case !s.v.Up: // the table's light is not known without the table: never shown green
		light.FillColor, why = seatOff, T("Server lost: reconnecting")
	case s.v.RedLight:
		light.FillColor = danger
		why = T("Red:") + " " + s.v.Fault
	}
	lightBox := container.New(&fixedWidth{w: ts * 1.6}, container.NewCenter(container.NewGridWrap(fyne.NewSize(ts*1.4, ts*1.4), light)))
	left := container.NewHBox(lightBox, s.text(why, ink, ts, true))

	var bits []fyne.CanvasObject
	bits = append(bits, s.text(s.phaseWords(), ink, ts, true))
	if s.v.RoundID != "" {
		bits = append(bits, s.text(T("Round")+" "+s.v.RoundID, dim, ts*0.8, false))
	}
	if s.v.Phase == pb.Phase_PHASE_WAGERING && !s.v.Deadline.IsZero() {
		left := max(0, s.v.Deadline.Sub(s.now()).Round(time.Second))
		bits = append(bits, s.text(fmt.Sprintf("%d s", int(left/time.Second)), warn, ts*1.2, true))
	}
	if s.v.JackpotOn {
		bits = append(bits, s.text(T("Jackpot")+" "+s.money(s.v.Jackpot), ink, ts*0.8, false))
	}
	if !s.v.ClosingAt.IsZero() {
		bits = append(bits, s.text(T("Closing at")+" "+s.v.ClosingAt.Local().Format("15:04"), warn, ts*0.8, true))
	}
	row1 := container.NewHBox(left, layout.NewSpacer(), container.NewHBox(bits...))
	var row2 []fyne.CanvasObject
	if s.v.Proposal != "" {
		row2 = append(row2, s.text(T("The wheel reads")+" "+s.v.Proposal, ink, ts*0.8, true))
	}
	if s.v.WheelNote != "" {
		row2 = append(row2, s.text(T("Wheel:")+" "+s.v.WheelNote, warn, ts*0.8, false))
	}
	if s.v.Pending != "" {
		row2 = append(row2, s.text(T("Jackpot hit waiting for the supervisor:")+" "+s.v.Pending, warn, ts*0.8, true))
	}
	if len(s.v.History) > 0 {
		row2 = append(row2, layout.NewSpacer(), s.text(T("Last")+" "+strings.Join(s.v.History[:min(8, len(s.v.History))], "  "), dim, ts*0.8, false))
	}
	if !s.v.Up && s.v.Lost != "" {
		row2 = append(row2, s.text(s.v.Lost, danger, ts*0.8, false))
	}
	bgr := canvas.NewRectangle(panel)
	return container.NewStack(bgr, container.NewPadded(container.NewVBox(row1, container.NewHBox(row2...))))
}

func (s *Screen) bottomBar() fyne.CanvasObject {
	ts := s.textSize()
	c := ink
	if s.bad {
		c = refusedFg
	}
	lines := []fyne.CanvasObject{s.text(s.notice, c, ts, true)}
	for i, a := range s.v.Alarms {
		if i == 2 {
			break
		}
		lines = append(lines, s.text(T("Alarm:")+" "+a, warn, ts*0.72, false))
	}
	return container.NewStack(canvas.NewRectangle(panel), container.NewPadded(container.NewVBox(lines...)))
}

// ---- the seats ------------------------------------------------------------------------------

func (s *Screen) seatsGrid() fyne.CanvasObject {
	ts := s.textSize()
	w := float32(230)
	if s.compact() {
		w = 168
	}
	size := fyne.NewSize(w, ts*5.6)
	var cards []fyne.CanvasObject
	for _, st := range s.v.Seats {
		lines := []string{st.ID}
		switch {
		case st.Guest:
			lines[0] += " · " + T("guest")
		case !st.Connected:
			lines[0] += " · " + T("offline")
		}
		lines = append(lines, s.money(st.Balance))
		if st.Stake > 0 {
			lines = append(lines, T("Stake")+" "+s.money(st.Stake))
		}
		if st.Awaiting > 0 {
			lines = append(lines, T("Awaiting the player")+" "+s.money(st.Awaiting))
		}
		if st.Calling {
			lines = append(lines, T("Calls the dealer"))
		}
		if st.CashOut {
			lines = append(lines, T("Asks to cash out"))
		}
		if st.InService != "" {
			lines = append(lines, T("In service"))
		}
		if st.Vacatable {
			lines = append(lines, T("May be vacated"))
		} else if st.Abstained > 0 {
			lines = append(lines, fmt.Sprintf(T("Abstained %d"), st.Abstained))
		}
		if st.Limits != "" {
			lines = append(lines, T("Own limits")+" "+st.Limits)
		}
		if st.Rank > 0 {
			lines = append(lines, fmt.Sprintf(T("Rank %d"), st.Rank))
		}
		fill := color.Color(panel)
		switch {
		case st.Calling || st.CashOut:
			fill = seatCall
		case !st.Connected && !st.Guest:
			fill = seatOff
		}
		if st.ID == s.seat && s.mode == "seat" {
			fill = action
		}
		id := st.ID
		cards = append(cards, newTarget(fill, ink, ts*0.8, size, func() { s.openSeat(id) }, lines...))
	}
	// A new guest player (000 §11.3.1): the next free guest account, bought in from here.
	if id, ok := s.v.NextGuest(); ok && s.v.Up {
		fill := color.Color(seatOff)
		if id == s.seat && s.mode == "seat" {
			fill = action
		}
		cards = append(cards, newTarget(fill, ink, ts*0.8, size, func() { s.openSeat(id) }, "+ "+T("New guest"), id))
	}
	if len(cards) == 0 {
		return container.NewCenter(s.text(T("No seats yet"), dim, ts, false))
	}
	return container.NewGridWrap(size, cards...)
}

// ---- the right-hand panel -------------------------------------------------------------------

func (s *Screen) button(label string, fill color.Color, onTap func()) *target {
	return newTarget(fill, ink, s.textSize(), fyne.NewSize(minTarget*2, minTarget), onTap, label)
}

func (s *Screen) title(str string) fyne.CanvasObject {
	return container.NewCenter(s.text(str, ink, s.textSize()*1.1, true))
}

// rightPanel is the panel of the moment: each mode's builder, the round's for any other.
func (s *Screen) rightPanel() fyne.CanvasObject {
	build := map[string]func() fyne.CanvasObject{
		"grid": s.numberGrid, "confirm": s.confirmPanel, "seat": s.seatPanel, "bets": s.betsPanel,
		"login": s.loginPanel, "super": s.superPanel, "digits": s.digitsPanel, "refuse": s.refusePanel,
		"limits": s.limitsPanel, "limitseat": s.limitSeatPanel,
	}[s.mode]
	if build == nil {
		build = s.roundPanel
	}
	body := build()
	return container.NewStack(canvas.NewRectangle(panel), container.NewPadded(body))
}

func (s *Screen) roundPanel() fyne.CanvasObject {
	ph := s.v.Phase
	var bs []fyne.CanvasObject
	if ph == pb.Phase_PHASE_CLOSED || ph == pb.Phase_PHASE_UNSPECIFIED {
		bs = append(bs, s.button(T("Open the table"), action, s.act0(s.act.OpenTable, T("Table opened"))))
	} else {
		bs = append(bs, s.button(T("Close the table"), action, s.act0(s.act.CloseTable, T("Table closed"))))
	}
	bs = append(bs,
		s.button(T("Start the round"), action, s.act0(s.act.StartRound, T("Round started"))),
		s.button(T("Spin"), action, s.act0(s.act.Spin, T("Spin recorded"))),
		s.button(T("No more bets"), warn, s.act0(s.act.NoMoreBets, T("No more bets"))),
		s.button(T("Enter the outcome"), action, func() { s.openGrid("outcome") }),
		s.button(T("No spin"), warn, s.act0(s.act.NoSpin, T("No spin: the wagers stand"))),
		s.button(T("Dispute"), danger, s.act0(func(ctx context.Context) error { return s.act.Dispute(ctx, "dealer console") }, T("Disputed: the supervisor is called"))),
		s.button(T("Supervisor"), seatOff, func() { s.mode, s.pad, s.card, s.pin = "login", "", "", ""; s.draw() }),
	)
	var wheel fyne.CanvasObject = layout.NewSpacer()
	if s.v.Proposal != "" {
		n := s.v.Proposal
		wheel = newTarget(numberColour(n), ink, s.textSize()*1.3, fyne.NewSize(minTarget*4, minTarget*1.3),
			s.act0(s.act.ConfirmWheel, fmt.Sprintf(T("Outcome %s confirmed"), n)), fmt.Sprintf(T("Confirm the wheel's %s"), n))
	}
	return container.NewVBox(s.title(T("The round")), container.NewGridWithColumns(2, bs...), wheel)
}

// act0 is a touch that runs an action and shows its answer.
func (s *Screen) act0(f func(context.Context) error, done string) func() {
	return func() {
		s.run(func() {
			err := f(context.Background())
			s.do(func() { s.answer(err, done) })
		})
	}
}

// answer shows an action's answer: what was done, or the refusal in words.
func (s *Screen) answer(err error, done string) {
	if err != nil {
		s.notice, s.bad = model.Refusal(err), true
	} else {
		s.notice, s.bad = done, false
	}
	s.draw()
}

// ---- the number grid and its confirmation ---------------------------------------------------

func numberColour(n string) color.Color {
	num, err := roulette.ParseNumber(n)
	if err != nil {
		return seatOff
	}
	switch num.Colour() {
	case roulette.ColourRed:
		return redNum
	case roulette.ColourBlack:
		return blackNum
	}
	return greenNum
}

func (s *Screen) openGrid(purpose string) {
	s.mode, s.grid, s.picked, s.sel = "grid", purpose, "", nil
	s.draw()
}

// numberGrid is the table's wheel's numbers: 0 (and 00) across the top, 1–36 in rows of six.
func (s *Screen) numberGrid() fyne.CanvasObject {
	ts := s.textSize()
	cell := fyne.NewSize(minTarget*1.1, minTarget)
	pick := func(n string) func() {
		return func() { s.picked, s.mode = n, "confirm"; s.draw() }
	}
	if s.grid == "inside" {
		pick = s.toggle
	}
	var zeros, rest []fyne.CanvasObject
	for _, n := range s.v.Numbers() {
		str := n.String()
		fill, fg := numberColour(str), color.Color(ink)
		if s.grid == "inside" && slices.Contains(s.sel, str) {
			fill, fg = selected, blackNum // touched: the light plate, the number in black
		}
		t := newTarget(fill, fg, ts, cell, pick(str), str)
		if n == 0 || n >= roulette.DoubleZeroNumber {
			zeros = append(zeros, t)
		} else {
			rest = append(rest, t)
		}
	}
	zs, ns := container.NewGridWithColumns(len(zeros), zeros...), container.NewGridWithColumns(6, rest...)
	if s.grid == "inside" {
		return s.insidePanel(zs, ns)
	}
	title := map[string]string{"outcome": T("The winning number"), "correct": T("The true outcome"), "call": T("Neighbours of"),
		"straight": T("Straight up")}[s.grid]
	return container.NewVBox(s.title(title), zs, ns, s.button(T("Back"), seatOff, s.back))
}

// back is the panel before this one.
func (s *Screen) back() {
	switch {
	case s.mode == "confirm":
		s.mode = "grid"
	case s.mode == "grid" && s.grid == "call", s.mode == "bets":
		s.mode = "seat"
	case s.mode == "grid" && (s.grid == "straight" || s.grid == "inside"):
		s.mode = "bets"
	case s.mode == "grid" && s.grid == "correct", s.mode == "digits", s.mode == "refuse", s.mode == "limits":
		s.mode = "super"
	case s.mode == "limitseat":
		s.mode = "limits"
	default:
		s.mode = "round"
	}
	s.draw()
}

// confirmPanel shows the number picked large in its colour: one more touch enters it.
func (s *Screen) confirmPanel() fyne.CanvasObject {
	n := s.picked
	big := newTarget(numberColour(n), ink, 150, fyne.NewSize(minTarget*4, minTarget*3.4), nil, n)
	var ok func()
	var what string
	switch s.grid {
	case "outcome":
		what = T("Enter this outcome?")
		ok = func() {
			s.mode = "round"
			s.act0(func(ctx context.Context) error { return s.act.Outcome(ctx, n) }, fmt.Sprintf(T("Outcome %s entered"), n))()
		}
	case "correct":
		what = T("Correct the last round to this number?")
		sup, round := s.sup, s.act.LastRound()
		ok = func() {
			s.mode = "super"
			s.act0(func(ctx context.Context) error { return s.act.Correct(ctx, *sup, round, n) }, fmt.Sprintf(T("Round %s corrected to %s"), round, n))()
		}
	case "call":
		what = fmt.Sprintf(T("%s and the neighbours for %s, %s a piece?"), n, s.seat, s.money(s.padCents()))
		seat, cents := s.seat, s.padCents()
		ok = s.placed(seat, T("Call bet placed for %s: %s"), func(ctx context.Context) (int64, string, error) { return s.act.PlaceNeighbours(ctx, seat, n, cents) })
	case "straight":
		what = fmt.Sprintf(T("%s straight up for %s, %s?"), n, s.seat, s.money(s.padCents()))
		seat, w := s.seat, &pb.Wager{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{n}, Amount: s.padCents()}
		ok = s.placed(seat, T("Bet placed for %s: %s"), func(ctx context.Context) (int64, string, error) { return s.act.PlaceWager(ctx, seat, w) })
	}
	return container.NewVBox(s.title(what), container.NewCenter(big),
		container.NewGridWithColumns(2, s.button(T("Back"), seatOff, s.back), s.button(T("Confirm"), action, ok)))
}

// placed is a touch that places a bet for seat (place) and shows what the table accepted (done:
// the seat and the amount), back on the seat's panel.
func (s *Screen) placed(seat, done string, place func(context.Context) (int64, string, error)) func() {
	return func() {
		s.mode = "seat"
		s.run(func() {
			got, why, err := place(context.Background())
			s.do(func() {
				done := fmt.Sprintf(done, seat, s.money(got))
				if why != "" {
					done += " (" + why + ")"
				}
				s.answer(err, done)
			})
		})
	}
}

// ---- a seat: buy-in, cash-out, call bets ----------------------------------------------------

func (s *Screen) openSeat(id string) {
	if s.sup != nil {
		return // the supervisor's panel stays until they sign out
	}
	s.mode, s.seat, s.pad = "seat", id, ""
	s.draw()
}

// padCents is the amount pad's digits as cents: whole units (chips), 0 for none.
func (s *Screen) padCents() int64 {
	n, err := strconv.ParseInt(s.pad, 10, 64)
	if err != nil || n > 1e12 {
		return 0
	}
	return n * 100
}

// keypad is ten digits, clear and delete, typing into s.pad (max digits long; secret shows dots).
func (s *Screen) keypad(maxLen int) fyne.CanvasObject {
	var keys []fyne.CanvasObject
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"} {
		k := k
		keys = append(keys, newTarget(seatOff, ink, s.textSize()*1.2, fyne.NewSize(minTarget*1.3, minTarget), func() {
			switch k {
			case "C":
				s.pad = ""
			case "⌫":
				if s.pad != "" {
					s.pad = s.pad[:len(s.pad)-1]
				}
			default:
				if len(s.pad) < maxLen {
					s.pad += k
				}
			}
			s.draw()
		}, k))
	}
	return container.NewGridWithColumns(3, keys...)
}

func (s *Screen) seatPanel() fyne.CanvasObject {
	st, found := s.v.Seat(s.seat)
	amount := s.text(s.money(s.padCents()), ink, s.textSize()*1.6, true)
	seat := s.seat
	cents := s.padCents()
	if st.Guest || !found && model.GuestID(seat) { // a guest's, or a new guest's before their buy-in
		return container.NewVBox(s.title(T("Seat")+" "+seat+" · "+T("guest")+" · "+s.money(st.Balance)), container.NewCenter(amount),
			s.keypad(7), container.NewGridWithColumns(2, s.guestButtons(seat, cents)...))
	}
	bs := []fyne.CanvasObject{
		s.button(T("Credit buy-in"), action, s.act0(func(ctx context.Context) error { return s.act.Credit(ctx, seat, cents) },
			fmt.Sprintf(T("%s credited to %s: awaiting the player's confirmation"), s.money(cents), seat))),
		s.button(T("Call bet: neighbours"), action, func() { s.openGrid("call") }),
		s.button(T("Cash out at the dealer"), warn, s.closeAccount(seat, "dealer")),
	}
	leave := T("Direct to leave")
	if st.Vacatable { // three rounds abstained while every other seat is in use (001 §12.8)
		leave = T("Vacate the seat")
	}
	bs = append(bs, s.button(leave, danger, s.closeAccount(seat, "directed-to-leave")))
	bs = append(bs, s.button(T("Back"), seatOff, s.back))
	return container.NewVBox(s.title(T("Seat")+" "+seat+" · "+s.money(st.Balance)), container.NewCenter(amount),
		s.keypad(7), container.NewGridWithColumns(2, bs...))
}

// guestButtons are a guest's seat's (000 §11.3.1, §11.7): the guest has no Player Display, so
// the chips they hand over are credited at once, every bet they announce is placed here, and
// their balance is paid out in chips.
func (s *Screen) guestButtons(seat string, cents int64) []fyne.CanvasObject {
	return []fyne.CanvasObject{
		s.button(T("Buy in chips"), action, s.act0(func(ctx context.Context) error { return s.act.Credit(ctx, seat, cents) },
			fmt.Sprintf(T("%s in chips credited to %s"), s.money(cents), seat))),
		s.button(T("Place a bet"), action, func() { s.mode = "bets"; s.draw() }),
		s.button(T("Pay out in chips"), warn, s.closeAccount(seat, "dealer")),
		s.button(T("Back"), seatOff, s.back),
	}
}

// announced are the bets a guest may announce that name no single number: each placed with
// one touch at the pad's amount (a straight up and the neighbours go through the grid).
var announced = []struct {
	label string
	kind  pb.BetKind
	which int32 // a dozen's or a column's
}{
	{"Red", pb.BetKind_BET_KIND_RED, 0}, {"Black", pb.BetKind_BET_KIND_BLACK, 0},
	{"Odd", pb.BetKind_BET_KIND_ODD, 0}, {"Even", pb.BetKind_BET_KIND_EVEN, 0},
	{"1–18", pb.BetKind_BET_KIND_LOW, 0}, {"19–36", pb.BetKind_BET_KIND_HIGH, 0},
	{"Dozen 1", pb.BetKind_BET_KIND_DOZEN, 1}, {"Dozen 2", pb.BetKind_BET_KIND_DOZEN, 2},
	{"Dozen 3", pb.BetKind_BET_KIND_DOZEN, 3}, {"Column 1", pb.BetKind_BET_KIND_COLUMN, 1},
	{"Column 2", pb.BetKind_BET_KIND_COLUMN, 2}, {"Column 3", pb.BetKind_BET_KIND_COLUMN, 3},
	{"Voisins du zéro", pb.BetKind_BET_KIND_VOISINS, 0}, {"Tiers du cylindre", pb.BetKind_BET_KIND_TIER, 0},
	{"Orphelins", pb.BetKind_BET_KIND_ORPHELINS, 0}, {"Jeu zéro", pb.BetKind_BET_KIND_ZERO_GAME, 0},
}

// betsPanel is the bets a guest announces, for the seat selected at the pad's amount.
func (s *Screen) betsPanel() fyne.CanvasObject {
	seat, cents := s.seat, s.padCents()
	bs := []fyne.CanvasObject{
		s.button(T("Straight up"), action, func() { s.openGrid("straight") }),
		s.button(T("Call bet: neighbours"), action, func() { s.openGrid("call") }),
	}
	for _, a := range announced {
		w := &pb.Wager{Kind: a.kind, Which: a.which, Amount: cents}
		bs = append(bs, s.button(T(a.label), action, s.placed(seat, T("Bet placed for %s: %s"), func(ctx context.Context) (int64, string, error) { return s.act.PlaceWager(ctx, seat, w) })))
	}
	bs = append(bs, s.button(T("Back"), seatOff, s.back))
	inside := s.button(T("Split / street / corner / line"), action, func() { s.openGrid("inside") })
	return container.NewVBox(s.title(fmt.Sprintf(T("A bet for %s, %s"), seat, s.money(cents))), inside, container.NewGridWithColumns(3, bs...))
}

func (s *Screen) closeAccount(seat, reason string) func() {
	return func() {
		s.run(func() {
			paid, err := s.act.CloseAccount(context.Background(), seat, reason)
			s.do(func() { s.answer(err, fmt.Sprintf(T("%s closed: pay %s"), seat, s.money(paid))) })
		})
	}
}

// ---- the supervisor -------------------------------------------------------------------------

// loginPanel takes the supervisor's card id, then their PIN, on the pad; the PIN shows as dots
// and goes to the table with each of their actions, never kept once they sign out.
func (s *Screen) loginPanel() fyne.CanvasObject {
	ts := s.textSize()
	step, shown := T("Supervisor's card number"), s.pad
	if s.card != "" {
		step, shown = T("Supervisor's PIN"), strings.Repeat("•", len(s.pad))
	}
	next := func() {
		if s.pad == "" {
			return
		}
		if s.card == "" {
			s.card, s.pad = s.pad, ""
		} else {
			s.sup, s.pad, s.mode = &model.Supervisor{Card: "S" + s.card, PIN: s.pad}, "", "super"
			s.notice, s.bad = T("Supervisor signed in: each action is checked and recorded as theirs"), false
		}
		s.draw()
	}
	return container.NewVBox(s.title(step), container.NewCenter(s.text(shown+" ", ink, ts*1.6, true)), s.keypad(12),
		container.NewGridWithColumns(2, s.button(T("Back"), seatOff, func() { s.mode, s.card, s.pad = "round", "", ""; s.draw() }),
			s.button(T("Next"), action, next)))
}

func (s *Screen) superPanel() fyne.CanvasObject {
	sup := *s.sup
	round := s.act.LastRound()
	bs := []fyne.CanvasObject{
		s.button(T("Correct the outcome"), warn, func() { s.openGrid("correct") }),
		s.button(T("Invalidate the round"), danger, s.act0(func(ctx context.Context) error {
			return s.act.Invalidate(ctx, sup, round, "invalidated at the dealer's console")
		}, fmt.Sprintf(T("Round %s invalidated: every wager refunded"), round))),
		s.button(T("Confirm the jackpot"), action, s.act0(func(ctx context.Context) error { return s.act.ConfirmJackpot(ctx, sup) }, T("Jackpot confirmed"))),
		s.button(T("Clear the fault"), action, s.act0(func(ctx context.Context) error { return s.act.ClearFault(ctx, sup, "cleared at the dealer's console") }, T("Fault cleared: the light is green"))),
		s.button(T("Close in 30 minutes"), warn, s.act0(func(ctx context.Context) error {
			return s.act.ScheduleClose(ctx, sup, s.now().Add(30*time.Minute))
		}, T("Closure announced"))),
		s.button(T("Handpay a ticket"), action, func() { s.mode, s.grid, s.pad, s.capWords = "digits", "handpay", "", ""; s.draw() }),
		s.button(T("Release a ticket hold"), action, func() { s.mode, s.grid, s.pad = "digits", "release", ""; s.draw() }),
		s.button(T("Refuse a seat's wager"), danger, func() { s.mode = "refuse"; s.draw() }),
		s.button(T("Set limits"), action, func() { s.mode, s.pad = "limits", ""; s.draw() }),
		s.button(T("Sign out"), seatOff, func() { s.sup, s.card, s.pin, s.mode = nil, "", "", "round"; s.draw() }),
	}
	return container.NewVBox(s.title(T("Supervisor")+" "+sup.Card), container.NewGridWithColumns(2, bs...))
}

// digitsPanel takes a ticket's 18-digit validation number for a handpay or a hold's release.
func (s *Screen) digitsPanel() fyne.CanvasObject {
	sup := *s.sup
	v := s.pad
	var ok func()
	title := T("Ticket validation number")
	rows := []fyne.CanvasObject{s.title(title), container.NewCenter(s.text(v+" ", ink, s.textSize()*1.3, true))}
	switch s.grid {
	case "handpay":
		// A ticket over the cash cap is refused in cash (issue 31): its split stays on the panel,
		// word for word, where the supervisor reads it; the bottom line has room for one line.
		ok = func() {
			s.run(func() {
				err := s.act.Handpay(context.Background(), sup, v)
				s.do(func() {
					s.capWords = model.CashCapWords(err)
					s.answer(err, T("Ticket paid by hand"))
				})
			})
		}
		if s.capWords != "" {
			for _, line := range wrapText(s.capWords+". "+T("The console pays cash only: pay the rest with `dealer handpay` and its parts."),
				s.textSize()*0.8, s.panelWidth()-2*minTarget/3) {
				rows = append(rows, s.text(line, warn, s.textSize()*0.8, false))
			}
		}
	default:
		ok = s.act0(func(ctx context.Context) error {
			return s.act.ReleaseHold(ctx, sup, v, "released at the dealer's console")
		}, T("Ticket hold released"))
	}
	rows = append(rows, s.keypad(18),
		container.NewGridWithColumns(2, s.button(T("Back"), seatOff, s.back), s.button(T("Confirm"), action, ok)))
	return container.NewVBox(rows...)
}

// wrapText breaks str into lines no wider than width at size, between words.
func wrapText(str string, size, width float32) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(str) {
		next := w
		if line != "" {
			next = line + " " + w
		}
		if line != "" && fyne.MeasureText(next, size, fyne.TextStyle{}).Width > width {
			lines, line = append(lines, line), w
			continue
		}
		line = next
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// refusePanel is the seats with a stake this round: a touch refuses every wager of that seat's
// slip (003 §9.12), with the supervisor's card and PIN; the table tells the player.
func (s *Screen) refusePanel() fyne.CanvasObject {
	sup := *s.sup
	var bs []fyne.CanvasObject
	for _, st := range s.v.Seats {
		if st.Stake <= 0 {
			continue
		}
		seat := st.ID
		bs = append(bs, s.button(seat+" · "+s.money(st.Stake), danger, func() {
			s.run(func() {
				refused, err := s.act.RefuseWager(context.Background(), sup, seat, "refused by the supervisor at the dealer's console")
				s.do(func() {
					s.answer(err, fmt.Sprintf(T("The wagers of %s refused: %s back to the balance"), seat, s.money(refused)))
				})
			})
		}))
	}
	rows := []fyne.CanvasObject{s.title(T("Refuse the wagers of which seat?"))}
	if len(bs) == 0 {
		rows = append(rows, s.text(T("No seat has a wager this round"), dim, s.textSize(), false))
	}
	bs = append(bs, s.button(T("Back"), seatOff, s.back))
	return container.NewVBox(append(rows, container.NewGridWithColumns(3, bs...))...)
}

// limitsPanel sets the table's minimum or maximum wager, or a seat's own maximum, to the amount
// typed on the pad (whole units); the other of the two stays as it is. A higher minimum is the
// table's to announce before it is in force (rule 4.1): the answer says what the table did.
func (s *Screen) limitsPanel() fyne.CanvasObject {
	sup := *s.sup
	cur := s.v.Limits.GetDefault()
	lo, hi, cents := cur.GetMin(), cur.GetMax(), s.padCents()
	set := func(minimum, maximum int64) func() {
		return s.act0(func(ctx context.Context) error { return s.act.SetTableLimits(ctx, sup, minimum, maximum) },
			fmt.Sprintf(T("Table limits set: %s–%s"), s.money(minimum), s.money(maximum)))
	}
	title := fmt.Sprintf(T("Limits: %s–%s"), s.money(lo), s.money(hi))
	return container.NewVBox(s.title(title), container.NewCenter(s.text(s.money(cents), ink, s.textSize()*1.6, true)), s.keypad(7),
		container.NewGridWithColumns(2,
			s.button(T("Table minimum"), action, set(cents, hi)),
			s.button(T("Table maximum"), action, set(lo, cents)),
			s.button(T("A seat's maximum"), action, func() { s.mode = "limitseat"; s.draw() }),
			s.button(T("Back"), seatOff, s.back)))
}

// limitSeatPanel gives the seat touched its own maximum, the amount typed (its minimum the
// table's), with the supervisor's card and PIN (000 §4.3).
func (s *Screen) limitSeatPanel() fyne.CanvasObject {
	sup := *s.sup
	lo, cents := s.v.Limits.GetDefault().GetMin(), s.padCents()
	var bs []fyne.CanvasObject
	for _, st := range s.v.Seats {
		seat := st.ID
		bs = append(bs, s.button(seat, action, s.act0(func(ctx context.Context) error { return s.act.SetSeatLimits(ctx, sup, seat, lo, cents) },
			fmt.Sprintf(T("%s's own limits: %s–%s"), seat, s.money(lo), s.money(cents)))))
	}
	bs = append(bs, s.button(T("Back"), seatOff, s.back))
	return container.NewVBox(s.title(fmt.Sprintf(T("Which seat's maximum is %s?"), s.money(cents))), container.NewGridWithColumns(3, bs...))
}
