package model

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The dealer's actions. Each is one unary call bounded by the call timeout, answered with the
// server's error as it is (Refusal puts it in words). The status a call answers with is shown
// at once (adopt): a dealer who taps Start then No more bets within the stream's coalescing
// time must not send the round before. The stream's next status, read after the change, follows.

func (c *Console) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.cfg.CallTimeout)
}

// key is a fresh idempotency key: an action retried by the dealer is a new action, a call
// retried by gRPC is not.
func key(prefix string) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// OpenTable opens the table (rounds started by the dealer).
func (c *Console) OpenTable(ctx context.Context) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.OpenTable(ctx, &pb.OpenTableRequest{}))
}

// CloseTable closes the table.
func (c *Console) CloseTable(ctx context.Context) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.CloseTable(ctx, &pb.CloseTableRequest{}))
}

// StartRound opens a wagering period.
func (c *Console) StartRound(ctx context.Context) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.StartRound(ctx, &pb.StartRoundRequest{}))
}

// adopt shows the status an action answered with, and passes its error on.
func (c *Console) adopt(st *pb.TableStatus, err error) error {
	if err != nil || st == nil {
		return err
	}
	c.mu.Lock()
	c.st = st
	c.mu.Unlock()
	c.changed()
	return nil
}

func (c *Console) round() string { return c.View().RoundID }

// Spin records the ball launched.
func (c *Console) Spin(ctx context.Context) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.SpinStarted(ctx, &pb.RoundRequest{RoundId: c.round()}))
}

// NoMoreBets ends the wagering period now (the ball about to drop, rule 5.1.3).
func (c *Console) NoMoreBets(ctx context.Context) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.BallDropping(ctx, &pb.RoundRequest{RoundId: c.round()}))
}

// ErrNotOnWheel is an outcome the table's wheel cannot have: refused at the console before
// anything is sent (the server refuses it too).
var ErrNotOnWheel = errors.New("that number is not on this table's wheel")

// Outcome enters the winning number by hand (the number grid, after its confirmation step).
func (c *Console) Outcome(ctx context.Context, number string) error {
	if err := c.onWheel(number); err != nil {
		return err
	}
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: c.round(), Number: number}))
}

func (c *Console) onWheel(number string) error {
	n, err := roulette.ParseNumber(number)
	if err != nil || !c.View().Wheel.Has(n) {
		return fmt.Errorf("%q: %w", number, ErrNotOnWheel)
	}
	return nil
}

// ConfirmWheel confirms the number the wheel's two sensors agreed on, with one touch.
func (c *Console) ConfirmWheel(ctx context.Context) error {
	v := c.View()
	if v.Proposal == "" {
		return errors.New("the wheel proposes no number")
	}
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: v.RoundID, Number: v.Proposal, ConfirmWheel: true}))
}

// NoSpin declares the spin of no effect (rule 9.1–9.2).
func (c *Console) NoSpin(ctx context.Context) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.NoSpin(ctx, &pb.RoundRequest{RoundId: c.round()}))
}

// Dispute is the Dispute Button (000 §10.9.1).
func (c *Console) Dispute(ctx context.Context, note string) error {
	ctx, cancel := c.call(ctx)
	defer cancel()
	return c.adopt(c.dc.Dispute(ctx, &pb.DisputeRequest{RoundId: c.round(), Note: note}))
}

// Credit is a dealer buy-in for a seat (guest or not); the player confirms it at a terminal.
func (c *Console) Credit(ctx context.Context, seat string, cents int64) error {
	if cents <= 0 {
		return errors.New("the amount must be more than zero")
	}
	ctx, cancel := c.call(ctx)
	defer cancel()
	_, err := c.dc.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: key("console-credit"), TerminalId: seat, Amount: cents})
	return err
}

// CloseAccount pays a seat out at the dealer ("dealer") or directs the player to leave
// ("directed-to-leave"); it answers the amount paid.
func (c *Console) CloseAccount(ctx context.Context, seat, reason string) (int64, error) {
	ctx, cancel := c.call(ctx)
	defer cancel()
	res, err := c.dc.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: key("console-close"), TerminalId: seat, Reason: reason})
	if err != nil {
		return 0, err
	}
	return res.Amount, nil
}

// PlaceNeighbours places the call bet "number and the neighbours" for a seat: five pieces of
// cents, on number and two each side of it on the wheel.
func (c *Console) PlaceNeighbours(ctx context.Context, seat, number string, cents int64) (accepted int64, why string, err error) {
	if err := c.onWheel(number); err != nil {
		return 0, "", err
	}
	return c.PlaceWager(ctx, seat, &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{number}, Amount: cents})
}

// CallBets are the call bets the console offers for a seat with no number to name.
var CallBets = []pb.BetKind{pb.BetKind_BET_KIND_VOISINS, pb.BetKind_BET_KIND_TIER, pb.BetKind_BET_KIND_ORPHELINS, pb.BetKind_BET_KIND_ZERO_GAME}

// PlaceWager places a call bet for a seat (002 §3.2B): the table takes only the dealer's call
// bets (the racetrack), the player places the others at the terminal.
func (c *Console) PlaceWager(ctx context.Context, seat string, w *pb.Wager) (accepted int64, why string, err error) {
	ctx, cancel := c.call(ctx)
	defer cancel()
	res, err := c.dc.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: seat, RoundId: c.round(), Wager: w})
	if err != nil {
		return 0, "", err
	}
	return res.Accepted, res.Reason, nil
}

// ---- the supervisor's actions -----------------------------------------------------------

// Supervisor is a supervisor's card and PIN, sent with each of their actions on the dealer's
// connection; the console keeps them only while the supervisor's panel is open.
type Supervisor struct{ Card, PIN string }

func (s Supervisor) ctx(ctx context.Context) (context.Context, error) {
	if s.Card == "" || s.PIN == "" {
		return nil, errors.New("the supervisor's card and PIN are required")
	}
	return metadata.AppendToOutgoingContext(ctx, SupervisorCardKey, s.Card, SupervisorPINKey, s.PIN), nil
}

func (c *Console) super(ctx context.Context, s Supervisor) (context.Context, context.CancelFunc, error) {
	sctx, err := s.ctx(ctx)
	if err != nil {
		return nil, nil, err
	}
	sctx, cancel := c.call(sctx)
	return sctx, cancel, nil
}

// Correct re-settles a round on its true outcome (rule 9.4).
func (c *Console) Correct(ctx context.Context, s Supervisor, roundID, number string) error {
	if err := c.onWheel(number); err != nil {
		return err
	}
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: roundID, Number: number}))
}

// LastRound is the round the latest outcome was entered for: what a correction names.
func (c *Console) LastRound() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st == nil || len(c.st.History) == 0 {
		return ""
	}
	return c.st.History[0].RoundId
}

// Invalidate refunds every wager of a round (rule 12.3–12.4).
func (c *Console) Invalidate(ctx context.Context, s Supervisor, roundID, reason string) error {
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: roundID, Reason: reason}))
}

// ConfirmJackpot confirms the pending jackpot hit.
func (c *Console) ConfirmJackpot(ctx context.Context, s Supervisor) error {
	c.mu.Lock()
	var round string
	if c.st != nil && c.st.PendingJackpot != nil {
		round = c.st.PendingJackpot.RoundId
	}
	c.mu.Unlock()
	if round == "" {
		return errors.New("no jackpot hit is waiting")
	}
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: round}))
}

// Handpay pays a ticket by hand.
func (c *Console) Handpay(ctx context.Context, s Supervisor, validation string) error {
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	_, err = c.dc.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: key("console-handpay"), ValidationNumber: validation})
	return err
}

// ReleaseHold ends a terminal's hold on a ticket.
func (c *Console) ReleaseHold(ctx context.Context, s Supervisor, validation, reason string) error {
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	_, err = c.dc.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: key("console-release"), ValidationNumber: validation, Reason: reason})
	return err
}

// ClearFault turns the light green again (000 §10.9.2).
func (c *Console) ClearFault(ctx context.Context, s Supervisor, note string) error {
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.ClearFault(ctx, &pb.ClearFaultRequest{Note: note}))
}

// ScheduleClose puts up the sign of the table's closure at at (at least 20 minutes away).
func (c *Console) ScheduleClose(ctx context.Context, s Supervisor, at time.Time) error {
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.ScheduleClose(ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.UnixNano()}))
}

// RefuseWager refuses every wager on a seat's slip in this round's wagering period (003
// §9.12); the table tells the player why. It answers the money the slip held.
func (c *Console) RefuseWager(ctx context.Context, s Supervisor, seat, reason string) (int64, error) {
	round := c.round()
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return 0, err
	}
	defer cancel()
	res, err := c.dc.RefuseWager(ctx, &pb.RefuseWagerRequest{TerminalId: seat, RoundId: round, Reason: reason, All: true})
	if err != nil {
		return 0, err
	}
	return res.Refused, nil
}

// SetTableLimits changes the table's minimum and maximum wager (cents) and nothing else of its
// limit sign: each bet's own limits, the unit, the table maximum and the aggregate minimum are
// sent back as they are in force, since SetLimits replaces the whole sign.
func (c *Console) SetTableLimits(ctx context.Context, s Supervisor, minimum, maximum int64) error {
	if minimum <= 0 || maximum < minimum {
		return fmt.Errorf("limits %d–%d: the minimum must be more than zero and at most the maximum", minimum, maximum)
	}
	c.mu.Lock()
	var cur *pb.Limits
	if c.st != nil && c.st.Limits != nil {
		cur = proto.Clone(c.st.Limits).(*pb.Limits)
	}
	c.mu.Unlock()
	if cur == nil {
		return errors.New("the table's limits are not known yet")
	}
	if cur.Default == nil {
		cur.Default = &pb.Limit{}
	}
	cur.Default.Min, cur.Default.Max = minimum, maximum
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.SetLimits(ctx, &pb.SetLimitsRequest{Limits: cur}))
}

// SetSeatLimits gives the player at seat their own minimum and maximum (cents, 000 §4.3), in
// the table's unit; the table refuses limits outside its own.
func (c *Console) SetSeatLimits(ctx context.Context, s Supervisor, seat string, minimum, maximum int64) error {
	if minimum <= 0 || maximum < minimum {
		return fmt.Errorf("limits %d–%d: the minimum must be more than zero and at most the maximum", minimum, maximum)
	}
	unit := c.View().Limits.GetDefault().GetUnit()
	ctx, cancel, err := c.super(ctx, s)
	if err != nil {
		return err
	}
	defer cancel()
	return c.adopt(c.dc.SetPlayerLimits(ctx, &pb.SetPlayerLimitsRequest{TerminalId: seat,
		Limits: &pb.Limits{Default: &pb.Limit{Min: minimum, Max: maximum, Unit: unit}}}))
}
