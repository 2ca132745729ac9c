// Package client is the terminal's link to its table game server: one gRPC connection over
// mutual TLS, a Watch stream that reconnects with backoff and jitter and restarts from a fresh
// snapshot (and asks for batches, each read back as its events in order), an estimate of the server clock for the countdown and the lock, slip updates on one
// long-lived stream (slipstream.go), and money calls that retry safely with the same
// idempotency key.
//
// It speaks protobuf to the server and typed Go to the terminal: no generated type appears in
// its exported API.
package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/backoff"
	"github.com/tablegames/ats/proto/wire"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/client/clocksync"
)

// Config configures a client.
type Config struct {
	Addr string
	TLS  *tls.Config // mutual TLS with the terminal's certificate; nil only with Dialer set
	// Clock is what the client's waits (the reconnect and retry backoff, the periodic clock
	// sync) run on and what the clock-sync samples read; nil: the machine's clock. Call
	// deadlines (CallTimeout) stay on the machine's clock: they bound a wait on the network,
	// which no fake clock moves.
	Clock  clock.Clock
	Logger *slog.Logger

	// Backoff bounds the reconnect delay: each attempt waits a random time up to
	// min(MaxBackoff, BaseBackoff×2^attempt) ("full jitter"), so a table's terminals do not
	// reconnect in lockstep after the server comes back.
	BaseBackoff, MaxBackoff time.Duration
	// SyncEvery is how often the clock offset is re-measured while connected.
	SyncEvery time.Duration
	// CallTimeout bounds one attempt of a unary call; money calls retry after it.
	CallTimeout time.Duration

	// DialOptions are extra options (tests pass a bufconn dialer here).
	DialOptions []grpc.DialOption

	// JournalHead, if set, is the terminal journal's head (journal.Journal.Head): every money
	// call carries it, and the table keeps the newest it acknowledged as the journal's anchor.
	JournalHead func() (seq int64, mac [32]byte)
}

// Client is a terminal's connection to its table.
type Client struct {
	cfg    Config
	ctx    context.Context // the client's life: ended by Close
	conn   *grpc.ClientConn
	tc     pb.TerminalServiceClient
	clock  *clocksync.Estimator
	events chan table.Event
	log    *slog.Logger
	cancel context.CancelFunc
	done   chan struct{}
	slips  *slipStream

	mu     sync.Mutex
	layout roulette.Layout
	up     bool
}

// linkKeepalive pings the table, so a dead link is found within seconds and the screen (a
// terminal's, a display's) says it lost the table.
var linkKeepalive = grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 2 * time.Second, Timeout: 2 * time.Second, PermitWithoutStream: true})

// ErrClosed is returned by calls on a closed client.
var ErrClosed = errors.New("client closed")

// Dial starts a client. It does not wait for the server: the connection comes up in the
// background and Events reports it.
func Dial(cfg Config) (*Client, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.BaseBackoff <= 0 {
		cfg.BaseBackoff = 100 * time.Millisecond
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 5 * time.Second
	}
	if cfg.SyncEvery <= 0 {
		cfg.SyncEvery = 10 * time.Second
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 2 * time.Second
	}
	opts := append([]grpc.DialOption{
		linkKeepalive,
		// HTTP/2's default windows, fixed: the dynamic window answered nearly every slip's
		// response with a BDP ping and a WINDOW_UPDATE (a write, and a read of the table's ack)
		// for windows a terminal's events never need.
		grpc.WithStaticStreamWindowSize(65535),
		grpc.WithStaticConnWindowSize(65535),
	}, cfg.DialOptions...)
	if cfg.TLS != nil {
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(cfg.TLS)))
	}
	conn, err := grpc.NewClient(cfg.Addr, opts...)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{cfg: cfg, ctx: ctx, slips: newSlipStream(), conn: conn, tc: pb.NewTerminalServiceClient(conn), clock: clocksync.New(0),
		events: make(chan table.Event, 256), log: cfg.Logger, cancel: cancel, done: make(chan struct{})}
	go c.watchLoop(ctx)
	return c, nil
}

// Events delivers the table's events in order. The consumer must keep reading: the client
// waits for it rather than drop a money event, and if it waits too long the server cuts the
// stream and the client restarts from a snapshot.
func (c *Client) Events() <-chan table.Event { return c.events }

// Close stops the client.
func (c *Client) Close() error {
	c.cancel()
	<-c.done
	return c.conn.Close()
}

// Connected reports whether the Watch stream is up.
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.up
}

// ServerNow is the estimated server time now.
func (c *Client) ServerNow() time.Time { return c.clock.ServerNow(c.cfg.Clock.Now()) }

// LockAt is the local time at which to lock the layout for a server deadline: never after the
// server's deadline (see clocksync). Zero means lock now (no clock estimate yet).
func (c *Client) LockAt(deadline time.Time) time.Time { return c.clock.LockAt(deadline) }

// ClockError is the current bound on the server-clock estimate.
func (c *Client) ClockError() (time.Duration, bool) {
	_, b, ok := c.clock.Estimate()
	return b, ok
}

func (c *Client) emit(ctx context.Context, ev table.Event) bool {
	select {
	case c.events <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

func (c *Client) setUp(up bool) {
	c.mu.Lock()
	c.up = up
	c.mu.Unlock()
}

func (c *Client) watchLoop(ctx context.Context) {
	defer close(c.done)
	defer close(c.events)
	attempt := 0
	for ctx.Err() == nil {
		started := c.cfg.Clock.Now()
		err := c.watchOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if c.Connected() {
			c.setUp(false)
		}
		if !c.emit(ctx, table.Connection{Up: false, Err: err}) {
			return
		}
		// A stream that lived a while was a good connection: start the backoff over.
		if c.cfg.Clock.Now().Sub(started) > 10*time.Second {
			attempt = 0
		}
		wait := c.backoff().Delay(attempt)
		attempt++
		c.log.Info("table link down; reconnecting", "err", err, "in", wait)
		if backoff.SleepOn(ctx, c.cfg.Clock, wait) != nil {
			return
		}
	}
}

// watchOnce runs one Watch stream until it fails.
func (c *Client) watchOnce(ctx context.Context) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Batches: the table sends what waits for this terminal as one message (the outcome, the
	// result phase and the settlement at once); the events are the same, in the same order.
	stream, err := c.tc.Watch(sctx, &pb.WatchRequest{Batches: true})
	if err != nil {
		return err
	}
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	if first.GetSnapshot() == nil {
		return errors.New("the table did not start the stream with a snapshot")
	}
	// A new path may have a new delay: measure the clock before anyone relies on it.
	c.clock.Reset()
	if err := c.syncClock(sctx, 5); err != nil {
		return fmt.Errorf("clock sync: %w", err)
	}
	ev, err := wire.EventOf(first, roulette.Layout{})
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	snap := ev.(table.Snapshot)
	c.mu.Lock()
	c.layout, c.up = snap.Config.Layout, true
	c.mu.Unlock()
	if !c.emit(ctx, table.Connection{Up: true}) || !c.emit(ctx, snap) {
		return ctx.Err()
	}
	go c.syncPeriodically(sctx)
	for {
		msg, err := stream.Recv()
		if err != nil {
			return err
		}
		c.mu.Lock()
		layout := c.layout
		c.mu.Unlock()
		evs, err := wire.EventsOf(msg, layout)
		if err != nil {
			// A malformed event is an error of the server or the link: say so and resync from
			// a fresh snapshot rather than guess.
			return fmt.Errorf("event %d: %w", msg.Seq, err)
		}
		for _, ev := range evs {
			if !c.emit(ctx, ev) {
				return ctx.Err()
			}
		}
	}
}

func (c *Client) syncPeriodically(ctx context.Context) {
	for backoff.SleepOn(ctx, c.cfg.Clock, c.cfg.SyncEvery) == nil {
		if err := c.syncClock(ctx, 1); err != nil && ctx.Err() == nil {
			c.log.Warn("clock sync", "err", err)
		}
	}
}

// backoff is the wait between reconnects and between a call's attempts, on the client's clock.
func (c *Client) backoff() backoff.Policy {
	return backoff.Policy{Base: c.cfg.BaseBackoff, Max: c.cfg.MaxBackoff, Clock: c.cfg.Clock}
}

// syncClock makes n ServerTime exchanges.
func (c *Client) syncClock(ctx context.Context, n int) error {
	for range n {
		cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
		t0 := c.cfg.Clock.Now()
		res, err := c.tc.ServerTime(cctx, &pb.ServerTimeRequest{ClientSendUnixNanos: t0.UnixNano()})
		t3 := c.cfg.Clock.Now()
		cancel()
		if err != nil {
			return err
		}
		c.clock.Add(clocksync.Sample{T0: t0, T1: wire.Time(res.ServerReceiveUnixNanos), T2: wire.Time(res.ServerSendUnixNanos), T3: t3})
	}
	return nil
}

// ---- calls -------------------------------------------------------------------------------------

// head is the journal head a money call carries; nil without a journal.
func (c *Client) head() *pb.JournalHead {
	if c.cfg.JournalHead == nil {
		return nil
	}
	seq, mac := c.cfg.JournalHead()
	if seq == 0 {
		return nil
	}
	return &pb.JournalHead{Seq: seq, Mac: mac[:]}
}

// ReportNoteEscrow tells the table of a note in escrow before it is stacked: the table credits
// only a note it was told of (key is the note's own, the one CreditNote will carry).
func (c *Client) ReportNoteEscrow(ctx context.Context, key string, amount int64, noteCode string) error {
	_, err := retry(ctx, c, func(ctx context.Context) (*pb.NoteEscrowResponse, error) {
		return c.tc.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: key, Amount: amount, NoteCode: noteCode, JournalHead: c.head()})
	})
	return err
}

// JournalAnchor is the newest journal head of this terminal the table acknowledged: seq 0 and
// no MAC when it has none.
func (c *Client) JournalAnchor(ctx context.Context) (int64, []byte, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.JournalAnchor, error) {
		return c.tc.GetJournalAnchor(ctx, &pb.GetJournalAnchorRequest{})
	})
	if err != nil {
		return 0, nil, err
	}
	return r.GetHead().GetSeq(), r.GetHead().GetMac(), nil
}

// AuthenticateTechnician asks the table to check the PIN technician id typed on this terminal's
// PIN pad, and returns the technician's id. It is asked once, never retried: a retried wrong
// PIN would count twice against the throttle. A wrong PIN (or an unknown technician) is a
// table.Refusal (PermissionDenied); while the technician is locked out after wrong PINs the
// answer is a table.Refusal whose status code is ResourceExhausted, so the caller can tell
// "wait" from "wrong".
func (c *Client) AuthenticateTechnician(ctx context.Context, id, pin string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	r, err := c.tc.AuthenticateTechnician(cctx, &pb.AuthenticateTechnicianRequest{TechnicianId: id, Pin: pin})
	if status.Code(err) == codes.ResourceExhausted {
		return "", &table.Refusal{Err: err}
	}
	if err != nil {
		return "", refusal(err)
	}
	return r.GetTechnicianId(), nil
}

// SetInService reports this terminal's technician mode to the table: s is the seat out of play
// (its technician and reason), nil back in play. It answers since when the table has the seat
// in service. It is asked once, not retried: the terminal reports its state again at its next
// connection, and a report held up by retries would hold up the slips sent after it.
func (c *Client) SetInService(ctx context.Context, s *table.SeatService) (time.Time, error) {
	cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	r, err := c.tc.SetInService(cctx, wire.SetInServicePB(s))
	if status.Code(err) == codes.Unimplemented {
		return time.Time{}, &table.Refusal{Err: err} // a table older than the call: final
	}
	if err != nil {
		return time.Time{}, refusal(err)
	}
	return wire.Time(r.GetSinceUnixNanos()), nil
}

// retryable reports whether a failed attempt may be retried with the same key: the request may
// or may not have reached the server, and the key makes a second arrival harmless.
func retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted, codes.ResourceExhausted:
		return true
	}
	return false
}

// refusal marks the table's final answers (table.Refusal): asking again with the same request
// cannot succeed. Any other error may be overcome by asking again with the same key.
func refusal(err error) error {
	switch status.Code(err) {
	case codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.PermissionDenied,
		codes.FailedPrecondition, codes.OutOfRange:
		return &table.Refusal{Err: err}
	}
	return err
}

// retry runs call until it succeeds, fails for good, or ctx ends.
func retry[R any](ctx context.Context, c *Client, call func(context.Context) (R, error)) (R, error) {
	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
		res, err := call(actx)
		cancel()
		if err == nil || !retryable(err) || table.Refused(err) || ctx.Err() != nil {
			return res, refusal(err)
		}
		if backoff.SleepOn(ctx, c.cfg.Clock, c.backoff().Delay(attempt)) != nil {
			return res, err
		}
	}
}

// UpdateSlip sends a whole slip version for the round, on the client's Slips stream (or by the
// unary call to a table without it; see slipstream.go), waiting at most CallTimeout. It is not
// retried once sent: a slip is only worth sending while the period is open, and the terminal
// sends a newer version anyway.
func (c *Client) UpdateSlip(ctx context.Context, roundID string, version uint64, bets []table.SlipBet) (*table.SlipAck, error) {
	return c.UpdateSlipSecret(ctx, roundID, version, bets, false)
}

// UpdateSlipSecret is UpdateSlip with the slip marked as an undisclosed tournament wager when
// secret (003 §10.8): the other players see only that there is one until the round's result.
func (c *Client) UpdateSlipSecret(ctx context.Context, roundID string, version uint64, bets []table.SlipBet, secret bool) (*table.SlipAck, error) {
	req := &pb.UpdateSlipRequest{RoundId: roundID, Version: version, Secret: secret}
	for _, b := range bets {
		req.Wagers = append(req.Wagers, wire.WagerOfBet(b))
	}
	res, err := c.updateSlip(ctx, req) // on the Slips stream (slipstream.go)
	if err != nil {
		return nil, refusal(err)
	}
	var ack *table.SlipAck
	if res.WagersAsSent {
		// The table took the wagers exactly as sent and did not write them back (Slips stream).
		ack, err = wire.SlipOfSent(res.Slip, bets)
	} else {
		c.mu.Lock()
		layout := c.layout
		c.mu.Unlock()
		ack, err = wire.SlipOf(res.Slip, layout)
	}
	if err != nil {
		return nil, err
	}
	ack.Available = res.Balance
	return ack, nil
}

// CreditNote credits a stacked note. key must be the same on every retry, across restarts.
func (c *Client) CreditNote(ctx context.Context, key string, amount int64, noteCode string) (table.Money, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.MoneyResponse, error) {
		return c.tc.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: key, Amount: amount, NoteCode: noteCode, JournalHead: c.head()})
	})
	if err != nil {
		return table.Money{}, err
	}
	return wire.MoneyOf(r), nil
}

// RedeemTicket holds a ticket in escrow and returns its amount. A terminal throttled for
// failed validations (ResourceExhausted) is refused for a cool-down: that is final for this
// ticket, not worth asking again at once.
func (c *Client) RedeemTicket(ctx context.Context, key, validation string) (int64, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.RedeemTicketResponse, error) {
		r, err := c.tc.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: key, ValidationNumber: validation, JournalHead: c.head()})
		if status.Code(err) == codes.ResourceExhausted {
			return nil, &table.Refusal{Err: err}
		}
		return r, err
	})
	if err != nil {
		return 0, err
	}
	return r.Amount, nil
}

// CommitRedeem credits a held ticket once stacked.
func (c *Client) CommitRedeem(ctx context.Context, key, validation string) (table.Money, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.MoneyResponse, error) {
		return c.tc.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: validation, JournalHead: c.head()})
	})
	if err != nil {
		return table.Money{}, err
	}
	return wire.MoneyOf(r), nil
}

// CancelRedeem releases a held ticket the acceptor returned.
func (c *Client) CancelRedeem(ctx context.Context, key, validation string) (table.Money, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.MoneyResponse, error) {
		return c.tc.CancelRedeem(ctx, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: validation, JournalHead: c.head()})
	})
	if err != nil {
		return table.Money{}, err
	}
	return wire.MoneyOf(r), nil
}

// CashOut debits the whole balance and returns the ticket to print.
func (c *Client) CashOut(ctx context.Context, key string) (*table.Ticket, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.CashOutResponse, error) {
		return c.tc.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key, JournalHead: c.head()})
	})
	if err != nil {
		return nil, err
	}
	return wire.TicketOf(r.Ticket), nil
}

// TicketPrinted reports the printer's confirmation.
func (c *Client) TicketPrinted(ctx context.Context, key, validation string) (table.Money, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.MoneyResponse, error) {
		return c.tc.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: validation, JournalHead: c.head()})
	})
	if err != nil {
		return table.Money{}, err
	}
	return wire.MoneyOf(r), nil
}

// TicketPrintFailed reports a ticket that could not be printed.
func (c *Client) TicketPrintFailed(ctx context.Context, key, validation, fault string) (table.Money, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.MoneyResponse, error) {
		return c.tc.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: key, ValidationNumber: validation, Fault: fault, JournalHead: c.head()})
	})
	if err != nil {
		return table.Money{}, err
	}
	return wire.MoneyOf(r), nil
}

// AckDealerClose tells the table the terminal has recorded a dealer close, so its snapshots
// stop carrying it. Retried like a money call; an unacknowledged close is only told again.
func (c *Client) AckDealerClose(ctx context.Context, closeID string) error {
	_, err := retry(ctx, c, func(ctx context.Context) (*pb.AckDealerCloseResponse, error) {
		return c.tc.AckDealerClose(ctx, &pb.AckDealerCloseRequest{CloseId: closeID, JournalHead: c.head()})
	})
	return err
}

// CallDealer raises the player's call on the dealer console (001 §9.5, 000 §10.9.4). It is not
// retried: the player can press again, and a repeat within a minute raises nothing new.
func (c *Client) CallDealer(ctx context.Context, reason string) error {
	_, err := c.tc.CallDealer(ctx, &pb.CallDealerRequest{Reason: reason})
	return err
}

// RequestDealerCashOut asks the dealer to pay the balance out in chips, at a table whose rules
// take and pay money only through the dealer (004 §6.6, 000 §11.7.6). It returns the balance
// the dealer is to pay; it moves no money, so asking again is harmless.
func (c *Client) RequestDealerCashOut(ctx context.Context) (int64, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.RequestDealerCashOutResponse, error) {
		return c.tc.RequestDealerCashOut(ctx, &pb.RequestDealerCashOutRequest{})
	})
	if err != nil {
		return 0, err
	}
	return r.Balance, nil
}

// ConfirmBuyIn accepts or declines a dealer buy-in.
func (c *Client) ConfirmBuyIn(ctx context.Context, key, buyInID string, accept bool) (table.Money, error) {
	r, err := retry(ctx, c, func(ctx context.Context) (*pb.MoneyResponse, error) {
		return c.tc.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: key, BuyInId: buyInID, Accept: accept, JournalHead: c.head()})
	})
	if err != nil {
		return table.Money{}, err
	}
	return wire.MoneyOf(r), nil
}
