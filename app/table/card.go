package table

import "time"

// CardState is the seat's player card under carded play (SPEC §10, issue 31) as its player
// must see it: the limits in force and asked, what is left of them, the session's result, and
// why the card was last refused. The server sends it in the seat's snapshot, after each
// settlement and each change (CardStateChanged), and in answer to the card's calls; the
// screen counts time down from it between events. Times are server time, zero for none.
type CardState struct {
	Card        string // "" : the seat holds no card
	State       string // "registered", "lost", "barred", "unregistered"
	NeedsLimits bool   // limits must be set before play
	Limits      CardLimits
	Next        CardLimits // looser limits asked, in force from NextFrom (the cooling-off)
	NextFrom    time.Time
	PeriodStart time.Time // the limit period's first wager
	NetLoss     int64     // cents: settled stakes − returns + open stakes, this period
	LossLeft    int64     // cents that may still be wagered this period
	TimeUp      time.Time // when the time limit ends play (zero: the period has not begun)
	BarredUntil time.Time
	BarredFor   string // "loss" or "time"
	BreakUntil  time.Time
	BreakDue    time.Time // when continuous play reaches its break
	// SessionResult is returned − staked at this seat since the card was read (cents), from
	// SessionStart.
	SessionResult int64
	SessionStart  time.Time
	// Refusal is the latest refusal of the card at this seat: its reason code ("unregistered",
	// "lost", "barred", "no limits", "in use", "loss", "time", "bar", "break", "closed"), until
	// when, and the server's words (English; the terminal shows its own translation).
	Refusal      string
	RefusalUntil time.Time
	RefusalWords string
	At           time.Time // the server's time of this state
}

// CardLimits are a player's own pre-commitment limits (SPEC §10).
type CardLimits struct {
	Loss int64         // cents
	Time time.Duration // play time from the period's first wager
	Bar  time.Duration // how long reaching a limit bars the card: 24 h or 7 days
}

// Set reports whether the limits are set.
func (l CardLimits) Set() bool { return l.Loss > 0 }

// TimeLeft is the play time left at now (server time): the time limit itself before the period
// has begun, never below zero.
func (c CardState) TimeLeft(now time.Time) time.Duration {
	if c.TimeUp.IsZero() {
		return c.Limits.Time
	}
	return max(0, c.TimeUp.Sub(now))
}

// TimePlayed is the time played this period at now (server time).
func (c CardState) TimePlayed(now time.Time) time.Duration {
	if c.PeriodStart.IsZero() {
		return 0
	}
	return max(0, now.Sub(c.PeriodStart))
}

// PlayBarredUntil is when play may resume (a bar or a break; zero if play is not stopped at now).
func (c CardState) PlayBarredUntil(now time.Time) time.Time {
	until := c.BarredUntil
	if c.BreakUntil.After(until) {
		until = c.BreakUntil
	}
	if !now.Before(until) {
		return time.Time{}
	}
	return until
}

// CardStateChanged is the seat's card state after a settlement or a change (carded play).
type CardStateChanged struct{ State CardState }

func (CardStateChanged) isEvent() {}
