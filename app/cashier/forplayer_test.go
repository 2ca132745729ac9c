package cashier

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 32 point 11: the table's refusal of a ticket reached the player with its raw 18-digit
// validation number and a UTC time. The player reads the number as the ticket prints it
// (00-0000-0000-0000-0000) and the time in the cabinet's local time.
func TestTicketRefusalReadsAsTheTicketAndLocalTime(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 5, 0, time.UTC)
	err := errors.New("rpc error: code = FailedPrecondition desc = ticket 001234567890123456 has already been redeemed (at T02 on " +
		at.Format("2006-01-02 15:04:05 UTC") + ")")
	got, ok := told(err).(string)
	if !ok {
		t.Fatalf("told %T", told(err))
	}
	if regexp.MustCompile(`\d{18}`).MatchString(got) || strings.Contains(got, "UTC") {
		t.Errorf("the player reads %q", got)
	}
	for _, want := range []string{"00-1234-5678-9012-3456", at.Local().Format("2006-01-02 15:04")} {
		if !strings.Contains(got, want) {
			t.Errorf("the player reads %q, want %q in it", got, want)
		}
	}
}
