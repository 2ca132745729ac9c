package client

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/testwait"
)

// slipTable is a fake table's slip service, with the Slips stream (stream true) or without it
// (a table older than the stream: Slips is UNIMPLEMENTED).
type slipTable struct {
	pb.UnimplementedTerminalServiceServer
	stream bool

	mu      sync.Mutex
	seen    []uint64               // every version received, by either path, in order
	unary   int                    // UpdateSlip calls
	streams int                    // Slips streams opened
	refuse  map[uint64]codes.Code  // versions answered with a refusal
	hold    map[uint64]chan uint64 // versions answered only when told (the version to answer)
	breakAt map[uint64]bool        // versions whose stream ends instead of answering
	endAt   map[uint64]bool        // versions answered, then the stream ends
	asSent  int                    // answer "as sent" with this many results more than wagers (-1: never)
}

func (f *slipTable) answer(req *pb.UpdateSlipRequest) *pb.UpdateSlipResponse {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, req.Version)
	if c, ok := f.refuse[req.Version]; ok {
		return &pb.UpdateSlipResponse{Code: int32(c), Message: fmt.Sprintf("slip version %d refused", req.Version)}
	}
	res := &pb.UpdateSlipResponse{Slip: &pb.Slip{RoundId: req.RoundId, Version: req.Version, Total: 100 * int64(len(req.Wagers))}, Balance: 1000}
	if f.asSent >= 0 && len(req.Wagers) > 0 {
		res.WagersAsSent = true
		for range len(req.Wagers) + f.asSent {
			res.Slip.Results = append(res.Slip.Results, &pb.WagerResult{Accepted: 100})
		}
	} else {
		res.Slip.Wagers = req.Wagers
	}
	return res
}

func (f *slipTable) UpdateSlip(_ context.Context, req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	f.mu.Lock()
	f.unary++
	f.mu.Unlock()
	res := f.answer(req)
	if res.Code != 0 {
		return nil, status.Error(codes.Code(res.Code), res.Message)
	}
	res.WagersAsSent = false // never on the unary call
	res.Slip.Wagers = req.Wagers
	return res, nil
}

func (f *slipTable) Slips(st grpc.BidiStreamingServer[pb.UpdateSlipRequest, pb.UpdateSlipResponse]) error {
	if !f.stream {
		return status.Error(codes.Unimplemented, "unknown method Slips")
	}
	f.mu.Lock()
	f.streams++
	f.mu.Unlock()
	for {
		req, err := st.Recv()
		if err != nil {
			return nil
		}
		f.mu.Lock()
		brk, end, hold := f.breakAt[req.Version], f.endAt[req.Version], f.hold[req.Version]
		f.mu.Unlock()
		if brk {
			f.answer(req) // received, never answered
			return status.Error(codes.Unavailable, "link lost")
		}
		res := f.answer(req)
		if hold != nil {
			v, ok := <-hold
			if !ok {
				return nil
			}
			res.Slip.Version = v // what a table out of step would answer
		}
		if err := st.Send(res); err != nil {
			return err
		}
		if end {
			return nil
		}
	}
}

// counts is how many streams and unary calls the table has served.
func (f *slipTable) counts() (streams, unary int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.streams, f.unary
}

func (f *slipTable) versions() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint64(nil), f.seen...)
}

// dialSlipTable serves f on an in-memory connection and dials it.
func dialSlipTable(t *testing.T, f *slipTable) *Client {
	t.Helper()
	return dialFake(t, f, Config{CallTimeout: 2 * time.Second})
}

func slipOf(n int) []table.SlipBet { return make([]table.SlipBet, 0, n) }

// Calls from many goroutines at once each get their own slip's answer, all on one stream.
func TestSlipStreamAnswersEachCallItsOwn(t *testing.T) {
	f := &slipTable{stream: true}
	c := dialSlipTable(t, f)
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				v := uint64(g*1000 + i + 1)
				ack, err := c.UpdateSlip(context.Background(), "R1", v, slipOf(0))
				if err != nil {
					errs <- err
					return
				}
				if ack.Version != v || ack.RoundID != "R1" || ack.Available != 1000 {
					errs <- fmt.Errorf("slip v%d answered %+v", v, ack)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(f.versions()) != 200 || fStreams(f) != 1 || fUnary(f) != 0 {
		t.Errorf("%d slips on %d streams and %d unary calls: want 200 on 1 stream, no unary call", len(f.versions()), fStreams(f), fUnary(f))
	}
}

// A refusal comes back as the unary call's would — a table.Refusal with its code and message —
// and the stream goes on serving.
func TestSlipStreamRefusalInBand(t *testing.T) {
	f := &slipTable{stream: true, refuse: map[uint64]codes.Code{2: codes.FailedPrecondition, 3: codes.ResourceExhausted}}
	c := dialSlipTable(t, f)
	if _, err := c.UpdateSlip(context.Background(), "R1", 1, nil); err != nil {
		t.Fatal(err)
	}
	_, err := c.UpdateSlip(context.Background(), "R1", 2, nil)
	if status.Code(err) != codes.FailedPrecondition || !table.Refused(err) || !strings.HasSuffix(err.Error(), "desc = slip version 2 refused") {
		t.Fatalf("a refused slip: %v (refusal %v)", err, table.Refused(err))
	}
	// Over the rate is not final, as with the unary call.
	if _, err := c.UpdateSlip(context.Background(), "R1", 3, nil); status.Code(err) != codes.ResourceExhausted || table.Refused(err) {
		t.Fatalf("over the rate: %v", err)
	}
	if ack, err := c.UpdateSlip(context.Background(), "R1", 4, nil); err != nil || ack.Version != 4 {
		t.Fatalf("after the refusals: %+v %v", ack, err)
	}
	if fStreams(f) != 1 || c.slips.opened.Load() != 1 {
		t.Errorf("%d streams opened (client: %d): a refusal must not end the stream", fStreams(f), c.slips.opened.Load())
	}
}

// A stream that breaks while a slip awaits its answer fails that call (the slip may have been
// taken: it is not sent again); the next call opens a new stream. A stream found ended before
// a slip is sent on it is replaced and the slip sent once, on the new one.
func TestSlipStreamReopensWhenBroken(t *testing.T) {
	f := &slipTable{stream: true, breakAt: map[uint64]bool{2: true}, endAt: map[uint64]bool{3: true}}
	c := dialSlipTable(t, f)
	if _, err := c.UpdateSlip(context.Background(), "R1", 1, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateSlip(context.Background(), "R1", 2, nil); status.Code(err) != codes.Unavailable || table.Refused(err) {
		t.Fatalf("the slip whose stream broke: %v, want Unavailable", err)
	}
	if ack, err := c.UpdateSlip(context.Background(), "R1", 3, nil); err != nil || ack.Version != 3 {
		t.Fatalf("on a new stream: %+v %v", ack, err)
	}
	// The table ended stream 2 after answering v3; once the client has seen it end, v4 goes
	// on stream 3, sent once.
	time.Sleep(100 * time.Millisecond)
	if ack, err := c.UpdateSlip(context.Background(), "R1", 4, nil); err != nil || ack.Version != 4 {
		t.Fatalf("after the table ended the stream: %+v %v", ack, err)
	}
	if got := f.versions(); fmt.Sprint(got) != "[1 2 3 4]" {
		t.Errorf("the table received %v: want each slip once", got)
	}
	if fStreams(f) != 3 {
		t.Errorf("%d streams opened, want 3", fStreams(f))
	}
}

// A table without the stream (UNIMPLEMENTED) is asked by UpdateSlip: the first slip is not
// lost, and the stream is not tried again.
func TestSlipStreamFallsBackToUnary(t *testing.T) {
	f := &slipTable{refuse: map[uint64]codes.Code{3: codes.InvalidArgument}}
	c := dialSlipTable(t, f)
	for v := uint64(1); v <= 4; v++ {
		ack, err := c.UpdateSlip(context.Background(), "R1", v, nil)
		if v == 3 {
			if status.Code(err) != codes.InvalidArgument || !table.Refused(err) {
				t.Fatalf("v3: %v, want the unary refusal", err)
			}
			continue
		}
		if err != nil || ack.Version != v {
			t.Fatalf("v%d: %+v %v", v, ack, err)
		}
	}
	if fUnary(f) != 4 || fmt.Sprint(f.versions()) != "[1 2 3 4]" || c.slips.opened.Load() != 1 {
		t.Errorf("%d unary calls, versions %v, %d streams tried: want 4, [1 2 3 4], 1", fUnary(f), f.versions(), c.slips.opened.Load())
	}
}

// A caller whose ctx ends while its slip awaits the answer gets the ctx's error; the late
// answer is never taken for the next slip's, which goes on a new stream.
func TestSlipStreamCancelledCall(t *testing.T) {
	hold := make(chan uint64)
	f := &slipTable{stream: true, hold: map[uint64]chan uint64{2: hold}}
	c := dialSlipTable(t, f)
	if _, err := c.UpdateSlip(context.Background(), "R1", 1, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.UpdateSlip(ctx, "R1", 2, nil)
	if status.Code(err) != codes.DeadlineExceeded || time.Since(start) > time.Second {
		t.Fatalf("a slip past its ctx: %v after %v", err, time.Since(start))
	}
	// v3 is answered on a new stream; the held v2 stream is gone.
	done := make(chan error, 1)
	go func() {
		ack, err := c.UpdateSlip(context.Background(), "R1", 3, nil)
		if err == nil && ack.Version != 3 {
			err = fmt.Errorf("v3 answered %+v", ack)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("v3 waited for v2's stream")
	}
	close(hold)
	// A caller waiting its turn behind a slow one gives up with its own ctx.
	hold4 := make(chan uint64)
	f.mu.Lock()
	f.hold = map[uint64]chan uint64{4: hold4}
	f.mu.Unlock()
	go c.UpdateSlip(context.Background(), "R1", 4, nil)
	if !testwait.For(5*time.Second, func() bool { return slices.Contains(f.versions(), 4) }) {
		t.Fatal("v4 never reached the table")
	}
	wctx, wcancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); wcancel() }()
	if _, err := c.UpdateSlip(wctx, "R1", 5, nil); status.Code(err) != codes.Canceled {
		t.Fatalf("waiting behind a slow slip: %v, want Canceled", err)
	}
	hold4 <- 4
	if fStreams(f) != 2 {
		t.Errorf("%d streams, want 2", fStreams(f))
	}
}

// A table out of step — an answer naming another version — is an error, never taken as this
// slip's acknowledgement; the stream is dropped.
func TestSlipStreamAnswerOutOfStep(t *testing.T) {
	hold := make(chan uint64, 1)
	hold <- 7
	f := &slipTable{stream: true, hold: map[uint64]chan uint64{1: hold}}
	c := dialSlipTable(t, f)
	if _, err := c.UpdateSlip(context.Background(), "R1", 1, nil); status.Code(err) != codes.Internal {
		t.Fatalf("an answer for v7 to v1: %v, want Internal", err)
	}
	if ack, err := c.UpdateSlip(context.Background(), "R1", 2, nil); err != nil || ack.Version != 2 {
		t.Fatalf("after: %+v %v", ack, err)
	}
	if fStreams(f) != 2 {
		t.Errorf("%d streams, want 2", fStreams(f))
	}
}

// A slip the table took as sent is answered without its wagers: the acknowledgement holds the
// bets the terminal sent, as attempted, with the table's results. An answer whose results do
// not match the slip sent is refused, never half-read.
func TestSlipStreamAsSent(t *testing.T) {
	f := &slipTable{stream: true}
	c := dialSlipTable(t, f)
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	s17, _ := layout.Inside(roulette.Straight, []roulette.Number{17})
	red, _ := layout.Outside(roulette.Red, 0)
	bets := []table.SlipBet{{Bet: roulette.Bet{Spot: s17}, Amount: 100, Card: "PC-1"}, {Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 900},
		{Bet: roulette.Bet{Spot: red}, Amount: 500}}
	ack, err := c.UpdateSlip(context.Background(), "R1", 1, bets)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ack.Bets, bets) || len(ack.Results) != 3 || ack.Results[2].Accepted != 100 || ack.Version != 1 || ack.Available != 1000 {
		t.Fatalf("as sent: %+v", ack)
	}
	f.mu.Lock()
	f.asSent = 1 // one result too many: not this slip's answer
	f.mu.Unlock()
	if _, err := c.UpdateSlip(context.Background(), "R1", 2, bets); err == nil || !strings.Contains(err.Error(), "4 results, for 3 wagers sent") {
		t.Fatalf("an answer with a result too many: %v", err)
	}
}

func fStreams(f *slipTable) int { n, _ := f.counts(); return n }

func fUnary(f *slipTable) int { _, n := f.counts(); return n }

// Through a real table over mutual TLS: slips go on the stream, the table restarts (its
// stream dies with the connection), and the first slip after the reconnect is sent on a new
// stream without an error: the old one had ended before the slip was sent.
func TestSlipStreamAcrossServerRestart(t *testing.T) {
	tt := startTable(t, time.Minute)
	if _, err := tt.tb.OpenTable("dealer:test", false); err != nil {
		t.Fatal(err)
	}
	c := tt.dial("T1")
	next[table.Snapshot](t, c)
	if err := c.ReportNoteEscrow(context.Background(), "n1", 5000, "AUD50"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreditNote(context.Background(), "n1", 5000, "AUD50"); err != nil {
		t.Fatal(err)
	}
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	s17, _ := layout.Inside(roulette.Straight, []roulette.Number{17})
	bets := []table.SlipBet{{Bet: roulette.Bet{Spot: s17}, Amount: 100}}
	st, err := tt.tb.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	ack, err := c.UpdateSlip(context.Background(), st.RoundId, 1, bets)
	if err != nil || ack.Total != 100 || ack.Available != 4900 || !reflect.DeepEqual(ack.Bets, bets) {
		t.Fatalf("slip before the restart: %+v %v", ack, err)
	}
	tt.shutdown()
	next[table.Connection](t, c)
	tt.start(time.Minute)
	for up := next[table.Connection](t, c); !up.Up; up = next[table.Connection](t, c) {
	}
	next[table.Snapshot](t, c)
	// The restart voided the round (001 §9.8.1); a new one, and a slip on a new stream.
	if _, err := tt.tb.OpenTable("dealer:test", false); err != nil {
		t.Log("open after restart:", err) // it may come back open
	}
	st, err = tt.tb.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	ack, err = c.UpdateSlip(context.Background(), st.RoundId, 1, bets)
	if err != nil || ack.Total != 100 || ack.Available != 4900 {
		t.Fatalf("the first slip after the restart: %+v %v", ack, err)
	}
	if n := c.slips.opened.Load(); n != 2 {
		t.Errorf("%d streams opened, want 2 (one before the restart, one after)", n)
	}
}
