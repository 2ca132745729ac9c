// Package localtime writes times as an operator's screen shows them: one clock, the table's
// local zone, every time with the zone's abbreviation (issue 33, point 8: the cage said "held
// until 11:25:12" and, on the same screen, "lapses at 00:25:12 UTC").
//
// The table's records keep UTC (RFC 3339 in an audit event's words, "15:04:05 UTC" in a
// refusal), which is right for a record; Rewrite puts those instants in the screen's zone as
// they are shown, so a tool never prints two clocks.
package localtime

import (
	"regexp"
	"time"
)

// Layout is how every time on an operator's screen reads: date, time and the zone's
// abbreviation.
const Layout = "2006-01-02 15:04:05 MST"

// Stamp is t in loc, as Layout.
func Stamp(t time.Time, loc *time.Location) string { return t.In(loc).Format(Layout) }

var (
	// rfc3339 is an instant as RFC 3339 writes it, with or without fractions of a second.
	rfc3339 = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})`)
	// utcDateTime is "2006-01-02 15:04:05 UTC"; utcTime "15:04:05 UTC", a time of a day the
	// text does not name.
	utcDateTime = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\b`)
	utcTime     = regexp.MustCompile(`\b\d{2}:\d{2}:\d{2} UTC\b`)
)

// Rewrite is text with every instant written in UTC or with an offset put in loc (Layout). A
// time of day in UTC without its date is taken on the day nearest now (a hold lapsing just
// after midnight UTC is tomorrow's, not this morning's).
func Rewrite(text string, loc *time.Location, now time.Time) string {
	text = rfc3339.ReplaceAllStringFunc(text, func(s string) string {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return s
		}
		return Stamp(t, loc)
	})
	text = utcDateTime.ReplaceAllStringFunc(text, func(s string) string {
		t, err := time.Parse("2006-01-02 15:04:05 UTC", s)
		if err != nil {
			return s
		}
		return Stamp(t, loc)
	})
	return utcTime.ReplaceAllStringFunc(text, func(s string) string {
		tod, err := time.Parse("15:04:05 UTC", s)
		if err != nil {
			return s
		}
		u := now.UTC()
		best := time.Time{}
		for _, day := range []int{-1, 0, 1} {
			c := time.Date(u.Year(), u.Month(), u.Day()+day, tod.Hour(), tod.Minute(), tod.Second(), 0, time.UTC)
			if best.IsZero() || absDur(c.Sub(now)) < absDur(best.Sub(now)) {
				best = c
			}
		}
		return Stamp(best, loc)
	})
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
