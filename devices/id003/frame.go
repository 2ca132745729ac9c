package id003

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/tablegames/ats/devices/internal/crc16"
)

// Sync starts every frame.
const Sync = 0xFC

// MinFrame is the shortest frame: SYNC, LNG, CMD, CRC (2).
const MinFrame = 5

// MaxFrame is the longest frame LNG can describe.
const MaxFrame = 255

// CRC computes CRC-16/KERMIT of b.
func CRC(b []byte) uint16 { return crc16.Kermit(b) }

// Frame is a decoded frame: a command (host to acceptor) or a status (acceptor to host) and its data.
type Frame struct {
	Cmd  byte
	Data []byte
}

func (f Frame) String() string { return fmt.Sprintf("%02X % X", f.Cmd, f.Data) }

// Encode returns the bytes of f on the wire.
func (f Frame) Encode() ([]byte, error) {
	n := MinFrame + len(f.Data)
	if n > MaxFrame {
		return nil, fmt.Errorf("id003: frame of %d bytes is longer than %d", n, MaxFrame)
	}
	b := make([]byte, 0, n)
	b = append(b, Sync, byte(n), f.Cmd)
	b = append(b, f.Data...)
	crc := CRC(b)
	return append(b, byte(crc), byte(crc>>8)), nil
}

// Errors of Decode and the Reader.
var (
	ErrShort  = errors.New("id003: frame too short")
	ErrSync   = errors.New("id003: frame does not start with SYNC 0xFC")
	ErrLength = errors.New("id003: LNG does not match the frame")
	ErrCRC    = errors.New("id003: CRC mismatch")
)

// Decode decodes exactly one frame.
func Decode(b []byte) (Frame, error) {
	switch {
	case len(b) < MinFrame:
		return Frame{}, fmt.Errorf("%w: %d bytes", ErrShort, len(b))
	case b[0] != Sync:
		return Frame{}, fmt.Errorf("%w: got %02X", ErrSync, b[0])
	case int(b[1]) != len(b):
		return Frame{}, fmt.Errorf("%w: LNG %d, %d bytes", ErrLength, b[1], len(b))
	}
	want := CRC(b[:len(b)-2])
	got := uint16(b[len(b)-2]) | uint16(b[len(b)-1])<<8
	if got != want {
		return Frame{}, fmt.Errorf("%w: got %04X, computed %04X", ErrCRC, got, want)
	}
	data := make([]byte, len(b)-MinFrame)
	copy(data, b[3:len(b)-2])
	return Frame{Cmd: b[2], Data: data}, nil
}

// Reader reads frames from a byte stream. Bytes before a SYNC and frames that fail their CRC are
// skipped and counted, not returned: on a serial line noise is normal, and the protocol answers
// a lost frame by polling again. The caller sees each skip as a *NoiseError so it can log it.
type Reader struct {
	r *bufio.Reader
}

// NewReader reads frames from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 512)} }

// NoiseError reports bytes that were not a valid frame and were skipped.
type NoiseError struct {
	Skipped []byte
	Err     error
}

func (e *NoiseError) Error() string {
	return fmt.Sprintf("id003: skipped %d bytes (% X): %v", len(e.Skipped), e.Skipped, e.Err)
}

func (e *NoiseError) Unwrap() error { return e.Err }

// Next returns the next valid frame. It returns a *NoiseError for skipped bytes (call Next
// again to continue), or the underlying read error (io.EOF, a timeout) as is.
func (fr *Reader) Next() (Frame, error) {
	var skipped []byte
	for {
		c, err := fr.r.ReadByte()
		if err != nil {
			if len(skipped) > 0 {
				return Frame{}, &NoiseError{Skipped: skipped, Err: ErrSync}
			}
			return Frame{}, err
		}
		if c != Sync {
			skipped = append(skipped, c)
			continue
		}
		if len(skipped) > 0 {
			fr.r.UnreadByte()
			return Frame{}, &NoiseError{Skipped: skipped, Err: ErrSync}
		}
		lng, err := fr.r.ReadByte()
		if err != nil {
			return Frame{}, err
		}
		if lng < MinFrame {
			// Not a frame after all: drop the SYNC, look again from the LNG byte on.
			fr.r.UnreadByte()
			return Frame{}, &NoiseError{Skipped: []byte{c}, Err: ErrLength}
		}
		buf := make([]byte, lng)
		buf[0], buf[1] = c, lng
		if _, err := io.ReadFull(fr.r, buf[2:]); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return Frame{}, &NoiseError{Skipped: buf, Err: ErrShort}
			}
			return Frame{}, err
		}
		f, err := Decode(buf)
		if err != nil {
			return Frame{}, &NoiseError{Skipped: buf, Err: err}
		}
		return f, nil
	}
}
