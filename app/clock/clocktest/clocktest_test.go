package clocktest

import (
	"testing"
	"time"
)

func TestAdvanceRunsTimersInOrderAtTheirTime(t *testing.T) {
	start := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	c := New(start)
	var got []string
	var at []time.Duration
	note := func(s string) func() {
		return func() { got = append(got, s); at = append(at, c.Now().Sub(start)) }
	}
	c.AfterFunc(3*time.Second, note("c"))
	c.AfterFunc(time.Second, note("a"))
	stopped := c.AfterFunc(2*time.Second, note("never"))
	c.AfterFunc(time.Second, func() {
		note("b")()
		c.AfterFunc(500*time.Millisecond, note("b2")) // due at 1.5 s: within this Advance
	})
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop reports a first stop only")
	}
	c.Advance(2 * time.Second)
	if want := []string{"a", "b", "b2"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if at[0] != time.Second || at[2] != 1500*time.Millisecond {
		t.Fatalf("ran at %v", at)
	}
	if c.Now().Sub(start) != 2*time.Second || c.Pending() != 1 {
		t.Fatalf("now %v pending %d", c.Now().Sub(start), c.Pending())
	}
	c.Advance(time.Second)
	if got[3] != "c" || at[3] != 3*time.Second {
		t.Fatalf("ran %v at %v", got, at)
	}
}
