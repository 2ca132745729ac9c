package client

import (
	"context"
	"log/slog"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/testwait"
)

// The client's waits (the reconnect backoff, a money call's retry backoff) run on its
// injected clock: these tests set them to an hour, hold the fake clock still to see that
// nothing is attempted early, and move it to see the next attempt made.

// silentWatch is flaky whose Watch stream opens and never speaks, so the only timer on the
// clock is the one under test; downWatch counts Watch calls and refuses each as the link lost.
type silentWatch struct{ flaky }

func (*silentWatch) Watch(_ *pb.WatchRequest, s grpc.ServerStreamingServer[pb.TableEvent]) error {
	<-s.Context().Done()
	return s.Context().Err()
}

type downWatch struct {
	pb.UnimplementedTerminalServiceServer
	calls atomic.Int32
}

func (d *downWatch) Watch(*pb.WatchRequest, grpc.ServerStreamingServer[pb.TableEvent]) error {
	d.calls.Add(1)
	return status.Error(codes.Unavailable, "table restarting")
}

// dialFake dials srv served on an in-memory listener (bufconn), with cfg's other settings.
func dialFake(t *testing.T, srv pb.TerminalServiceServer, cfg Config) *Client {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	pb.RegisterTerminalServiceServer(s, srv)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	cfg.Addr, cfg.Logger = "passthrough:///bufnet", slog.New(slog.DiscardHandler)
	cfg.DialOptions = []grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	}
	c, err := Dial(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestMoneyRetryWaitsOnTheInjectedClock(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f := &silentWatch{flaky: flaky{fail: 1}}
	c := dialFake(t, f, Config{Clock: clk, BaseBackoff: time.Hour, MaxBackoff: time.Hour})
	attempts := func() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.keys) }
	type result struct {
		m   table.Money
		err error
	}
	out := make(chan result, 1)
	go func() {
		m, err := c.CreditNote(context.Background(), "note-9", 700, "")
		out <- result{m, err}
	}()
	if !testwait.For(5*time.Second, func() bool { return clk.Pending() == 1 }) {
		t.Fatalf("no retry wait set on the injected clock after %d attempts", attempts())
	}
	if n := attempts(); n != 1 {
		t.Fatalf("%d attempts before the clock moved: the lost first attempt was retried without waiting", n)
	}
	clk.Advance(time.Hour) // the ceiling: whatever the jitter drew, the wait is over
	select {
	case r := <-out:
		if r.err != nil || r.m.Balance != 700 || attempts() != 2 {
			t.Fatalf("credit after the wait: %+v %v, %d attempts", r.m, r.err, attempts())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the retry did not come once the clock moved past its wait")
	}
}

func TestReconnectWaitsOnTheInjectedClock(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	d := &downWatch{}
	c := dialFake(t, d, Config{Clock: clk, BaseBackoff: time.Hour, MaxBackoff: time.Hour})
	for want := int32(1); want <= 3; want++ {
		if down := next[table.Connection](t, c); down.Up {
			t.Fatalf("attempt %d: link up from a table that refuses every stream", want)
		}
		if !testwait.For(5*time.Second, func() bool { return clk.Pending() == 1 }) {
			t.Fatalf("attempt %d: no reconnect wait set on the injected clock", want)
		}
		if n := d.calls.Load(); n != want {
			t.Fatalf("%d streams asked for before the clock moved, want %d", n, want)
		}
		clk.Advance(time.Hour)
	}
}

// syncTable opens the stream with a snapshot, then stays quiet; it counts ServerTime calls.
type syncTable struct {
	pb.UnimplementedTerminalServiceServer
	calls atomic.Int32
}

func (s *syncTable) Watch(_ *pb.WatchRequest, st grpc.ServerStreamingServer[pb.TableEvent]) error {
	snap := &pb.TableEvent{Seq: 1, Event: &pb.TableEvent_Snapshot{Snapshot: &pb.Snapshot{TerminalId: "T1",
		Config: &pb.TableConfig{TableId: "t", Wheel: pb.Wheel_WHEEL_SINGLE_ZERO}}}}
	if err := st.Send(snap); err != nil {
		return err
	}
	<-st.Context().Done()
	return st.Context().Err()
}

func (s *syncTable) ServerTime(_ context.Context, req *pb.ServerTimeRequest) (*pb.ServerTimeResponse, error) {
	s.calls.Add(1)
	return &pb.ServerTimeResponse{ServerReceiveUnixNanos: req.ClientSendUnixNanos, ServerSendUnixNanos: req.ClientSendUnixNanos}, nil
}

// The clock offset is measured again every SyncEvery of the injected clock: not a nanosecond
// sooner, and once each time it comes round.
func TestClockResyncRunsOnTheInjectedClock(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := &syncTable{}
	c := dialFake(t, s, Config{Clock: clk, SyncEvery: time.Hour})
	if up := next[table.Connection](t, c); !up.Up {
		t.Fatalf("link not up: %+v", up)
	}
	if n := s.calls.Load(); n != 5 {
		t.Fatalf("%d exchanges on connecting, want 5", n)
	}
	for want := int32(6); want <= 7; want++ {
		if !testwait.For(5*time.Second, func() bool { return clk.Pending() == 1 }) {
			t.Fatal("no resync wait set on the injected clock")
		}
		clk.Advance(time.Hour - time.Nanosecond)
		if n, p := s.calls.Load(), clk.Pending(); n != want-1 || p != 1 {
			t.Fatalf("a nanosecond early: %d exchanges, %d timers; want %d, 1", n, p, want-1)
		}
		clk.Advance(time.Nanosecond)
		if !testwait.For(5*time.Second, func() bool { return s.calls.Load() == want }) {
			t.Fatalf("%d exchanges once the hour was up, want %d", s.calls.Load(), want)
		}
	}
}
