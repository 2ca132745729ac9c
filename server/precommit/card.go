// Package precommit is carded play and binding pre-commitment (SPEC §10, issue 31): a player
// card tied to a registered identity, the loss limit, time limit and bar period its player
// set before play, and the one decision the table server asks of it for every slip — may this
// card's wagers of this seat and round stand at this amount? — taken with the stake reserved
// in the same transaction, so no two seats or tables of a floor can each take a wager that
// together pass a limit.
//
// The rules are pure functions over Card (this file); where the cards live is a Store (store.go):
// the table's ledger here (ledger.go: SQLite for a table alone, the floor's PostgreSQL schema
// floor for a floor), and a state's pre-commitment system could stand in its place, as
// Victoria's YourPlay does for gaming machines.
//
// Net loss (the rules decision, notes/carded.md): over the card's limit period — 24 hours from
// its first wager after the last period ended (Settings.Period) — the stakes of its settled
// wagers less what those wagers returned (winnings and the stake back), plus every stake its
// open slips hold (Reserved): a wager not yet settled counts as lost, so whatever the wheel
// does the net loss can never pass the limit. A wager is refused, never clamped, when the
// net loss with it would pass the loss limit.
package precommit

import (
	"errors"
	"fmt"
	"time"

	"github.com/tablegames/ats/app/money"
)

// State is a card's registration state. A card the store does not know is unregistered.
type State string

const (
	Registered State = "registered" // tied to a person by the cage: may play
	Lost       State = "lost"       // reported lost: refused wherever it is read
	Barred     State = "barred"     // barred by the operator (an exclusion): refused until cleared
)

// Valid reports whether s is one of the states.
func (s State) Valid() bool { return s == Registered || s == Lost || s == Barred }

// The bar periods a player may choose (SPEC §10: 24 hours or seven days).
const (
	BarDay  = 24 * time.Hour
	BarWeek = 7 * 24 * time.Hour
)

// Limits are what a player sets before play.
type Limits struct {
	Loss int64         // cents: the most the net loss may reach over the period
	Time time.Duration // play time from the period's first wager
	Bar  time.Duration // how long reaching either bars the card: BarDay or BarWeek
}

// Set reports whether any limits are set: a card with none may not play.
func (l Limits) Set() bool { return l.Loss > 0 }

// Validate refuses limits a player cannot have set.
func (l Limits) Validate() error {
	switch {
	case l.Loss <= 0:
		return fmt.Errorf("precommit: loss limit %d cents: must be positive", l.Loss)
	case l.Time <= 0:
		return fmt.Errorf("precommit: time limit %v: must be positive", l.Time)
	case l.Bar != BarDay && l.Bar != BarWeek:
		return fmt.Errorf("precommit: bar period %v: must be 24 hours or 7 days", l.Bar)
	}
	return nil
}

// tighter is the limits that hold of l and m, each at its stricter: the smaller loss and time,
// the longer bar.
func (l Limits) tighter(m Limits) Limits {
	out := l
	out.Loss, out.Time, out.Bar = min(l.Loss, m.Loss), min(l.Time, m.Time), max(l.Bar, m.Bar)
	return out
}

// Settings are the operator's.
type Settings struct {
	CoolingOff time.Duration // a raised limit takes effect this long after it was asked (default 24 h)
	Period     time.Duration // a limit period's length from its first wager (default 24 h)
	// BreakAfter continuous play, a break of Break (defaults 3 h and 15 min, SPEC §10). Play
	// is continuous while no pause between wagers is as long as the break: a pause of Break
	// or more is a break taken, and continuous play starts again at the next wager.
	BreakAfter, Break time.Duration
	// DayPlay of play in any 24 hours starts a day's break of DayBreak; WeekPlay in any 7 days
	// is the most a week allows (defaults 12 h, 24 h and 36 h, SPEC §10; playtime.go).
	DayPlay, DayBreak, WeekPlay time.Duration
}

// DefaultSettings are the defaults of the issue: 24 hours' cooling-off, a 24-hour period, a
// 15-minute break after 3 hours' continuous play.
func DefaultSettings() Settings {
	return Settings{CoolingOff: 24 * time.Hour, Period: 24 * time.Hour, BreakAfter: 3 * time.Hour, Break: 15 * time.Minute,
		DayPlay: 12 * time.Hour, DayBreak: 24 * time.Hour, WeekPlay: 36 * time.Hour}
}

func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	if s.CoolingOff <= 0 {
		s.CoolingOff = d.CoolingOff
	}
	if s.Period <= 0 {
		s.Period = d.Period
	}
	if s.BreakAfter <= 0 {
		s.BreakAfter = d.BreakAfter
	}
	if s.Break <= 0 {
		s.Break = d.Break
	}
	if s.DayPlay <= 0 {
		s.DayPlay = d.DayPlay
	}
	if s.DayBreak <= 0 {
		s.DayBreak = d.DayBreak
	}
	if s.WeekPlay <= 0 {
		s.WeekPlay = d.WeekPlay
	}
	return s
}

// Card is a player card as the rules see it.
type Card struct {
	ID     string
	State  State
	Limits Limits // in force
	// Next are raised limits waiting for the cooling-off; in force from NextFrom.
	Next     Limits
	NextFrom time.Time
	// The period's play: its first wager's time (zero: none yet), its settled stakes and
	// returns, and the stakes open slips hold.
	PeriodStart                time.Time
	Staked, Returned, Reserved int64
	BarredUntil                time.Time // a limit reached bars the card until then
	BarredFor                  string    // which limit: "loss" or "time"
	HeldBy                     string    // the seat holding the card for its session ("T1/T01"), "" none
	// Continuous play (Settings.BreakAfter): its first wager and its latest; a break due
	// refuses wagers until BreakUntil.
	PlayFrom, PlayedAt, BreakUntil time.Time
	// Spans are the ended stretches of continuous play of the last 7 days: the day's and the
	// week's play are measured over them (playtime.go).
	Spans []Span
}

// BreakDue is when continuous play reaches its break (zero: no play under way).
func (c Card) BreakDue(s Settings) time.Time {
	if c.PlayFrom.IsZero() {
		return time.Time{}
	}
	return c.PlayFrom.Add(s.withDefaults().BreakAfter)
}

// NetLoss is the period's net loss, counting open stakes as lost (the package doc).
func (c Card) NetLoss() int64 { return c.Staked - c.Returned + c.Reserved }

// LossLeft is what may still be staked before the loss limit.
func (c Card) LossLeft() int64 { return max(0, c.Limits.Loss-c.NetLoss()) }

// TimeUp is when the time limit ends play this period (zero: the period has not begun).
func (c Card) TimeUp() time.Time {
	if c.PeriodStart.IsZero() {
		return time.Time{}
	}
	return c.PeriodStart.Add(c.Limits.Time)
}

// roll brings c to now: raised limits whose cooling-off is over take effect, a bar that ended
// lifts, and a period that ended (or a bar that lifted) starts a new one at the next wager.
func (c *Card) roll(now time.Time, s Settings) {
	if !c.NextFrom.IsZero() && !now.Before(c.NextFrom) {
		c.Limits, c.Next, c.NextFrom = c.Next, Limits{}, time.Time{}
	}
	if !c.BarredUntil.IsZero() && !now.Before(c.BarredUntil) {
		c.BarredUntil, c.BarredFor = time.Time{}, ""
		c.newPeriod()
	}
	if !c.PeriodStart.IsZero() && !now.Before(c.PeriodStart.Add(s.Period)) && c.BarredUntil.IsZero() {
		c.newPeriod()
	}
	c.pruneSpans(now)
}

// newPeriod starts a new limit period at the next wager. Open stakes stay reserved: they are
// counted in the period they settle in.
func (c *Card) newPeriod() {
	c.PeriodStart, c.Staked, c.Returned = time.Time{}, 0, 0
}

// setLimits applies limits a player set at now: what lowers takes effect at once, what raises
// waits for the cooling-off (a player's first limits, with none in force, take effect at once).
func (c *Card) setLimits(l Limits, now time.Time, s Settings) error {
	if err := l.Validate(); err != nil {
		return err
	}
	if !c.Limits.Set() {
		c.Limits, c.Next, c.NextFrom = l, Limits{}, time.Time{}
		return nil
	}
	c.Limits = c.Limits.tighter(l)
	if c.Limits == l {
		c.Next, c.NextFrom = Limits{}, time.Time{}
		return nil
	}
	c.Next, c.NextFrom = l, now.Add(s.CoolingOff)
	return nil
}

// Refusal is a wager refused for the card: why, in words a player reads, and until when play
// stays refused (zero: it may play again when the reason is gone, e.g. a smaller wager).
type Refusal struct {
	Card   string
	Reason string // "unregistered", "lost", "barred", "no limits", "in use", "loss", "time", "bar"
	Until  time.Time
	Words  string
}

func (r *Refusal) Error() string { return r.Words }

// ErrRefused is what every Refusal is (errors.Is).
var ErrRefused = errors.New("precommit: refused")

// Is makes a Refusal an ErrRefused.
func (r *Refusal) Is(target error) bool { return target == ErrRefused }

func refuse(c Card, reason string, until time.Time, format string, args ...any) *Refusal {
	return &Refusal{Card: c.ID, Reason: reason, Until: until, Words: fmt.Sprintf(format, args...)}
}

// stateRefusal is why card may not play at all, nil if it may.
func stateRefusal(c Card, known bool, now time.Time) *Refusal {
	switch {
	case !known:
		return refuse(c, "unregistered", time.Time{}, "Player card %s is not registered: please register it at the cage before play.", c.ID)
	case c.State == Lost:
		return refuse(c, "lost", time.Time{}, "Player card %s has been reported lost: please see the cage.", c.ID)
	case c.State == Barred:
		return refuse(c, "barred", time.Time{}, "Player card %s is barred from play: please see the cage.", c.ID)
	case !c.Limits.Set():
		return refuse(c, "no limits", time.Time{}, "Please set your loss limit, time limit and bar period before play.")
	case now.Before(c.BarredUntil):
		return refuse(c, "bar", c.BarredUntil, "Your %s limit was reached: play is barred until %s UTC.", c.BarredFor, c.BarredUntil.UTC().Format("2 Jan 15:04"))
	}
	return nil
}

// stake decides whether the hold (a seat's slip of a round) may keep back amount of c, where it
// kept old: nil, with c's reservation changed, or the refusal, with c unchanged but for a bar
// its time limit brought. Lowering or withdrawing a slip is always taken.
func (c *Card) stake(old, amount int64, now time.Time, s Settings) *Refusal {
	if amount < 0 {
		return refuse(*c, "invalid", time.Time{}, "a stake of %d cents is not a stake", amount)
	}
	if amount <= old {
		c.Reserved += amount - old
		return nil
	}
	if r := stateRefusal(*c, true, now); r != nil {
		return r
	}
	if up := c.TimeUp(); !up.IsZero() && !now.Before(up) {
		c.BarredUntil, c.BarredFor = now.Add(c.Limits.Bar), "time"
		return refuse(*c, "time", c.BarredUntil, "Your time limit of %v is reached: play is barred until %s UTC.", c.Limits.Time, c.BarredUntil.UTC().Format("2 Jan 15:04"))
	}
	s = s.withDefaults()
	if now.Before(c.BreakUntil) {
		return refuse(*c, "break", c.BreakUntil, "Time for a break: play may resume at %s UTC.", c.BreakUntil.UTC().Format("2 Jan 15:04"))
	}
	if !c.PlayedAt.IsZero() && now.Sub(c.PlayedAt) >= s.Break {
		c.closeSpan(now) // a pause as long as the break was one
	}
	if r := c.playTimeRefusal(now, s); r != nil {
		return r
	}
	if due := c.BreakDue(s); !due.IsZero() && !now.Before(due) {
		c.closeSpan(now)
		c.BreakUntil = now.Add(s.Break)
		return refuse(*c, "break", c.BreakUntil, "You have played for %v without a break: play may resume at %s UTC.", s.BreakAfter, c.BreakUntil.UTC().Format("2 Jan 15:04"))
	}
	if c.NetLoss()-old+amount > c.Limits.Loss {
		return refuse(*c, "loss", time.Time{}, "This wager would take you past your loss limit: %s more may be wagered.", cents(c.LossLeft()+old))
	}
	if c.PeriodStart.IsZero() {
		c.PeriodStart = now
	}
	if c.PlayFrom.IsZero() {
		c.PlayFrom = now
	}
	c.PlayedAt = now
	c.Reserved += amount - old
	return nil
}

// played counts the seat's play the store had not seen (Played), up to now, as stake would
// have at each slip: at the first, a pause since the last play as long as the break ends the
// stretch of continuous play, and the limit period and continuous play start there if none is
// under way; the latest is the card's latest play. A time after now (a clock set back) is not
// counted.
func (c *Card) played(p Played, now time.Time, s Settings) {
	s = s.withDefaults()
	if !p.First.IsZero() && !p.First.After(now) {
		if !c.PlayedAt.IsZero() && p.First.Sub(c.PlayedAt) >= s.Break {
			c.closeSpan(p.First)
		}
		if c.PeriodStart.IsZero() {
			c.PeriodStart = p.First
		}
		if c.PlayFrom.IsZero() {
			c.PlayFrom = p.First
		}
		if p.First.After(c.PlayedAt) {
			c.PlayedAt = p.First
		}
	}
	if p.Last.After(c.PlayedAt) && !p.Last.After(now) {
		c.PlayedAt = p.Last
	}
}

// settle counts a settled wager's play (its reservation already released): what it staked
// and returned, and the card barred if its net loss has reached the limit.
func (c *Card) settle(staked, returned int64, now time.Time) {
	c.Staked += staked
	c.Returned += returned
	if c.Limits.Set() && c.NetLoss() >= c.Limits.Loss && c.BarredUntil.IsZero() {
		c.BarredUntil, c.BarredFor = now.Add(c.Limits.Bar), "loss"
	}
}

// cents writes an amount for a player: "A$12.50".
func cents(n int64) string { return money.InCurrency("AUD", n) }
