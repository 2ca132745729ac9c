package server

import (
	"context"
	"crypto/tls"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/tablegames/ats/proto/wire"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/pki"
)

// NewGRPC returns a gRPC server for the table over mutual TLS, with the terminal and dealer
// services, the standard health service and server reflection (so grpcurl can drive a table).
// Every call needs a client certificate of the CA; terminal calls need the terminal role and
// dealer calls the dealer role.
func NewGRPC(t *Table, tlsCfg *tls.Config) *grpc.Server {
	s := grpc.NewServer(
		grpc.Creds(credentials.NewTLS(tlsCfg)),
		grpc.ChainUnaryInterceptor(unaryAuth, anchorHeads(t)), // anchor.go: the journal heads
		grpc.ChainStreamInterceptor(streamAuth),
		// Terminals keep their Watch stream alive through idle periods; a dead link is noticed
		// within seconds, which is what voids a lost terminal's wagers in time (rule 9.7.1).
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 2 * time.Second, Timeout: 2 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
	)
	pb.RegisterTerminalServiceServer(s, &terminalService{t: t})
	pb.RegisterDealerServiceServer(s, &dealerService{t: t})
	h := health.NewServer()
	h.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.TerminalService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(pb.DealerService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, h)
	reflection.Register(s)
	return s
}

type identityKey struct{}

type identity struct{ role, id string }

// roleFor is the role a method's service demands; "" for health and reflection, which any
// holder of a table certificate may call.
func roleFor(method string) string {
	switch {
	case strings.HasPrefix(method, "/"+pb.TerminalService_ServiceDesc.ServiceName+"/"):
		return pki.RoleTerminal
	case strings.HasPrefix(method, "/"+pb.DealerService_ServiceDesc.ServiceName+"/"):
		return pki.RoleDealer
	}
	return ""
}

func authenticate(ctx context.Context, method string) (context.Context, error) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return nil, status.Error(codes.Unauthenticated, "no peer")
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok || len(ti.State.VerifiedChains) == 0 || len(ti.State.VerifiedChains[0]) == 0 {
		return nil, status.Error(codes.Unauthenticated, "a verified client certificate is required")
	}
	role, id, err := pki.Identity(ti.State.VerifiedChains[0][0])
	if err != nil {
		return nil, status.Error(codes.Unauthenticated, err.Error())
	}
	if want := roleFor(method); want != "" && want != role {
		return nil, status.Errorf(codes.PermissionDenied, "%s %q may not call %s", role, id, method)
	}
	return context.WithValue(ctx, identityKey{}, identity{role, id}), nil
}

func unaryAuth(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ctx, err := authenticate(ctx, info.FullMethod)
	if err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

type authedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s authedStream) Context() context.Context { return s.ctx }

func streamAuth(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, err := authenticate(ss.Context(), info.FullMethod)
	if err != nil {
		return err
	}
	return handler(srv, authedStream{ss, ctx})
}

func callerID(ctx context.Context) string {
	id, _ := ctx.Value(identityKey{}).(identity)
	return id.id
}

// ---- terminal service -----------------------------------------------------------------------

type terminalService struct {
	pb.UnimplementedTerminalServiceServer
	t *Table
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
func (s *terminalService) Watch(_ *pb.WatchRequest, stream grpc.ServerStreamingServer[pb.TableEvent]) error {
	sub, _ := s.t.Subscribe(callerID(stream.Context()))
	defer s.t.Unsubscribe(sub)
	for {
		select {
		case <-stream.Context().Done():
			return stream.Context().Err()
		case <-sub.dropped:
			return status.Error(codes.ResourceExhausted, "too far behind the table: resubscribe for a fresh snapshot")
		case ev := <-sub.ch:
			msg, err := ev.wire()
			if err != nil {
				return status.Errorf(codes.Internal, "event %d: %v", ev.seq, err)
			}
			if err := stream.Send(msg); err != nil {
				return err
			}
		}
	}
}

func (s *terminalService) ServerTime(_ context.Context, req *pb.ServerTimeRequest) (*pb.ServerTimeResponse, error) {
	recv := s.t.now().UnixNano()
	return &pb.ServerTimeResponse{ClientSendUnixNanos: req.ClientSendUnixNanos, ServerReceiveUnixNanos: recv,
		ServerSendUnixNanos: s.t.now().UnixNano()}, nil
}

func (s *terminalService) UpdateSlip(ctx context.Context, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	ack, err := s.t.UpdateSlip(callerID(ctx), req.RoundId, req.Version, slipWagers(req.Wagers))
	if err != nil {
		return nil, err
	}
	return &pb.UpdateSlipResponse{Slip: wire.SlipPB(ack), Balance: ack.Available}, nil
}

// slipWagers reads a slip's wire wagers; one that cannot be read carries why, for the engine
// to refuse in its place.
func slipWagers(ws []*pb.Wager) []SlipWager {
	out := make([]SlipWager, len(ws))
	for i, w := range ws {
		spec, err := wire.SpecOf(w)
		out[i] = SlipWager{Spec: spec, Amount: w.Amount, Err: err}
	}
	return out
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

func (s *dealerService) OpenTable(_ context.Context, req *pb.OpenTableRequest) (*pb.TableStatus, error) {
	return s.t.OpenTable(req.AutoDealer)
}

func (s *dealerService) CloseTable(context.Context, *pb.CloseTableRequest) (*pb.TableStatus, error) {
	return s.t.CloseTable()
}

func (s *dealerService) GetStatus(context.Context, *pb.GetStatusRequest) (*pb.TableStatus, error) {
	return s.t.Status()
}

func (s *dealerService) SetWageringPeriod(_ context.Context, req *pb.SetWageringPeriodRequest) (*pb.TableStatus, error) {
	return s.t.SetWageringPeriod(time.Duration(req.WageringPeriodMs) * time.Millisecond)
}

func (s *dealerService) SetLimits(_ context.Context, req *pb.SetLimitsRequest) (*pb.TableStatus, error) {
	l, err := wire.LimitsOf(req.Limits)
	if err != nil {
		return nil, invalid("%v", err)
	}
	return s.t.SetLimits(l)
}

func (s *dealerService) StartRound(context.Context, *pb.StartRoundRequest) (*pb.TableStatus, error) {
	return s.t.StartRound()
}

func (s *dealerService) SpinStarted(_ context.Context, req *pb.RoundRequest) (*pb.TableStatus, error) {
	return s.t.SpinStarted(req.RoundId)
}

func (s *dealerService) BallDropping(_ context.Context, req *pb.RoundRequest) (*pb.TableStatus, error) {
	return s.t.BallDropping(req.RoundId)
}

func (s *dealerService) EnterOutcome(_ context.Context, req *pb.EnterOutcomeRequest) (*pb.TableStatus, error) {
	return s.t.EnterOutcome(req.RoundId, req.Number)
}

func (s *dealerService) NoSpin(_ context.Context, req *pb.RoundRequest) (*pb.TableStatus, error) {
	return s.t.NoSpin(req.RoundId)
}

func (s *dealerService) CorrectOutcome(_ context.Context, req *pb.CorrectOutcomeRequest) (*pb.TableStatus, error) {
	return s.t.CorrectOutcome(req.RoundId, req.Number)
}

func (s *dealerService) InvalidateRound(_ context.Context, req *pb.InvalidateRoundRequest) (*pb.TableStatus, error) {
	return s.t.InvalidateRound(req.RoundId, req.Reason)
}

func (s *dealerService) CreditPlayer(ctx context.Context, req *pb.CreditPlayerRequest) (*pb.CreditPlayerResponse, error) {
	return s.t.CreditPlayer(callerID(ctx), req)
}

func (s *dealerService) ClosePlayerAccount(ctx context.Context, req *pb.ClosePlayerAccountRequest) (*pb.ClosePlayerAccountResponse, error) {
	return s.t.ClosePlayerAccount(callerID(ctx), req)
}

func (s *dealerService) Handpay(ctx context.Context, req *pb.HandpayRequest) (*pb.HandpayResponse, error) {
	return s.t.Handpay(callerID(ctx), req)
}

func (s *dealerService) ConfirmJackpot(_ context.Context, req *pb.ConfirmJackpotRequest) (*pb.TableStatus, error) {
	return s.t.ConfirmJackpot(req.RoundId)
}

// Listen is a convenience for tests and the demo: it serves the table on addr and returns the
// bound address and a stop function.
func Listen(t *Table, tlsCfg *tls.Config, addr string) (string, func(), error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	s := NewGRPC(t, tlsCfg)
	go s.Serve(lis) //nolint:errcheck // Serve returns when stopped
	return lis.Addr().String(), s.Stop, nil
}
