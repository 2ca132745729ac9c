package porttest

import (
	"testing"
	"time"

	"github.com/tablegames/ats/devices/serialport"
)

func TestTranscript(t *testing.T) {
	p := New(20 * time.Millisecond)
	p.Expect("ping", []byte{1, 2}).Reply("pong", []byte{3, 4, 5})
	buf := make([]byte, 8)
	if _, err := p.Read(buf); !serialport.IsTimeout(err) {
		t.Fatalf("read before the host wrote: %v, want timeout", err)
	}
	if _, err := p.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitDone(0); err == nil {
		t.Fatal("half-written transcript reported done")
	}
	if _, err := p.Write([]byte{2}); err != nil {
		t.Fatal(err)
	}
	n, err := p.Read(buf[:2])
	if err != nil || n != 2 || buf[0] != 3 || buf[1] != 4 {
		t.Fatalf("read %d % X %v", n, buf[:n], err)
	}
	if err := p.WaitDone(0); err == nil {
		t.Fatal("unread reply reported done")
	}
	n, _ = p.Read(buf)
	if n != 1 || buf[0] != 5 {
		t.Fatalf("read % X", buf[:n])
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestMismatchIsReported(t *testing.T) {
	p := New(time.Millisecond)
	p.Expect("ping", []byte{1, 2})
	if _, err := p.Write([]byte{1, 9}); err == nil {
		t.Fatal("a wrong byte was accepted")
	}
	if p.Err() == nil || p.WaitDone(0) == nil {
		t.Fatal("mismatch not reported")
	}
	q := New(time.Millisecond)
	if _, err := q.Write([]byte{7}); err == nil {
		t.Fatal("a write beyond the transcript was accepted")
	}
}
