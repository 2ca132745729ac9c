package wheel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/serialport"
)

// Kind of an Event.
type Kind int

// Kinds of events. heard and done are the driver's own (heartbeats and command reports) and
// never reach Events.
const (
	Restored Kind = iota // the wheel is heard (at start, and after a FaultLineLost)
	Speed                // the wheel's speed or direction changed
	Launched             // the ball is launched: the spin has started
	Dropping             // the ball is about to drop: the wagering period ends now (001 §5.1.3)
	Result               // the ball is at rest: what each sensor read
	Fault                // no outcome may be taken from the wheel; Event.Fault says why
	Garbled              // a sentence was dropped (noise, bad frame, checksum, value out of range)
	heard
	done
)

var kindNames = [...]string{"restored", "speed", "launched", "dropping", "result", "fault", "garbled", "heard", "done"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// FaultCode says what went wrong.
type FaultCode int

// Fault codes. The first seven come from the wheel (FT sentences); the rest the driver finds.
const (
	FaultNoBall      FaultCode = iota + 1 // NB: no ball seen after a launch
	FaultNotRotating                      // NR: the wheel was still when the ball was launched (004 §8.1(a))
	FaultSameWay                          // SW: the ball launched in the wheel's direction (004 §8.1(b))
	FaultShortSpin                        // RV: fewer than four revolutions (004 §8.1(c))
	FaultOutOfWheel                       // OW: the ball left the wheel (004 §8.1(e))
	FaultSensorDirty                      // DS: a sensor is dirty
	FaultSensorLost                       // LS: a sensor has no signal
	FaultDisagree                         // the two sensors read different numbers, or one read nothing
	FaultLineLost                         // nothing heard from the wheel for Config.Silence
	FaultWrongWheel                       // the wheel reports a compartment count the table is not configured for
)

var wireFaults = map[string]FaultCode{"NB": FaultNoBall, "NR": FaultNotRotating, "SW": FaultSameWay, "RV": FaultShortSpin,
	"OW": FaultOutOfWheel, "DS": FaultSensorDirty, "LS": FaultSensorLost}

// Wire is the fault's code on the line, "" for the driver's own.
func (f FaultCode) Wire() string {
	for k, v := range wireFaults {
		if v == f {
			return k
		}
	}
	return ""
}

func (f FaultCode) String() string {
	switch f {
	case FaultNoBall:
		return "no ball seen"
	case FaultNotRotating:
		return "wheel not rotating at launch"
	case FaultSameWay:
		return "ball launched in the wheel's direction"
	case FaultShortSpin:
		return "fewer than four revolutions"
	case FaultOutOfWheel:
		return "ball out of the wheel"
	case FaultSensorDirty:
		return "sensor dirty"
	case FaultSensorLost:
		return "sensor lost"
	case FaultDisagree:
		return "sensors disagree"
	case FaultLineLost:
		return "wheel not heard"
	case FaultWrongWheel:
		return "wrong wheel"
	}
	return fmt.Sprintf("fault(%d)", int(f))
}

// Event is something the wheel reported, checked.
type Event struct {
	Kind      Kind
	Game      int            // the wheel's spin counter (Launched, Dropping, Result, Fault; 0 outside a spin)
	RPM       int            // Speed
	Dir       Direction      // Speed: the wheel's; Launched: the ball's
	Revs      int            // Dropping, FaultShortSpin: the ball's revolutions
	Reads     [2]Read        // Result: sensor 1's and sensor 2's
	Fault     FaultCode      // Fault
	Sensor    int            // FaultSensorDirty, FaultSensorLost: 1 or 2
	Err       error          // Garbled, FaultWrongWheel: why
	Wheel     roulette.Wheel // heard
	Automated bool           // heard
	Command   string         // done
	Accepted  bool           // done
}

// Number is the outcome the two sensors agree on; ok is false unless both read the same number.
func (e Event) Number() (n roulette.Number, ok bool) {
	if e.Kind != Result || !e.Reads[0].OK || !e.Reads[1].OK || e.Reads[0].Number != e.Reads[1].Number {
		return 0, false
	}
	return e.Reads[0].Number, true
}

func (e Event) String() string {
	switch e.Kind {
	case Speed:
		return fmt.Sprintf("wheel: %d rpm %v", e.RPM, e.Dir)
	case Launched:
		return fmt.Sprintf("wheel: game %d: ball launched %v", e.Game, e.Dir)
	case Dropping:
		return fmt.Sprintf("wheel: game %d: ball about to drop after %d revolutions", e.Game, e.Revs)
	case Result:
		return fmt.Sprintf("wheel: game %d: sensor 1 read %v, sensor 2 read %v", e.Game, e.Reads[0], e.Reads[1])
	case Fault:
		s := fmt.Sprintf("wheel: game %d: fault: %v", e.Game, e.Fault)
		switch e.Fault {
		case FaultShortSpin:
			s += fmt.Sprintf(" (%d)", e.Revs)
		case FaultSensorDirty, FaultSensorLost:
			s += fmt.Sprintf(" (sensor %d)", e.Sensor)
		case FaultDisagree:
			s += fmt.Sprintf(" (sensor 1 read %v, sensor 2 read %v)", e.Reads[0], e.Reads[1])
		}
		if e.Err != nil {
			s += ": " + e.Err.Error()
		}
		return s
	case Garbled:
		return fmt.Sprintf("wheel: garbled: %v", e.Err)
	}
	return "wheel: " + e.Kind.String()
}

// Device is what the table needs of a wheel: its events, and on an automated wheel its two
// commands. *Driver is one; a test of the table may use another.
type Device interface {
	Events() <-chan Event
	Launch(ctx context.Context, blower time.Duration) error
	RaiseCap(ctx context.Context) error
}

// Config tunes the driver.
type Config struct {
	Wheel       roulette.Wheel   // the table's wheel; required
	Silence     time.Duration    // without a sentence before FaultLineLost; 1.5 s
	EchoTimeout time.Duration    // a command not echoed within this was not received; 500 ms
	Now         func() time.Time // the clock; time.Now
	Log         *slog.Logger
}

// Stats counts what the driver dropped, by cause.
type Stats struct {
	Noise    int // drops of bytes outside frames, of frames cut short, too long or malformed
	Checksum int // frames with a wrong CRC
	Range    int // well-formed sentences with a value out of range
}

// Errors of commands.
var (
	ErrNoEcho   = errors.New("wheel: command not echoed")
	ErrRefused  = errors.New("wheel: command refused")
	ErrBusy     = errors.New("wheel: another command is in progress")
	ErrBadValue = errors.New("wheel: command value out of range")
)

// Driver reads a wheel on one line.
type Driver struct {
	port serialport.Port
	rd   *Reader
	cfg  Config

	started atomic.Bool // Run runs once
	wmu     sync.Mutex  // one frame on the line at a time
	cmu     sync.Mutex  // one command in progress at a time

	mu        sync.Mutex
	heard     time.Time
	lost      bool
	wrong     bool
	automated bool
	stats     Stats
	pending   string // the command in progress, "" for none

	replies chan reply    // answers to the command in progress
	flushed chan struct{} // closed once Run has flushed the line: a command sent before would be lost
	speed   Event         // the latest speed reported, to report only changes
	events  chan Event
}

// New makes a driver for the table's wheel; Run starts it.
func New(port serialport.Port, cfg Config) (*Driver, error) {
	if !cfg.Wheel.Valid() {
		return nil, fmt.Errorf("wheel: the table's wheel is not set (single-zero or double-zero)")
	}
	if cfg.Silence <= 0 {
		cfg.Silence = 1500 * time.Millisecond
	}
	if cfg.EchoTimeout <= 0 {
		cfg.EchoTimeout = 500 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Driver{port: port, rd: NewReader(port), cfg: cfg, lost: true,
		replies: make(chan reply, 2), flushed: make(chan struct{}), events: make(chan Event, 64)}, nil
}

// Events delivers what the wheel reports. A slow reader loses none: Run blocks on it.
func (d *Driver) Events() <-chan Event { return d.events }

// Ready is closed once Run has flushed the line at its start: sentences the wheel sends from
// then on are read, those before were stale bytes and are dropped.
func (d *Driver) Ready() <-chan struct{} { return d.flushed }

// Stats returns the counts of dropped sentences.
func (d *Driver) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

// Automated reports whether the wheel said (in its latest heartbeat) it is an automated wheel.
func (d *Driver) Automated() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.automated
}

// Launch has an automated wheel launch the ball with the blower on for blower (100 ms–5 s).
// It returns once the wheel reports it done; the ball's own report (Launched) follows as an event.
func (d *Driver) Launch(ctx context.Context, blower time.Duration) error {
	if blower < MinBlower || blower > MaxBlower || blower%time.Millisecond != 0 {
		return fmt.Errorf("%w: blower %v (100 ms–5 s, whole milliseconds)", ErrBadValue, blower)
	}
	return d.command(ctx, S(LaunchCmd, fmt.Sprint(blower.Milliseconds())))
}

// RaiseCap has an automated wheel raise its cap; it returns once the wheel reports it done.
func (d *Driver) RaiseCap(ctx context.Context) error { return d.command(ctx, S(CapCmd)) }

func (d *Driver) command(ctx context.Context, s Sentence) error {
	if !d.cmu.TryLock() {
		return fmt.Errorf("%w: %s", ErrBusy, s)
	}
	defer d.cmu.Unlock()
	b, err := s.Encode()
	if err != nil {
		return err
	}
	select {
	case <-d.flushed:
	case <-ctx.Done():
		return fmt.Errorf("wheel: %s: the driver is not running: %w", s, ctx.Err())
	}
	// Drop late answers to an earlier command that timed out.
	for len(d.replies) > 0 {
		<-d.replies
	}
	d.mu.Lock()
	d.pending = s.Type
	d.mu.Unlock()
	defer func() { d.mu.Lock(); d.pending = ""; d.mu.Unlock() }()
	if err := d.write(b); err != nil {
		return fmt.Errorf("wheel: %s: %w", s, err)
	}
	t := time.NewTimer(d.cfg.EchoTimeout)
	defer t.Stop()
	select {
	case r := <-d.replies:
		if !r.echo || r.body != s.body() {
			return fmt.Errorf("%w: sent %s, the wheel answered %s", ErrNoEcho, s, r.body)
		}
	case <-t.C:
		return fmt.Errorf("%w: %s within %v", ErrNoEcho, s, d.cfg.EchoTimeout)
	case <-ctx.Done():
		return fmt.Errorf("wheel: %s: %w", s, ctx.Err())
	}
	select {
	case r := <-d.replies:
		if r.echo {
			return fmt.Errorf("%w: %s echoed twice", ErrFrame, s)
		}
		if !r.accepted {
			return fmt.Errorf("%w: %s (a manual wheel, or a ball in play)", ErrRefused, s)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wheel: %s echoed, not reported done: %w", s, ctx.Err())
	}
}

func (d *Driver) write(b []byte) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	_, err := d.port.Write(b)
	return err
}

// Run reads the wheel until ctx ends or the line fails. It first discards whatever the line
// holds from before: a ball-drop or a number left over from an earlier run is not this spin's.
func (d *Driver) Run(ctx context.Context) error {
	if d.started.Swap(true) {
		return errors.New("wheel: Run called twice on one driver")
	}
	err := d.port.Flush()
	close(d.flushed)
	if err != nil {
		return fmt.Errorf("wheel: %w", err)
	}
	d.mu.Lock()
	d.heard = d.cfg.Now()
	d.mu.Unlock()
	for ctx.Err() == nil {
		s, err := d.rd.Next()
		var ne *NoiseError
		switch {
		case err == nil:
			d.handle(ctx, s)
		case errors.As(err, &ne):
			d.mu.Lock()
			if errors.Is(err, ErrCRC) {
				d.stats.Checksum++
			} else {
				d.stats.Noise++
			}
			d.mu.Unlock()
			d.cfg.Log.Warn("wheel: dropped", "err", err)
			d.emit(ctx, Event{Kind: Garbled, Err: err})
		case serialport.IsTimeout(err):
		default:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("wheel: line: %w", err)
		}
		d.mu.Lock()
		silent := !d.lost && d.cfg.Now().Sub(d.heard) > d.cfg.Silence
		if silent {
			d.lost = true
			d.speed = Event{} // the first speed heard again is news
		}
		d.mu.Unlock()
		if silent {
			d.emit(ctx, Event{Kind: Fault, Fault: FaultLineLost, Err: fmt.Errorf("wheel: nothing heard for %v", d.cfg.Silence)})
		}
	}
	return nil
}

func (d *Driver) emit(ctx context.Context, e Event) {
	select {
	case d.events <- e:
	case <-ctx.Done():
	}
}

func (d *Driver) handle(ctx context.Context, s Sentence) {
	// Any well-formed frame shows the line is alive, even one with a value out of range.
	var e Event
	var err error
	if s.Type != LaunchCmd && s.Type != CapCmd {
		e, err = Parse(s, d.cfg.Wheel)
	}
	d.mu.Lock()
	d.heard = d.cfg.Now()
	wasLost := d.lost
	d.lost = false
	if err == nil && e.Kind == heard {
		d.automated = e.Automated // known before Restored is seen
	}
	d.mu.Unlock()
	if wasLost {
		d.emit(ctx, Event{Kind: Restored})
	}
	if s.Type == LaunchCmd || s.Type == CapCmd {
		d.reply(ctx, s.Type, reply{echo: true, body: s.body()})
		return
	}
	if err != nil {
		d.mu.Lock()
		d.stats.Range++
		d.mu.Unlock()
		d.cfg.Log.Warn("wheel: dropped", "sentence", s.String(), "err", err)
		d.emit(ctx, Event{Kind: Garbled, Err: fmt.Errorf("%s: %w", s, err)})
		return
	}
	switch e.Kind {
	case heard:
		d.mu.Lock()
		wasWrong := d.wrong
		d.wrong = e.Wheel != d.cfg.Wheel
		nowWrong := d.wrong && !wasWrong
		d.mu.Unlock()
		if nowWrong {
			d.emit(ctx, Event{Kind: Fault, Fault: FaultWrongWheel,
				Err: fmt.Errorf("wheel: the wheel reports a %v wheel, the table is configured for %v", e.Wheel, d.cfg.Wheel)})
		}
		return
	case done:
		d.reply(ctx, e.Command, reply{body: s.body(), accepted: e.Accepted})
		return
	}
	if e.Kind == Speed {
		d.mu.Lock()
		same := e.RPM == d.speed.RPM && e.Dir == d.speed.Dir // a zero speed has no direction: never the same
		d.speed = e
		d.mu.Unlock()
		if same {
			return
		}
	}
	if e.Kind == Result {
		d.mu.Lock()
		wrong := d.wrong
		d.mu.Unlock()
		if wrong {
			// The wheel is not the table's: its reads are no outcome, however plausible.
			d.emit(ctx, Event{Kind: Fault, Game: e.Game, Fault: FaultWrongWheel, Reads: e.Reads,
				Err: fmt.Errorf("wheel: a result from a wheel the table is not configured for")})
			return
		}
	}
	d.emit(ctx, e)
	if e.Kind == Result {
		if _, ok := e.Number(); !ok {
			d.emit(ctx, Event{Kind: Fault, Game: e.Game, Fault: FaultDisagree, Reads: e.Reads})
		}
	}
}

// reply is an echo or a done report, for the command in progress.
type reply struct {
	echo     bool // an echo (else a done report)
	body     string
	accepted bool // a done report: OK
}

// reply passes r to the command of type cmd in progress; with none in progress it is reported
// as garbled (a late answer to a command that timed out, or a wheel talking nonsense).
func (d *Driver) reply(ctx context.Context, cmd string, r reply) {
	d.mu.Lock()
	expected := d.pending == cmd
	d.mu.Unlock()
	if !expected {
		d.emit(ctx, Event{Kind: Garbled, Err: fmt.Errorf("%w: %s of no command in progress", ErrFrame, r.body)})
		return
	}
	select {
	case d.replies <- r:
	default: // more answers than a command has: the command reads the first two
	}
}
