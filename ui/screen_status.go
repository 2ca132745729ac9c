package ui

import (
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/table"
)

// statusRegion is the screen's status and countdown, at the top of the side panel: the period
// state in words and colour, what a state the player cannot act in means, the countdown with
// its plate and bar, and L's period lamps (designs.go places them: sideTop).
type statusRegion struct {
	countdown *canvas.Text
	status    *canvas.Text
	explain   *widget.Label  // what a state the player cannot act in means (frozen)
	lamps     *periodLamps   // L's period lamps (designs.go); nil in A and U
	cd        *countdownView // the countdown's plate and bar (countdown.go)
	// explained is told when the explanation comes or goes: the column it stands in is laid
	// out again, so the words stand under the status, not over it.
	explained func()
}

func newStatusRegion() *statusRegion {
	r := &statusRegion{}
	r.countdown = text("", 64, openColour)
	r.countdown.Alignment = fyne.TextAlignCenter
	r.status = text("", statusSize, openColour)
	r.status.Alignment = fyne.TextAlignCenter
	r.explain = widget.NewLabel("")
	r.explain.Wrapping, r.explain.Alignment = fyne.TextWrapWord, fyne.TextAlignCenter
	r.explain.Hide()
	return r
}

// update shows why the player cannot act, where the state needs saying. The status and the
// countdown follow the clock as well as the view: tick draws them.
func (r *statusRegion) update(v app.View) {
	explained := r.explain.Visible()
	if v.Frozen {
		// The status says frozen; this says why, and that it ends (001 §9.4).
		setLabel(r.explain, T("A result is being corrected: accounts are frozen until it is done"))
		r.explain.Show()
	} else {
		r.explain.Hide()
	}
	if explained != r.explain.Visible() && r.explained != nil {
		r.explained()
	}
}

// tick redraws the countdown and the status for view v, with left the wagering time left on
// the table's clock (asked only while wagering).
func (r *statusRegion) tick(v app.View, left func() time.Duration) {
	count := ""
	var remaining time.Duration
	second := 0
	if v.Phase == table.PhaseWagering && v.Connected {
		// Cut off from the table this terminal takes no bets: a countdown would say otherwise.
		remaining = left()
		second = int((remaining + 999*time.Millisecond) / time.Second)
		count = fmt.Sprintf("%d", second)
	} else if v.Phase == table.PhaseNoMoreBets && v.BallDropping && v.Connected {
		// 001 §5.1.3: the wheel sensor saw the ball about to drop, so the time for wagering
		// is reduced to zero, and the countdown says so rather than vanish.
		count = "0"
	}
	status, c := periodStatus(v.Period)
	if r.cd != nil {
		r.cd.show(remaining, v.Config.WageringPeriod, v.Period, second)
		if r.cd.lastLit {
			c = color.Black // on the lit plate
		}
	}
	// Redraw only what changed: the ticker runs ten times a second for a number that changes
	// once, and every refresh repaints the window (idle cost, issue 18).
	if count != r.countdown.Text || c != r.countdown.Color {
		r.countdown.Text, r.countdown.Color = count, c
		r.countdown.Refresh()
	}
	if r.lamps != nil {
		r.lamps.set(v.Period)
	}
	if sc := statusColour(v.Period); status != r.status.Text || sc != r.status.Color {
		r.status.Text, r.status.Color = status, sc
		r.status.TextSize = fitText(status, statusSize, sidePanelWidth-12, r.status.TextStyle)
		r.status.Refresh()
	}
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
