package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/wheel"
)

// WheelConfig sets up the emulated wheel.
type WheelConfig struct {
	Wheel     roulette.Wheel // single-zero unless set
	Manual    bool           // a manual wheel with sensors: launch and raise-cap commands are refused
	Heartbeat time.Duration  // 500 ms; the speed goes with every second heartbeat
	Pace      time.Duration
	Trace     func(Trace)
}

// Wheel is an emulated sensor-equipped (or automated) roulette wheel speaking devices/wheel's
// sentences. An operator (a test, devemu) turns it, launches and drops the ball, has its two
// sensors read numbers and injects faults; the host may launch the ball and raise the cap.
type Wheel struct {
	cfg WheelConfig

	wmu       sync.Mutex // one write on the line at a time
	mu        sync.Mutex
	line      io.Writer // set while serving
	rpm       int
	dir       wheel.Direction
	game      int
	inPlay    bool
	unplugged bool
	mute      bool // the host's commands are not echoed (a broken receiver)
	commands  []string
}

// NewWheel returns a wheel at rest, turning clockwise once spun.
func NewWheel(cfg WheelConfig) *Wheel {
	if !cfg.Wheel.Valid() {
		cfg.Wheel = roulette.SingleZero
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 500 * time.Millisecond
	}
	return &Wheel{cfg: cfg, dir: wheel.Clockwise}
}

func (w *Wheel) trace(format string, a ...any) {
	if w.cfg.Trace != nil {
		w.cfg.Trace(Trace{At: time.Now(), What: fmt.Sprintf(format, a...)})
	}
}

// send writes sentences, in order, unless the cable is out or nobody is serving.
func (w *Wheel) send(ss ...wheel.Sentence) error {
	var b []byte
	for _, s := range ss {
		f, err := s.Encode()
		if err != nil {
			return err
		}
		b = append(b, f...)
	}
	return w.raw(b)
}

// raw puts bytes on the line. A serial line never blocks its sender: with nobody reading
// (devemu with no host yet), a pseudo-terminal's buffer fills and a write would wait for ever,
// holding up the operator's commands; so a write that cannot finish within 250 ms (a whole
// frame takes 41 ms at 19200 baud) is dropped, as a real wheel's bytes are lost on an unplugged
// cable.
func (w *Wheel) raw(b []byte) error {
	w.mu.Lock()
	line, unplugged := w.line, w.unplugged
	w.mu.Unlock()
	if line == nil || unplugged {
		return nil
	}
	w.wmu.Lock()
	defer w.wmu.Unlock() // one frame on the line at a time
	sleepBytes(w.cfg.Pace, len(b))
	if dl, ok := line.(interface{ SetWriteDeadline(time.Time) error }); ok {
		if err := dl.SetWriteDeadline(time.Now().Add(250 * time.Millisecond)); err == nil {
			defer dl.SetWriteDeadline(time.Time{})
		}
	}
	_, err := line.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		w.trace("nobody reading the line: %d bytes dropped", len(b))
		return nil
	}
	return err
}

func (w *Wheel) compartments() string {
	if w.cfg.Wheel == roulette.DoubleZero {
		return "38"
	}
	return "37"
}

func (w *Wheel) heartbeat() wheel.Sentence {
	mode := "A"
	if w.cfg.Manual {
		mode = "M"
	}
	return wheel.S(wheel.Heartbeat, w.compartments(), mode)
}

func (w *Wheel) speedLocked() wheel.Sentence {
	return wheel.S(wheel.SpeedMsg, strconv.Itoa(w.rpm), w.dir.String())
}

// Serve talks to the host on line until ctx ends.
func (w *Wheel) Serve(ctx context.Context, line io.ReadWriter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		if c, ok := line.(io.Closer); ok {
			c.Close()
		}
	}()
	w.mu.Lock()
	w.line = line
	w.mu.Unlock()
	defer func() { w.mu.Lock(); w.line = nil; w.mu.Unlock() }()
	errc := make(chan error, 1)
	go func() { // heartbeats, and the speed with every second one
		t := time.NewTicker(w.cfg.Heartbeat)
		defer t.Stop()
		for i := 0; ; i++ {
			w.mu.Lock()
			ss := []wheel.Sentence{w.heartbeat()}
			if i%2 == 0 {
				ss = append(ss, w.speedLocked())
			}
			w.mu.Unlock()
			if err := w.send(ss...); err != nil {
				errc <- err
				return
			}
			select {
			case <-ctx.Done():
				errc <- nil
				return
			case <-t.C:
			}
		}
	}()
	rd := wheel.NewReader(line)
	for {
		s, err := rd.Next()
		if ctx.Err() != nil {
			return <-errc
		}
		var ne *wheel.NoiseError
		if errors.As(err, &ne) {
			w.trace("host sent garbage: %v", err)
			continue
		}
		if err != nil {
			return err
		}
		w.hostCommand(s)
	}
}

// hostCommand echoes a command and carries it out.
func (w *Wheel) hostCommand(s wheel.Sentence) {
	w.mu.Lock()
	unplugged, mute := w.unplugged, w.mute
	if !unplugged {
		w.commands = append(w.commands, s.String())
	}
	w.mu.Unlock()
	if unplugged || mute {
		return
	}
	w.trace("host: %s", s)
	switch s.Type {
	case wheel.LaunchCmd:
		ms, err := strconv.Atoi(s.Fields[0])
		w.mu.Lock()
		ok := err == nil && !w.cfg.Manual && !w.inPlay && ms >= int(wheel.MinBlower/time.Millisecond) && ms <= int(wheel.MaxBlower/time.Millisecond)
		w.mu.Unlock()
		if !ok {
			w.send(s, wheel.S(wheel.DoneMsg, wheel.LaunchCmd, "NO"))
			return
		}
		w.send(s)
		// The blower runs for its time; then the ball is away, against the wheel.
		time.AfterFunc(time.Duration(ms)*time.Millisecond, func() {
			w.send(wheel.S(wheel.DoneMsg, wheel.LaunchCmd, "OK"))
			w.Launch(0)
		})
	case wheel.CapCmd:
		w.mu.Lock()
		ok := !w.cfg.Manual && !w.inPlay
		w.mu.Unlock()
		res := "OK"
		if !ok {
			res = "NO"
		}
		w.send(s, wheel.S(wheel.DoneMsg, wheel.CapCmd, res))
	default:
		w.trace("host sent %s, not a command", s)
	}
}

// HostCommands lists the commands the host sent, oldest first.
func (w *Wheel) HostCommands() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.commands...)
}

// Spin sets the wheel turning at rpm in dir (0 stops it) and reports the speed at once.
func (w *Wheel) Spin(rpm int, dir wheel.Direction) error {
	if rpm < 0 || rpm > wheel.MaxRPM {
		return fmt.Errorf("emulator: %d rpm outside 0–%d", rpm, wheel.MaxRPM)
	}
	w.mu.Lock()
	w.rpm, w.dir = rpm, dir
	s := w.speedLocked()
	w.mu.Unlock()
	return w.send(s)
}

// Launch sends the ball round in dir (0: against the wheel, as a dealer should). The wheel
// reports a launch in its own direction (004 §8.1(b)) or while it is still (§8.1(a)) as a fault.
func (w *Wheel) Launch(dir wheel.Direction) error {
	w.mu.Lock()
	if w.inPlay {
		w.mu.Unlock()
		return errors.New("emulator: the ball is already in play")
	}
	if dir == 0 {
		dir = wheel.Anticlockwise
		if w.dir == wheel.Anticlockwise {
			dir = wheel.Clockwise
		}
	}
	w.game = w.game%wheel.MaxGame + 1
	w.inPlay = true
	g := strconv.Itoa(w.game)
	ss := []wheel.Sentence{wheel.S(wheel.BallMsg, g, dir.String())}
	switch {
	case w.rpm == 0:
		ss = append(ss, wheel.S(wheel.FaultMsg, g, "NR", "-"))
	case dir == w.dir:
		ss = append(ss, wheel.S(wheel.FaultMsg, g, "SW", "-"))
	}
	w.mu.Unlock()
	return w.send(ss...)
}

func (w *Wheel) inPlayGame() (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.inPlay {
		return "", errors.New("emulator: no ball in play (launch first)")
	}
	return strconv.Itoa(w.game), nil
}

// Drop reports the ball about to drop after revs revolutions, and a short spin if revs < 4.
func (w *Wheel) Drop(revs int) error {
	if revs < 0 || revs > wheel.MaxRevs {
		return fmt.Errorf("emulator: %d revolutions outside 0–%d", revs, wheel.MaxRevs)
	}
	g, err := w.inPlayGame()
	if err != nil {
		return err
	}
	ss := []wheel.Sentence{wheel.S(wheel.DropMsg, g, strconv.Itoa(revs))}
	if revs < wheel.MinRevs {
		ss = append(ss, wheel.S(wheel.FaultMsg, g, "RV", strconv.Itoa(revs)))
	}
	return w.send(ss...)
}

// Read has sensor 1 read s1 and sensor 2 read s2 ("0"–"36", "00", or "-" for nothing); the
// ball is then out of play. It sends what it is told, even a number the wheel does not have,
// so a test can send the driver a bad read.
func (w *Wheel) Read(s1, s2 string) error {
	g, err := w.inPlayGame()
	if err != nil {
		return err
	}
	for _, s := range []string{s1, s2} {
		if s == "-" {
			continue
		}
		if _, err := roulette.ParseNumber(s); err != nil {
			return fmt.Errorf("emulator: %w", err)
		}
	}
	w.mu.Lock()
	w.inPlay = false
	w.mu.Unlock()
	return w.send(wheel.S(wheel.NumberMsg, g, s1, s2))
}

// Fault reports a fault: nb (no ball), ow (out of the wheel), dirty S, lost S (sensor 1 or 2).
// A no-ball or out-of-wheel fault ends the ball's play.
func (w *Wheel) Fault(code string, sensor int) error {
	w.mu.Lock()
	g := 0
	if w.inPlay {
		g = w.game
	}
	w.mu.Unlock()
	var s wheel.Sentence
	switch code {
	case "nb", "ow":
		s = wheel.S(wheel.FaultMsg, strconv.Itoa(g), strings.ToUpper(code), "-")
		w.mu.Lock()
		w.inPlay = false
		w.mu.Unlock()
	case "dirty", "lost":
		if sensor != 1 && sensor != 2 {
			return fmt.Errorf("emulator: sensor %d: want 1 or 2", sensor)
		}
		c := map[string]string{"dirty": "DS", "lost": "LS"}[code]
		s = wheel.S(wheel.FaultMsg, strconv.Itoa(g), c, strconv.Itoa(sensor))
	default:
		return fmt.Errorf("emulator: unknown fault %q: want nb, ow, dirty 1|2, lost 1|2", code)
	}
	return w.send(s)
}

const wheelHelp = "spin <rpm> [cw|ccw], launch [with], drop [revs], read <n> [<n2>], fault nb|ow|dirty <1|2>|lost <1|2>, noise, unplug, replug, mute, unmute, status"

// Command runs one operator command: spin <rpm> [cw|ccw]; launch [with] (with: in the wheel's
// own direction); drop [revs] (12 unless given); read <n> [<n2>] (sensor 2 reads n2, else n;
// "-" reads nothing); fault nb|ow|dirty <sensor>|lost <sensor>; noise (bytes outside a frame);
// unplug, replug; mute, unmute (the host's commands go unanswered); status.
func (w *Wheel) Command(line string) (string, error) {
	cmd, args := fields(line)
	atoi := func(i int, def int, what string) (int, error) {
		if len(args) <= i {
			return def, nil
		}
		n, err := strconv.Atoi(args[i])
		if err != nil {
			return 0, fmt.Errorf("%s %q is not a number", what, args[i])
		}
		return n, nil
	}
	switch cmd {
	case "spin":
		if len(args) < 1 {
			return "", errors.New("spin <rpm> [cw|ccw]")
		}
		rpm, err := atoi(0, 0, "rpm")
		if err != nil {
			return "", err
		}
		w.mu.Lock()
		dir := w.dir
		w.mu.Unlock()
		if len(args) > 1 {
			switch strings.ToLower(args[1]) {
			case "cw":
				dir = wheel.Clockwise
			case "ccw":
				dir = wheel.Anticlockwise
			default:
				return "", fmt.Errorf("direction %q: want cw or ccw", args[1])
			}
		}
		return fmt.Sprintf("wheel at %d rpm %v", rpm, dir), w.Spin(rpm, dir)
	case "launch":
		var dir wheel.Direction
		if len(args) > 0 {
			if args[0] != "with" {
				return "", errors.New("launch [with]")
			}
			w.mu.Lock()
			dir = w.dir
			w.mu.Unlock()
		}
		if err := w.Launch(dir); err != nil {
			return "", err
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		return fmt.Sprintf("game %d: ball launched", w.game), nil
	case "drop":
		revs, err := atoi(0, 12, "revolutions")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("ball about to drop after %d revolutions", revs), w.Drop(revs)
	case "read":
		if len(args) < 1 {
			return "", errors.New("read <n> [<n2>]")
		}
		s2 := args[0]
		if len(args) > 1 {
			s2 = args[1]
		}
		return fmt.Sprintf("sensors read %s and %s", args[0], s2), w.Read(args[0], s2)
	case "fault":
		if len(args) < 1 {
			return "", errors.New("fault nb|ow|dirty <1|2>|lost <1|2>")
		}
		s, err := atoi(1, 0, "sensor")
		if err != nil {
			return "", err
		}
		return "fault " + strings.Join(args, " "), w.Fault(strings.ToLower(args[0]), s)
	case "noise":
		return "noise sent", w.raw([]byte("\x00\xffNOISE\r\n\x03"))
	case "unplug", "replug":
		w.mu.Lock()
		w.unplugged = cmd == "unplug"
		w.mu.Unlock()
		return "cable " + cmd + "ged", nil
	case "mute", "unmute":
		w.mu.Lock()
		w.mute = cmd == "mute"
		w.mu.Unlock()
		return "host commands " + cmd + "d", nil
	case "status":
		w.mu.Lock()
		defer w.mu.Unlock()
		return fmt.Sprintf("%v wheel at %d rpm %v, game %d, ball in play %v", w.cfg.Wheel, w.rpm, w.dir, w.game, w.inPlay), nil
	}
	return "", fmt.Errorf("unknown command %q; try %s", cmd, wheelHelp)
}
