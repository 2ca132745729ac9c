package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/wheelfollow"
)

// wheelLine is the wheel's sensor line, opened before the table serves (a wrong path is an
// error at start, not a table that silently does not follow its wheel).
type wheelLine struct {
	port serialport.Port
	drv  *wheel.Driver
	auto bool
	log  *slog.Logger
}

// openWheel opens the wheel's line and its driver for the table's kind of wheel: the driver
// checks the wheel's heartbeat against it and reports a wheel of another kind as a fault, never
// its reads as outcomes.
func openWheel(path string, kind roulette.Wheel, auto bool, log *slog.Logger) (*wheelLine, error) {
	port, err := serialport.Open(wheel.Line(path))
	if err != nil {
		return nil, fmt.Errorf("-wheel-port %s: %w", path, err)
	}
	drv, err := wheel.New(port, wheel.Config{Wheel: kind, Log: log})
	if err != nil {
		port.Close()
		return nil, err
	}
	return &wheelLine{port: port, drv: drv, auto: auto, log: log}, nil
}

// attach runs the driver and the follower beside the table until ctx ends. A line that fails
// is an alarm on the dealer's console: the table goes on with the dealer's manual entry.
func (w *wheelLine) attach(ctx context.Context, t *server.Table) {
	go func() {
		if err := w.drv.Run(ctx); err != nil {
			w.log.Error("wheel: the line failed", "err", err)
			if _, aerr := t.WheelFault(wheelfollow.Actor, "", "the wheel's line failed: "+err.Error()); aerr != nil {
				w.log.Error("wheel: recording the alarm", "err", aerr)
			}
		}
	}()
	f := wheelfollow.New(w.drv, t, wheelfollow.Config{AutoOutcome: w.auto, Log: w.log})
	go f.Run(ctx)
	w.log.Info("following the wheel", "auto_outcome", w.auto)
}

func (w *wheelLine) close() { w.port.Close() }
