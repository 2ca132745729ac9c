package sound

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/tablegames/ats/app"
)

// SampleRate is the rate every cue is made at and played at (one oto context, one rate).
const SampleRate = 48000

// note is one tone of a cue.
type note struct {
	hz  float64
	dur time.Duration
}

// The cues, made here rather than copied from anywhere: short sine tones, each cue's shape its
// own so a player tells them apart without looking — a click for a chip, a low falling pair for
// a refusal, a short beep a second for the countdown, three falling notes for no more bets, one
// bell-like note for the number (the same for every number: the screen says which), a rising
// arpeggio for a win. Each lasts a different time, which is also how the capture test tells
// them apart.
var tunes = map[app.Sound][]note{
	app.SoundChip:       {{2400, 25 * time.Millisecond}},
	app.SoundTick:       {{1000, 60 * time.Millisecond}},
	app.SoundRefused:    {{220, 90 * time.Millisecond}, {185, 120 * time.Millisecond}},
	app.SoundNumber:     {{1319, 350 * time.Millisecond}},
	app.SoundNoMoreBets: {{784, 150 * time.Millisecond}, {659, 150 * time.Millisecond}, {523, 250 * time.Millisecond}},
	app.SoundWin:        {{523, 100 * time.Millisecond}, {659, 100 * time.Millisecond}, {784, 100 * time.Millisecond}, {1047, 350 * time.Millisecond}},
}

// amplitude is a cue's peak at level 100, below full scale so that two cues at once (a chip
// during the countdown) do not clip.
const amplitude = 0.45

// ramp is each note's fade in and out: a tone that starts or stops at full amplitude clicks.
const ramp = 4 * time.Millisecond

// Samples is cue s as mono samples in [-1, 1] at SampleRate; nil for a sound with no cue.
// The phase runs on from one note to the next, so a cue has no gap and no click inside it.
func Samples(s app.Sound) []float32 {
	var out []float32
	phase := 0.0
	decay := s == app.SoundNumber // the number's note dies away like a bell
	for _, n := range tunes[s] {
		count := int(n.dur.Seconds() * SampleRate)
		edge := int(ramp.Seconds() * SampleRate)
		for i := range count {
			env := 1.0
			if i < edge {
				env = float64(i) / float64(edge)
			}
			if left := count - 1 - i; left < edge {
				env = min(env, float64(left)/float64(edge))
			}
			if decay {
				env *= math.Exp(-3 * float64(i) / float64(count))
			}
			out = append(out, float32(amplitude*env*math.Sin(phase)))
			phase += 2 * math.Pi * n.hz / SampleRate
		}
	}
	return out
}

// pcm is samples as oto's FormatFloat32LE bytes.
func pcm(samples []float32) []byte {
	b := make([]byte, 4*len(samples))
	for i, v := range samples {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}
