package precommit

// Play time over rolling windows (SPEC §10, issue 31): a day's break after 12 hours of play in
// any 24, and at most 36 hours of play in any 7 days. The measurement (the rules decision,
// notes/cardcage.md):
//
//   - Play is continuous play (Card.PlayFrom to its latest wager, Card.PlayedAt): a pause
//     between wagers as long as the break (Settings.Break, 15 minutes) ends it. Each ended
//     stretch is kept as a Span; the stretch under way counts to the wager being decided, and
//     a wager refused for the day or the week ends it there.
//   - The play in a window is the time the spans overlap it. The windows roll: "any 24 hours"
//     is the 24 hours up to each wager, "a week" the 7 days up to it — never a calendar day or
//     week, which a player could straddle.
//   - A wager at which the last 24 hours hold DayPlay (12 h) of play or more is refused and
//     starts the day's break: DayBreak (24 h) from then. A wager at which the last 7 days hold
//     WeekPlay (36 h) or more is refused until enough of that play has rolled out of the week
//     to bring it under the cap.
//   - Only the last 7 days' spans are kept: nothing older counts.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Week is the weekly cap's window.
const Week = 7 * 24 * time.Hour

// dayWindow is the day's break's window.
const dayWindow = 24 * time.Hour

// Span is one stretch of continuous play, from its first wager to its last.
type Span struct{ From, To time.Time }

// closeSpan ends the continuous play under way (if any) as a span, and forgets spans that
// ended a week or more before now.
func (c *Card) closeSpan(now time.Time) {
	if !c.PlayFrom.IsZero() && c.PlayedAt.After(c.PlayFrom) {
		c.Spans = append(c.Spans, Span{From: c.PlayFrom, To: c.PlayedAt})
	}
	c.PlayFrom, c.PlayedAt = time.Time{}, time.Time{}
	c.pruneSpans(now)
}

func (c *Card) pruneSpans(now time.Time) {
	keep := c.Spans[:0]
	for _, s := range c.Spans {
		if s.To.After(now.Add(-Week)) {
			keep = append(keep, s)
		}
	}
	c.Spans = keep
}

// spansTo are the card's spans with the play under way counted to now — or to its latest
// wager, when a pause as long as the break has ended it since.
func (c Card) spansTo(now time.Time, s Settings) []Span {
	out := append([]Span(nil), c.Spans...)
	if c.PlayFrom.IsZero() {
		return out
	}
	to := now
	if !c.PlayedAt.IsZero() && now.Sub(c.PlayedAt) >= s.withDefaults().Break {
		to = c.PlayedAt
	}
	if to.After(c.PlayFrom) {
		out = append(out, Span{From: c.PlayFrom, To: to})
	}
	return out
}

// PlayIn is the play in the window of length w up to now.
func (c Card) PlayIn(w time.Duration, now time.Time, s Settings) time.Duration {
	return overlap(c.spansTo(now, s), now.Add(-w), now)
}

func overlap(spans []Span, from, to time.Time) time.Duration {
	var d time.Duration
	for _, s := range spans {
		a, b := s.From, s.To
		if a.Before(from) {
			a = from
		}
		if b.After(to) {
			b = to
		}
		if b.After(a) {
			d += b.Sub(a)
		}
	}
	return d
}

// weekResumes is when the play of the week up to now, with no more play, falls under the
// weekly cap: the window's start must pass the play in excess of it.
func (c Card) weekResumes(now time.Time, s Settings) time.Time {
	spans := c.spansTo(now, s)
	sort.Slice(spans, func(i, j int) bool { return spans[i].From.Before(spans[j].From) })
	from := now.Add(-Week)
	excess := overlap(spans, from, now) - s.WeekPlay // ≥ 0 when called
	for _, sp := range spans {
		a := sp.From
		if a.Before(from) {
			a = from
		}
		if !sp.To.After(a) {
			continue
		}
		if d := sp.To.Sub(a); d > excess {
			// The window's start passes a+excess (and a moment more, to fall under the cap).
			return a.Add(excess).Add(Week).Add(time.Second)
		} else {
			excess -= d
		}
	}
	return now.Add(time.Second)
}

// playTimeRefusal refuses a wager at now that the day's play or the week's reaches its
// limit, recording the day's break it starts; nil if neither is reached.
func (c *Card) playTimeRefusal(now time.Time, s Settings) *Refusal {
	// The play under way counts to the wager refused: the player played the rounds until it.
	if day := c.PlayIn(dayWindow, now, s); day >= s.DayPlay {
		c.playedTo(now)
		c.closeSpan(now)
		c.BreakUntil = now.Add(s.DayBreak)
		return refuse(*c, "day break", c.BreakUntil, "You have played %v in the last 24 hours: a day's break; play may resume at %s UTC.",
			s.DayPlay, c.BreakUntil.UTC().Format("2 Jan 15:04"))
	}
	if week := c.PlayIn(Week, now, s); week >= s.WeekPlay {
		until := c.weekResumes(now, s)
		c.playedTo(now)
		c.closeSpan(now)
		c.BreakUntil = until
		return refuse(*c, "week", until, "You have played %v in the last 7 days, the most a week allows: play may resume at %s UTC.",
			s.WeekPlay, until.UTC().Format("2 Jan 15:04"))
	}
	return nil
}

// playedTo extends the play under way (if any) to now.
func (c *Card) playedTo(now time.Time) {
	if !c.PlayFrom.IsZero() {
		c.PlayedAt = now
	}
}

// PlayTimeDue is the earliest the day's or the week's play could reach its limit if play
// goes on from now without a pause (zero: play under way is not counted): what a seat's
// allowance may cover until. Play rolling out of a window only delays it.
func (c Card) PlayTimeDue(now time.Time, s Settings) time.Time {
	s = s.withDefaults()
	day := now.Add(s.DayPlay - c.PlayIn(dayWindow, now, s))
	week := now.Add(s.WeekPlay - c.PlayIn(Week, now, s))
	if week.Before(day) {
		return week
	}
	return day
}

// EncodeSpans writes spans as the store keeps them: "from:to,…" in Unix nanoseconds.
func EncodeSpans(spans []Span) string {
	var b strings.Builder
	for i, s := range spans {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%d", s.From.UnixNano(), s.To.UnixNano())
	}
	return b.String()
}

// DecodeSpans reads EncodeSpans' text.
func DecodeSpans(text string) ([]Span, error) {
	if text == "" {
		return nil, nil
	}
	var out []Span
	for _, p := range strings.Split(text, ",") {
		a, b, ok := strings.Cut(p, ":")
		f, err1 := strconv.ParseInt(a, 10, 64)
		t, err2 := strconv.ParseInt(b, 10, 64)
		if !ok || err1 != nil || err2 != nil || t < f {
			return nil, fmt.Errorf("precommit: play span %q: not from:to in Unix nanoseconds", p)
		}
		out = append(out, Span{From: time.Unix(0, f).UTC(), To: time.Unix(0, t).UTC()})
	}
	return out, nil
}
