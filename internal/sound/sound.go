// Package sound plays the terminal's cues (app.Sounds) on the cabinet's speaker, through ALSA,
// with github.com/ebitengine/oto/v3. app decides which cue sounds and when; this package only
// makes each cue (synth.go, generated in code) and plays it at the level the technician set.
//
// A terminal without a sound card (the demo in a container, a test machine) plays silent: the
// device that will not open is logged once and every cue is dropped, never an error to the
// player. While nothing plays, the output is suspended, so an idle terminal does not keep
// writing silence to the device (idle CPU).
package sound

import (
	"bytes"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/ebitengine/oto/v3"

	"github.com/tablegames/ats/app"
)

// DefaultLevel is the level of a terminal whose technician set none, in percent.
const DefaultLevel = 60

// idleAfter is how long after a cue's last sample the output stays open: the device's buffer
// (bufferSize) still holds the end of it.
const idleAfter = 200 * time.Millisecond

// bufferSize is the device's buffer: the latency from a touch to its click.
const bufferSize = 40 * time.Millisecond

// queued is how many cues wait at most; more are dropped (a burst of touches clicks as many as
// it can, and never holds up the terminal, which calls Play with its lock held).
const queued = 32

// Output plays cues; it implements app.Sounds. The zero value is not usable: Open it.
type Output struct {
	log    *slog.Logger
	volume float64 // the level as oto's volume, 0..1
	cues   chan app.Sound
	done   chan struct{}
	sounds map[app.Sound][]byte // each cue as the device's bytes, made once

	mu     sync.Mutex
	closed bool
}

var _ app.Sounds = (*Output)(nil)

// Open starts the output at level percent (0 silent, 100 full; clamped). It never fails: a
// device that does not open is logged and the output stays silent. Only one Output may be open
// in a process (oto has one context per process).
func Open(level int, log *slog.Logger) *Output {
	if log == nil {
		log = slog.Default()
	}
	level = min(max(level, 0), 100)
	o := &Output{log: log, volume: float64(level) / 100, cues: make(chan app.Sound, queued), done: make(chan struct{}),
		sounds: map[app.Sound][]byte{}}
	for s := range tunes {
		o.sounds[s] = pcm(Samples(s))
	}
	go o.run(level)
	return o
}

// Play queues cue s and returns at once; a full queue drops it.
func (o *Output) Play(s app.Sound) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	select {
	case o.cues <- s:
	default:
	}
}

// Close stops the output once the cues queued have been handed to the device.
func (o *Output) Close() {
	o.mu.Lock()
	if !o.closed {
		o.closed = true
		close(o.cues)
	}
	o.mu.Unlock()
	<-o.done
}

func (o *Output) run(level int) {
	defer close(o.done)
	if level == 0 {
		o.log.Info("sound: level 0 set by the technician: the terminal plays no sounds")
		o.drain()
		return
	}
	ctx, ready, err := oto.NewContext(&oto.NewContextOptions{SampleRate: SampleRate, ChannelCount: 1,
		Format: oto.FormatFloat32LE, BufferSize: bufferSize})
	if err == nil {
		<-ready
		err = ctx.Err()
	}
	if err != nil {
		o.log.Warn("sound: no audio output: the terminal plays no sounds", "err", err)
		o.drain()
		return
	}
	o.log.Info("sound: output open", "level", level)
	_ = ctx.Suspend()
	suspended := true
	var playing []*oto.Player
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	defer idle.Stop()
	for {
		select {
		case s, ok := <-o.cues:
			if !ok {
				_ = ctx.Suspend() // the device written to no more
				return
			}
			b := o.sounds[s]
			if b == nil {
				o.log.Error("sound: no cue for this sound", "sound", s)
				continue
			}
			if suspended {
				if err := ctx.Resume(); err != nil {
					o.log.Warn("sound: output failed: the terminal plays no more sounds", "err", err)
					o.drain()
					return
				}
				suspended = false
			}
			p := ctx.NewPlayer(bytes.NewReader(b))
			p.SetVolume(o.volume)
			p.Play()
			playing = append(playing, p)
			idle.Reset(time.Duration(len(b)/4)*time.Second/SampleRate + idleAfter)
		case <-idle.C:
			// A player done is let go (oto v3.4 needs no Close).
			playing = slices.DeleteFunc(playing, func(p *oto.Player) bool { return !p.IsPlaying() })
			if len(playing) > 0 {
				idle.Reset(idleAfter)
				continue
			}
			_ = ctx.Suspend()
			suspended = true
		}
	}
}

// drain drops every cue until Close.
func (o *Output) drain() {
	for range o.cues {
	}
}
