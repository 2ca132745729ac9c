package server

// The Slips stream: UpdateSlip on one long-lived bidirectional stream per terminal.
//
// A slip update is the table's most frequent call (500 terminals × 10 a second in issue 16's
// load), and as a unary call most of its cost was not the slip: a profile of the server gave
// about two thirds of its CPU to gRPC's per-call work — a new HTTP/2 stream, HEADERS decoded
// (HPACK) and written back, the trailer, the interceptors, a context, and a TLS record and a
// write syscall for each of headers, message and trailer — against a tenth to pricing the
// slip. On the stream a slip is one DATA frame each way.
//
// What does not change: every message is checked as a unary call is. The stream's caller is
// its certificate (callerID, set by the edge's stream interceptor when the stream opens: a
// terminal can only ever update its own slip, and only the terminal role may open it — the
// role table covers every TerminalService stream); the certificate is checked against the
// revocation list again at every message, as authenticate does at every unary call; each
// message spends one of the terminal's calls a second, counted by the same admit as the tap,
// so the cut-off still trips (cutoff.go); and the slip goes through the same updateSlip,
// with its limits, checks and audit. A refusal is answered in the response (code and
// message: the status UpdateSlip would have returned) so one refused slip does not end the
// stream; the stream ends with a status only when the terminal is cut off (its connections
// are being closed anyway) or its certificate revoked.
//
// One difference in what a refused call costs: the tap refuses a unary call over the rate
// before its message is read, while a message on the stream has been read (at most
// MaxRecvMsgBytes) before admit sees it. The cut-off bounds that as it bounds the 64 KiB
// window a refused unary call has already sent.

import (
	"context"
	"crypto/x509"
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Slips serves a terminal's Slips stream: one response per request, in order.
func (s *terminalService) Slips(stream grpc.BidiStreamingServer[pb.UpdateSlipRequest, pb.UpdateSlipResponse]) error {
	ctx := stream.Context()
	terminal := callerID(ctx)
	leaf := peerLeaf(ctx)
	if terminal == "" || leaf == nil {
		// The edge's stream interceptor sets both before the handler runs; without them there
		// is no one to charge the slip to.
		return status.Error(codes.Unauthenticated, "a terminal's verified certificate is required")
	}
	if s.edge == nil {
		// Without the edge no slip could be checked against the revocation list or the rate:
		// refused rather than served unchecked.
		return status.Error(codes.Internal, "the table's edge is not set up for the slip stream")
	}
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil // the terminal closed its side
		}
		if err != nil {
			return err
		}
		res, err := s.streamSlip(terminal, leaf, req)
		if err != nil {
			return err
		}
		if err := stream.Send(res); err != nil {
			return err
		}
	}
}

// streamSlip answers one slip of a terminal's stream. It returns an error only for what ends
// the stream (a revoked certificate, a cut-off); every other refusal is the response's.
func (s *terminalService) streamSlip(terminal string, leaf *x509.Certificate, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	if s.edge.revoked.Revoked(leaf) {
		return nil, status.Errorf(codes.Unauthenticated, "the certificate of terminal %q (serial %s) is revoked", terminal, leaf.SerialNumber)
	}
	if cut, err := s.edge.admit(terminal); err != nil {
		if cut {
			return nil, err
		}
		return refusedSlip(err), nil
	}
	res, err := s.updateSlip(terminal, req, true)
	if err != nil {
		return refusedSlip(err), nil
	}
	return res, nil
}

// refusedSlip is a refusal carried in a stream's response, as the status UpdateSlip returns.
func refusedSlip(err error) *pb.UpdateSlipResponse {
	st := status.Convert(err)
	code := st.Code()
	if code == codes.OK {
		code = codes.Unknown // never "accepted" by mistake
	}
	return &pb.UpdateSlipResponse{Code: int32(code), Message: st.Message()}
}

// peerLeaf is the verified client certificate of a call's connection.
func peerLeaf(ctx context.Context) *x509.Certificate {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return nil
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok || len(ti.State.VerifiedChains) == 0 || len(ti.State.VerifiedChains[0]) == 0 {
		return nil
	}
	return ti.State.VerifiedChains[0][0]
}
