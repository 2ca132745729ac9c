package localtime

import (
	"testing"
	"time"
	_ "time/tzdata"
)

// Issue 33, point 8: one clock on a screen. The table's words in UTC are shown in the
// screen's zone, with its abbreviation; a time of day without its date is taken on the day
// nearest now.
func TestRewriteShowsUTCInstantsInTheScreensZone(t *testing.T) {
	syd, err := time.LoadLocation("Australia/Sydney")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 0, 24, 12, 0, time.UTC) // 11:24:12 AEDT
	for _, c := range []struct{ in, want string }{
		{"its hold lapses at 00:25:12 UTC, or the supervisor releases it", "its hold lapses at 2026-11-23 11:25:12 AEDT, or the supervisor releases it"},
		{"held since 2026-11-22T23:59:00Z, paid", "held since 2026-11-23 10:59:00 AEDT, paid"},
		{"at 2026-11-23T00:24:12.5+00:00.", "at 2026-11-23 11:24:12 AEDT."},
		{"redeemed on 2026-11-22 13:00:00 UTC", "redeemed on 2026-11-23 00:00:00 AEDT"},
		{"no time here: 17 -> 20, ticket 123456789012345678", "no time here: 17 -> 20, ticket 123456789012345678"},
	} {
		if got := Rewrite(c.in, syd, now); got != c.want {
			t.Errorf("Rewrite(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Just before midnight UTC, a time just after it is tomorrow's.
	late := time.Date(2026, 11, 22, 23, 59, 0, 0, time.UTC)
	if got := Rewrite("lapses at 00:01:00 UTC", time.UTC, late); got != "lapses at 2026-11-23 00:01:00 UTC" {
		t.Errorf("across midnight: %q", got)
	}
}
