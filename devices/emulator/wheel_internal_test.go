package emulator

import (
	"context"
	"net"
	"testing"
	"time"
)

// With nobody reading the line (devemu started, no host yet), the wheel's heartbeats fill it;
// the operator's commands still run at once, and the bytes that cannot go are dropped, as on
// a serial line, instead of blocking the wheel for ever.
func TestWheelCommandsRunWithNobodyReading(t *testing.T) {
	dev, host := net.Pipe() // unbuffered: every write waits for a reader that never comes
	defer host.Close()
	w := NewWheel(WheelConfig{Heartbeat: 5 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { w.Serve(ctx, dev); close(served) }()
	defer func() { cancel(); <-served }()
	if _, err := host.Read(make([]byte, 1)); err != nil { // the wheel is serving; now nobody reads
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for _, c := range []string{"spin 20", "launch"} {
			if _, err := w.Command(c); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the operator's commands hang while nobody reads the line")
	}
}
