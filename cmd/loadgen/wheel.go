package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/wheelfollow"
)

// -wheel: each measured round is ended by the emulated wheel's ball-drop, half-way through its
// period, over a pseudo-terminal read by the real driver (devices/wheel) and followed by the
// table as tableserver -wheel-port does (server/wheelfollow); its number, read alike by both
// sensors, is proposed and confirmed as the dealer would. What it measures: the time from the
// wheel's sentence leaving the emulator to each terminal hearing the period has ended
// (001 §5.1.3: the countdown goes to zero on every terminal).

// wheelRig is the emulated wheel on its pty, the driver on the other end, and the follower.
type wheelRig struct {
	emu    *emulator.Wheel
	pty    *serialport.PTY
	port   serialport.Port
	served chan struct{}
	// dropAt is when the latest ball-drop was sent (unix nanoseconds), 0 before any: a slip
	// refused after it is the ball-drop's doing, not an error.
	dropAt atomic.Int64
}

func startWheel(ctx context.Context, tb *server.Table, kind roulette.Wheel) (*wheelRig, error) {
	pty, err := serialport.NewPTY()
	if err != nil {
		return nil, fmt.Errorf("-wheel: %w", err)
	}
	w := &wheelRig{emu: emulator.NewWheel(emulator.WheelConfig{Wheel: kind}), pty: pty, served: make(chan struct{})}
	go func() { w.emu.Serve(ctx, pty.Device); close(w.served) }()
	if w.port, err = serialport.Open(wheel.Line(pty.Path)); err != nil {
		pty.Close()
		return nil, fmt.Errorf("-wheel: %w", err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	drv, err := wheel.New(w.port, wheel.Config{Wheel: kind, Log: quiet})
	if err != nil {
		w.Close()
		return nil, err
	}
	go drv.Run(ctx)
	go wheelfollow.New(drv, tb, wheelfollow.Config{Log: quiet}).Run(ctx)
	if err := w.emu.Spin(24, wheel.Clockwise); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// Close closes the line; the emulator stops with the run's context.
func (w *wheelRig) Close() {
	w.port.Close()
	w.pty.Close()
}

// launch sends the ball round, against the wheel.
func (w *wheelRig) launch() error { return w.emu.Launch(0) }

// drop has the wheel report the ball about to drop; it returns when the sentence was sent.
func (w *wheelRig) drop() (time.Time, error) {
	at := time.Now()
	w.dropAt.Store(at.UnixNano())
	return at, w.emu.Drop(12)
}

// refusedByDrop reports whether a slip refused at now may be the ball-drop's refusal.
func (w *wheelRig) refusedByDrop() bool {
	if w == nil {
		return false
	}
	at := w.dropAt.Load()
	return at != 0 && time.Now().UnixNano() >= at
}

// settle has both sensors read n and confirms the table's proposal as the dealer would; it
// returns when the confirmation was sent (the settlement's start).
func (w *wheelRig) settle(tb *server.Table, roundID string, n roulette.Number) (time.Time, error) {
	if err := w.emu.Read(n.String(), n.String()); err != nil {
		return time.Time{}, err
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		st, err := tb.Status()
		if err != nil {
			return time.Time{}, err
		}
		if p := st.WheelProposal; p != nil && p.RoundId == roundID {
			break
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("-wheel: round %s: no proposal of %v (wheel fault %q)", roundID, n, st.WheelFault)
		}
	}
	start := time.Now()
	_, err := tb.ConfirmWheelOutcome("dealer:loadgen", roundID, n.String())
	return start, err
}
