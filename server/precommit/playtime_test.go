package precommit

import (
	"fmt"
	"testing"
	"time"
)

// play stakes a wager every 10 minutes from at until d is all but a second gone, and one then
// (no pause of the 15-minute break), each its own hold: a stretch of d less a second. It
// answers at+d.
func play(t *testing.T, s *LedgerStore, at time.Time, d time.Duration, tag string) time.Time {
	t.Helper()
	end := at.Add(d)
	for i := 0; ; i++ {
		if _, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: fmt.Sprintf("%s%d", tag, i)}, 100, at); err != nil {
			t.Fatalf("%s at %v: %v", tag, at.Sub(t0), err)
		}
		if at.Equal(end.Add(-time.Second)) {
			return end
		}
		if at = at.Add(10 * time.Minute); !at.Before(end) {
			at = end.Add(-time.Second)
		}
	}
}

// SPEC §10: a day's break after 12 hours of play in any 24. Four stretches of three hours
// (less a second each), each ended by the 15-minute break, then a fifth: its wager that takes
// the last 24 hours' play to 12 hours is refused and starts a day's break of 24 hours from
// it; the break stands at every seat and table until its end.
func TestSPEC10_DaysBreakAfter12HoursInAny24(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		registered(t, s, "C1", Limits{Loss: 100000000, Time: 100 * time.Hour, Bar: BarDay})
		at := t0
		for i := range 4 {
			end := play(t, s, at, 3*time.Hour, fmt.Sprintf("S%d-", i))
			at = end.Add(15 * time.Minute) // the break: a pause as long as it ends the stretch
		}
		c, err := s.Card(ctx, "C1", at)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.PlayIn(24*time.Hour, at, s.S); got != 12*time.Hour-4*time.Second {
			t.Fatalf("play in 24 hours: %v", got)
		}
		if _, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "D0"}, 100, at); err != nil {
			t.Fatalf("under 12 hours: %v", err)
		}
		at = at.Add(10 * time.Minute)
		_, err = s.Stake(ctx, Hold{Card: "C1", Table: "T2", Terminal: "T05", Round: "D1"}, 100, at)
		r := refusedFor(t, err, "day break")
		if !r.Until.Equal(at.Add(24 * time.Hour)) {
			t.Fatalf("the day's break until %v, want %v", r.Until, at.Add(24*time.Hour))
		}
		_, err = s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "D2"}, 100, at.Add(23*time.Hour))
		refusedFor(t, err, "break")
		if _, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "D3"}, 100, at.Add(24*time.Hour)); err != nil {
			t.Fatalf("after the day's break: %v", err)
		}
	})
}

// SPEC §10: at most 36 hours of play a week, over the 7 days up to each wager. Three days of
// 12 hours' play (less a second each; the day's break set higher here, to reach the week's
// cap alone), then a fourth day: its wager that takes the week's play to 36 hours is refused
// until the first day's play has rolled out of the week enough to bring it under the cap.
func TestSPEC10_WeeklyCapOf36Hours(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		s := ss[0]
		s.S = Settings{BreakAfter: 12 * time.Hour, DayPlay: 13 * time.Hour} // a day of 12 hours straight, no day's break
		registered(t, s, "C1", Limits{Loss: 100000000, Time: 100 * time.Hour, Bar: BarDay})
		for day := range 3 {
			play(t, s, t0.Add(time.Duration(day)*24*time.Hour), 12*time.Hour, fmt.Sprintf("W%d-", day))
		}
		at := t0.Add(3 * 24 * time.Hour)
		if _, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "X0"}, 100, at); err != nil {
			t.Fatalf("under 36 hours: %v", err)
		}
		_, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "X1"}, 100, at.Add(10*time.Minute))
		r := refusedFor(t, err, "week")
		// 36h − 3s + 10m of play: the week's falls under 36 hours once its start has passed
		// 10m − 3s of the first day's play (and a second more).
		if want := t0.Add(10*time.Minute - 3*time.Second + Week + time.Second); !r.Until.Equal(want) {
			t.Fatalf("the week's cap until %v, want %v", r.Until, want)
		}
		_, err = s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "X2"}, 100, t0.Add(Week-time.Minute))
		refusedFor(t, err, "break")
		if _, err := s.Stake(ctx, Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "X3"}, 100, r.Until); err != nil {
			t.Fatalf("after the week rolled: %v", err)
		}
	})
}

// The spans round-trip through the store's text, and bad text is refused, never read as none.
func TestSpansEncodeDecode(t *testing.T) {
	spans := []Span{{t0, t0.Add(time.Hour)}, {t0.Add(2 * time.Hour), t0.Add(3 * time.Hour)}}
	got, err := DecodeSpans(EncodeSpans(spans))
	if err != nil || len(got) != 2 || !got[1].To.Equal(spans[1].To) {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"1", "a:b", "5:3", "1:2,"} {
		if _, err := DecodeSpans(bad); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}
