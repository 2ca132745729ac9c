package app

import (
	"time"

	"github.com/tablegames/ats/app/clock"
)

// Sound is one of the cues a floor terminal sounds. The terminal decides WHICH cue and WHEN
// (here, on its injected clock); the kiosk's wiring decides how it sounds and how loud
// (internal/sound), so app never touches audio.
type Sound int

// The cues, one per moment a player is to notice without looking.
const (
	SoundChip       Sound = iota + 1 // a chip put down on the layout
	SoundRefused                     // a touch that changed nothing, and the table's refusal of wagers
	SoundTick                        // each of the last five seconds of the wagering period
	SoundNoMoreBets                  // the period has ended on this terminal (001 §3.7)
	SoundNumber                      // the number is called: look at the screen for which
	SoundWin                         // the round settled with money returned to the player
)

func (s Sound) String() string {
	switch s {
	case SoundChip:
		return "chip"
	case SoundRefused:
		return "refused"
	case SoundTick:
		return "tick"
	case SoundNoMoreBets:
		return "no-more-bets"
	case SoundNumber:
		return "number"
	case SoundWin:
		return "win"
	}
	return "unknown"
}

// Sounds plays the terminal's cues. Play is called with the terminal's lock held: it must not
// block (queue the cue and return) and must not call back into the Terminal.
//
// The number called is one neutral cue, the same for every number: a tone per number could not
// be told apart by a player (37 or 38 pitches), so it would announce the outcome ambiguously,
// and a spoken number would need a voice in every language the screen speaks. The cue says
// "the result is on the screen"; the screen says which.
type Sounds interface {
	Play(Sound)
}

// tickCount is how many seconds before the lock are counted down aloud.
const tickCount = 5

// soundState is what the cues of the round have been. Guarded by the Terminal's mutex.
type soundState struct {
	tick      clock.Timer
	noMoreFor string // the round whose no more bets has been sounded
}

func (s *soundState) stop() {
	if s.tick != nil {
		s.tick.Stop()
		s.tick = nil
	}
}

// cueLocked plays s unless the player muted the terminal or it has no sound.
func (t *Terminal) cueLocked(s Sound) {
	if t.sounds == nil || t.view.Muted || t.closed {
		return
	}
	t.sounds.Play(s)
}

// SetMuted is the player's mute: no cue sounds while it is on. The level is the technician's
// (technician mode's settings); the player can only silence the terminal, not make it louder.
func (t *Terminal) SetMuted(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.view.Muted == on {
		return
	}
	t.view.Muted = on
	t.changedLocked()
}

// armTicksLocked counts the last seconds down to the lock at `at`: a tick at each whole second
// left, from `from` seconds down to one, that is still to come; each timer arms the next.
func (t *Terminal) armTicksLocked(round string, at time.Time, from int) {
	t.sound.stop()
	now := t.clk.Now()
	for n := from; n >= 1; n-- {
		when := at.Add(-time.Duration(n) * time.Second)
		if when.Before(now) {
			continue
		}
		t.sound.tick = t.clk.AfterFunc(when.Sub(now), func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.closed || t.view.RoundID != round || t.view.Locked {
				return
			}
			t.cueLocked(SoundTick)
			t.armTicksLocked(round, at, n-1)
		})
		return
	}
}

// noMoreBetsLocked sounds the end of the period, once a round.
func (t *Terminal) noMoreBetsLocked() {
	if t.sound.noMoreFor == t.view.RoundID {
		return
	}
	t.sound.noMoreFor = t.view.RoundID
	t.cueLocked(SoundNoMoreBets)
}
