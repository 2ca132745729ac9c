package id003

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// Frames captured from independent implementations (issue 5).
var fixtures = []struct {
	name string
	f    Frame
	wire []byte
}{
	{"status request", Frame{Cmd: 0x11}, []byte{0xFC, 0x05, 0x11, 0x27, 0x56}},
	{"reset", Frame{Cmd: 0x40}, []byte{0xFC, 0x05, 0x40, 0x2B, 0x15}},
	{"ack", Frame{Cmd: 0x50}, []byte{0xFC, 0x05, 0x50, 0xAA, 0x05}},
	{"stack-1", Frame{Cmd: 0x41}, []byte{0xFC, 0x05, 0x41, 0xA2, 0x04}},
	{"inhibit on", Frame{Cmd: 0xC3, Data: []byte{0x01}}, []byte{0xFC, 0x06, 0xC3, 0x01, 0x8D, 0xC7}},
}

func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		got, err := fx.f.Encode()
		if err != nil || !bytes.Equal(got, fx.wire) {
			t.Errorf("%s: encoded % X, want % X (%v)", fx.name, got, fx.wire, err)
		}
		f, err := Decode(fx.wire)
		if err != nil || f.Cmd != fx.f.Cmd || !bytes.Equal(f.Data, fx.f.Data) {
			t.Errorf("%s: decoded %v %v", fx.name, f, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		b    []byte
		want error
	}{
		{[]byte{0xFC, 0x05, 0x11}, ErrShort},
		{[]byte{0xFD, 0x05, 0x11, 0x27, 0x56}, ErrSync},
		{[]byte{0xFC, 0x06, 0x11, 0x27, 0x56}, ErrLength},
		{[]byte{0xFC, 0x05, 0x11, 0x27, 0x57}, ErrCRC},
	}
	for _, c := range cases {
		if _, err := Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("% X: %v, want %v", c.b, err, c.want)
		}
	}
	if _, err := (Frame{Cmd: 1, Data: make([]byte, 251)}).Encode(); err == nil {
		t.Error("an oversized frame was encoded")
	}
}

// The reader finds frames among noise, reports what it skipped, and loses no valid frame.
func TestReaderResyncs(t *testing.T) {
	var stream []byte
	stream = append(stream, 0x00, 0x13)                   // noise
	stream = append(stream, fixtures[0].wire...)          // status request
	stream = append(stream, 0xFC, 0x05, 0x11, 0x27, 0x57) // bad CRC
	stream = append(stream, 0xFC, 0x02)                   // SYNC with an impossible LNG, then a stray 02
	stream = append(stream, fixtures[4].wire...)          // inhibit
	r := NewReader(bytes.NewReader(stream))
	var frames []Frame
	noise := 0
	for {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		var ne *NoiseError
		if errors.As(err, &ne) {
			noise++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
	if len(frames) != 2 || frames[0].Cmd != 0x11 || frames[1].Cmd != 0xC3 || noise != 4 {
		t.Fatalf("frames %v, noise %d", frames, noise)
	}
}

// FuzzReader: any byte stream yields only frames that re-encode to valid bytes, never a panic.
func FuzzReader(f *testing.F) {
	for _, fx := range fixtures {
		f.Add(fx.wire)
	}
	f.Add([]byte{0xFC, 0xFC, 0x05, 0x11, 0x27, 0x56, 0xFC})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(bytes.NewReader(b))
		for range len(b) + 1 {
			fr, err := r.Next()
			if err == io.EOF {
				return
			}
			var ne *NoiseError
			if errors.As(err, &ne) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			wire, err := fr.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if back, err := Decode(wire); err != nil || back.Cmd != fr.Cmd || !bytes.Equal(back.Data, fr.Data) {
				t.Fatalf("frame %v does not round-trip", fr)
			}
		}
		t.Fatalf("the reader did not finish %d bytes", len(b))
	})
}

func BenchmarkReader(b *testing.B) {
	var stream []byte
	for range 1000 {
		for _, fx := range fixtures {
			stream = append(stream, fx.wire...)
		}
	}
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := NewReader(bytes.NewReader(stream))
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	}
}

func TestCurrencyTable(t *testing.T) {
	table := []Denomination{{0x61, 0x01, 1, 0}, {0x63, 0x01, 5, 0}, {0x64, 0x01, 1, 1}, {0x66, 0x01, 1, 2}}
	got, err := ParseCurrencyTable(append(CurrencyTable(table), 0x65, 0x01, 0, 0)) // an unassigned code
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[2].Cents() != 1000 || got[3].Cents() != 10000 || got[0].Cents() != 100 {
		t.Fatalf("parsed %+v", got)
	}
	bad := [][]byte{
		{0x61, 1, 1},                   // not a multiple of 4
		{0x60, 1, 1, 0},                // code below 61
		{0x6F, 1, 1, 0},                // the ticket code
		{0x61, 1, 1, 13},               // exponent would overflow
		{0x61, 1, 1, 0, 0x61, 1, 5, 0}, // duplicate code
	}
	for _, b := range bad {
		if _, err := ParseCurrencyTable(b); err == nil {
			t.Errorf("% X parsed", b)
		}
	}
}

func TestEscrow(t *testing.T) {
	for _, e := range []Escrow{{Code: 0x63}, {Code: EscrowTicket, Barcode: "001234567890123456"}} {
		got, err := ParseEscrow(e.Data())
		if err != nil || got != e {
			t.Errorf("%+v round-tripped to %+v %v", e, got, err)
		}
	}
	for _, b := range [][]byte{nil, {0x61, 0x00}, {EscrowTicket}, {EscrowTicket, '1', 'x'}} {
		if _, err := ParseEscrow(b); err == nil {
			t.Errorf("% X parsed", b)
		}
	}
}

// The payload parsers never panic, and what they accept re-encodes to the same bytes.
func FuzzPayload(f *testing.F) {
	f.Add([]byte{0x61, 0x01, 0x01, 0x00})
	f.Add([]byte{EscrowTicket, '0', '1'})
	f.Fuzz(func(t *testing.T, b []byte) {
		if ds, err := ParseCurrencyTable(b); err == nil {
			for _, d := range ds {
				if d.Cents() <= 0 {
					t.Fatalf("denomination %+v has value %d", d, d.Cents())
				}
			}
		}
		if e, err := ParseEscrow(b); err == nil && !bytes.Equal(e.Data(), b) {
			t.Fatalf("escrow % X re-encodes to % X", b, e.Data())
		}
	})
}

// Reject codes as public ID-003 host libraries name them, the two TITO-era ones included.
func TestRejectReasons(t *testing.T) {
	for code, want := range map[byte]string{0x71: "insertion error", 0x79: "inhibited denomination or direction",
		0x98: "more than one note inserted", 0x9B: "ticket inserted upside down", 0x99: "reject code 99"} {
		if got := RejectReason(code); got != want {
			t.Errorf("%02X: %q, want %q", code, got, want)
		}
	}
}
