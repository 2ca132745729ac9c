package idpad_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/serialport/porttest"
	"github.com/tablegames/ats/internal/testwait"
)

func enc(t *testing.T, f idpad.Frame) []byte {
	t.Helper()
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCodec(t *testing.T) {
	good := []idpad.Frame{
		{Type: idpad.TouchOn, Seq: 1, Data: []byte{3}},
		{Type: idpad.CardIn, Seq: 9, Data: append([]byte{16}, "12345678901234567890"...)},
		{Type: idpad.Heartbeat, Data: []byte{0, 5, 0, 1}},
		{Type: idpad.Ack, Data: []byte{7}},
		{Type: idpad.VersionMs, Data: []byte("V1")},
	}
	for _, f := range good {
		back, err := idpad.Decode(enc(t, f))
		if err != nil || back.Type != f.Type || back.Seq != f.Seq || !bytes.Equal(back.Data, f.Data) {
			t.Errorf("%+v: %+v %v", f, back, err)
		}
	}
	bad := []idpad.Frame{
		{Type: idpad.TouchOn, Seq: 1, Data: []byte{0}},                  // pad 0
		{Type: idpad.TouchOn, Seq: 1, Data: []byte{17}},                 // pad 17
		{Type: idpad.TouchOn, Data: []byte{1}},                          // event without SEQ
		{Type: idpad.CardIn, Seq: 1, Data: []byte{1}},                   // no digits
		{Type: idpad.CardIn, Seq: 1, Data: append([]byte{1}, "12x"...)}, // not digits
		{Type: idpad.Heartbeat, Data: []byte{1}},                        // short state
		{Type: 0x55},                                                    // unknown type
	}
	for _, f := range bad {
		if _, err := idpad.Decode(enc(t, f)); !errors.Is(err, idpad.ErrFrame) {
			t.Errorf("%+v decoded: %v", f, err)
		}
	}
	b := enc(t, good[0])
	b[len(b)-1] ^= 1
	if _, err := idpad.Decode(b); !errors.Is(err, idpad.ErrCRC) {
		t.Errorf("bad CRC: %v", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{0xA5, 0x07, 0x01, 0x01, 0x03, 0x00, 0x00})
	f.Add([]byte{0x00, 0xA5, 0xA5, 0x06})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := idpad.NewReader(bytes.NewReader(b))
		for range len(b) + 1 {
			fr, err := r.Next()
			if err == io.EOF {
				return
			}
			var ne *idpad.NoiseError
			if errors.As(err, &ne) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			w, err := fr.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := idpad.Decode(w); err != nil {
				t.Fatalf("accepted frame does not re-decode: %v", err)
			}
		}
		t.Fatalf("reader did not finish %d bytes", len(b))
	})
}

// A repeated event (its ACK was lost) is acknowledged again and acted on once.
func TestTranscriptRepeatAcknowledgedOnce(t *testing.T) {
	p := porttest.New(10 * time.Millisecond)
	on := idpad.Frame{Type: idpad.TouchOn, Seq: 1, Data: []byte{2}}
	p.Expect("status request", enc(t, idpad.Frame{Type: idpad.StatusReq})).
		Reply("status", enc(t, idpad.Frame{Type: idpad.StatusMsg, Data: []byte{0, 0, 0, 0}})).
		Reply("touch on", enc(t, on)).
		Expect("ack", enc(t, idpad.Frame{Type: idpad.Ack, Data: []byte{1}})).
		Reply("touch on again", enc(t, on)).
		Expect("ack again", enc(t, idpad.Frame{Type: idpad.Ack, Data: []byte{1}})).
		Reply("card", enc(t, idpad.Frame{Type: idpad.CardIn, Seq: 2, Data: append([]byte{2}, "4242"...)})).
		Expect("ack", enc(t, idpad.Frame{Type: idpad.Ack, Data: []byte{2}}))
	pad := idpad.New(p, idpad.Config{Silence: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go pad.Run(ctx)
	if err := p.WaitDone(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	var got []idpad.Event
	for len(got) < 3 {
		select {
		case e := <-pad.Events():
			got = append(got, e)
		case <-time.After(time.Second):
			t.Fatalf("events %v", got)
		}
	}
	if got[0].Kind != idpad.Restored || got[1] != (idpad.Event{Kind: idpad.Touched, Pad: 2}) || got[2].Kind != idpad.CardInserted || got[2].Card != "4242" {
		t.Fatalf("events %v", got)
	}
	select {
	case e := <-pad.Events():
		t.Fatalf("extra event %v", e)
	case <-time.After(50 * time.Millisecond):
	}
	if !pad.Touched(2) || pad.Touched(1) {
		t.Fatal("pad state wrong")
	}
}

func TestPadsOverPTY(t *testing.T) {
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	emu := emulator.NewIDPad(emulator.IDPadConfig{Heartbeat: 50 * time.Millisecond, Resend: 40 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { emu.Serve(ctx, pty.Device); close(served) }()
	port, err := serialport.Open(idpad.Line(pty.Path))
	if err != nil {
		t.Fatal(err)
	}
	pad := idpad.New(port, idpad.Config{Silence: 300 * time.Millisecond})
	ran := make(chan struct{})
	go func() { pad.Run(ctx); close(ran) }()
	defer func() { cancel(); <-ran; port.Close(); <-served; pty.Close() }()

	want := func(k idpad.Kind, n int) idpad.Event {
		t.Helper()
		deadline := time.After(3 * time.Second)
		for {
			select {
			case e := <-pad.Events():
				if e.Kind == k && (n == 0 || e.Pad == n) {
					return e
				}
			case <-deadline:
				t.Fatalf("no %v of pad %d", k, n)
			}
		}
	}
	want(idpad.Restored, 0)
	v, err := pad.Version(context.Background())
	if err != nil || v != "ATS-EMU IDPAD 1.00" {
		t.Fatalf("version %q %v", v, err)
	}
	emu.Command("touch on 3")
	want(idpad.Touched, 3)
	if !pad.Touched(3) {
		t.Fatal("pad 3 not touched")
	}
	emu.Command("card 778899 3")
	if e := want(idpad.CardInserted, 3); e.Card != "778899" {
		t.Fatalf("card %q", e.Card)
	}
	emu.Command("touch off 3")
	want(idpad.Released, 3)
	emu.Command("touch on 3")
	want(idpad.Touched, 3)
	// Unplugged: the pad counts as untouched; replugged, the heartbeat restores it.
	emu.Command("unplug")
	want(idpad.Lost, 0)
	if pad.Touched(3) {
		t.Fatal("a lost pad still counts as touched")
	}
	emu.Command("replug")
	want(idpad.Restored, 0)
	if !testwait.For(2*time.Second, func() bool { return pad.Touched(3) }) {
		t.Fatal("pad 3 not restored from the heartbeat")
	}
	// Power cycle: everything released, and new events (sequence numbers from 1 again) arrive.
	emu.Command("power-cycle")
	want(idpad.CardRemoved, 3) // the heartbeat reports cards before touches
	want(idpad.Released, 3)
	emu.Command("touch on 1")
	want(idpad.Touched, 1)
	if !testwait.For(2*time.Second, func() bool { return emu.Pending() == 0 }) {
		t.Fatalf("%d events unacknowledged", emu.Pending())
	}
}
