package wheel

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/internal/crc16"
	"github.com/tablegames/ats/devices/serialport"
)

// Framing bytes.
const (
	STX = 0x02
	ETX = 0x03
	CR  = 0x0D
	LF  = 0x0A
)

// Frame limits: a body of 1–64 bytes; STX, ETX, four CRC digits and CR LF around it.
const (
	MaxBody  = 64
	MaxFrame = MaxBody + 8
	minFrame = 2 + 8 // a two-letter type alone
)

// Sentence types.
const (
	Heartbeat = "HB"
	SpeedMsg  = "SP"
	BallMsg   = "BL"
	DropMsg   = "BD"
	NumberMsg = "WN"
	FaultMsg  = "FT"
	DoneMsg   = "CD"
	LaunchCmd = "LB"
	CapCmd    = "RC"
)

// fieldCount is the number of fields after the type of each sentence.
var fieldCount = map[string]int{Heartbeat: 2, SpeedMsg: 2, BallMsg: 2, DropMsg: 2, NumberMsg: 3, FaultMsg: 3, DoneMsg: 2, LaunchCmd: 1, CapCmd: 0}

// Baud is the line's speed. Not the 9600 of many wheel controllers: at 9600 a ball-drop
// sentence (16 bytes) takes 18 ms on the line, a third of the 50 ms the table has from the
// sensor to every terminal locked; at 19200 it takes 9 ms.
const Baud = 19200

// Line is the wheel's serial line: 19200 8N1.
func Line(name string) serialport.Config {
	return serialport.Config{Name: name, Baud: Baud, DataBits: 8, Parity: serialport.ParityNone, StopBits: 1, ReadTimeout: 100 * time.Millisecond}
}

// Errors of decoding. Every dropped frame wraps one of them.
var (
	ErrFrame = errors.New("wheel: malformed sentence")
	ErrCRC   = errors.New("wheel: checksum mismatch")
	ErrRange = errors.New("wheel: value out of range")
)

// Sentence is one decoded sentence: its type and the fields after it.
type Sentence struct {
	Type   string
	Fields []string
}

// S builds a sentence.
func S(typ string, fields ...string) Sentence { return Sentence{Type: typ, Fields: fields} }

func (s Sentence) body() string { return strings.Join(append([]string{s.Type}, s.Fields...), "|") }

func (s Sentence) String() string { return s.body() }

// Encode returns the sentence's frame. It refuses a sentence Decode would refuse.
func (s Sentence) Encode() ([]byte, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	body := s.body()
	if len(body) > MaxBody {
		return nil, fmt.Errorf("%w: body of %d bytes (at most %d)", ErrFrame, len(body), MaxBody)
	}
	b := make([]byte, 0, len(body)+8)
	b = append(b, STX)
	b = append(b, body...)
	b = append(b, ETX)
	b = fmt.Appendf(b, "%04X", crc16.Kermit([]byte(body)))
	return append(b, CR, LF), nil
}

// MustEncode is Encode for sentences known to be well formed (tests, the emulator's own).
func MustEncode(s Sentence) []byte {
	b, err := s.Encode()
	if err != nil {
		panic(err)
	}
	return b
}

// Decode decodes exactly one frame and checks its shape: the type is known and has its number
// of fields. The values are checked by Parse, against the wheel.
func Decode(b []byte) (Sentence, error) {
	n := len(b)
	if n < minFrame || n > MaxFrame || b[0] != STX || b[n-2] != CR || b[n-1] != LF || b[n-7] != ETX {
		return Sentence{}, fmt.Errorf("%w: %q", ErrFrame, b)
	}
	body := b[1 : n-7]
	for _, c := range body {
		if c < 0x20 || c > 0x7E {
			return Sentence{}, fmt.Errorf("%w: byte %02X in the body", ErrFrame, c)
		}
	}
	var got uint16
	for _, c := range b[n-6 : n-2] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return Sentence{}, fmt.Errorf("%w: checksum %q is not four upper-case hex digits", ErrFrame, b[n-6:n-2])
		}
		got = got<<4 | uint16(v)
	}
	if want := crc16.Kermit(body); got != want {
		return Sentence{}, fmt.Errorf("%w: %q carries %04X, computed %04X", ErrCRC, body, got, want)
	}
	f := strings.Split(string(body), "|")
	s := Sentence{Type: f[0], Fields: f[1:]}
	return s, s.check()
}

func (s Sentence) check() error {
	want, ok := fieldCount[s.Type]
	if !ok {
		return fmt.Errorf("%w: unknown sentence type %q", ErrFrame, s.Type)
	}
	if len(s.Fields) != want {
		return fmt.Errorf("%w: %s has %d fields, want %d", ErrFrame, s.Type, len(s.Fields), want)
	}
	for _, f := range s.Fields {
		if f == "" {
			return fmt.Errorf("%w: %s has an empty field", ErrFrame, s.Type)
		}
		for _, c := range []byte(f) {
			if c < 0x20 || c > 0x7E || c == '|' {
				return fmt.Errorf("%w: %s field %q holds byte %02X", ErrFrame, s.Type, f, c)
			}
		}
	}
	return nil
}

// Direction a wheel or a ball turns, seen from above.
type Direction uint8

// Directions.
const (
	Clockwise Direction = iota + 1
	Anticlockwise
)

func (d Direction) String() string {
	switch d {
	case Clockwise:
		return "CW"
	case Anticlockwise:
		return "CCW"
	}
	return "?"
}

func parseDir(s string) (Direction, error) {
	switch s {
	case "CW":
		return Clockwise, nil
	case "CCW":
		return Anticlockwise, nil
	}
	return 0, fmt.Errorf("%w: direction %q (CW, CCW)", ErrRange, s)
}

// uintField parses a decimal field of at most five digits within [lo, hi].
func uintField(what, s string, lo, hi int) (int, error) {
	if len(s) == 0 || len(s) > 5 {
		return 0, fmt.Errorf("%w: %s %q", ErrRange, what, s)
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %s %q is not a number", ErrRange, what, s)
		}
	}
	v, _ := strconv.Atoi(s)
	if v < lo || v > hi {
		return 0, fmt.Errorf("%w: %s %d outside %d–%d", ErrRange, what, v, lo, hi)
	}
	return v, nil
}

// Limits of the fields.
const (
	MaxGame   = 99999
	MaxRPM    = 99
	MaxRevs   = 999
	MinBlower = 100 * time.Millisecond
	MaxBlower = 5000 * time.Millisecond
	MinRevs   = 4 // 004 §8.1(c): fewer is a no spin
)

// Read is what one sensor read: a compartment, or nothing.
type Read struct {
	Number roulette.Number
	OK     bool // false: the sensor read nothing
}

func (r Read) String() string {
	if !r.OK {
		return "-"
	}
	return r.Number.String()
}

func parseRead(s string, w roulette.Wheel) (Read, error) {
	if s == "-" {
		return Read{}, nil
	}
	n, err := roulette.ParseNumber(s)
	if err != nil {
		return Read{}, fmt.Errorf("%w: %v", ErrRange, err)
	}
	if !w.Has(n) {
		return Read{}, fmt.Errorf("%w: %s is not on a %s wheel", ErrRange, n, w)
	}
	return Read{Number: n, OK: true}, nil
}

// Parse turns a sentence from the wheel into its event, checking every value against w, the
// wheel the table is configured with. Commands' echoes (LB, RC) are not events: Parse refuses them.
func Parse(s Sentence, w roulette.Wheel) (Event, error) {
	if err := s.check(); err != nil {
		return Event{}, err
	}
	f := s.Fields
	game := func(lo int) (int, error) { return uintField("game", f[0], lo, MaxGame) }
	var err error
	e := Event{}
	switch s.Type {
	case Heartbeat:
		e.Kind = heard
		switch f[0] {
		case "37":
			e.Wheel = roulette.SingleZero
		case "38":
			e.Wheel = roulette.DoubleZero
		default:
			return Event{}, fmt.Errorf("%w: %q compartments (37, 38)", ErrRange, f[0])
		}
		switch f[1] {
		case "A":
			e.Automated = true
		case "M":
		default:
			return Event{}, fmt.Errorf("%w: mode %q (A, M)", ErrRange, f[1])
		}
	case SpeedMsg:
		e.Kind = Speed
		if e.RPM, err = uintField("rpm", f[0], 0, MaxRPM); err != nil {
			return Event{}, err
		}
		if e.Dir, err = parseDir(f[1]); err != nil {
			return Event{}, err
		}
	case BallMsg:
		e.Kind = Launched
		if e.Game, err = game(1); err != nil {
			return Event{}, err
		}
		if e.Dir, err = parseDir(f[1]); err != nil {
			return Event{}, err
		}
	case DropMsg:
		e.Kind = Dropping
		if e.Game, err = game(1); err != nil {
			return Event{}, err
		}
		if e.Revs, err = uintField("revolutions", f[1], 0, MaxRevs); err != nil {
			return Event{}, err
		}
	case NumberMsg:
		e.Kind = Result
		if e.Game, err = game(1); err != nil {
			return Event{}, err
		}
		for i := range 2 {
			if e.Reads[i], err = parseRead(f[1+i], w); err != nil {
				return Event{}, fmt.Errorf("sensor %d: %w", i+1, err)
			}
		}
	case FaultMsg:
		e.Kind = Fault
		if e.Game, err = game(0); err != nil {
			return Event{}, err
		}
		code, ok := wireFaults[f[1]]
		if !ok {
			return Event{}, fmt.Errorf("%w: fault code %q", ErrRange, f[1])
		}
		e.Fault = code
		switch code {
		case FaultShortSpin:
			e.Revs, err = uintField("revolutions", f[2], 0, MinRevs-1)
		case FaultSensorDirty, FaultSensorLost:
			e.Sensor, err = uintField("sensor", f[2], 1, 2)
		default:
			if f[2] != "-" {
				err = fmt.Errorf("%w: fault %s takes no detail, got %q", ErrRange, f[1], f[2])
			}
		}
		if err != nil {
			return Event{}, err
		}
	case DoneMsg:
		e.Kind = done
		if f[0] != LaunchCmd && f[0] != CapCmd {
			return Event{}, fmt.Errorf("%w: done of unknown command %q", ErrRange, f[0])
		}
		e.Command = f[0]
		switch f[1] {
		case "OK":
			e.Accepted = true
		case "NO":
		default:
			return Event{}, fmt.Errorf("%w: command result %q (OK, NO)", ErrRange, f[1])
		}
	default:
		return Event{}, fmt.Errorf("%w: %s is a host command, not a report", ErrFrame, s.Type)
	}
	return e, nil
}

// Reader reads sentences from a stream. Line noise and dropped frames come back as *NoiseError;
// a read timeout in the middle of a frame keeps the part read, so a frame split across reads
// (and across timeouts) is whole when its end arrives.
type Reader struct {
	r     *bufio.Reader
	frame []byte // a frame in progress, from its STX
	noise []byte
}

// NewReader reads sentences from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 256)} }

// NoiseError reports bytes dropped: noise between frames or a bad frame.
type NoiseError struct {
	Skipped []byte
	Err     error
}

func (e *NoiseError) Error() string {
	return fmt.Sprintf("wheel: dropped %d bytes %q: %v", len(e.Skipped), e.Skipped, e.Err)
}

func (e *NoiseError) Unwrap() error { return e.Err }

// Next returns the next well-formed sentence, a *NoiseError, or the stream's error (for a
// serial line, serialport.ErrTimeout when nothing more has come).
func (fr *Reader) Next() (Sentence, error) {
	for {
		c, err := fr.r.ReadByte()
		if err != nil {
			if len(fr.noise) > 0 {
				return Sentence{}, fr.takeNoise()
			}
			return Sentence{}, err
		}
		if fr.frame == nil {
			if c == STX {
				if len(fr.noise) > 0 {
					fr.r.UnreadByte()
					return Sentence{}, fr.takeNoise()
				}
				fr.frame = []byte{STX}
				continue
			}
			fr.noise = append(fr.noise, c)
			// Report noise once the bytes at hand are used up, never waiting on the line for more.
			if fr.r.Buffered() == 0 || len(fr.noise) >= MaxFrame {
				return Sentence{}, fr.takeNoise()
			}
			continue
		}
		if c == STX {
			bad := fr.frame
			fr.frame = []byte{STX}
			return Sentence{}, &NoiseError{Skipped: bad, Err: fmt.Errorf("%w: cut short by a new STX", ErrFrame)}
		}
		fr.frame = append(fr.frame, c)
		if c == LF {
			b := fr.frame
			fr.frame = nil
			s, err := Decode(b)
			if err != nil {
				return Sentence{}, &NoiseError{Skipped: b, Err: err}
			}
			return s, nil
		}
		if len(fr.frame) >= MaxFrame {
			bad := fr.frame
			fr.frame = nil
			return Sentence{}, &NoiseError{Skipped: bad, Err: fmt.Errorf("%w: no end within %d bytes", ErrFrame, MaxFrame)}
		}
	}
}

func (fr *Reader) takeNoise() error {
	b := fr.noise
	fr.noise = nil
	return &NoiseError{Skipped: b, Err: fmt.Errorf("%w: bytes outside a frame", ErrFrame)}
}
