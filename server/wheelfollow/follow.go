// Package wheelfollow makes the table follow its wheel: it reads a wheel.Device and tells the
// table what the wheel's sensors saw, as actor "wheel" so the audit log shows it as the
// wheel's.
//
//   - Launched: the spin has started (Table.SpinStarted); the wheel's spin counter (game) is
//     tied to the round waiting for a spin.
//   - Dropping, same game: the wagering period ends at once on every terminal (001 §5.1.3,
//     Table.BallDropping).
//   - Result, both sensors agreeing, same game: the number is proposed to the dealer, who
//     confirms it with one action (Table.ProposeOutcome) — or, with AutoOutcome, entered at
//     once as the wheel's (Table.OutcomeFromWheel).
//   - A disagreement, any fault of the spin (004 §8.1), a line lost, or a drop or read of a game
//     the table did not see launched: no outcome is proposed, an alarm names why, and the dealer
//     decides — a manual entry, recorded as manual, or a no spin (SPEC §9.2: never a guess).
//
// The dealer's manual entry stays open at all times: the follower only adds to what the dealer
// can do. A refusal of the table (a round already settled by hand, say) is logged, not fatal.
package wheelfollow

import (
	"context"
	"fmt"
	"log/slog"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/devices/wheel"
)

// Actor is who the follower acts as in the table's audit log.
const Actor = "wheel"

// Table is what the follower needs of the table; *server.Table is one.
type Table interface {
	CurrentRound() (id string, phase table.Phase)
	SpinStarted(actor, roundID string) (*pb.TableStatus, error)
	BallDropping(actor, roundID string) (*pb.TableStatus, error)
	ProposeOutcome(actor, roundID string, n roulette.Number, game int) (*pb.TableStatus, error)
	OutcomeFromWheel(actor, roundID string, n roulette.Number) (*pb.TableStatus, error)
	WheelFault(actor, roundID, why string) (*pb.TableStatus, error)
}

// Config tunes a Follower.
type Config struct {
	// AutoOutcome enters the sensors' agreed number without the dealer's confirmation
	// (tableserver -wheel-auto-outcome). Off, the number waits for the dealer.
	AutoOutcome bool
	Log         *slog.Logger
}

// Follower ties the wheel's spins to the table's rounds.
type Follower struct {
	dev wheel.Device
	t   Table
	cfg Config

	// The spin in play: the wheel's game and the round it was launched in; faulted once the
	// wheel reported a fault of it (a later read of it is no outcome).
	game    int
	round   string
	faulted bool
}

// New makes a follower of dev for t; Run runs it.
func New(dev wheel.Device, t Table, cfg Config) *Follower {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Follower{dev: dev, t: t, cfg: cfg}
}

// Run follows the wheel until ctx ends or the wheel's events end.
func (f *Follower) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-f.dev.Events():
			if !ok {
				return nil
			}
			f.Handle(e)
		}
	}
}

// Handle acts on one event of the wheel.
func (f *Follower) Handle(e wheel.Event) {
	switch e.Kind {
	case wheel.Launched:
		f.launched(e)
	case wheel.Dropping:
		if round, ok := f.ours(e, "the ball about to drop"); ok {
			f.do("ball dropping", func() error { _, err := f.t.BallDropping(Actor, round); return err })
		}
	case wheel.Result:
		n, agree := e.Number()
		if !agree {
			return // the driver follows a disagreement with FaultDisagree: the alarm is raised there
		}
		round, ok := f.ours(e, fmt.Sprintf("a read of %v", n))
		if !ok {
			return
		}
		if f.faulted {
			f.cfg.Log.Warn("wheelfollow: a read after a fault of the same spin is not taken", "game", e.Game, "number", n)
			return
		}
		f.game = 0 // one outcome per spin
		if f.cfg.AutoOutcome {
			f.do("outcome from the wheel", func() error { _, err := f.t.OutcomeFromWheel(Actor, round, n); return err })
		} else {
			f.do("outcome proposed", func() error { _, err := f.t.ProposeOutcome(Actor, round, n, e.Game); return err })
		}
	case wheel.Fault:
		f.fault(e)
	case wheel.Restored:
		f.cfg.Log.Info("wheelfollow: the wheel is heard")
	case wheel.Garbled:
		f.cfg.Log.Warn("wheelfollow: the wheel's line dropped a sentence", "err", e.Err)
	}
}

// launched ties the wheel's game to the round waiting for a spin: one in its wagering period,
// or one whose period has ended with no outcome yet.
func (f *Follower) launched(e wheel.Event) {
	round, phase := f.t.CurrentRound()
	if round == "" || (phase != table.PhaseWagering && phase != table.PhaseNoMoreBets) {
		f.game, f.round = 0, ""
		f.alarm("", fmt.Sprintf("game %d: the ball was launched with no round waiting for a spin", e.Game))
		return
	}
	f.game, f.round, f.faulted = e.Game, round, false
	if phase == table.PhaseWagering {
		f.do("spin started", func() error { _, err := f.t.SpinStarted(Actor, round); return err })
	}
}

// ours is the round e's spin was launched in, if e is of the spin in play and that round is
// still the table's; otherwise an alarm names what was seen (what).
func (f *Follower) ours(e wheel.Event, what string) (string, bool) {
	round, _ := f.t.CurrentRound()
	switch {
	case f.game == 0:
		f.alarm(round, fmt.Sprintf("game %d: %s, but the table saw no launch of it", e.Game, what))
	case e.Game != f.game:
		f.alarm(round, fmt.Sprintf("game %d: %s, but the spin in play is game %d", e.Game, what, f.game))
	case round != f.round:
		f.alarm(round, fmt.Sprintf("game %d: %s, but it was launched in round %s", e.Game, what, f.round))
	default:
		return round, true
	}
	return "", false
}

// fault raises an alarm naming the wheel's fault, against the round in play if any: whatever
// spin it names, that round takes no outcome from the wheel (a line lost, a dirty sensor, a
// stale spin's fault all make its reads doubtful), and the dealer decides.
func (f *Follower) fault(e wheel.Event) {
	round, _ := f.t.CurrentRound()
	if round != "" && round == f.round {
		f.faulted = true
	}
	f.alarm(round, describe(e))
}

func (f *Follower) alarm(round, why string) {
	f.cfg.Log.Warn("wheelfollow: no outcome from the wheel", "round", round, "why", why)
	f.do("alarm", func() error {
		_, err := f.t.WheelFault(Actor, round, why)
		if err != nil && round != "" {
			// The round has moved on (settled by hand, say): the alarm still stands, outside it.
			_, err = f.t.WheelFault(Actor, "", why)
		}
		return err
	})
}

func (f *Follower) do(what string, fn func() error) {
	if err := fn(); err != nil {
		f.cfg.Log.Warn("wheelfollow: the table refused", "what", what, "err", err)
	}
}

// describe says what the wheel reported, for the dealer: the fault's name and the rule.
func describe(e wheel.Event) string {
	why := map[wheel.FaultCode]string{
		wheel.FaultNoBall:      "no ball seen after the launch",
		wheel.FaultNotRotating: "the wheel was not rotating at the launch (004 §8.1(a))",
		wheel.FaultSameWay:     "the ball was launched in the wheel's direction (004 §8.1(b))",
		wheel.FaultShortSpin:   fmt.Sprintf("the ball dropped after %d revolutions, fewer than four (004 §8.1(c))", e.Revs),
		wheel.FaultOutOfWheel:  "the ball left the wheel (004 §8.1(e))",
		wheel.FaultSensorDirty: fmt.Sprintf("sensor %d is dirty", e.Sensor),
		wheel.FaultSensorLost:  fmt.Sprintf("sensor %d has no signal", e.Sensor),
		wheel.FaultDisagree:    fmt.Sprintf("the sensors disagree: sensor 1 read %v, sensor 2 read %v", e.Reads[0], e.Reads[1]),
		wheel.FaultLineLost:    "the wheel's line is silent",
		wheel.FaultWrongWheel:  "the wheel is not the table's kind of wheel",
	}[e.Fault]
	if why == "" {
		why = e.Fault.String()
	}
	s := "fault: " + why
	if code := e.Fault.Wire(); code != "" {
		s = code + " " + s
	}
	if e.Game != 0 {
		s = fmt.Sprintf("game %d: %s", e.Game, s)
	}
	if e.Err != nil && (e.Fault == wheel.FaultWrongWheel || e.Fault == wheel.FaultLineLost) {
		s += " (" + e.Err.Error() + ")"
	}
	return s
}
