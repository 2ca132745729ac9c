package cashier

import (
	"regexp"
	"time"

	"github.com/tablegames/ats/devices/printer"
)

// The table's refusals are written for its console and audit log: a ticket by its bare 18-digit
// validation number, a moment in UTC. The player reads the number as their ticket prints it
// and the time on the cabinet's clock (issue 32 point 11).
var (
	validationNumber = regexp.MustCompile(`\b\d{18}\b`)
	utcMoment        = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\b`)
	utcTime          = regexp.MustCompile(`\b\d{2}:\d{2}:\d{2} UTC\b`)
)

// forPlayer is the table's words as the player reads them.
func forPlayer(s string) string {
	s = validationNumber.ReplaceAllStringFunc(s, func(v string) string {
		if p, err := printer.FormatValidation(v); err == nil {
			return p
		}
		return v
	})
	s = utcMoment.ReplaceAllStringFunc(s, func(m string) string {
		t, err := time.Parse("2006-01-02 15:04:05 UTC", m)
		if err != nil {
			return m
		}
		return t.Local().Format("2006-01-02 15:04")
	})
	return utcTime.ReplaceAllStringFunc(s, func(m string) string {
		t, err := time.Parse("15:04:05 UTC", m)
		if err != nil {
			return m
		}
		// A time of day alone: today's, moved to the cabinet's zone.
		now := time.Now().UTC()
		return time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC).Local().Format("15:04")
	})
}
