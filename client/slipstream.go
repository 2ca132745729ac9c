package client

// Slip updates on the table's Slips stream (server/slipstream.go): one long-lived stream per
// client instead of one unary call per slip, which spared the server most of a slip's cost
// (a new HTTP/2 stream, headers and trailer each way). The terminal's contract is unchanged:
// UpdateSlip sends one whole slip version and returns its acknowledgement or refusal.
//
//   - The stream is opened at the first slip, not at Dial: a terminal that never wagers holds
//     none.
//   - Calls are serialised: one request, then its response, so a response always belongs to
//     the request just sent. A caller waits its turn for as long as its ctx allows.
//   - A refusal comes in the response (code and message) and is returned exactly as the unary
//     call's status would have been; the stream goes on.
//   - ctx ending (or CallTimeout) while a response is awaited cancels the stream: its response
//     would otherwise be read as the next call's. The next call opens a new one.
//   - A stream that ended (the link failed, the server restarted) is dropped and the next call
//     opens a new one. If it is found ended when a slip is sent on it — the slip cannot have
//     reached the server — the slip is sent once more on a new stream. Once a slip has been
//     sent it is never sent again: the table refuses a version it already has, so a resent
//     slip could be refused although it was taken (the unary call is not retried either).
//   - A table that answers the stream UNIMPLEMENTED (older than the stream) is asked by the
//     unary UpdateSlip from then on, for the life of the client.

import (
	"context"
	"errors"
	"io"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// slipStream is a client's Slips stream.
type slipStream struct {
	turn   chan struct{} // a one-slot semaphore: whoever holds it may use stream
	stream grpc.BidiStreamingClient[pb.UpdateSlipRequest, pb.UpdateSlipResponse]
	cancel context.CancelFunc // ends stream
	unary  atomic.Bool        // the table has no Slips stream: use UpdateSlip
	opened atomic.Int64       // streams opened, for tests
}

func newSlipStream() *slipStream { return &slipStream{turn: make(chan struct{}, 1)} }

// errStreamGone is a stream found ended before a slip could be sent on it.
var errStreamGone = errors.New("slip stream ended")

// updateSlip sends one slip and returns the table's response: a refusal as the status error
// the unary call would have returned.
func (c *Client) updateSlip(ctx context.Context, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	ss := c.slips
	if ss.unary.Load() {
		return c.updateSlipUnary(ctx, req)
	}
	cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	select {
	case ss.turn <- struct{}{}:
	case <-cctx.Done():
		return nil, status.FromContextError(cctx.Err()).Err()
	}
	defer func() { <-ss.turn }()
	for attempt := 0; ; attempt++ {
		res, err := c.sendSlip(cctx, req)
		if errors.Is(err, errStreamGone) && attempt == 0 {
			continue // it never left: once more on a new stream
		}
		if errors.Is(err, errStreamGone) {
			err = status.Error(codes.Unavailable, "the table's slip stream ended before the slip was sent")
		}
		if status.Code(err) == codes.Unimplemented && res == nil && ss.unary.Load() {
			return c.updateSlipUnary(ctx, req)
		}
		return res, err
	}
}

// sendSlip sends req on the stream (opening it if need be) and reads its response. The caller
// holds the turn.
func (c *Client) sendSlip(ctx context.Context, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	ss := c.slips
	fresh := false
	if ss.stream == nil {
		// The stream lives with the client, not with this call: a call's ctx ending cancels
		// it only while that call awaits its response (below).
		sctx, cancel := context.WithCancel(c.ctx)
		st, err := c.tc.Slips(sctx)
		if err != nil {
			cancel()
			return nil, c.streamFailed(err, true)
		}
		ss.stream, ss.cancel, fresh = st, cancel, true
		ss.opened.Add(1)
	}
	if err := ss.stream.Send(req); err != nil {
		// io.EOF: the stream had ended and the slip was not sent; its status is Recv's.
		_, rerr := ss.stream.Recv()
		c.dropSlipStream()
		if errors.Is(err, io.EOF) && !fresh && status.Code(rerr) != codes.Unimplemented {
			return nil, errStreamGone
		}
		if rerr == nil || errors.Is(rerr, io.EOF) {
			rerr = err
		}
		return nil, c.streamFailed(rerr, fresh)
	}
	// The response is awaited no longer than ctx: past it the stream is cancelled, because a
	// response read later would be taken for the next slip's.
	stop := context.AfterFunc(ctx, ss.cancel)
	res, err := ss.stream.Recv()
	if !stop() && err == nil {
		c.dropSlipStream() // cancelled just after its response came: that response is still this slip's
	}
	if err != nil {
		c.dropSlipStream()
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		if errors.Is(err, io.EOF) { // the table ended the stream with an OK status
			err = status.Error(codes.Unavailable, "the table ended the slip stream without answering the slip")
		}
		return nil, c.streamFailed(err, fresh)
	}
	if res.Code != int32(codes.OK) {
		return nil, status.Error(codes.Code(res.Code), res.Message)
	}
	if v := res.GetSlip().GetVersion(); v != req.Version {
		// Not this slip's answer: the stream is out of step, and nothing read from it can be
		// trusted. Never happens with a table that keeps the stream's order.
		c.dropSlipStream()
		return nil, status.Errorf(codes.Internal, "the slip stream answered version %d to version %d", v, req.Version)
	}
	return res, nil
}

// streamFailed is a stream's failure as the caller sees it. A table that does not have the
// stream (UNIMPLEMENTED on a new stream, before any response) is asked by the unary call from
// then on.
func (c *Client) streamFailed(err error, fresh bool) error {
	if fresh && status.Code(err) == codes.Unimplemented {
		c.slips.unary.Store(true)
		c.log.Info("the table has no slip stream; slips go by UpdateSlip", "err", err)
	}
	return err
}

// dropSlipStream ends the current stream; the next slip opens a new one. The caller holds the
// turn.
func (c *Client) dropSlipStream() {
	ss := c.slips
	if ss.cancel != nil {
		ss.cancel()
	}
	ss.stream, ss.cancel = nil, nil
}

// updateSlipUnary is UpdateSlip as a unary call (a table without the Slips stream).
func (c *Client) updateSlipUnary(ctx context.Context, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	return c.tc.UpdateSlip(cctx, req)
}
