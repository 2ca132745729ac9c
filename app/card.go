package app

// Carded play at the seat (SPEC §10, issue 31): what the player sees and touches of their card.
// The table holds the card's limits and binds them (server/precommit); the terminal shows them:
//
//   - the card read at the seat's reader is presented to the table (CardRead), which holds it
//     for the seat or refuses it (in use at another seat, unregistered, lost, barred): the
//     refusal is shown in the player's language, from its reason code, not the server's words;
//   - a card without limits asks for them before any wager (CardView.SetLimits: the limits
//     screen), and the player may change them at any time (SetCardLimits);
//   - a live strip: time played and left, loss left (less the chips on the layout), the
//     session's result, told by the table after each settlement and change, and counted
//     between events on the terminal's estimate of the server's clock;
//   - the reality check at the operator's interval, shown between rounds (no chips on the
//     layout, not while the wheel turns), which the player acknowledges (the table journals it)
//     before the next wager;
//   - a limit reached, a break or a bar: what was reached and a countdown to when play may
//     resume, with cash-out offered; wagers already closed settle and show as usual.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/table"
)

// CardLink is what carded play needs of the table (client.Client has it).
type CardLink interface {
	// PresentCard tells the table the card read at the seat ("" taken out) and answers its state.
	PresentCard(ctx context.Context, card string) (table.CardState, error)
	// SetCardLimits sets the limits of the card read at the seat.
	SetCardLimits(ctx context.Context, card string, l table.CardLimits) (table.CardState, error)
	// AckRealityCheck tells the table the player acknowledged the reality check shown at shownAt.
	AckRealityCheck(ctx context.Context, card string, shownAt time.Time) error
}

// CardView is the seat's player card as the screen shows it. Zero when the table does not
// play carded.
type CardView struct {
	Carded bool              // the table plays carded: the strip and the card's screens apply
	State  *table.CardState  // as the table last told it; nil: no card read yet
	Limits table.CardLimits  // in force
	Next   *table.CardLimits // looser limits waiting for the cooling-off, in force from NextFrom
	// NextFrom is when Next takes effect (local time, for the screen).
	NextFrom time.Time
	// SetLimits: the limits screen shows — the card has none, the player asked to change them,
	// or (Confirm) a new session asks the player to confirm the card's limits or change them.
	SetLimits bool
	Confirm   bool
	// Strip: the live strip shows (a card held with limits).
	Strip         bool
	TimePlayed    time.Duration
	TimeLeft      time.Duration
	LossLeft      int64 // cents: what may still be wagered, the chips on the layout counted
	SessionResult int64 // cents: won (+) or lost (−) at this seat since the card was read
	// Stopped says what stops play (a limit reached, a break, a bar), with ResumeAt (local
	// time) and ResumeIn the countdown; zero when play is not stopped.
	Stopped  msg.Msg
	ResumeAt time.Time
	ResumeIn time.Duration
	// Refused is the card's refusal at the pad (in use elsewhere, unregistered, lost, barred).
	Refused msg.Msg
	// RealityCheck: the reality check is up, until the player acknowledges it.
	RealityCheck bool
	Helpline     string
	Busy         bool // a call to the table about the card is under way
	// Problem is why the player's last touch on a card screen did not take (the table's
	// refusal of the limits, an acknowledgement not recorded): said on the card screen, which
	// stands over the message line.
	Problem msg.Msg
}

// Refusals of a wager under carded play, at the terminal (the table refuses them too).
var (
	ErrCardLimitsFirst  = msg.Err("Set your loss limit, time limit and bar period before play")
	ErrRealityCheckOpen = msg.Err("Read and acknowledge the reality check to go on playing")
	ErrCardNotHeld      = msg.Err("Your player card was not accepted: see the message on the screen")
)

// cardState is the terminal's carded play: the table's last word on the card and the reality
// check's clock. Under t.mu.
type cardState struct {
	st        *table.CardState
	refused   msg.Msg
	editing   bool      // the player opened the limits screen to change them
	confirm   bool      // a new session's limits are to be confirmed (or changed) before play
	busy      bool      // a PresentCard / SetCardLimits call is under way
	presented string    // the card last presented to the table
	checkFrom time.Time // server time the reality check's interval counts from
	checkUp   time.Time // server time the reality check was shown (zero: not up)
	timer     clock.Timer
	problem   msg.Msg // CardView.Problem
}

func (c *cardState) stop() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
}

func (t *Terminal) cardLink() (CardLink, bool) {
	cl, ok := t.link.(CardLink)
	return cl, ok
}

// CardRead is the card the seat's reader read ("" taken out): presented to the table, which
// holds it for the seat or refuses it. A card already presented is not presented again.
func (t *Terminal) CardRead(card string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.presentLocked(card)
}

// presentLocked presents card to the table on a goroutine (the table's answer is its state).
func (t *Terminal) presentLocked(card string) {
	cl, ok := t.cardLink()
	if !ok || !t.view.Config.Carded || card == "" || card == t.cards.presented {
		return
	}
	t.cards.presented, t.cards.busy = card, true
	t.changedLocked()
	t.goLocked(func() {
		st, err := cl.PresentCard(t.ctx, card)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.cards.busy = false
		if err != nil {
			t.cards.presented = "" // asked again at the next read or connection
			t.log.Warn("carded: the card read not presented to the table", "card", card, "err", err)
			t.sayLocked(msg.New("Your player card could not be checked: %s", msg.Of(err)), Answer)
		} else {
			t.cardStateLocked(st)
		}
		t.changedLocked()
	})
}

// cardOwedLocked presents the card in the reader after a (re)connection: the table may not
// hold it (a restarted table, a card inserted while the link was down).
func (t *Terminal) cardOwedLocked() {
	t.cards.presented = ""
	if t.cards.st != nil && t.cards.st.Card != "" && t.cards.st.Refusal == "" {
		t.cards.presented = t.cards.st.Card
	}
	if card := t.playerCard(); card != "" {
		t.presentLocked(card)
	}
}

// cardStateLocked takes the table's state of the seat's card.
func (t *Terminal) cardStateLocked(st table.CardState) {
	prev := t.cards.st
	s := st
	t.cards.st = &s
	t.cards.refused = msg.Msg{}
	if s.Refusal != "" && s.Refusal != "no limits" && (s.State != "registered" || s.Refusal == "in use") {
		t.cards.refused = refusalMsg(s.Refusal, s)
	}
	if prev == nil || prev.Card != s.Card || !prev.SessionStart.Equal(s.SessionStart) {
		// A new session: the reality check counts from its start, and a card that has limits
		// has them confirmed (or changed) by its player before play (SPEC §10: set or confirmed).
		t.cards.checkFrom, t.cards.checkUp = s.SessionStart, time.Time{}
		t.cards.confirm = s.Limits.Set() && s.Refusal == ""
	}
	if !s.Limits.Set() {
		t.cards.editing, t.cards.confirm = false, false
	}
	t.armCardLocked()
}

// EditCardLimits opens (true) or closes the limits screen for a player who wants to change them.
func (t *Terminal) EditCardLimits(open bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cards.editing = open && t.cards.st != nil && t.cards.st.Card != ""
	t.changedLocked()
}

// ConfirmCardLimits is the player's confirmation of the card's limits at the start of a session:
// play goes on under them.
func (t *Terminal) ConfirmCardLimits() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cards.confirm, t.cards.editing = false, false
	t.changedLocked()
}

// SetCardLimits sets the card's limits as the player chose them on the limits screen: a
// stricter limit at once, a looser one after the cooling-off (the table decides). It returns
// once the table has answered.
func (t *Terminal) SetCardLimits(ctx context.Context, l table.CardLimits) error {
	cl, ok := t.cardLink()
	t.mu.Lock()
	var card string
	if t.cards.st != nil {
		card = t.cards.st.Card
	}
	switch {
	case !ok || !t.view.Config.Carded:
		t.mu.Unlock()
		return msg.Err("This table does not play carded")
	case card == "":
		t.mu.Unlock()
		return ErrNoPlayerCard
	case l.Loss <= 0 || l.Time <= 0 || (l.Bar != 24*time.Hour && l.Bar != 7*24*time.Hour):
		t.mu.Unlock()
		return msg.Err("Choose a loss limit, a time limit and a bar period")
	}
	t.cards.busy = true
	t.changedLocked()
	t.mu.Unlock()
	t.log.Info("carded: setting limits", "card", card)
	st, err := cl.SetCardLimits(ctx, card, l)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cards.busy = false
	if err != nil {
		m := cardWordsMsg(err, t.cards.st)
		t.log.Warn("carded: limits not set", "card", card, "err", err)
		t.cards.problem = m
		t.sayLocked(m, Answer)
		t.changedLocked()
		return &msg.Error{Msg: m}
	}
	t.log.Info("carded: limits set", "card", card, "loss", l.Loss, "time", l.Time, "bar", l.Bar)
	// Limits set are limits confirmed: the state answered may start the session, which would
	// otherwise ask the player to confirm the limits they have just set.
	t.cardStateLocked(st)
	t.cards.editing, t.cards.confirm, t.cards.problem = false, false, msg.Msg{}
	t.changedLocked()
	return nil
}

// AckRealityCheck is the player's acknowledgement of the reality check: the table journals it,
// and the next one is due an interval from now.
func (t *Terminal) AckRealityCheck(ctx context.Context) error {
	cl, ok := t.cardLink()
	t.mu.Lock()
	if !ok || t.cards.checkUp.IsZero() || t.cards.st == nil {
		t.mu.Unlock()
		return nil
	}
	card, shown := t.cards.st.Card, t.cards.checkUp
	t.mu.Unlock()
	if err := cl.AckRealityCheck(ctx, card, shown); err != nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		// The check stays up: the acknowledgement is the record the regulator asks for.
		t.log.Warn("carded: reality check acknowledgement not recorded", "card", card, "err", err)
		t.cards.problem = msg.New("Your acknowledgement could not be recorded: %s", msg.Of(err))
		t.sayLocked(t.cards.problem, Answer)
		t.changedLocked()
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cards.checkFrom, t.cards.checkUp, t.cards.problem = t.link.ServerNow(), time.Time{}, msg.Msg{}
	t.armCardLocked()
	t.changedLocked()
	return nil
}

// cardRefusalLocked refuses a wager the table would refuse for the card, or that the reality
// check holds back: no card held, limits not set, play stopped, the check up.
func (t *Terminal) cardRefusalLocked() error {
	if !t.view.Config.Carded {
		return nil
	}
	st := t.cards.st
	switch {
	case !t.cards.refused.IsZero():
		return &msg.Error{Msg: t.cards.refused}
	case st == nil || st.Card == "":
		return nil // the table refuses a wager without a card held, and says so
	}
	if m, _ := stoppedOf(*st, t.link.ServerNow()); !m.IsZero() {
		return &msg.Error{Msg: m}
	}
	switch {
	case st.NeedsLimits || !st.Limits.Set() || t.cards.confirm:
		return ErrCardLimitsFirst
	case !t.cards.checkUp.IsZero():
		return ErrRealityCheckOpen
	}
	return nil
}

// cardViewLocked is the card as the screen shows it at now (server time), the chips on the
// layout (slipTotal) counted against the loss left.
func (t *Terminal) cardViewLocked(slipTotal int64) CardView {
	cv := CardView{Carded: t.view.Config.Carded, Helpline: t.view.Config.Helpline, Busy: t.cards.busy, Refused: t.cards.refused,
		Problem: t.cards.problem}
	st := t.cards.st
	if !cv.Carded || st == nil || st.Card == "" {
		return cv
	}
	now := t.link.ServerNow()
	s := *st
	cv.State = &s
	cv.Limits = st.Limits
	if st.Next.Set() {
		n := st.Next
		cv.Next, cv.NextFrom = &n, t.localOf(st.NextFrom, now)
	}
	if !cv.Refused.IsZero() {
		return cv
	}
	cv.Confirm = t.cards.confirm && st.Limits.Set()
	cv.SetLimits = st.NeedsLimits || !st.Limits.Set() || t.cards.editing || cv.Confirm
	if !st.Limits.Set() {
		return cv
	}
	cv.Strip = true
	cv.TimePlayed, cv.TimeLeft = st.TimePlayed(now), st.TimeLeft(now)
	cv.LossLeft = max(0, st.LossLeft-slipTotal)
	cv.SessionResult = st.SessionResult
	if m, until := stoppedOf(*st, now); !m.IsZero() {
		cv.Stopped, cv.ResumeAt, cv.ResumeIn = m, t.localOf(until, now), until.Sub(now)
	}
	cv.RealityCheck = !t.cards.checkUp.IsZero()
	return cv
}

// localOf is server time at as a time on this terminal's clock (for the screen's clock face).
func (t *Terminal) localOf(at, serverNow time.Time) time.Time {
	if at.IsZero() {
		return at
	}
	return t.clk.Now().Add(at.Sub(serverNow))
}

// stoppedOf is what stops the card's play at now (server time) and until when: a bar (a limit
// reached), a break, or the time limit reached; zero when play is not stopped.
func stoppedOf(st table.CardState, now time.Time) (msg.Msg, time.Time) {
	switch {
	case now.Before(st.BarredUntil):
		if st.BarredFor == "time" {
			return msg.New("Your time limit of %s is reached: play is barred until %s", Duration(st.Limits.Time), ClockAt(st.BarredUntil)), st.BarredUntil
		}
		return msg.New("Your loss limit of %s is reached: play is barred until %s", money.Amount(st.Limits.Loss), ClockAt(st.BarredUntil)), st.BarredUntil
	case now.Before(st.BreakUntil):
		return msg.New("Time for a break: play may resume at %s", ClockAt(st.BreakUntil)), st.BreakUntil
	case !st.TimeUp.IsZero() && !now.Before(st.TimeUp):
		// The table bars the card at its next wager; the player is told now.
		return msg.New("Your time limit of %s is reached", Duration(st.Limits.Time)), time.Time{}
	}
	return msg.Msg{}, time.Time{}
}

// refusalMsg is the player's words for the table's refusal of the card, by its reason.
func refusalMsg(reason string, st table.CardState) msg.Msg {
	switch reason {
	case "unregistered":
		return msg.New("Player card %s is not registered: please register it at the cage before play", st.Card)
	case "lost":
		return msg.New("Player card %s has been reported lost: please see the cage", st.Card)
	case "barred":
		return msg.New("Player card %s is barred from play: please see the cage", st.Card)
	case "in use":
		return msg.New("Player card %s is in use at another seat: one card plays at one seat at a time", st.Card)
	case "no limits":
		return ErrCardLimitsFirst.(*msg.Error).Msg
	case "loss":
		// st.LossLeft is what is left of the limit after the settled rounds: what this round's
		// wagers may total.
		return msg.New("This wager would take you past your loss limit: your wagers may total %s this round", money.Amount(st.LossLeft))
	case "time", "bar", "break":
		if m, _ := stoppedOf(st, st.At); !m.IsZero() {
			return m
		}
	case "closed":
		return msg.New("This round's wagering has closed")
	}
	return msg.New("Your player card was refused: %s", st.RefusalWords)
}

// cardWords are the table's English refusals of a carded wager (server/precommit), by the words
// that tell them apart, and the reason each is: the terminal says them in the player's language.
var cardWords = []struct{ words, reason string }{
	{"is not registered", "unregistered"},
	{"has been reported lost", "lost"},
	{"is barred from play", "barred"},
	{"set your loss limit, time limit and bar period", "no limits"},
	{"is in use at another seat", "in use"},
	{"past your loss limit", "loss"},
	{"time limit of", "time"},
	{"limit was reached: play is barred", "bar"},
	{"without a break", "break"},
	{"Time for a break", "break"},
	{"wagering has closed", "closed"},
	{"requires a player card and none was sent", "no card"},
}

// cardWordsMsg is the player's words for a refusal err of the table about the card: its reason
// read from the table's English, in the player's language; any other error as msg.Of says it.
func cardWordsMsg(err error, st *table.CardState) msg.Msg {
	if err == nil {
		return msg.Msg{}
	}
	text := err.Error()
	for _, w := range cardWords {
		if !strings.Contains(text, w.words) {
			continue
		}
		var s table.CardState
		if st != nil {
			s = *st
		}
		switch w.reason {
		case "no card":
			return ErrNoPlayerCard.(*msg.Error).Msg
		case "time", "bar", "break":
			// The table names when play may resume; the state it sent with the refusal says it
			// exactly, and the screen counts it down.
			if s.Refusal == w.reason || w.reason == "bar" || w.reason == "time" {
				if m, _ := stoppedOf(s, s.At); !m.IsZero() {
					return m
				}
			}
			return msg.New("Play is stopped for your player card: %s", text[strings.Index(text, w.words):])
		}
		return refusalMsg(w.reason, s)
	}
	var e *msg.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return msg.Of(err)
}

// armCardLocked arms the card's next step: the strip's counts and the countdown every second
// while play is stopped or the reality check is near, else at the next whole minute played or
// the reality check's time, whichever is first.
func (t *Terminal) armCardLocked() {
	t.cards.stop()
	st := t.cards.st
	if !t.view.Config.Carded || st == nil || st.Card == "" || !st.Limits.Set() || t.closed {
		return
	}
	now := t.link.ServerNow()
	next := time.Minute - st.TimePlayed(now)%time.Minute
	if m, _ := stoppedOf(*st, now); !m.IsZero() {
		next = time.Second
	}
	if every := t.view.Config.RealityCheck; every > 0 && t.cards.checkUp.IsZero() && !t.cards.checkFrom.IsZero() {
		due := t.cards.checkFrom.Add(every).Sub(now)
		if due <= 0 {
			t.realityCheckLocked(now)
			due = time.Second // between rounds: looked at again each second until it can show
		}
		if t.cards.checkUp.IsZero() {
			next = min(next, due)
		}
	}
	t.cards.timer = t.clk.AfterFunc(max(next, 10*time.Millisecond), t.timerFired(t.armCardLocked))
}

// realityCheckLocked shows the reality check if the round allows it: between rounds — no chips
// of the player on the layout, the wheel not turning for them.
func (t *Terminal) realityCheckLocked(now time.Time) {
	if t.slip.Total(t.view.Config.Layout) > 0 || len(t.view.DealerStakes) > 0 || t.view.Phase == table.PhaseNoMoreBets {
		return
	}
	if m, _ := stoppedOf(*t.cards.st, now); !m.IsZero() {
		return // play is stopped: the stop screen says more than the check would
	}
	t.cards.checkUp = now
}

// Duration writes a time limit or time played for the player: "2h 05m", "45m", "30s".
func Duration(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh %02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	case d >= time.Minute:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%ds", int(d/time.Second))
}

// ClockAt writes a server time for the player as the date and time on this terminal: the
// same in every language ("2026-12-02 20:03").
func ClockAt(at time.Time) string { return at.Local().Format("2006-01-02 15:04") }
