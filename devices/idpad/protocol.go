package idpad

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tablegames/ats/devices/internal/crc16"
	"github.com/tablegames/ats/devices/serialport"
)

// Sync starts every frame.
const Sync = 0xA5

// Frame limits.
const (
	MinFrame = 6
	MaxFrame = 64
	MaxPads  = 16
)

// Frame types.
const (
	TouchOn   = 0x01
	TouchOff  = 0x02
	CardIn    = 0x03
	CardOut   = 0x04
	Heartbeat = 0x10
	StatusMsg = 0x11
	VersionMs = 0x12
	Ack       = 0x80
	StatusReq = 0x81
	VersionRq = 0x82
)

// Line is the pad's serial line: 19200 8N1.
func Line(name string) serialport.Config {
	return serialport.Config{Name: name, Baud: 19200, DataBits: 8, Parity: serialport.ParityNone, StopBits: 1, ReadTimeout: 100 * time.Millisecond}
}

// Frame is one decoded frame.
type Frame struct {
	Type byte
	Seq  byte
	Data []byte
}

// Errors of decoding.
var (
	ErrFrame = errors.New("idpad: malformed frame")
	ErrCRC   = errors.New("idpad: CRC mismatch")
)

// Encode returns the frame's bytes.
func (f Frame) Encode() ([]byte, error) {
	n := MinFrame + len(f.Data)
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: %d bytes of data", ErrFrame, len(f.Data))
	}
	b := append([]byte{Sync, byte(n), f.Type, f.Seq}, f.Data...)
	c := crc16.Kermit(b)
	return append(b, byte(c), byte(c>>8)), nil
}

// Decode decodes exactly one frame and checks its payload's shape.
func Decode(b []byte) (Frame, error) {
	if len(b) < MinFrame || len(b) > MaxFrame || b[0] != Sync || int(b[1]) != len(b) {
		return Frame{}, fmt.Errorf("%w: % X", ErrFrame, b)
	}
	if got, want := uint16(b[len(b)-2])|uint16(b[len(b)-1])<<8, crc16.Kermit(b[:len(b)-2]); got != want {
		return Frame{}, fmt.Errorf("%w: got %04X, computed %04X", ErrCRC, got, want)
	}
	f := Frame{Type: b[2], Seq: b[3], Data: append([]byte(nil), b[4:len(b)-2]...)}
	return f, f.check()
}

func (f Frame) check() error {
	bad := func(why string) error { return fmt.Errorf("%w: type %02X: %s", ErrFrame, f.Type, why) }
	pad := func() error {
		if len(f.Data) < 1 || f.Data[0] < 1 || f.Data[0] > MaxPads {
			return bad("pad id outside 1–16")
		}
		return nil
	}
	switch f.Type {
	case TouchOn, TouchOff, CardOut:
		if len(f.Data) != 1 {
			return bad("want one byte of data")
		}
		if f.Seq == 0 {
			return bad("an event needs a sequence number")
		}
		return pad()
	case CardIn:
		if err := pad(); err != nil {
			return err
		}
		if f.Seq == 0 {
			return bad("an event needs a sequence number")
		}
		d := f.Data[1:]
		if len(d) < 1 || len(d) > 20 {
			return bad("card number of 1–20 digits")
		}
		for _, c := range d {
			if c < '0' || c > '9' {
				return bad("card number not all digits")
			}
		}
	case Heartbeat, StatusMsg:
		if len(f.Data) != 4 {
			return bad("want 4 bytes of pad state")
		}
	case VersionMs:
		for _, c := range f.Data {
			if c < 0x20 || c > 0x7E {
				return bad("version not printable ASCII")
			}
		}
	case Ack:
		if len(f.Data) != 1 || f.Data[0] == 0 {
			return bad("want the sequence number acknowledged")
		}
	case StatusReq, VersionRq:
		if len(f.Data) != 0 {
			return bad("want no data")
		}
	default:
		return bad("unknown type")
	}
	return nil
}

// State is the pads' state in a heartbeat or status.
type State struct {
	Touched uint16 // bit n-1 = pad n
	Cards   uint16
}

// ParseState reads a heartbeat's or status's data.
func ParseState(d []byte) State {
	return State{Touched: uint16(d[0])<<8 | uint16(d[1]), Cards: uint16(d[2])<<8 | uint16(d[3])}
}

// Data encodes s.
func (s State) Data() []byte {
	return []byte{byte(s.Touched >> 8), byte(s.Touched), byte(s.Cards >> 8), byte(s.Cards)}
}

// Reader reads frames from a stream, skipping noise (reported as *NoiseError).
type Reader struct{ r *bufio.Reader }

// NewReader reads frames from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 256)} }

// NoiseError reports skipped bytes.
type NoiseError struct {
	Skipped []byte
	Err     error
}

func (e *NoiseError) Error() string {
	return fmt.Sprintf("idpad: skipped %d bytes (% X): %v", len(e.Skipped), e.Skipped, e.Err)
}

func (e *NoiseError) Unwrap() error { return e.Err }

// Next returns the next valid frame, a *NoiseError, or the stream's error.
func (fr *Reader) Next() (Frame, error) {
	c, err := fr.r.ReadByte()
	if err != nil {
		return Frame{}, err
	}
	if c != Sync {
		skipped := []byte{c}
		for {
			p, err := fr.r.Peek(1)
			if err != nil || p[0] == Sync {
				break
			}
			b, _ := fr.r.ReadByte()
			skipped = append(skipped, b)
		}
		return Frame{}, &NoiseError{Skipped: skipped, Err: ErrFrame}
	}
	n, err := fr.r.ReadByte()
	if err != nil {
		return Frame{}, err
	}
	if n < MinFrame || n > MaxFrame {
		fr.r.UnreadByte()
		return Frame{}, &NoiseError{Skipped: []byte{c}, Err: ErrFrame}
	}
	buf := make([]byte, n)
	buf[0], buf[1] = c, n
	if _, err := io.ReadFull(fr.r, buf[2:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Frame{}, &NoiseError{Skipped: buf, Err: ErrFrame}
		}
		return Frame{}, err
	}
	f, err := Decode(buf)
	if err != nil {
		return Frame{}, &NoiseError{Skipped: buf, Err: err}
	}
	return f, nil
}
