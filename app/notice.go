package app

import (
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/msg"
)

// Priority ranks what the terminal has to say. The screen has one message line and shows one
// Notice, chosen here: the screen never decides which message wins.
type Priority int

// The priorities, lowest first.
const (
	// Hint is help the player asked for (touch and hold) or a greeting.
	Hint Priority = iota
	// Answer is the answer to the player's touch: a refusal, a wager reduced to the limits
	// (001 §4.3), a favourite saved.
	Answer
	// TableNews is what the table did to the player's wagers: void, adjusted, not recognised.
	TableNews
	// MoneyNews is money: credits, the ticket, a device fault, a handpay. It outranks the rest.
	MoneyNews
)

// How long a message of each priority stays on screen at the least (readable however many
// events follow it), and how long a message that is not a standing condition stays at most
// (after that it is stale, and goes).
var (
	minShown = [...]time.Duration{Hint: time.Second, Answer: 3 * time.Second, TableNews: 4 * time.Second, MoneyNews: 5 * time.Second}
	maxShown = [...]time.Duration{Hint: 6 * time.Second, Answer: 8 * time.Second, TableNews: 10 * time.Second, MoneyNews: 15 * time.Second}
)

// Notice is the one message the screen shows, and its rank. Zero for none.
type Notice struct {
	Msg      msg.Msg
	Priority Priority
}

// IsZero reports whether there is nothing to say.
func (n Notice) IsZero() bool { return n.Msg.IsZero() }

// board chooses the Notice. Messages come two ways: news (said once: a refusal, a credit),
// which is stale after its priority's maximum time, and conditions (a device fault, a void
// round), which stand until their source withdraws them. The rules:
//   - a new message replaces the one shown if it ranks at least as high, or if the one shown
//     has had its minimum time: a refusal stays readable for 3 s whatever follows, money 5 s;
//   - a message that ranks lower than one still inside its minimum time waits, and is shown
//     when that time is up if it is not stale by then; only the newest one waits, and a message
//     shown after it arrived drops it, so nothing stale comes back;
//   - when news goes stale, or a condition is withdrawn, the highest standing condition is shown.
//
// board is part of a Terminal and guarded by its mutex; wake is called from the clock's timer
// goroutine (without the lock) when the choice may have changed.
type board struct {
	clk   clock.Clock
	wake  func()
	shown entry
	queue entry // news waiting for the shown message's minimum time
	conds map[string]entry
	timer clock.Timer
	at    time.Time // when timer fires
}

type entry struct {
	n       Notice
	arrived time.Time
	since   time.Time // on screen since
	cond    string    // the condition's source; "" for news
}

func (e entry) none() bool { return e.n.IsZero() }

func newBoard(clk clock.Clock, wake func()) *board {
	return &board{clk: clk, wake: wake, conds: map[string]entry{}}
}

// notice is what the screen shows now.
func (b *board) notice() Notice { return b.shown.n }

// say is news: m said once, at priority p.
func (b *board) say(m msg.Msg, p Priority) {
	if m.IsZero() {
		return
	}
	now := b.clk.Now()
	b.arrive(entry{n: Notice{Msg: m, Priority: p}, arrived: now}, now)
}

// set is source's standing condition: m shows (by the same rules as news) and stays until it
// changes or is withdrawn (m zero). Saying the same again changes nothing: a device that
// repeats its fault every poll does not keep the message line to itself.
func (b *board) set(source string, m msg.Msg, p Priority) {
	now := b.clk.Now()
	old, had := b.conds[source]
	if m.IsZero() {
		if !had {
			return
		}
		delete(b.conds, source)
		if b.queue.cond == source {
			b.queue = entry{}
		}
		if b.shown.cond == source {
			b.shown = entry{}
			b.refill(now)
		}
		b.arm(now)
		return
	}
	if had && old.n.Msg.Equal(m) && old.n.Priority == p {
		return
	}
	e := entry{n: Notice{Msg: m, Priority: p}, arrived: now, cond: source}
	b.conds[source] = e
	if b.shown.cond == source {
		// The condition changed its words: the new ones replace the old at once.
		e.since = b.shown.since
		b.shown = e
		b.arm(now)
		return
	}
	b.arrive(e, now)
}

func (b *board) arrive(e entry, now time.Time) {
	s := b.shown
	inMin := !s.none() && now.Before(s.since.Add(minShown[s.n.Priority]))
	if inMin && e.cond != "" && s.cond == "" && s.n.Priority == Answer && e.n.Priority < MoneyNews {
		// A standing condition the same touch brought about (wagers now under the table's
		// minimum) does not cover the touch's answer (reduced to 1.00): it waits its turn.
		if b.queue.none() || e.n.Priority >= b.queue.n.Priority {
			b.queue = e
		}
	} else if !inMin || e.n.Priority >= s.n.Priority {
		e.since = now
		b.shown = e
		b.queue = entry{} // older than what is shown now: it would be stale
	} else if e.n.Priority == Answer && e.cond == "" && s.n.Priority < MoneyNews {
		// The answer to a touch is about that touch: a player who taps after no more bets
		// must read why nothing happened then, not once the table's news has had its time
		// (issue 32). The table's news goes back to wait, and shows after the answer while
		// fresh; a condition comes back anyway. Only money keeps the line through a touch.
		e.since = now
		b.shown = e
		if s.cond == "" && (b.queue.none() || s.n.Priority >= b.queue.n.Priority) {
			b.queue = s
		}
	} else if b.queue.none() || e.n.Priority >= b.queue.n.Priority {
		b.queue = e
	}
	b.arm(now)
}

// drop takes the news of priority p off the line and out of the queue: what the player was
// told is no longer true (a touch undone) or no longer about now (the period it answered has
// ended). Conditions stand: their sources withdraw them.
func (b *board) drop(p Priority) {
	now := b.clk.Now()
	if q := b.queue; !q.none() && q.cond == "" && q.n.Priority == p {
		b.queue = entry{}
	}
	if s := b.shown; !s.none() && s.cond == "" && s.n.Priority == p {
		b.shown = entry{}
		b.refill(now)
	}
	b.arm(now)
}

// refill shows what should follow the shown message: the waiting news if still fresh, else the
// highest standing condition (the newest of equals), else nothing.
func (b *board) refill(now time.Time) {
	if q := b.queue; !q.none() {
		b.queue = entry{}
		if q.cond != "" || now.Before(q.arrived.Add(maxShown[q.n.Priority])) {
			q.since = now
			b.shown = q
			return
		}
	}
	var best entry
	for _, c := range b.conds {
		if best.none() || c.n.Priority > best.n.Priority || (c.n.Priority == best.n.Priority && c.arrived.After(best.arrived)) {
			best = c
		}
	}
	if !best.none() {
		best.since = now
	}
	b.shown = best
}

// tick moves on what is due at now: the waiting message once the shown one's minimum time is
// up, stale news off the screen.
func (b *board) tick() {
	now := b.clk.Now()
	s := b.shown
	switch {
	case s.none():
	case s.cond == "" && !now.Before(s.arrived.Add(maxShown[s.n.Priority])):
		b.shown = entry{}
		b.refill(now)
	case !b.queue.none() && !now.Before(s.since.Add(minShown[s.n.Priority])):
		b.refill(now)
	case s.cond != "" && !b.queue.none():
		// a condition shown inside its minimum time with news waiting: arm below
	}
	b.arm(now)
}

// arm sets the timer for the next moment the choice can change on its own.
func (b *board) arm(now time.Time) {
	var next time.Time
	if s := b.shown; !s.none() {
		if !b.queue.none() {
			next = s.since.Add(minShown[s.n.Priority])
		}
		if s.cond == "" {
			if end := s.arrived.Add(maxShown[s.n.Priority]); next.IsZero() || end.Before(next) {
				next = end
			}
		}
	}
	if next.Equal(b.at) && b.timer != nil {
		return
	}
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.at = next
	if next.IsZero() {
		return
	}
	b.timer = b.clk.AfterFunc(max(next.Sub(now), 0), b.wake)
}

// stop stops the timer, for good.
func (b *board) stop() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.at = time.Time{}
}

// String is the notice in English.
func (n Notice) String() string { return n.Msg.String() }
