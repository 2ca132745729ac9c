package wheel_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/serialport/porttest"
	"github.com/tablegames/ats/devices/wheel"
)

func frame(typ string, fields ...string) []byte { return wheel.MustEncode(wheel.S(typ, fields...)) }

// run starts a driver on p and stops it when the test ends; the wheel is single-zero and the
// silence an hour unless cfg says otherwise.
func run(t testing.TB, p serialport.Port, cfg wheel.Config) *wheel.Driver {
	t.Helper()
	if cfg.Wheel == 0 {
		cfg.Wheel = roulette.SingleZero
	}
	if cfg.Silence == 0 {
		cfg.Silence = time.Hour
	}
	d, err := wheel.New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { d.Run(ctx); close(ran) }()
	t.Cleanup(func() { cancel(); <-ran })
	return d
}

func next(t *testing.T, d *wheel.Driver) wheel.Event {
	t.Helper()
	select {
	case e := <-d.Events():
		return e
	case <-time.After(3 * time.Second):
		t.Fatal("no event")
	}
	return wheel.Event{}
}

func expectEvents(t *testing.T, d *wheel.Driver, want ...string) {
	t.Helper()
	for i, w := range want {
		if e := next(t, d); e.String() != w {
			t.Fatalf("event %d: %q, want %q", i, e, w)
		}
	}
}

func noMoreEvents(t *testing.T, d *wheel.Driver) {
	t.Helper()
	select {
	case e := <-d.Events():
		t.Fatalf("extra event %q", e)
	case <-time.After(30 * time.Millisecond):
	}
}

// A whole spin and every fault the wheel reports, through the driver: each sentence becomes
// its event, in order (a speed only when it changes), and the driver adds the sensors'
// disagreement as a fault of its own.
func TestTranscriptEverySentenceAndFault(t *testing.T) {
	p := porttest.New(5 * time.Millisecond)
	for _, f := range [][]byte{
		frame("HB", "37", "M"), frame("SP", "28", "CW"), frame("SP", "28", "CW"), frame("BL", "41", "CCW"), frame("BD", "41", "11"),
		frame("WN", "41", "17", "17"),
		frame("BL", "42", "CCW"), frame("WN", "42", "17", "5"),
		frame("BL", "43", "CCW"), frame("WN", "43", "-", "5"),
		frame("FT", "44", "NB", "-"), frame("FT", "45", "NR", "-"), frame("FT", "46", "SW", "-"),
		frame("FT", "47", "RV", "2"), frame("FT", "48", "OW", "-"), frame("FT", "0", "DS", "1"),
		frame("FT", "0", "LS", "2"),
	} {
		p.Reply(string(f), f)
	}
	d := run(t, p, wheel.Config{})
	expectEvents(t, d,
		"wheel: restored",
		"wheel: 28 rpm CW",
		"wheel: game 41: ball launched CCW",
		"wheel: game 41: ball about to drop after 11 revolutions",
		"wheel: game 41: sensor 1 read 17, sensor 2 read 17",
		"wheel: game 42: ball launched CCW",
		"wheel: game 42: sensor 1 read 17, sensor 2 read 5",
		"wheel: game 42: fault: sensors disagree (sensor 1 read 17, sensor 2 read 5)",
		"wheel: game 43: ball launched CCW",
		"wheel: game 43: sensor 1 read -, sensor 2 read 5",
		"wheel: game 43: fault: sensors disagree (sensor 1 read -, sensor 2 read 5)",
		"wheel: game 44: fault: no ball seen",
		"wheel: game 45: fault: wheel not rotating at launch",
		"wheel: game 46: fault: ball launched in the wheel's direction",
		"wheel: game 47: fault: fewer than four revolutions (2)",
		"wheel: game 48: fault: ball out of the wheel",
		"wheel: game 0: fault: sensor dirty (sensor 1)",
		"wheel: game 0: fault: sensor lost (sensor 2)",
	)
	noMoreEvents(t, d)
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
	if d.Automated() {
		t.Error("a manual wheel (HB …|M) taken for automated")
	}
}

// A bad checksum, a number the wheel does not have, and line noise are each a Garbled event
// and a count — never an outcome, never silently dropped — and the frames after them still arrive.
func TestTranscriptBadSentencesReportedAndCounted(t *testing.T) {
	bad := frame("WN", "9", "12", "12")
	bad[len(bad)-3] ^= 0x01
	p := porttest.New(5*time.Millisecond).
		Reply("heartbeat", frame("HB", "37", "A")).
		Reply("bad checksum", bad).
		Reply("00 from a single-zero wheel", frame("WN", "9", "00", "00")).
		Reply("noise", []byte("\x00\xffjunk")).
		Reply("good", frame("WN", "9", "12", "12"))
	d := run(t, p, wheel.Config{})
	expectEvents(t, d, "wheel: restored")
	for _, want := range []error{wheel.ErrCRC, wheel.ErrRange, wheel.ErrFrame} {
		e := next(t, d)
		if e.Kind != wheel.Garbled || !errors.Is(e.Err, want) {
			t.Fatalf("%q, want a garbled event for %v", e, want)
		}
	}
	e := next(t, d)
	if n, ok := e.Number(); !ok || n != 12 {
		t.Fatalf("%q after the bad ones", e)
	}
	if s := d.Stats(); s != (wheel.Stats{Noise: 1, Checksum: 1, Range: 1}) {
		t.Fatalf("stats %+v", s)
	}
}

// The host's launch is echoed byte for byte and then reported done; the ball's launch follows.
// A refused command is an error saying so.
func TestTranscriptLaunchEchoedThenDone(t *testing.T) {
	p := porttest.New(5*time.Millisecond).
		Reply("heartbeat", frame("HB", "38", "A")).
		Expect("launch", frame("LB", "800")).
		Reply("echo", frame("LB", "800")).
		Reply("done", frame("CD", "LB", "OK")).
		Reply("ball", frame("BL", "7", "CW"))
	d := run(t, p, wheel.Config{Wheel: roulette.DoubleZero})
	expectEvents(t, d, "wheel: restored")
	if !d.Automated() {
		t.Fatal("HB …|A not taken for an automated wheel")
	}
	if err := d.Launch(context.Background(), 800*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	expectEvents(t, d, "wheel: game 7: ball launched CW")
	p.Expect("raise cap", frame("RC")).Reply("echo", frame("RC")).Reply("refused", frame("CD", "RC", "NO"))
	if err := d.RaiseCap(context.Background()); !errors.Is(err, wheel.ErrRefused) {
		t.Fatalf("refused raise-cap: %v", err)
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
	noMoreEvents(t, d)
}

// A command the wheel does not echo is not taken as received; a blower time out of range is
// refused before anything is sent; an echo of a command never sent is reported.
func TestTranscriptCommandNotEchoed(t *testing.T) {
	p := porttest.New(5*time.Millisecond).
		Reply("heartbeat", frame("HB", "37", "A")).
		Expect("raise cap", frame("RC"))
	d := run(t, p, wheel.Config{EchoTimeout: 20 * time.Millisecond})
	expectEvents(t, d, "wheel: restored")
	if err := d.RaiseCap(context.Background()); !errors.Is(err, wheel.ErrNoEcho) {
		t.Fatalf("unechoed command: %v", err)
	}
	for _, ms := range []time.Duration{0, 99 * time.Millisecond, 5001 * time.Millisecond, 1500 * time.Microsecond} {
		if err := d.Launch(context.Background(), ms); !errors.Is(err, wheel.ErrBadValue) {
			t.Errorf("blower %v: %v", ms, err)
		}
	}
	p.Reply("stray echo", frame("LB", "500")).Reply("stray done", frame("CD", "LB", "OK"))
	for range 2 {
		if e := next(t, d); e.Kind != wheel.Garbled || !errors.Is(e.Err, wheel.ErrFrame) {
			t.Fatalf("stray echo or report: %q", e)
		}
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
	// A command to a driver not running is an error, and nothing goes on the line.
	idle, _ := wheel.New(porttest.New(time.Millisecond), wheel.Config{Wheel: roulette.SingleZero})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := idle.RaiseCap(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a command without Run: %v", err)
	}
}

// clock is a fake clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// No sentence for longer than the silence is a fault (no outcome may be taken from the wheel)
// until the wheel is heard again; reported once, not at every read timeout.
func TestTranscriptLineLostIsAFault(t *testing.T) {
	clk := &clock{now: time.Unix(1e9, 0)}
	p := porttest.New(2*time.Millisecond).Reply("heartbeat", frame("HB", "37", "A"))
	d := run(t, p, wheel.Config{Silence: 1500 * time.Millisecond, Now: clk.Now})
	expectEvents(t, d, "wheel: restored")
	clk.Add(1400 * time.Millisecond)
	noMoreEvents(t, d)
	clk.Add(200 * time.Millisecond)
	e := next(t, d)
	if e.Kind != wheel.Fault || e.Fault != wheel.FaultLineLost {
		t.Fatalf("%q, want the line lost", e)
	}
	clk.Add(10 * time.Second)
	noMoreEvents(t, d)
	p.Reply("heartbeat", frame("HB", "37", "A"))
	expectEvents(t, d, "wheel: restored")
}

// A wheel of the other kind than the table's (a 38-compartment wheel on a single-zero table) is
// a fault, once, not at every heartbeat; its reads, even of numbers the table has, are no
// result but the same fault.
func TestTranscriptWrongWheelIsAFault(t *testing.T) {
	p := porttest.New(5*time.Millisecond).
		Reply("heartbeat", frame("HB", "38", "A")).
		Reply("heartbeat", frame("HB", "38", "A")).
		Reply("a read", frame("WN", "3", "5", "5"))
	d := run(t, p, wheel.Config{Wheel: roulette.SingleZero})
	expectEvents(t, d, "wheel: restored")
	for range 2 {
		if e := next(t, d); e.Kind != wheel.Fault || e.Fault != wheel.FaultWrongWheel {
			t.Fatalf("%q, want the wrong wheel", e)
		}
	}
	noMoreEvents(t, d)
	p.Reply("the right wheel", frame("HB", "37", "A")).Reply("a read", frame("WN", "4", "5", "5"))
	if e := next(t, d); e.Kind != wheel.Result {
		t.Fatalf("%q from the right wheel", e)
	}
	if _, err := wheel.New(p, wheel.Config{}); err == nil {
		t.Fatal("a driver without the table's wheel")
	}
	if err := d.Run(context.Background()); err == nil {
		t.Fatal("a second Run of one driver")
	}
}

// heldFlush is a line whose Flush waits until the test lets it go, and which notes a write
// made before the flush (on a real line, the flush would discard it or its echo).
type heldFlush struct {
	*porttest.Port
	release chan struct{}
	flushed atomic.Bool
	early   atomic.Bool
}

func (p *heldFlush) Flush() error { <-p.release; p.flushed.Store(true); return nil }

func (p *heldFlush) Write(b []byte) (int, error) {
	if !p.flushed.Load() {
		p.early.Store(true)
	}
	return p.Port.Write(b)
}

// A command issued as the driver starts waits for Run's flush of the line: sent before it,
// the flush would discard the command or its echo, and the command would fail unechoed.
func TestCommandWaitsForTheStartFlush(t *testing.T) {
	p := &heldFlush{Port: porttest.New(5*time.Millisecond).
		Expect("raise cap", frame("RC")).Reply("echo", frame("RC")).Reply("done", frame("CD", "RC", "OK")),
		release: make(chan struct{})}
	d := run(t, p, wheel.Config{})
	t.Cleanup(func() { // before run's cleanup, which waits for Run, held in the flush on a failure
		select {
		case <-p.release:
		default:
			close(p.release)
		}
	})
	res := make(chan error, 1)
	go func() { res <- d.RaiseCap(context.Background()) }()
	select {
	case err := <-res:
		t.Fatalf("the command ended before the flush: %v", err)
	case <-time.After(30 * time.Millisecond): // time for a command that does not wait to write
	}
	close(p.release)
	if err := <-res; err != nil {
		t.Fatal(err)
	}
	if p.early.Load() {
		t.Fatal("the command went on the line before the flush")
	}
}

// A second command while one waits for the wheel is refused at once, not queued behind it.
func TestSecondCommandRefusedWhileOneWaits(t *testing.T) {
	p := porttest.New(5*time.Millisecond).
		Reply("heartbeat", frame("HB", "37", "A")).
		Expect("launch", frame("LB", "5000"))
	d := run(t, p, wheel.Config{})
	expectEvents(t, d, "wheel: restored")
	res := make(chan error, 1)
	go func() { res <- d.Launch(context.Background(), 5*time.Second) }()
	if err := p.WaitDone(time.Second); err != nil { // the launch is on the line, not yet echoed
		t.Fatal(err)
	}
	if err := d.RaiseCap(context.Background()); !errors.Is(err, wheel.ErrBusy) {
		t.Fatalf("a second command: %v", err)
	}
	p.Reply("echo", frame("LB", "5000")).Reply("done", frame("CD", "LB", "OK"))
	if err := <-res; err != nil {
		t.Fatal(err)
	}
}
