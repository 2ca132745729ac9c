package app

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// heard is a Sounds that writes down each cue with the fake clock's time since start.
type heard struct {
	clk clock.Clock
	mu  sync.Mutex
	got []string
}

func (h *heard) Play(s Sound) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, fmt.Sprintf("%s@%v", s, h.clk.Now().Sub(start).Truncate(time.Second)))
}

func (h *heard) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	got := h.got
	h.got = nil
	return got
}

func soundHarness(t *testing.T) (*harness, *heard) {
	var ears *heard
	h := newHarness(t, func(c *Config) {
		ears = &heard{clk: c.Clock}
		c.Sounds = ears
	})
	return h, ears
}

func wantHeard(t *testing.T, ears *heard, want ...string) {
	t.Helper()
	var got []string
	eventually(t, "the cues "+strings.Join(want, " "), func() bool {
		got = append(got, ears.take()...)
		return len(got) >= len(want)
	})
	time.Sleep(20 * time.Millisecond) // and nothing more
	got = append(got, ears.take()...)
	if !slices.Equal(got, want) {
		t.Fatalf("heard %v, want %v", got, want)
	}
}

// The last five seconds are counted down aloud on the terminal's clock, one tick a second, and
// no more bets sounds at the lock itself, once: the lock on this terminal comes 2.008 s before
// the table's deadline (32 s away), so 29.992 s in.
func TestSoundCountsDownTheLastFiveSecondsThenNoMoreBets(t *testing.T) {
	h, ears := soundHarness(t)
	h.clk.Advance(24*time.Second + 900*time.Millisecond)
	if got := ears.take(); len(got) != 0 {
		t.Fatalf("before the last five seconds: %v", got)
	}
	for range 6 {
		h.clk.Advance(time.Second)
	}
	wantHeard(t, ears, "tick@24s", "tick@25s", "tick@26s", "tick@27s", "tick@28s", "no-more-bets@29s")
	// The dealer's no more bets after the terminal's own: not sounded again.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	wantHeard(t, ears)
}

// A round opened with three seconds left counts only the three; a dealer's call before the
// terminal's lock sounds no more bets then, and the lock's timer does not sound it again.
func TestSoundTicksOnlyTheSecondsLeftAndNoMoreBetsOnceARound(t *testing.T) {
	h, ears := soundHarness(t)
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2",
		Deadline: h.clk.Now().Add(2*time.Second + 3*time.Second + 500*time.Millisecond)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	for range 3 {
		h.clk.Advance(time.Second)
	}
	wantHeard(t, ears, "tick@0s", "tick@1s", "tick@2s")
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R2"})
	h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	h.clk.Advance(time.Second)
	wantHeard(t, ears, "no-more-bets@3s")
}

// A chip that goes down clicks; a touch that puts none down (the spot at its maximum, or once
// the period has ended) sounds the refusal, so a player looking at the wheel knows it was not
// taken.
func TestSoundChipDownAndRefusal(t *testing.T) {
	h, ears := soundHarness(t)
	h.term.SelectChip(500)
	for range 6 { // the straight's maximum is 25.00: the sixth 5.00 chip has no room
		if _, err := h.term.Place(spot(t, roulette.Straight, 17)); err != nil {
			t.Fatal(err)
		}
	}
	wantHeard(t, ears, "chip@0s", "chip@0s", "chip@0s", "chip@0s", "chip@0s", "refused@0s")
	h.clk.Advance(30 * time.Second)
	h.waitFor(func(v View) bool { return v.Locked })
	ears.take()
	h.term.SelectChip(500)
	h.term.Place(spot(t, roulette.Straight, 19))
	wantHeard(t, ears, "refused@30s")
}

// The number called is one cue whatever the number; a win sounds when the round settles with
// money returned, a loss and a correction do not.
func TestSoundNumberThenWin(t *testing.T) {
	h, ears := soundHarness(t)
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 17}})
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 500, Returned: 18000, Balance: 27500})
	wantHeard(t, ears, "number@0s", "win@0s")
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.clk.Now().Add(time.Minute)})
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R2", Number: 3}})
	h.link.Push(table.Settled{RoundID: "R2", Number: 3, Recognised: true, Staked: 500, Balance: 27000})
	wantHeard(t, ears, "number@0s")
	h.link.Push(table.Settled{RoundID: "R1", Number: 20, Recognised: true, Correction: true, Balance: 9500})
	h.waitFor(func(v View) bool { return v.Balance == 9500 })
	wantHeard(t, ears)
}

// The player's mute silences every cue until it is lifted; the view says it is on.
func TestSoundMutedByThePlayer(t *testing.T) {
	h, ears := soundHarness(t)
	h.term.SetMuted(true)
	h.waitFor(func(v View) bool { return v.Muted })
	h.term.SelectChip(500)
	h.term.Place(spot(t, roulette.Straight, 17))
	h.clk.Advance(30 * time.Second)
	h.link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 17}})
	h.waitFor(func(v View) bool { return v.LastOutcome != nil })
	wantHeard(t, ears)
	h.term.SetMuted(false)
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 500, Returned: 18000, Balance: 27500})
	wantHeard(t, ears, "win@30s")
}
