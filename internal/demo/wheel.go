package demo

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/wheelfollow"
)

// The demo deals through an emulated wheel, as a table with a sensor-equipped wheel deals
// (tableserver -wheel-port -wheel-auto-outcome): the table's auto-dealer opens each round
// (server.Config.WheelDeals), the croupier here has the wheel launch the ball (the driver's
// launch command, as on an automated wheel), has it drop just before the
// deadline and both sensors read where it landed, over a pseudo-terminal whose other end the
// real driver (devices/wheel) reads; the table follows it (server/wheelfollow) and enters the
// number as the wheel's.

// croupier spins the emulated wheel for every round the table opens.
type croupier struct {
	tbl  *server.Table
	kind roulette.Wheel
	emu  *emulator.Wheel // the ball's own doings: its drop, where it lands
	dev  wheel.Device    // the table's commands to the automated wheel: launch the ball
	spin time.Duration   // from the drop to the read
	log  *slog.Logger

	// The dealer's orders from the demo's stdin (dealer.go), taken at the croupier's next tick.
	mu      sync.Mutex
	next    *roulette.Number // the number the sensors read next; nil: where the ball falls (random)
	dropNow string           // the round whose ball drops now, not half a second before its deadline
}

// setNext has the wheel read n at the next read.
func (c *croupier) setNext(n roulette.Number) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next = &n
}

// spinNow has the ball of round id dropped at the next tick (an order for a round that has
// closed meanwhile is void).
func (c *croupier) spinNow(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropNow = id
}

// dropOrdered says whether the dealer ordered round id's ball dropped now.
func (c *croupier) dropOrdered(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropNow == id
}

// readNumber is the number the sensors read: the dealer's, once, else a random one.
func (c *croupier) readNumber() roulette.Number {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next != nil {
		n := *c.next
		c.next = nil
		return n
	}
	order := c.kind.Order()
	return order[rand.IntN(len(order))]
}

// startWheel serves an emulated wheel of kind on a new pty, runs the driver and the table's
// follower on it, and the croupier; all stop with ctx, the pty with Close.
func (d *Demo) startWheel(ctx context.Context, tbl *server.Table, kind roulette.Wheel, spin time.Duration, log *slog.Logger) error {
	p, err := serialport.NewPTY()
	if err != nil {
		return err
	}
	d.ptys = append(d.ptys, p)
	d.Wheel = p.Path
	emu := emulator.NewWheel(emulator.WheelConfig{Wheel: kind})
	d.run(func() {
		if err := emu.Serve(ctx, p.Device); err != nil && ctx.Err() == nil {
			log.Warn("demo wheel stopped", "line", p.Path, "err", err)
		}
	})
	port, err := serialport.Open(wheel.Line(p.Path))
	if err != nil {
		return err
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	drv, err := wheel.New(port, wheel.Config{Wheel: kind, Log: quiet})
	if err != nil {
		port.Close()
		return err
	}
	d.run(func() {
		defer port.Close()
		if err := drv.Run(ctx); err != nil {
			log.Warn("demo wheel: the line failed", "err", err)
		}
	})
	f := wheelfollow.New(drv, tbl, wheelfollow.Config{AutoOutcome: true, Log: log})
	d.run(func() { f.Run(ctx) })
	if err := emu.Spin(24, wheel.Clockwise); err != nil {
		return err
	}
	c := &croupier{tbl: tbl, kind: kind, emu: emu, dev: drv, spin: spin, log: log}
	d.croupier = c
	d.run(func() { c.run(ctx) })
	return nil
}

// run deals each round: the ball launched by the wheel's blower at its start, drop half a second before its deadline (the
// ball, not the clock, ends the period: 001 §5.1.3), the sensors' read half the spin later.
func (c *croupier) run(ctx context.Context) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var round string
	var launched, dropped, read, entered bool
	var droppedAt, readAt time.Time
	var number string
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		id, phase := c.tbl.CurrentRound()
		if id != round {
			round, launched, dropped, read, entered = id, false, false, false, false
		}
		if id == "" || entered {
			continue
		}
		if read {
			// The wheel's read not taken (the table heard a fault of this spin: on a loaded
			// machine the line fell silent for 1.5 s and the demo stalled in NO MORE BETS for
			// good): the dealer enters the number the ball showed, as a dealer does when the
			// wheel reports a fault (manual entry, audited as the demo's dealer).
			if phase == table.PhaseNoMoreBets && time.Since(readAt) >= c.spin {
				entered = true
				if _, err := c.tbl.EnterOutcome(DealerActor, id, number); err != nil {
					c.log.Warn("demo dealer: entering the wheel's number", "round", id, "number", number, "err", err)
				}
			}
			continue
		}
		try := func(what string, err error) bool {
			if err != nil {
				c.log.Warn("demo wheel", "round", id, "what", what, "err", err)
				return false
			}
			return true
		}
		switch {
		case phase == table.PhaseWagering && !launched:
			// As an automated wheel's table does: the blower, commanded over the line.
			launched = try("launch", c.dev.Launch(ctx, 300*time.Millisecond))
		case phase == table.PhaseWagering && launched && !dropped:
			if dl := c.tbl.RoundDeadline(); c.dropOrdered(id) || !dl.IsZero() && time.Until(dl) < 500*time.Millisecond {
				dropped, droppedAt = try("drop", c.emu.Drop(8+rand.IntN(20))), time.Now()
			}
		case phase == table.PhaseNoMoreBets && launched && !dropped:
			dropped, droppedAt = try("drop", c.emu.Drop(8+rand.IntN(20))), time.Now()
		case phase == table.PhaseNoMoreBets && dropped && time.Since(droppedAt) >= c.spin/2:
			number = c.readNumber().String()
			read, readAt = try("read", c.emu.Read(number, number)), time.Now()
		}
	}
}
