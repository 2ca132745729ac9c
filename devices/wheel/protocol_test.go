package wheel_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
)

// The package doc's example frame, byte by byte.
func TestFrameBytes(t *testing.T) {
	want := []byte{0x02, 'H', 'B', '|', '3', '7', '|', 'A', 0x03, '1', '8', 'D', '3', 0x0D, 0x0A}
	got, err := wheel.S(wheel.Heartbeat, "37", "A").Encode()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("HB|37|A encodes to % X (%v), want % X", got, err, want)
	}
}

// Every sentence of the protocol decodes to the event the package doc says.
func TestEverySentenceParses(t *testing.T) {
	r := func(n roulette.Number) wheel.Read { return wheel.Read{Number: n, OK: true} }
	for _, c := range []struct {
		s     wheel.Sentence
		wheel roulette.Wheel
		want  string
	}{
		{wheel.S("SP", "24", "CW"), roulette.SingleZero, "wheel: 24 rpm CW"},
		{wheel.S("SP", "0", "CCW"), roulette.SingleZero, "wheel: 0 rpm CCW"},
		{wheel.S("BL", "7", "CCW"), roulette.SingleZero, "wheel: game 7: ball launched CCW"},
		{wheel.S("BD", "7", "12"), roulette.SingleZero, "wheel: game 7: ball about to drop after 12 revolutions"},
		{wheel.S("WN", "7", "17", "17"), roulette.SingleZero, "wheel: game 7: sensor 1 read 17, sensor 2 read 17"},
		{wheel.S("WN", "99999", "0", "0"), roulette.SingleZero, "wheel: game 99999: sensor 1 read 0, sensor 2 read 0"},
		{wheel.S("WN", "8", "00", "00"), roulette.DoubleZero, "wheel: game 8: sensor 1 read 00, sensor 2 read 00"},
		{wheel.S("WN", "8", "0", "00"), roulette.DoubleZero, "wheel: game 8: sensor 1 read 0, sensor 2 read 00"},
		{wheel.S("WN", "8", "-", "5"), roulette.SingleZero, "wheel: game 8: sensor 1 read -, sensor 2 read 5"},
		{wheel.S("FT", "3", "NB", "-"), roulette.SingleZero, "wheel: game 3: fault: no ball seen"},
		{wheel.S("FT", "3", "NR", "-"), roulette.SingleZero, "wheel: game 3: fault: wheel not rotating at launch"},
		{wheel.S("FT", "3", "SW", "-"), roulette.SingleZero, "wheel: game 3: fault: ball launched in the wheel's direction"},
		{wheel.S("FT", "3", "RV", "3"), roulette.SingleZero, "wheel: game 3: fault: fewer than four revolutions (3)"},
		{wheel.S("FT", "3", "OW", "-"), roulette.SingleZero, "wheel: game 3: fault: ball out of the wheel"},
		{wheel.S("FT", "0", "DS", "2"), roulette.SingleZero, "wheel: game 0: fault: sensor dirty (sensor 2)"},
		{wheel.S("FT", "0", "LS", "1"), roulette.SingleZero, "wheel: game 0: fault: sensor lost (sensor 1)"},
	} {
		b, err := c.s.Encode()
		if err != nil {
			t.Fatalf("%s: %v", c.s, err)
		}
		s, err := wheel.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", c.s, err)
		}
		e, err := wheel.Parse(s, c.wheel)
		if err != nil || e.String() != c.want {
			t.Errorf("%s: %q %v, want %q", c.s, e, err, c.want)
		}
	}
	// 0 and 00 are distinct numbers, and only agreeing reads make an outcome.
	e, _ := wheel.Parse(wheel.S("WN", "8", "00", "00"), roulette.DoubleZero)
	if n, ok := e.Number(); !ok || n != roulette.DoubleZeroNumber {
		t.Errorf("00 read as %v %v", n, ok)
	}
	e, _ = wheel.Parse(wheel.S("WN", "8", "0", "0"), roulette.DoubleZero)
	if n, ok := e.Number(); !ok || n != 0 || e.Reads != [2]wheel.Read{r(0), r(0)} {
		t.Errorf("0 read as %v %v", n, ok)
	}
	for _, s := range []wheel.Sentence{wheel.S("WN", "8", "0", "00"), wheel.S("WN", "8", "-", "5"), wheel.S("WN", "8", "-", "-")} {
		e, _ := wheel.Parse(s, roulette.DoubleZero)
		if n, ok := e.Number(); ok {
			t.Errorf("%s gave outcome %v", s, n)
		}
	}
}

// A value the wheel cannot have is an error naming it, never an event.
func TestOutOfRangeRefused(t *testing.T) {
	for _, c := range []struct {
		s     wheel.Sentence
		wheel roulette.Wheel
	}{
		{wheel.S("WN", "8", "00", "00"), roulette.SingleZero}, // 00 from a single-zero wheel
		{wheel.S("WN", "8", "37", "37"), roulette.DoubleZero},
		{wheel.S("WN", "8", "07", "07"), roulette.SingleZero},
		{wheel.S("WN", "0", "7", "7"), roulette.SingleZero},      // game 0 in a spin
		{wheel.S("WN", "100000", "7", "7"), roulette.SingleZero}, // game too big
		{wheel.S("BL", "1", "UP"), roulette.SingleZero},
		{wheel.S("BL", "-1", "CW"), roulette.SingleZero},
		{wheel.S("SP", "100", "CW"), roulette.SingleZero},
		{wheel.S("SP", "2x", "CW"), roulette.SingleZero},
		{wheel.S("BD", "1", "1000"), roulette.SingleZero},
		{wheel.S("FT", "1", "RV", "4"), roulette.SingleZero}, // four revolutions are not short
		{wheel.S("FT", "1", "DS", "3"), roulette.SingleZero}, // there are two sensors
		{wheel.S("FT", "1", "NB", "2"), roulette.SingleZero},
		{wheel.S("FT", "1", "XX", "-"), roulette.SingleZero},
		{wheel.S("HB", "36", "A"), roulette.SingleZero},
		{wheel.S("HB", "37", "X"), roulette.SingleZero},
		{wheel.S("CD", "ZZ", "OK"), roulette.SingleZero},
		{wheel.S("CD", "LB", "MAYBE"), roulette.SingleZero},
	} {
		if e, err := wheel.Parse(c.s, c.wheel); !errors.Is(err, wheel.ErrRange) {
			t.Errorf("%s on %v: %v %v, want ErrRange", c.s, c.wheel, e, err)
		}
	}
	if _, err := wheel.Parse(wheel.S("LB", "500"), roulette.SingleZero); !errors.Is(err, wheel.ErrFrame) {
		t.Errorf("a host command parsed as a report: %v", err)
	}
}

// Bad frames are refused by Decode with the reason, and Encode refuses what Decode would.
func TestMalformedFramesRefused(t *testing.T) {
	good := wheel.MustEncode(wheel.S("WN", "12", "5", "5"))
	mut := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"checksum wrong", mut(func(b []byte) []byte { b[len(b)-3] ^= 1; return b }), wheel.ErrCRC},
		{"body changed", mut(func(b []byte) []byte { b[5] = '6'; return b }), wheel.ErrCRC},
		{"checksum lower case", mut(func(b []byte) []byte {
			copy(b[len(b)-6:], bytes.ToLower(b[len(b)-6:len(b)-2]))
			return b
		}), wheel.ErrFrame},
		{"no ETX", mut(func(b []byte) []byte { b[len(b)-7] = '|'; return b }), wheel.ErrFrame},
		{"no CR", mut(func(b []byte) []byte { b[len(b)-2] = ' '; return b }), wheel.ErrFrame},
		{"control byte in body", []byte("\x02WN|1|\x015|5\x030000\r\n"), wheel.ErrFrame},
		{"too short", []byte("\x02\x030000\r\n"), wheel.ErrFrame},
	} {
		if _, err := wheel.Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	for _, s := range []wheel.Sentence{
		wheel.S("ZZ"), wheel.S("WN", "1", "5"), wheel.S("WN", "1", "", "5"), wheel.S("WN", "1", "5|5", "5"),
		wheel.S("RC", "x"), wheel.S("FT", "1", "NB", string(bytes.Repeat([]byte("x"), 60))),
	} {
		if _, err := s.Encode(); !errors.Is(err, wheel.ErrFrame) {
			t.Errorf("%q encoded: %v", s, err)
		}
	}
}

// chunks is a line that delivers its bytes in the pieces given, with a read timeout between
// pieces, as a serial line does when a frame straddles two reads.
type chunks struct{ parts [][]byte }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	part := c.parts[0]
	if len(part) == 0 {
		c.parts = c.parts[1:]
		return 0, serialport.ErrTimeout
	}
	n := copy(p, part)
	c.parts[0] = part[n:]
	if n == len(part) {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// next reads until a sentence or EOF, collecting what was dropped.
func readAll(t *testing.T, r *wheel.Reader) (got []string, dropped []string) {
	t.Helper()
	for range 100 {
		s, err := r.Next()
		var ne *wheel.NoiseError
		switch {
		case err == nil:
			got = append(got, s.String())
		case errors.As(err, &ne):
			dropped = append(dropped, fmt.Sprintf("%q", ne.Skipped))
		case serialport.IsTimeout(err):
		case err == io.EOF:
			return got, dropped
		default:
			t.Fatal(err)
		}
	}
	t.Fatal("reader did not finish")
	return
}

// A frame split across reads, with read timeouts between the pieces, arrives whole.
func TestSplitFrameAcrossReads(t *testing.T) {
	f := wheel.MustEncode(wheel.S("BD", "41", "9"))
	line := &chunks{parts: [][]byte{f[:1], {}, f[1:6], {}, {}, f[6 : len(f)-1], {}, f[len(f)-1:]}}
	got, dropped := readAll(t, wheel.NewReader(line))
	if len(got) != 1 || got[0] != "BD|41|9" || len(dropped) != 0 {
		t.Fatalf("got %q, dropped %q", got, dropped)
	}
}

// Garbage between frames, a frame cut short by the next STX, an overlong run and a bad checksum
// are each dropped and reported; the good frames around them all arrive.
func TestGarbageBetweenFrames(t *testing.T) {
	a := wheel.MustEncode(wheel.S("BL", "1", "CCW"))
	b := wheel.MustEncode(wheel.S("BD", "1", "11"))
	c := wheel.MustEncode(wheel.S("WN", "1", "32", "32"))
	bad := wheel.MustEncode(wheel.S("WN", "1", "15", "15"))
	bad[len(bad)-4] ^= 0x01
	var stream []byte
	stream = append(stream, "\xff\x00junk"...)
	stream = append(stream, a...)
	stream = append(stream, "\r\n\x03"...)
	stream = append(stream, b[:7]...) // cut short
	stream = append(stream, b...)
	stream = append(stream, bad...)
	stream = append(stream, 0x02)
	stream = append(stream, bytes.Repeat([]byte("Z"), 80)...) // no end
	stream = append(stream, c...)
	got, dropped := readAll(t, wheel.NewReader(bytes.NewReader(stream)))
	if fmt.Sprint(got) != "[BL|1|CCW BD|1|11 WN|1|32|32]" {
		t.Errorf("got %q", got)
	}
	if len(dropped) < 5 {
		t.Errorf("dropped %d pieces, want at least 5: %q", len(dropped), dropped)
	}
}

// FuzzReader: any bytes on the line give sentences that re-encode and re-decode to themselves,
// drops, or EOF — never a panic, never a stall; Parse of any of them never panics.
func FuzzReader(f *testing.F) {
	f.Add(wheel.MustEncode(wheel.S("WN", "12", "00", "00")))
	f.Add(append([]byte("\x00\x02\x02WN|"), wheel.MustEncode(wheel.S("FT", "1", "RV", "3"))...))
	f.Add([]byte("\x02HB|37|A\x0318D3\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := wheel.NewReader(bytes.NewReader(b))
		for range len(b) + 1 {
			s, err := r.Next()
			if err == io.EOF {
				return
			}
			var ne *wheel.NoiseError
			if errors.As(err, &ne) {
				if len(ne.Skipped) == 0 {
					t.Fatal("a drop of no bytes")
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			w, err := s.Encode()
			if err != nil {
				t.Fatalf("accepted %q does not encode: %v", s, err)
			}
			back, err := wheel.Decode(w)
			if err != nil || back.String() != s.String() {
				t.Fatalf("accepted %q re-decodes to %q: %v", s, back, err)
			}
			for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
				if e, err := wheel.Parse(s, w); err == nil && e.Kind == wheel.Result {
					for _, rd := range e.Reads {
						if rd.OK && !w.Has(rd.Number) {
							t.Fatalf("%q on %v gave %v", s, w, rd)
						}
					}
				}
			}
		}
		t.Fatalf("reader did not finish %d bytes", len(b))
	})
}

// FuzzParse reaches what random bytes seldom do (a frame with a right CRC): any sentence of
// any fields parses to an event within the protocol's ranges or to an error, never a panic,
// and any sentence Encode takes, Decode gives back.
func FuzzParse(f *testing.F) {
	f.Add("WN", "12", "00", "00", uint8(3))
	f.Add("FT", "1", "RV", "3", uint8(3))
	f.Add("HB", "37", "A", "", uint8(2))
	f.Add("SP", "99", "CCW", "", uint8(2))
	f.Fuzz(func(t *testing.T, typ, a, b, c string, n uint8) {
		s := wheel.S(typ, []string{a, b, c}[:n%4]...)
		if w, err := s.Encode(); err == nil {
			back, err := wheel.Decode(w)
			if err != nil || back.String() != s.String() {
				t.Fatalf("%q encodes but decodes to %q: %v", s, back, err)
			}
		}
		for _, w := range []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero} {
			e, err := wheel.Parse(s, w)
			if err != nil {
				continue
			}
			if e.Game < 0 || e.Game > wheel.MaxGame || e.RPM < 0 || e.RPM > wheel.MaxRPM || e.Revs < 0 || e.Revs > wheel.MaxRevs {
				t.Fatalf("%q on %v: %+v out of range", s, w, e)
			}
			if e.Kind == wheel.Result {
				for _, r := range e.Reads {
					if r.OK && !w.Has(r.Number) {
						t.Fatalf("%q on %v read %v", s, w, r)
					}
				}
			}
			if e.Kind == wheel.Fault && e.Fault == wheel.FaultShortSpin && e.Revs >= wheel.MinRevs {
				t.Fatalf("%q: a short spin of %d revolutions", s, e.Revs)
			}
		}
	})
}
