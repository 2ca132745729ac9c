package server

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/proto/wire"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/pki"
)

// Bounds on what one caller may ask of the server. One terminal must not be able to stall the
// table for the others (issue 13: four parallel slips of 100,000 wagers raised another
// terminal's slip round-trip to 625 ms).
const (
	// MaxRecvMsgBytes bounds every request. A maximal slip (MaxSlipWagers wagers) is about
	// 4 KiB; nothing a terminal or console sends comes near 64 KiB. gRPC refuses a larger
	// message from its length prefix, before reading or decoding it.
	MaxRecvMsgBytes = 64 << 10
	// MaxWatchStreams is how many Watch streams one identity may hold: one, and one more while
	// a reconnect overlaps a stream the server has not yet seen die.
	MaxWatchStreams = 2
	// MaxInFlight is how many calls one identity may have in progress at once. A terminal
	// makes one at a time and a clock sync beside it; the rest are refused (ResourceExhausted,
	// which the client retries) rather than queued.
	MaxInFlight = 8
	// maxStreamsPerConn bounds the streams of one connection, whatever their identity.
	maxStreamsPerConn = 32
	// TerminalCallRate and TerminalCallBurst bound how many calls a terminal identity may start
	// per second (a token bucket). An honest terminal sends about ten slips a second at the
	// most, a clock sync and the odd money call; an abusive one, refused or not, would
	// otherwise come straight back. The check runs when a call's headers arrive (gRPC's tap),
	// before its message is read, so a refused call costs the server nothing more.
	TerminalCallRate  = 50
	TerminalCallBurst = 100
	// staticWindow is the flow-control window of every stream and connection: HTTP/2's
	// default, fixed (see NewGRPC).
	staticWindow = 65535
)

// Option configures the gRPC server.
type Option func(*grpcOptions)

type grpcOptions struct {
	revoked     *pki.Revocations
	technicians *Technicians
	supervisors *PINs // supervisor credentials on a dealer's console (supervisor.go)
	log         *slog.Logger
	rate, burst float64 // a terminal's calls a second, and its burst
	cutoff      time.Duration
	cutoffSet   bool
	// strikes and strikeRate replace CutoffStrikes and CutoffStrikeRate when positive.
	strikes, strikeRate float64
}

// WithCallRate sets how many calls a second a terminal identity may start, and its burst
// (TerminalCallRate and TerminalCallBurst if not set): a fuzz target that drives one terminal
// as fast as it can sets it out of the way.
func WithCallRate(rate, burst float64) Option {
	return func(o *grpcOptions) { o.rate, o.burst = rate, burst }
}

// WithCutoffStrikes sets how many refusals over its rate a terminal may collect before it is
// cut off, and how many a second are forgiven (CutoffStrikes and CutoffStrikeRate if not set):
// a test whose abuser the race detector or a busy machine slows lowers them with its call
// rate, so the abuser still earns its cut-off within the test's period.
func WithCutoffStrikes(strikes, perSecond float64) Option {
	return func(o *grpcOptions) { o.strikes, o.strikeRate = strikes, perSecond }
}

// WithRevocations makes the server refuse the certificates the revocation list names, at the
// handshake and at every call.
func WithRevocations(r *pki.Revocations) Option { return func(o *grpcOptions) { o.revoked = r } }

// WithTechnicians gives the technician service its PINs.
func WithTechnicians(t *Technicians) Option { return func(o *grpcOptions) { o.technicians = t } }

// WithLogger sets the logger of the edge (refusals, technician sign-ins).
func WithLogger(l *slog.Logger) Option { return func(o *grpcOptions) { o.log = l } }

// NewGRPC returns a gRPC server for the table over mutual TLS, with the terminal, dealer and
// technician services, the standard health service and server reflection (so grpcurl can
// drive a table). Every call needs a client certificate of the CA, not revoked, whose role the
// role table (roles.go) allows for the method; and every caller is bounded in what it may ask
// at once (MaxRecvMsgBytes, MaxWatchStreams, MaxInFlight).
func NewGRPC(t *Table, tlsCfg *tls.Config, opts ...Option) *grpc.Server {
	o := grpcOptions{log: t.log, rate: TerminalCallRate, burst: TerminalCallBurst}
	for _, opt := range opts {
		opt(&o)
	}
	if !o.cutoffSet {
		o.cutoff = CutoffBase
	}
	if o.strikes <= 0 || o.strikeRate <= 0 {
		o.strikes, o.strikeRate = CutoffStrikes, CutoffStrikeRate
	}
	if o.revoked != nil {
		tlsCfg = tlsCfg.Clone()
		o.revoked.Protect(tlsCfg)
	}
	e := &edge{t: t, revoked: o.revoked, log: o.log, supervisors: o.supervisors, inFlight: map[identity]int{}, watches: map[identity]int{},
		buckets: map[string]*callGuard{}, now: time.Now, rate: o.rate, burst: o.burst, cutoff: o.cutoff,
		strikes: o.strikes, strikeRate: o.strikeRate,
		conns: map[string]map[*trackedConn]struct{}{}, suspects: map[string]*suspect{}}
	s := grpc.NewServer(
		grpc.Creds(trackingCreds{credentials.NewTLS(tlsCfg), e}), // cutoff.go: a terminal's connections can be cut
		grpc.ChainUnaryInterceptor(e.unary, anchorHeads(t)),      // anchor.go: the journal heads
		grpc.ChainStreamInterceptor(e.stream),
		grpc.MaxRecvMsgSize(MaxRecvMsgBytes),
		grpc.MaxConcurrentStreams(maxStreamsPerConn),
		grpc.InTapHandle(e.tap),
		// Static flow-control windows of HTTP/2's default size (64 KiB, what a refused call can
		// have sent: cutoff.go). gRPC's dynamic window sends a BDP ping, and a WINDOW_UPDATE before
		// it, whenever data arrives with no ping out: with a slip a request and a response, that
		// was nearly every slip — two more frames out and one more in, a write and a read of the
		// socket each, for windows no slip or event comes near. (StaticWindow*Size.)
		grpc.StaticStreamWindowSize(staticWindow),
		grpc.StaticConnWindowSize(staticWindow),
		// Terminals keep their Watch stream alive through idle periods; a dead link is noticed
		// within seconds, which is what voids a lost terminal's wagers in time (rule 9.7.1).
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 2 * time.Second, Timeout: 2 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
	)
	pb.RegisterTerminalServiceServer(s, &terminalService{t: t, pins: o.technicians, log: o.log, edge: e})
	pb.RegisterDealerServiceServer(s, &dealerService{t: t})
	pb.RegisterTechnicianServiceServer(s, &technicianService{t: t, pins: o.technicians, log: o.log})
	pb.RegisterCageServiceServer(s, &cageService{t: t})       // cage.go: the cashiers'
	pb.RegisterDisplayServiceServer(s, &displayService{t: t}) // display.go: the winning number displays'
	h := health.NewServer()
	h.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.TerminalService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.DealerService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.TechnicianService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.CageService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.DisplayService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, h)
	reflection.Register(s)
	return s
}

type identityKey struct{}

type identity struct{ role, id string }

// edge is the server's gate: who is calling, may they, and are they within their bounds.
type edge struct {
	t           *Table
	revoked     *pki.Revocations
	log         *slog.Logger
	supervisors *PINs // supervisor.go

	mu       sync.Mutex
	inFlight map[identity]int
	watches  map[identity]int

	bucketMu sync.Mutex
	buckets  map[string]*callGuard // terminal id → its call budget and cut-offs (cutoff.go)
	now      func() time.Time
	rate     float64 // calls a second per terminal identity (WithCallRate)
	burst    float64
	cutoff   time.Duration // the first cut-off of a terminal that keeps calling over its rate
	// strikes is how many refusals over its rate a terminal may collect before a cut-off, and
	// strikeRate how many a second are forgiven (CutoffStrikes, CutoffStrikeRate).
	strikes, strikeRate float64

	connMu       sync.Mutex
	conns        map[string]map[*trackedConn]struct{} // terminal id → its open connections
	suspects     map[string]*suspect                  // address → its ration of new connections
	refusedConns int                                  // new connections closed before their handshake
}

// tap refuses a terminal's call over its rate before gRPC reads the call's message, and cuts
// off a terminal that keeps calling over it (cutoff.go). It runs on the connection's reader
// goroutine, so it only looks at the certificate gRPC already verified and a small map.
func (e *edge) tap(ctx context.Context, _ *tap.Info) (context.Context, error) {
	leaf := peerLeaf(ctx)
	if leaf == nil {
		return ctx, nil // the interceptor refuses it
	}
	role, id, err := pki.Identity(leaf)
	if err != nil || role != pki.RoleTerminal {
		return ctx, nil
	}
	if _, err := e.admit(id); err != nil {
		return nil, err
	}
	return ctx, nil
}

func (e *edge) authenticate(ctx context.Context, method string) (context.Context, identity, error) {
	leaf := peerLeaf(ctx)
	if leaf == nil {
		return nil, identity{}, status.Error(codes.Unauthenticated, "a verified client certificate is required")
	}
	role, id, err := pki.Identity(leaf)
	if err != nil {
		return nil, identity{}, status.Error(codes.Unauthenticated, err.Error())
	}
	// Checked at every call, not only at the handshake: a revocation also reaches the
	// connections made before it.
	if e.revoked.Revoked(leaf) {
		return nil, identity{}, status.Errorf(codes.Unauthenticated, "the certificate of %s %q (serial %s) is revoked", role, id, leaf.SerialNumber)
	}
	if err := refuseGuestCertificate(role, id); err != nil { // guest.go
		return nil, identity{}, err
	}
	who := identity{role, id}
	// A supervisor's card and PIN on a dealer's console (supervisor.go): the call is the
	// supervisor's, authorised and recorded as theirs.
	card, pin, asked, err := supervisorCreds(ctx)
	switch {
	case err != nil:
		return nil, identity{}, err
	case asked:
		if who, err = e.asSupervisor(who, method, card, pin); err != nil {
			return nil, identity{}, err
		}
	case !mayCall(role, method):
		return nil, identity{}, status.Errorf(codes.PermissionDenied, "%s %q may not call %s (%s may)", role, id, method, whoMay(method))
	}
	if role == pki.RoleTerminal {
		// A terminal that presents its certificate becomes known to the table: only known
		// terminals can be credited or closed by the dealer.
		if err := e.t.noteTerminal(id); err != nil {
			return nil, identity{}, err
		}
	}
	return context.WithValue(ctx, identityKey{}, who), who, nil
}

// acquire counts one more call (or Watch stream) of an identity, refusing it over the bound.
func (e *edge) acquire(who identity, counts map[identity]int, max int, what string) (func(), error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if counts[who] >= max {
		return nil, status.Errorf(codes.ResourceExhausted, "%s %q already has %d %s in progress (at most %d)", who.role, who.id, counts[who], what, max)
	}
	counts[who]++
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if counts[who]--; counts[who] == 0 {
			delete(counts, who)
		}
	}, nil
}

func (e *edge) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ctx, who, err := e.authenticate(ctx, info.FullMethod)
	if err != nil {
		return nil, err
	}
	done, err := e.acquire(who, e.inFlight, MaxInFlight, "calls")
	if err != nil {
		return nil, err
	}
	defer done()
	return handler(ctx, req)
}

type authedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s authedStream) Context() context.Context { return s.ctx }

func (e *edge) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, who, err := e.authenticate(ss.Context(), info.FullMethod)
	if err != nil {
		return err
	}
	counts, max, what := e.inFlight, MaxInFlight, "calls"
	if info.FullMethod == pb.TerminalService_Watch_FullMethodName || info.FullMethod == pb.DisplayService_Watch_FullMethodName {
		counts, max, what = e.watches, MaxWatchStreams, "Watch streams"
	}
	done, err := e.acquire(who, counts, max, what)
	if err != nil {
		return err
	}
	defer done()
	return handler(srv, authedStream{ss, ctx})
}

func callerID(ctx context.Context) string {
	id, _ := ctx.Value(identityKey{}).(identity)
	return id.id
}

// actorOf is who a call is made by, as the audit log records it: "dealer:D1".
func actorOf(ctx context.Context) string {
	id, _ := ctx.Value(identityKey{}).(identity)
	if id.id == "" {
		return ""
	}
	return id.role + ":" + id.id
}

// ---- terminal service -----------------------------------------------------------------------

type terminalService struct {
	pb.UnimplementedTerminalServiceServer
	t    *Table
	pins *Technicians // AuthenticateTechnician's (technician.go)
	log  *slog.Logger
	edge *edge // the Slips stream's per-message checks (slipstream.go)
}

// encoded is an event's wire form, made once and shared by every stream that sends it: a
// broadcast to a hundred terminals is converted once, not a hundred times, and by the first
// stream to reach it rather than under the table's lock. gRPC still marshals it per stream.
type encoded struct {
	once sync.Once
	msg  *pb.TableEvent
	err  error
}

// wire is the event as a wire message. Streams only read it, so they may share it.
func (e *event) wire() (*pb.TableEvent, error) {
	e.enc.once.Do(func() {
		e.enc.msg, e.enc.err = wire.EventPB(e.ev)
		if e.enc.err == nil {
			e.enc.msg.Seq, e.enc.msg.ServerTimeUnixNanos = e.seq, e.at.UnixNano()
		}
	})
	return e.enc.msg, e.enc.err
}

// Watch streams the table to a terminal: its snapshot, then the table's events in order.
//
// A terminal that asks for batches (WatchRequest.batches) is sent every event waiting on its
// stream as one message (EventBatch, each event with its own seq): at an outcome the table
// queues the outcome, the result phase and the terminal's settlement together, and one message
// instead of three is one gRPC frame, one TLS record and one read at the terminal instead of
// three of each, for each of 1,000 terminals while they all wait for their balance. A terminal
// that does not ask gets the same events one message each. The snapshot always goes alone.
func (s *terminalService) Watch(req *pb.WatchRequest, stream grpc.ServerStreamingServer[pb.TableEvent]) error {
	sub, _ := s.t.Subscribe(callerID(stream.Context()))
	defer s.t.Unsubscribe(sub)
	batches, first := req.GetBatches(), true
	var evs []*event
	for {
		select {
		case <-stream.Context().Done():
			return stream.Context().Err()
		case <-sub.dropped:
			return status.Error(codes.ResourceExhausted, "too far behind the table: resubscribe for a fresh snapshot")
		case entry := <-sub.ch:
			if !batches || first {
				first = false
				for _, ev := range entry {
					if err := sendEvents(stream, []*event{ev}); err != nil {
						return err
					}
				}
				continue
			}
			evs = drain(sub.ch, append(evs[:0], entry...))
			if err := sendEvents(stream, evs); err != nil {
				return err
			}
		}
	}
}

// maxBatch bounds the events a handler gathers for one message: a stream far behind catches up
// in messages of a bounded size rather than in one of its whole buffer. An entry is never split.
const maxBatch = 64

// drain adds to evs the entries already waiting on ch, without waiting for more.
func drain(ch <-chan []*event, evs []*event) []*event {
	for len(evs) < maxBatch {
		select {
		case entry := <-ch:
			evs = append(evs, entry...)
		default:
			return evs
		}
	}
	return evs
}

// sendEvents writes events to a Watch stream in order: one alone as itself, several as one
// batch; events a batch may not hold (a snapshot) are sent one by one instead.
func sendEvents(stream grpc.ServerStreamingServer[pb.TableEvent], evs []*event) error {
	msgs := make([]*pb.TableEvent, len(evs))
	for i, ev := range evs {
		var err error
		if msgs[i], err = ev.wire(); err != nil {
			return status.Errorf(codes.Internal, "event %d: %v", ev.seq, err)
		}
	}
	if len(msgs) > 1 {
		if batch, err := wire.BatchPB(msgs); err == nil {
			if err := stream.Send(batch); err != nil {
				return err
			}
			for _, ev := range evs {
				ev.sent()
			}
			return nil
		}
	}
	for i, msg := range msgs {
		if err := stream.Send(msg); err != nil {
			return err
		}
		evs[i].sent()
	}
	return nil
}

func (s *terminalService) ServerTime(_ context.Context, req *pb.ServerTimeRequest) (*pb.ServerTimeResponse, error) {
	recv := s.t.now().UnixNano()
	return &pb.ServerTimeResponse{ClientSendUnixNanos: req.ClientSendUnixNanos, ServerReceiveUnixNanos: recv,
		ServerSendUnixNanos: s.t.now().UnixNano()}, nil
}

func (s *terminalService) UpdateSlip(ctx context.Context, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	return s.updateSlip(callerID(ctx), req, false)
}

// updateSlip is one slip update of a terminal, by the unary UpdateSlip or on the Slips stream
// (stream). On the stream, a slip acknowledged exactly as sent is answered without its wagers
// (wagers_as_sent): writing back the 20 wagers the terminal has just sent was a tenth of the
// table's CPU for a slip, and as much again for the terminal to read.
func (s *terminalService) updateSlip(terminal string, req *pb.UpdateSlipRequest, stream bool) (*pb.UpdateSlipResponse, error) {
	// Refused before any wager is converted.
	if len(req.Wagers) > MaxSlipWagers {
		return nil, invalid("a slip holds at most %d wagers, not %d", MaxSlipWagers, len(req.Wagers))
	}
	ack, sent, err := s.t.updateSlipSent(terminal, req.RoundId, req.Version, slipWagers(req.Wagers), req.Secret)
	if err != nil {
		return nil, err
	}
	if stream && sent {
		return &pb.UpdateSlipResponse{Slip: wire.SlipResultsPB(ack), Balance: ack.Available, WagersAsSent: true}, nil
	}
	return &pb.UpdateSlipResponse{Slip: wire.SlipPB(ack), Balance: ack.Available}, nil
}

// slipWagers reads a slip's wire wagers; one that cannot be read carries why, for the engine
// to refuse in its place.
func slipWagers(ws []*pb.Wager) []SlipWager {
	out := make([]SlipWager, len(ws))
	for i, w := range ws {
		spec, err := wire.SpecOf(w)
		if err == nil && w.PlacedBy != "" {
			err = errors.New("placed_by is the table's to set: a terminal's wagers are its own")
		}
		out[i] = SlipWager{Spec: spec, Amount: w.Amount, Card: w.PlayerCard, Err: err}
	}
	return out
}

func (s *terminalService) CallDealer(ctx context.Context, req *pb.CallDealerRequest) (*pb.CallDealerResponse, error) {
	return s.t.CallDealer(callerID(ctx), req.Reason)
}

func (s *terminalService) CreditNote(ctx context.Context, req *pb.CreditNoteRequest) (*pb.MoneyResponse, error) {
	return s.t.CreditNote(callerID(ctx), req)
}

func (s *terminalService) RedeemTicket(ctx context.Context, req *pb.RedeemTicketRequest) (*pb.RedeemTicketResponse, error) {
	return s.t.RedeemTicket(callerID(ctx), req)
}

func (s *terminalService) CommitRedeem(ctx context.Context, req *pb.TicketRequest) (*pb.MoneyResponse, error) {
	return s.t.CommitRedeem(callerID(ctx), req)
}

func (s *terminalService) CancelRedeem(ctx context.Context, req *pb.TicketRequest) (*pb.MoneyResponse, error) {
	return s.t.CancelRedeem(callerID(ctx), req)
}

func (s *terminalService) CashOut(ctx context.Context, req *pb.CashOutRequest) (*pb.CashOutResponse, error) {
	return s.t.CashOut(callerID(ctx), req)
}

func (s *terminalService) TicketPrinted(ctx context.Context, req *pb.TicketRequest) (*pb.MoneyResponse, error) {
	return s.t.TicketPrinted(callerID(ctx), req)
}

func (s *terminalService) TicketPrintFailed(ctx context.Context, req *pb.TicketPrintFailedRequest) (*pb.MoneyResponse, error) {
	return s.t.TicketPrintFailed(callerID(ctx), req)
}

func (s *terminalService) ConfirmBuyIn(ctx context.Context, req *pb.ConfirmBuyInRequest) (*pb.MoneyResponse, error) {
	return s.t.ConfirmBuyIn(callerID(ctx), req)
}

func (s *terminalService) RequestDealerCashOut(ctx context.Context, _ *pb.RequestDealerCashOutRequest) (*pb.RequestDealerCashOutResponse, error) {
	bal, err := s.t.RequestDealerCashOut(callerID(ctx))
	if err != nil {
		return nil, err
	}
	return &pb.RequestDealerCashOutResponse{Balance: bal}, nil
}

func (s *terminalService) AckDealerClose(ctx context.Context, req *pb.AckDealerCloseRequest) (*pb.AckDealerCloseResponse, error) {
	if req.CloseId == "" {
		return nil, status.Error(codes.InvalidArgument, "close_id is required")
	}
	if err := s.t.AckDealerClose(callerID(ctx), req.CloseId); err != nil {
		return nil, err
	}
	return &pb.AckDealerCloseResponse{}, nil
}

// ---- dealer service ---------------------------------------------------------------------------

type dealerService struct {
	pb.UnimplementedDealerServiceServer
	t *Table
}

func (s *dealerService) OpenTable(ctx context.Context, req *pb.OpenTableRequest) (*pb.TableStatus, error) {
	return s.t.OpenTable(actorOf(ctx), req.AutoDealer)
}

func (s *dealerService) CloseTable(ctx context.Context, _ *pb.CloseTableRequest) (*pb.TableStatus, error) {
	return s.t.CloseTable(actorOf(ctx))
}

func (s *dealerService) ScheduleClose(ctx context.Context, req *pb.ScheduleCloseRequest) (*pb.TableStatus, error) {
	if !req.Cancel && req.CloseAtUnixNanos <= 0 {
		return nil, invalid("close_at_unix_nanos: the time of closure is required")
	}
	return s.t.ScheduleClose(actorOf(ctx), time.Unix(0, req.CloseAtUnixNanos), req.Cancel)
}

func (s *dealerService) PlaceWager(ctx context.Context, req *pb.PlaceWagerRequest) (*pb.PlaceWagerResponse, error) {
	if req.Wager == nil {
		return nil, invalid("wager: required")
	}
	return s.t.PlaceWager(actorOf(ctx), req.TerminalId, req.RoundId, slipWagers([]*pb.Wager{req.Wager})[0])
}

func (s *dealerService) RefuseWager(ctx context.Context, req *pb.RefuseWagerRequest) (*pb.RefuseWagerResponse, error) {
	terminal, round, ref, err := RefusalOf(req)
	if err != nil {
		return nil, err
	}
	return s.t.RefuseWager(actorOf(ctx), terminal, round, ref)
}

func (s *dealerService) Dispute(ctx context.Context, req *pb.DisputeRequest) (*pb.TableStatus, error) {
	return s.t.Dispute(actorOf(ctx), req.RoundId, req.Note)
}

func (s *dealerService) ClearFault(ctx context.Context, req *pb.ClearFaultRequest) (*pb.TableStatus, error) {
	return s.t.ClearFault(actorOf(ctx), req.Note)
}

func (s *dealerService) GetStatus(context.Context, *pb.GetStatusRequest) (*pb.TableStatus, error) {
	return s.t.Status()
}

func (s *dealerService) SetWageringPeriod(ctx context.Context, req *pb.SetWageringPeriodRequest) (*pb.TableStatus, error) {
	return s.t.SetWageringPeriod(actorOf(ctx), time.Duration(req.WageringPeriodMs)*time.Millisecond)
}

func (s *dealerService) SetLimits(ctx context.Context, req *pb.SetLimitsRequest) (*pb.TableStatus, error) {
	l, err := wire.LimitsOf(req.Limits)
	if err != nil {
		return nil, invalid("%v", err)
	}
	if req.WarningMs < 0 || req.WarningMs > int64(10*time.Minute/time.Millisecond) {
		return nil, invalid("warning %d ms: must be 0 (unchanged) or a positive time shorter than the wagering period", req.WarningMs)
	}
	return s.t.SetTableLimits(actorOf(ctx), l, time.Duration(req.WarningMs)*time.Millisecond)
}

// SetPlayerLimits sets or clears a player's own limits (000 §4.3, 003 §4.6; players.go).
func (s *dealerService) SetPlayerLimits(ctx context.Context, req *pb.SetPlayerLimitsRequest) (*pb.TableStatus, error) {
	var l *roulette.Limits
	if !req.Clear {
		lim, err := wire.LimitsOf(req.Limits)
		if err != nil {
			return nil, invalid("player limits: %v", err)
		}
		l = &lim
	}
	return s.t.SetPlayerLimits(actorOf(ctx), req.TerminalId, req.PlayerCard, l)
}

func (s *dealerService) StartRound(ctx context.Context, _ *pb.StartRoundRequest) (*pb.TableStatus, error) {
	return s.t.StartRound(actorOf(ctx))
}

func (s *dealerService) LuckyBallDisplay(ctx context.Context, req *pb.LuckyBallDisplayRequest) (*pb.TableStatus, error) {
	return s.t.LuckyBallDisplay(actorOf(ctx), req.Working, req.Reason)
}

func (s *dealerService) SpinStarted(ctx context.Context, req *pb.RoundRequest) (*pb.TableStatus, error) {
	return s.t.SpinStarted(actorOf(ctx), req.RoundId)
}

func (s *dealerService) BallDropping(ctx context.Context, req *pb.RoundRequest) (*pb.TableStatus, error) {
	return s.t.BallDropping(actorOf(ctx), req.RoundId)
}

func (s *dealerService) EnterOutcome(ctx context.Context, req *pb.EnterOutcomeRequest) (*pb.TableStatus, error) {
	if req.ConfirmWheel {
		return s.t.ConfirmWheelOutcome(actorOf(ctx), req.RoundId, req.Number)
	}
	return s.t.EnterOutcome(actorOf(ctx), req.RoundId, req.Number)
}

func (s *dealerService) NoSpin(ctx context.Context, req *pb.RoundRequest) (*pb.TableStatus, error) {
	return s.t.NoSpin(actorOf(ctx), req.RoundId)
}

func (s *dealerService) CorrectOutcome(ctx context.Context, req *pb.CorrectOutcomeRequest) (*pb.TableStatus, error) {
	return s.t.CorrectOutcome(actorOf(ctx), req.RoundId, req.Number)
}

func (s *dealerService) InvalidateRound(ctx context.Context, req *pb.InvalidateRoundRequest) (*pb.TableStatus, error) {
	return s.t.InvalidateRound(actorOf(ctx), req.RoundId, req.Reason)
}

func (s *dealerService) CreditPlayer(ctx context.Context, req *pb.CreditPlayerRequest) (*pb.CreditPlayerResponse, error) {
	return s.t.CreditPlayer(actorOf(ctx), req)
}

func (s *dealerService) ClosePlayerAccount(ctx context.Context, req *pb.ClosePlayerAccountRequest) (*pb.ClosePlayerAccountResponse, error) {
	return s.t.ClosePlayerAccount(actorOf(ctx), req)
}

func (s *dealerService) Handpay(ctx context.Context, req *pb.HandpayRequest) (*pb.HandpayResponse, error) {
	return s.t.Handpay(actorOf(ctx), req)
}

func (s *dealerService) ConfirmJackpot(ctx context.Context, req *pb.ConfirmJackpotRequest) (*pb.TableStatus, error) {
	return s.t.ConfirmJackpot(actorOf(ctx), req.RoundId)
}

// GetAuditLog lists the latest audit events with who did each (auditlog.go).
func (s *dealerService) GetAuditLog(ctx context.Context, req *pb.GetAuditLogRequest) (*pb.GetAuditLogResponse, error) {
	return s.t.AuditLogOf(actorOf(ctx), req)
}

func (s *dealerService) ListOverpayments(_ context.Context, req *pb.ListOverpaymentsRequest) (*pb.ListOverpaymentsResponse, error) {
	return s.t.ListOverpayments(req.OpenOnly)
}

func (s *dealerService) ResolveOverpayment(ctx context.Context, req *pb.ResolveOverpaymentRequest) (*pb.Overpayment, error) {
	return s.t.ResolveOverpayment(actorOf(ctx), req)
}

func (s *dealerService) ReleaseTicketHold(ctx context.Context, req *pb.ReleaseTicketHoldRequest) (*pb.ReleaseTicketHoldResponse, error) {
	return s.t.ReleaseTicketHold(actorOf(ctx), req)
}

func (s *dealerService) ListAlarms(_ context.Context, req *pb.ListAlarmsRequest) (*pb.ListAlarmsResponse, error) {
	return s.t.ListAlarms(req.Limit)
}

func (s *dealerService) AckAlarm(ctx context.Context, req *pb.AckAlarmRequest) (*pb.Alarm, error) {
	return s.t.AckAlarm(actorOf(ctx), req)
}

// Listen is a convenience for tests and the demo: it serves the table on addr and returns the
// bound address and a stop function.
func Listen(t *Table, tlsCfg *tls.Config, addr string, opts ...Option) (string, func(), error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	s := NewGRPC(t, tlsCfg, opts...)
	go s.Serve(lis) //nolint:errcheck // Serve returns when stopped
	return lis.Addr().String(), s.Stop, nil
}
