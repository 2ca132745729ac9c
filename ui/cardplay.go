package ui

// Carded play on the screen (SPEC §10, issue 31; the model is app/card.go). At a carded table:
//
//   - the live strip in the side panel: time played and left, loss left, the session's result;
//   - over the play area (the side panel stays in view, so a round already closed is seen to
//     settle), one card screen at a time, chosen by the model's view:
//     the card refused at the pad (what and where to go), the limits screen (set the loss
//     limit, time limit and bar period, or confirm the card's at a new session), play stopped
//     (the limit reached, a break or a bar, counted down to when play may resume, with Cash
//     out), and the reality check (time played, the session's result, acknowledged by touch).
//
// The screen decides nothing: what shows and what each touch does are the model's
// (CardModel); the words are translated keys (assets/translations).

import (
	"context"
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// CardModel is what the card screens ask of the terminal (*app.Terminal has it).
type CardModel interface {
	SetCardLimits(ctx context.Context, l table.CardLimits) error
	ConfirmCardLimits()
	EditCardLimits(open bool)
	AckRealityCheck(ctx context.Context) error
	CashOut()
}

var _ CardModel = (*app.Terminal)(nil)

// The choices of the limits screen: a few large touch targets each, as YourPlay offers them.
var (
	lossChoices = []int64{5000, 10000, 20000, 50000, 100000}
	timeChoices = []time.Duration{30 * time.Minute, time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour}
	barChoices  = []time.Duration{24 * time.Hour, 7 * 24 * time.Hour}
)

// cardPlay is the strip and the card screens.
type cardPlay struct {
	s     *Screen
	model CardModel // nil: the terminal has no carded play

	strip                       *fyne.Container
	played, left, loss, session *canvas.Text
	edit                        *widget.Button

	area *fyne.Container // the card screen over the play area (the Screen stacks it there); hidden for none
	mode string          // which: "refused", "limits", "stopped", "reality" ("" none)
	key  string          // what it was built for: rebuilt only when this changes
	// live texts of the screen shown, updated in place each view (the countdown)
	resume *canvas.Text
	body   [3]*widget.Label // the reality check's three lines
	// the limits screen's choices
	lossSeg, timeSeg, barSeg *segmented
}

func newCardPlay(s *Screen) *cardPlay {
	c := &cardPlay{s: s}
	c.model, _ = s.term.(CardModel)
	c.played, c.left = text("", 18, panelText), text("", 18, panelText)
	c.loss, c.session = text("", 18, panelText), text("", 18, panelText)
	for _, v := range []*canvas.Text{c.played, c.left, c.loss, c.session} {
		v.Alignment = fyne.TextAlignTrailing
	}
	// A row each, its name on the left and its figure on the right, as the limit sign reads:
	// side by side they overran the panel at 1280×800.
	row := func(name string, v *canvas.Text) fyne.CanvasObject {
		return container.NewBorder(nil, nil, text(T(name), 18, panelDimText), nil, v)
	}
	c.edit = widget.NewButton(T("My limits"), func() {
		if c.model != nil {
			c.model.EditCardLimits(true)
		}
	})
	c.strip = container.NewVBox(widget.NewSeparator(),
		row("Time played", c.played), row("Time left", c.left), row("Loss left", c.loss), row("Session result", c.session), c.edit)
	c.strip.Hide()
	c.area = container.NewStack()
	c.area.Hide()
	return c
}

// update draws the strip and shows the card screen the view asks for.
func (c *cardPlay) update(v app.View) {
	cv := v.Card
	if !cv.Carded {
		c.strip.Hide()
		c.show("", "", nil)
		return
	}
	if cv.Strip {
		setText(c.played, app.Duration(cv.TimePlayed))
		setText(c.left, app.Duration(cv.TimeLeft))
		setText(c.loss, c.s.cash(cv.LossLeft))
		setText(c.session, c.signed(cv.SessionResult))
		if cv.SessionResult < 0 {
			c.session.Color = closedColour
		} else {
			c.session.Color = openColour
		}
		if !c.strip.Visible() {
			c.strip.Show()
			c.s.side.Refresh()
		}
	} else if c.strip.Visible() {
		c.strip.Hide()
		c.s.side.Refresh()
	}
	switch {
	case !cv.Refused.IsZero():
		c.show("refused", c.s.say(cv.Refused), func() fyne.CanvasObject { return c.refusedScreen(cv) })
	case !cv.Stopped.IsZero():
		c.show("stopped", c.s.say(cv.Stopped), func() fyne.CanvasObject { return c.stoppedScreen(cv) })
		if c.resume != nil && !cv.ResumeAt.IsZero() {
			setText(c.resume, fmt.Sprintf(T("Play may resume in %s"), countdown(cv.ResumeIn)))
		}
	case cv.SetLimits:
		c.show("limits", fmt.Sprint(cv.Confirm, cv.Limits, cv.Next, cv.Busy, cv.Problem), func() fyne.CanvasObject { return c.limitsScreen(cv) })
	case cv.RealityCheck:
		c.show("reality", fmt.Sprint(cv.Problem), func() fyne.CanvasObject { return c.realityScreen(cv) })
		if c.body[0] != nil {
			for i, l := range c.realityText(cv) {
				c.body[i].SetText(l)
			}
		}
	default:
		c.show("", "", nil)
	}
}

// signed is a session's result with its sign: "+A$15.00", "−A$20.00".
func (c *cardPlay) signed(cents int64) string {
	if cents < 0 {
		return "−" + c.s.cash(-cents)
	}
	return "+" + c.s.cash(cents)
}

// countdown writes the time to wait: "23:59:59", "14:59".
func countdown(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// show puts the card screen of mode (built by build, for what key says) over the play area, or
// takes it away for mode "". The same mode and key keep the screen that is up.
//
// The screen is part of the content (area, stacked over the play area by the Screen), not a
// canvas overlay: a change of the overlays alone was not repainted by the kiosk's parked event
// loop (the journey read the old screen 20 s after it was gone), while a refresh of content is.
// Its backdrop takes every touch, so nothing under it is played while it stands.
func (c *cardPlay) show(mode, key string, build func() fyne.CanvasObject) {
	if mode == c.mode && key == c.key {
		return
	}
	c.mode, c.key = mode, key
	c.resume, c.body = nil, [3]*widget.Label{}
	if mode == "" {
		c.area.Objects = nil
		c.area.Hide()
		c.area.Refresh()
		return
	}
	box := container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		container.NewPadded(c.s.sizing.sized(build(), helpSizes, nil)))
	c.area.Objects = []fyne.CanvasObject{newTouchStop(), container.New(centred{0.94}, box)}
	c.area.Show()
	c.area.Refresh()
}

// touchStop is a dimmed backdrop that takes every touch: the play area under a card screen is
// not played.
type touchStop struct{ widget.BaseWidget }

func newTouchStop() *touchStop {
	t := &touchStop{}
	t.ExtendBaseWidget(t)
	return t
}

// Tapped takes the touch and does nothing with it.
func (*touchStop) Tapped(*fyne.PointEvent) {}

func (t *touchStop) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(theme.Color(theme.ColorNameShadow)))
}

func heading(s string, colour color.Color) *canvas.Text {
	h := text(s, 34, colour)
	h.Alignment = fyne.TextAlignCenter
	return h
}

// line is a line of a card screen, centred. Not wrapped: a wrapping label in a box is laid out
// one line high before it knows its width, and its other lines are drawn over what follows.
func line(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Alignment = fyne.TextAlignCenter
	return l
}

// helpline is the operator's helpline line, "" for none.
func (c *cardPlay) helpline(cv app.CardView) fyne.CanvasObject {
	if cv.Helpline == "" {
		return container.NewVBox()
	}
	return line(fmt.Sprintf(T("Need to talk? %s"), cv.Helpline))
}

func (c *cardPlay) cashOutButton() *widget.Button {
	b := widget.NewButton(T("Cash out"), func() {
		if c.model != nil {
			c.model.CashOut()
		}
	})
	b.Importance = widget.HighImportance
	return b
}

// refusedScreen: the card read at the pad was refused; the player reads why and where to go.
func (c *cardPlay) refusedScreen(cv app.CardView) fyne.CanvasObject {
	return container.NewVBox(heading(T("PLAYER CARD NOT ACCEPTED"), closedColour), line(c.s.say(cv.Refused)),
		c.helpline(cv), container.NewCenter(c.cashOutButton()))
}

// stoppedScreen: a limit reached, a break or a bar, with when play may resume counted down.
func (c *cardPlay) stoppedScreen(cv app.CardView) fyne.CanvasObject {
	title := T("PLAY STOPPED")
	if cv.State != nil && cv.State.BarredUntil.IsZero() && !cv.State.BreakUntil.IsZero() {
		title = T("TIME FOR A BREAK")
	}
	c.resume = heading("", selectedChip)
	if !cv.ResumeAt.IsZero() {
		c.resume.Text = fmt.Sprintf(T("Play may resume in %s"), countdown(cv.ResumeIn))
	}
	return container.NewVBox(heading(title, warnColour), line(c.s.say(cv.Stopped)), c.resume,
		line(T("Wagers already closed settle as usual.")), c.helpline(cv), container.NewCenter(c.cashOutButton()))
}

// realityText is the reality check's account of the session, in three lines.
func (c *cardPlay) realityText(cv app.CardView) [3]string {
	return [3]string{fmt.Sprintf(T("You have played for %s."), app.Duration(cv.TimePlayed)),
		fmt.Sprintf(T("Your session result is %s."), c.signed(cv.SessionResult)),
		fmt.Sprintf(T("Loss left %s, time left %s."), c.s.cash(cv.LossLeft), app.Duration(cv.TimeLeft))}
}

// realityScreen: the reality check, acknowledged by touch (the table records it).
func (c *cardPlay) realityScreen(cv app.CardView) fyne.CanvasObject {
	for i, l := range c.realityText(cv) {
		c.body[i] = line(l)
	}
	ack := widget.NewButton(T("Continue playing"), func() {
		if c.model != nil {
			go c.model.AckRealityCheck(context.Background())
		}
	})
	ack.Importance = widget.HighImportance
	parts := []fyne.CanvasObject{heading(T("REALITY CHECK"), selectedChip), c.body[0], c.body[1], c.body[2]}
	if !cv.Problem.IsZero() {
		problem := text(c.s.say(cv.Problem), 20, closedColour)
		problem.Alignment = fyne.TextAlignCenter
		parts = append(parts, problem)
	}
	return container.NewVBox(append(parts, c.helpline(cv), container.NewCenter(container.NewHBox(ack, c.cashOutButton())))...)
}

// choiceIndex is the index of want among n choices (the first when none matches).
func choiceIndex[T comparable](choices []T, want T) int {
	for i, c := range choices {
		if c == want {
			return i
		}
	}
	return 0
}

// limitsScreen: set the loss limit, time limit and bar period — or, at a new session, confirm
// the card's — before play. Lowering binds at once, raising after the cooling-off.
func (c *cardPlay) limitsScreen(cv app.CardView) fyne.CanvasObject {
	var losses, times, bars []string
	for _, l := range lossChoices {
		losses = append(losses, c.s.cash(l))
	}
	for _, d := range timeChoices {
		times = append(times, app.Duration(d))
	}
	bars = []string{T("24 hours"), T("7 days")}
	c.lossSeg = newSegmented(losses, choiceIndex(lossChoices, cv.Limits.Loss), nil)
	c.timeSeg = newSegmented(times, choiceIndex(timeChoices, cv.Limits.Time), nil)
	c.barSeg = newSegmented(bars, choiceIndex(barChoices, cv.Limits.Bar), nil)
	row := func(label string, seg *segmented) fyne.CanvasObject {
		// A little room before the name: flush with the box, its first glyph was cut (亏).
		name := container.New(layout.NewCustomPaddedLayout(0, 0, 6, 6), text(T(label), 22, panelText))
		return container.NewBorder(nil, nil, name, nil, seg)
	}
	title, intro, more := T("SET YOUR LIMITS"), T("Before you play, choose how much you may lose and how long you may play."), T("Reaching either stops play for the bar period you choose.")
	if cv.Confirm {
		title, intro = T("YOUR LIMITS"), T("Confirm your limits for this session, or change them.")
	}
	set := widget.NewButton(T("Set these limits"), func() {
		if c.model == nil {
			return
		}
		l := table.CardLimits{Loss: lossChoices[c.lossSeg.Selected()], Time: timeChoices[c.timeSeg.Selected()], Bar: barChoices[c.barSeg.Selected()]}
		go c.model.SetCardLimits(context.Background(), l)
	})
	set.Importance = widget.HighImportance
	buttons := container.NewHBox(set)
	if cv.Confirm {
		keep := widget.NewButton(T("Keep my limits"), func() {
			if c.model != nil {
				c.model.ConfirmCardLimits()
			}
		})
		keep.Importance = widget.HighImportance
		set.Importance = widget.MediumImportance
		buttons = container.NewHBox(keep, set)
	} else if cv.Limits.Set() {
		buttons.Add(widget.NewButton(T("Close"), func() {
			if c.model != nil {
				c.model.EditCardLimits(false)
			}
		}))
	}
	if cv.Busy {
		set.Disable()
	}
	parts := []fyne.CanvasObject{heading(title, selectedChip), line(intro), line(more),
		row("Loss limit", c.lossSeg), row("Time limit", c.timeSeg), row("Bar period", c.barSeg)}
	if cv.Next != nil {
		parts = append(parts, line(fmt.Sprintf(T("Your higher limits (loss %s, time %s) take effect at %s."),
			c.s.cash(cv.Next.Loss), app.Duration(cv.Next.Time), cv.NextFrom.Format("2006-01-02 15:04"))))
	}
	if !cv.Problem.IsZero() {
		p := text(c.s.say(cv.Problem), 20, closedColour)
		p.Alignment = fyne.TextAlignCenter
		parts = append(parts, p)
	}
	parts = append(parts, line(T("A lower limit takes effect at once; a higher one after the cooling-off period.")),
		container.NewCenter(buttons), c.helpline(cv))
	return container.NewVBox(parts...)
}

// cardHelp is Help's part on carded play: the helpline and each bet's return to player, from
// the rules engine's payouts on this table's wheel (issue 31).
func cardHelp(v app.View) []helpSection {
	if !v.Card.Carded {
		return nil
	}
	sec := helpSection{heading: "PLAY SAFE"}
	if v.Card.Helpline != "" {
		sec.lines = append(sec.lines, fmt.Sprintf(T("Need to talk? %s"), v.Card.Helpline))
	}
	sec.lines = append(sec.lines, T("Your loss limit, time limit and bar period bind at every table. My limits changes them: a lower limit at once, a higher one after the cooling-off period."))
	sec.table = [][]string{{T("Bet"), T("Return to player")}}
	l := v.Config.Layout
	numbers := l.Wheel.Numbers()
	seen := map[roulette.Kind]bool{}
	for _, sp := range l.Spots() {
		if seen[sp.Kind] || sp.Kind.Odds() == 0 {
			continue
		}
		seen[sp.Kind] = true
		covered := int64(0)
		for _, n := range numbers {
			if sp.Wins(n) {
				covered++
			}
		}
		// Return per unit staked over every outcome, in hundredths of a per cent, rounded.
		n := int64(len(numbers))
		bp := ((sp.Kind.Odds()+1)*covered*10000*2 + n) / (2 * n)
		sec.table = append(sec.table, []string{T(sp.Kind.String()), fmt.Sprintf("%d.%02d%%", bp/100, bp%100)})
	}
	return []helpSection{sec}
}
