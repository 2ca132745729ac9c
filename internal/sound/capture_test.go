package sound

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// The capture: ALSA's own "file" plugin in front of its "null" device writes every sample the
// terminal plays to a named pipe, and the test reads the pipe at the sound card's pace (48,000
// samples a second, stamped as read): a sound card made of a pipe, which needs no card, no
// kernel module (snd-aloop) and no sound server, so it works in a container. The plugin is
// set up by an .asoundrc in a HOME of the test's own, which ALSA reads when the device opens.

// captured is one cue heard on the pipe: its samples and when its first one was read.
type captured struct {
	at      time.Time
	samples []float32
}

// card reads the pipe at the sound card's pace until stop, and splits what it reads into the
// cues it hears: runs of samples parted by at least 10 ms of silence.
type card struct {
	f    *os.File
	stop chan struct{}
	done chan struct{}

	mu     sync.Mutex
	heard  []captured
	cur    *captured
	silent int
	read   int // samples read in all
}

func newCard(t *testing.T) *card {
	t.Helper()
	dir := t.TempDir()
	pipe := filepath.Join(dir, "speaker.f32")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	rc := fmt.Sprintf("pcm.!default {\n\ttype file\n\tslave.pcm \"null\"\n\tfile %q\n\tformat \"raw\"\n}\n", pipe)
	if err := os.WriteFile(filepath.Join(dir, ".asoundrc"), []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", dir)
	// Read and write: the open does not wait for the plugin to open its end, and the read end
	// goes through Go's poller, so a read deadline ends the reading.
	f, err := os.OpenFile(pipe, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &card{f: f, stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	t.Cleanup(func() { c.close(); f.Close() })
	return c
}

// run reads the samples a card would have played by now, every 10 ms: by the clock, not by
// the ticks, which a loaded machine drops. A card banks no time while nothing comes (the
// output suspended): an empty pipe starts the count again.
func (c *card) run() {
	defer close(c.done)
	const every = 10 * time.Millisecond
	buf := make([]byte, 4*SampleRate/10)
	tick := time.NewTicker(every)
	defer tick.Stop()
	var carry []byte
	since, played := time.Now(), 0
	for {
		select {
		case <-c.stop:
			return
		case <-tick.C:
		}
		due := int(time.Since(since).Seconds()*SampleRate) - played
		for due > 0 {
			c.f.SetReadDeadline(time.Now().Add(every / 2))
			n, err := c.f.Read(buf[:min(len(buf), 4*due)])
			carry = append(carry, buf[:n]...)
			whole := len(carry) / 4 * 4
			c.hear(time.Now(), carry[:whole])
			carry = append(carry[:0], carry[whole:]...)
			played += n / 4
			due -= n / 4
			if errors.Is(err, os.ErrDeadlineExceeded) {
				since, played = time.Now(), 0 // nothing to play: the card waits
				break
			}
			if err != nil {
				return
			}
		}
	}
}

// silence is how long a quiet stretch parts two cues.
const silence = SampleRate / 100

func (c *card) hear(at time.Time, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := 0; i < len(b); i += 4 {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))
		c.read++
		if v == 0 {
			c.silent++
			if c.cur != nil && c.silent >= silence {
				c.heard = append(c.heard, *c.cur)
				c.cur = nil
			}
			if c.cur != nil {
				c.cur.samples = append(c.cur.samples, v)
			}
			continue
		}
		if c.cur == nil {
			c.cur = &captured{at: at}
		}
		c.silent = 0
		c.cur.samples = append(c.cur.samples, v)
	}
}

func (c *card) close() {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	<-c.done
}

// cues are the cues heard so far, each named by the one it is sample for sample (at volume),
// or "?" with its length.
func (c *card) cues(volume float32) []heardCue {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []heardCue
	for _, h := range c.heard {
		out = append(out, heardCue{name: identify(trimQuiet(h.samples), volume), at: h.at})
	}
	return out
}

type heardCue struct {
	name string
	at   time.Time
}

// trimQuiet is a cue without the silence read after its last sample.
func trimQuiet(s []float32) []float32 {
	for len(s) > 0 && s[len(s)-1] == 0 {
		s = s[:len(s)-1]
	}
	return s
}

// identify names the cue whose samples, at volume, s is (the first, zero sample of each
// note's fade-in is silent, so s starts one sample in).
func identify(s []float32, volume float32) string {
	for _, cue := range []app.Sound{app.SoundChip, app.SoundRefused, app.SoundTick, app.SoundNoMoreBets, app.SoundNumber, app.SoundWin} {
		want := trimQuiet(Samples(cue))
		for len(want) > 0 && want[0] == 0 {
			want = want[1:]
		}
		if len(want) != len(s) {
			continue
		}
		same := true
		for i := range want {
			if math.Abs(float64(want[i]*volume-s[i])) > 1e-5 {
				same = false
				break
			}
		}
		if same {
			return cue.String()
		}
	}
	return fmt.Sprintf("?(%d samples)", len(s))
}

// A round played on a terminal wired to the sound output, with the output going to ALSA and
// ALSA to the pipe. The terminal runs on a fake clock the test moves a second at a time, and
// after each step the test listens until what it hears has ended: a chip down, then nothing
// until five seconds before the lock, then one tick at each of the last five seconds, no more
// bets at the lock, the number called, the win — each cue exactly the samples it is made of,
// at the level set (60), and each heard within a second and a half of its moment on the
// machine's clock (a loaded machine shares the CPU with the card the test plays).
func TestSoundCapturedFromALSAChipCountdownNoMoreBetsNumberWin(t *testing.T) {
	speaker := newCard(t)
	out := Open(DefaultLevel, nil)
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	limits := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100}, AggregateMin: 100}
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	clk := clocktest.New(start)
	link := apptest.NewLink(clk.Now, 0, 0, layout, limits)
	term := app.New(app.Config{Link: link, Clock: clk, Sounds: out})
	ran := make(chan struct{})
	go func() { term.Run(context.Background()); close(ran) }()
	defer func() { term.Close(); <-ran; out.Close() }()

	link.Push(table.Connection{Up: true})
	// The lock 5 ms before the deadline (apptest's margin): 10 s from the start.
	link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{500}},
		Phase: table.PhaseWagering, RoundID: "R1", Deadline: start.Add(10*time.Second + 5*time.Millisecond),
		Limits: limits, Balance: 10000, AccountOpen: true})
	for term.View().RoundID != "R1" {
		time.Sleep(5 * time.Millisecond)
	}
	volume := float32(DefaultLevel) / 100
	heard := 0
	// listen returns the cues heard since the last call, once want of them have ended (or
	// after 3 s), and checks each was heard within 1.5 s of since.
	listen := func(want int, since time.Time) []string {
		t.Helper()
		deadline := time.Now().Add(3 * time.Second)
		for len(speaker.cues(volume)) < heard+want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // and nothing more
		got := speaker.cues(volume)[heard:]
		heard += len(got)
		var names []string
		for _, c := range got {
			names = append(names, c.name)
			if late := c.at.Sub(since); late > 1500*time.Millisecond {
				t.Errorf("%s heard %v after its moment", c.name, late)
			}
		}
		return names
	}
	expect := func(what string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s: heard %v, want %v", what, got, want)
		}
	}

	term.SelectChip(500)
	pieces, err := layout.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := term.Place(roulette.Bet{Spot: pieces}); err != nil {
		t.Fatal(err)
	}
	expect("a chip placed", listen(1, now), "chip")
	now = time.Now()
	clk.Advance(4*time.Second + 995*time.Millisecond) // 5.005 s before the lock
	expect("more than five seconds before the lock", listen(0, now))
	clk.Advance(5 * time.Millisecond)
	for n := 5; n >= 1; n-- {
		if n < 5 {
			now = time.Now()
			clk.Advance(time.Second)
		}
		expect(fmt.Sprintf("%d s before the lock", n), listen(1, now), "tick")
	}
	now = time.Now()
	clk.Advance(time.Second)
	expect("the lock", listen(1, now), "no-more-bets")
	now = time.Now()
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 17}})
	expect("the outcome", listen(1, now), "number")
	now = time.Now()
	link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 500, Returned: 18000, Balance: 27500})
	expect("the settlement", listen(1, now), "win")
}

// A terminal with no sound card (the demo in a container) runs on silent: the output says
// once, in the log, that it has no device, and a cue never blocks nor fails the terminal. The
// output runs in a child process of its own (oto has one context per process) with an ALSA
// configuration whose only device is a card that is not there.
func TestSoundWithoutACardPlaysSilentAndSaysSo(t *testing.T) {
	if os.Getenv("ATS_SOUND_CHILD") == "1" {
		out := Open(DefaultLevel, slog.New(slog.NewTextHandler(os.Stdout, nil)))
		for range 1000 {
			out.Play(app.SoundChip)
		}
		out.Close()
		fmt.Println("closed")
		return
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "alsa.conf")
	if err := os.WriteFile(conf, []byte("pcm.!default {\n\ttype hw\n\tcard 99\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSoundWithoutACardPlaysSilentAndSaysSo$")
	cmd.Env = append(os.Environ(), "ATS_SOUND_CHILD=1", "ALSA_CONFIG_PATH="+conf, "HOME="+dir)
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if n := strings.Count(string(got), "sound: no audio output"); n != 1 || !strings.Contains(string(got), "closed") {
		t.Fatalf("want one log line of no audio output, then closed:\n%s", got)
	}
}
