package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// An abusive terminal holds a valid terminal certificate and sends the largest slips it can,
// several at once, for the whole wagering period: alternately a maximal slip (as many wagers as
// the server allows, call bets among them, every one priced) and an oversized one (100,000
// wagers, about 1 MB on the wire). The measured terminals' slip round-trip shows whether one
// such terminal can stall the table for the others.
//
// The abuser's slips are encoded once and sent as raw bytes (rawCodec): in this one process its
// client shares the 2 cores with the server and the measured terminals, and re-encoding a
// megabyte per send would measure the abuser's own encoder, not the server's defences.

const (
	abuseParallel  = 4       // slips in flight at once per abusive terminal
	abuseOversized = 100_000 // wagers in an oversized slip
	abuseMaximal   = 200     // wagers in a maximal slip (the server's cap, server.MaxSlipWagers)
)

// rawMsg is a message already in its wire form.
type rawMsg []byte

// rawCodec sends a rawMsg as it is and (un)marshals anything else as protobuf.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) ([]byte, error) {
	if r, ok := v.(rawMsg); ok {
		return r, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (rawCodec) Unmarshal(data []byte, v any) error { return proto.Unmarshal(data, v.(proto.Message)) }

var _ encoding.Codec = rawCodec{}

// abuseOpts is how an abusive terminal behaves.
type abuseOpts struct {
	rate   float64 // slips a second (0: as fast as it can)
	redial bool    // reconnect at once when cut off or disconnected, again and again
}

type abuser struct {
	id string
	abuseOpts
	dial    func() (*grpc.ClientConn, error)
	connMu  sync.Mutex
	conn    *grpc.ClientConn
	redials atomic.Int64
	// the wagers of each kind of slip, encoded as field 3 of UpdateSlipRequest
	maximal, oversized []byte
	version            atomic.Uint64
	sent, refused      atomic.Int64
	refusals           sync.Map // status message → count
}

func slipWagersWire(n int) []byte {
	req := &pb.UpdateSlipRequest{}
	nums := []string{"0", "17", "32", "5", "26"}
	for i := range n {
		w := &pb.Wager{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{nums[i%len(nums)]}, Amount: 100}
		if i%10 == 9 { // call bets: a neighbours bet is nine pieces to price
			w = &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{nums[i%len(nums)]}, Spread: 4, Amount: 100}
		}
		req.Wagers = append(req.Wagers, w)
	}
	b, err := proto.Marshal(req)
	if err != nil {
		panic(err)
	}
	return b
}

func newAbuser(ctx context.Context, id, addr string, cfg *tls.Config, o abuseOpts) (*abuser, error) {
	dial := func() (*grpc.ClientConn, error) {
		return grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)),
			grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}), grpc.MaxCallSendMsgSize(1<<30)))
	}
	conn, err := dial()
	if err != nil {
		return nil, err
	}
	a := &abuser{id: id, abuseOpts: o, dial: dial, conn: conn, maximal: slipWagersWire(abuseMaximal), oversized: slipWagersWire(abuseOversized)}
	// A chip account with money for every wager of a maximal slip: the load terminals' one
	// "load" note (the table's maximum balance), reported in escrow first as a cashier does.
	tc := pb.NewTerminalServiceClient(conn)
	if _, err := tc.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: "abuse", Amount: 10_000_000, NoteCode: "load"}); err != nil {
		conn.Close()
		return nil, fmt.Errorf("%s: note escrow: %w", id, err)
	}
	if _, err := tc.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "abuse", Amount: 10_000_000, NoteCode: "load"}); err != nil {
		conn.Close()
		return nil, fmt.Errorf("%s: credit: %w", id, err)
	}
	return a, nil
}

// Close closes its connection.
func (a *abuser) Close() error { a.connMu.Lock(); defer a.connMu.Unlock(); return a.conn.Close() }

// current is the connection to send on.
func (a *abuser) current() *grpc.ClientConn { a.connMu.Lock(); defer a.connMu.Unlock(); return a.conn }

// redialFrom replaces conn with a new connection, unless another sender already has.
func (a *abuser) redialFrom(conn *grpc.ClientConn) {
	a.connMu.Lock()
	defer a.connMu.Unlock()
	if a.conn != conn {
		return
	}
	c, err := a.dial()
	if err != nil {
		return
	}
	conn.Close()
	a.conn = c
	a.redials.Add(1)
	c.Connect() // at once, not at the next call
}

// run sends slips for the round until its deadline (or ctx ends).
func (a *abuser) run(ctx context.Context, roundID string, deadline time.Time) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var wg sync.WaitGroup
	// Paced (a.rate > 0), the slips go out at that rate between them, not as fast as they can.
	var pace <-chan time.Time
	if a.rate > 0 {
		tick := time.NewTicker(time.Duration(float64(time.Second) / a.rate))
		defer tick.Stop()
		pace = tick.C
	}
	for g := range abuseParallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; ctx.Err() == nil; i++ {
				if pace != nil {
					select {
					case <-pace:
					case <-ctx.Done():
						return
					}
				}
				wagers := a.maximal
				if i%2 == 1 {
					wagers = a.oversized
				}
				head, _ := proto.Marshal(&pb.UpdateSlipRequest{RoundId: roundID, Version: a.version.Add(1)})
				msg := append(append(rawMsg{}, head...), wagers...) // fields concatenate: one message
				out := new(pb.UpdateSlipResponse)
				conn := a.current()
				err := conn.Invoke(ctx, pb.TerminalService_UpdateSlip_FullMethodName, msg, out)
				if ctx.Err() != nil {
					return
				}
				a.sent.Add(1)
				if err != nil {
					a.refused.Add(1)
					key := status.Code(err).String()
					if strings.Contains(err.Error(), "cut off") {
						key = "cut-off" // told it is cut off (ResourceExhausted)
					}
					n, _ := a.refusals.LoadOrStore(key, new(atomic.Int64))
					n.(*atomic.Int64).Add(1)
					switch {
					case a.redial && (key == "cut-off" || status.Code(err) == codes.Unavailable):
						a.redialFrom(conn) // a hostile cabinet: straight back on a new connection
					case status.Code(err) == codes.Unavailable:
						time.Sleep(10 * time.Millisecond) // a reset link: do not spin
					}
				}
			}
		}()
	}
	wg.Wait()
}

func (a *abuser) String() string {
	s := fmt.Sprintf("%s: %d slips sent, %d refused", a.id, a.sent.Load(), a.refused.Load())
	if a.redial {
		s += fmt.Sprintf(", %d reconnects,", a.redials.Load())
	}
	a.refusals.Range(func(k, v any) bool {
		s += fmt.Sprintf(" %s×%d", k, v.(*atomic.Int64).Load())
		return true
	})
	return s
}
