package server

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// console is a dealer console's WatchTable stream read into a channel.
type console struct {
	cancel   context.CancelFunc
	statuses chan *pb.TableStatus
	err      chan error
}

func (r *rig) watchTable(c pb.DealerServiceClient) *console {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := c.WatchTable(ctx, &pb.WatchTableRequest{})
	if err != nil {
		cancel()
		r.t.Fatal(err)
	}
	w := &console{cancel: cancel, statuses: make(chan *pb.TableStatus, 4096), err: make(chan error, 1)}
	go func() {
		for {
			st, err := stream.Recv()
			if err != nil {
				w.err <- err
				close(w.statuses)
				return
			}
			w.statuses <- st
		}
	}()
	r.t.Cleanup(cancel)
	return w
}

// until returns the first status pred accepts, failing after 5 s.
func (w *console) until(t testing.TB, what string, pred func(*pb.TableStatus) bool) *pb.TableStatus {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case st, ok := <-w.statuses:
			if !ok {
				t.Fatalf("%s: the stream ended: %v", what, <-w.err)
			}
			if pred(st) {
				return st
			}
		case <-deadline:
			t.Fatalf("%s: not on the console's stream within 5 s", what)
		}
	}
}

func seat(st *pb.TableStatus, id string) *pb.TerminalStatus {
	for _, ts := range st.Terminals {
		if ts.TerminalId == id {
			return ts
		}
	}
	return nil
}

// The console is told of each kind of change without asking: the dealer's own action, a
// terminal connecting, a buy-in awaiting the player's confirmation, a slip's stake, the
// player's call, the deadline passing.
func TestWatchTableEveryChangeReachesTheConsole(t *testing.T) {
	r := newRig(t)
	w := r.watchTable(r.dealer)
	w.until(t, "the first status", func(st *pb.TableStatus) bool { return st.Phase == pb.Phase_PHASE_CLOSED })
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	w.until(t, "the table open", func(st *pb.TableStatus) bool { return st.Phase == pb.Phase_PHASE_IDLE })

	t1 := r.terminal("T1")
	tw := r.watch(t1)
	defer tw.cancel()
	w.until(t, "T1 connected", func(st *pb.TableStatus) bool { return seat(st, "T1").GetConnected() })

	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "b1", TerminalId: "T1", Amount: 5000}); err != nil {
		t.Fatal(err)
	}
	w.until(t, "the buy-in awaiting the player", func(st *pb.TableStatus) bool { return seat(st, "T1").GetBuyinAwaiting() == 5000 })
	pending := tw.until(t, func(ev *pb.TableEvent) bool { return ev.GetBuyIn() != nil }).GetBuyIn()
	if _, err := t1.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "c1", BuyInId: pending.BuyInId, Accept: true}); err != nil {
		t.Fatal(err)
	}
	w.until(t, "the buy-in confirmed", func(st *pb.TableStatus) bool {
		s := seat(st, "T1")
		return s.GetBuyinAwaiting() == 0 && s.GetBalance() == 5000
	})

	if _, err := t1.CallDealer(ctx, &pb.CallDealerRequest{Reason: "change please"}); err != nil {
		t.Fatal(err)
	}
	w.until(t, "the player's call", func(st *pb.TableStatus) bool { return seat(st, "T1").GetCallUnixNanos() == r.clock.Now().UnixNano() })

	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	w.until(t, "the wagering period", func(s *pb.TableStatus) bool {
		return s.Phase == pb.Phase_PHASE_WAGERING && s.RoundId == st.RoundId
	})
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("17", 500)}}); err != nil {
		t.Fatal(err)
	}
	w.until(t, "the seat's stake", func(s *pb.TableStatus) bool { return seat(s, "T1").GetSlipTotal() == 500 })

	r.clock.Add(21 * time.Second) // the deadline passes: the table closes the period by itself
	r.table.Advance(r.clock.Now())
	w.until(t, "no more bets", func(s *pb.TableStatus) bool { return s.Phase == pb.Phase_PHASE_NO_MORE_BETS })
}

// At rest the stream sends nothing: no timer, no keep-alive of its own.
func TestWatchTableAtRestSendsNothing(t *testing.T) {
	r := newRig(t)
	w := r.watchTable(r.dealer)
	w.until(t, "the first status", func(*pb.TableStatus) bool { return true })
	select {
	case st := <-w.statuses:
		t.Fatalf("a status sent with nothing changed: %v", st)
	case <-time.After(time.Second):
	}
}

// A console that stops reading never holds the table up, and when it reads again it gets the
// table as it is now, not every status in between (drop to latest).
func TestWatchTableSlowConsoleNeverBlocksTheTable(t *testing.T) {
	r := newRig(t)
	// The stream is opened and never read until the end: its window fills, then its handler
	// waits on the send, while the table goes on.
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := r.dealer.WatchTable(sctx, &pb.WatchTableRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	const seats, credits = 20, 30
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		for i := range seats * credits {
			id := fmt.Sprintf("T%02d", i%seats)
			if err := r.table.RegisterTerminal(id); err != nil {
				done <- err
				return
			}
			if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: fmt.Sprint("k", i), TerminalId: id, Amount: 100}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the table was held up by a console that does not read")
	}
	t.Logf("%d credits in %v with a console not reading", seats*credits, time.Since(start))
	// Now read: the latest status arrives, with a handful before it, not one per change.
	n := 0
	time.AfterFunc(10*time.Second, cancel) // a stream that never reaches the latest fails, not hangs
	for {
		st, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		n++
		if len(st.Terminals) == seats && seat(st, "T00").GetBuyinAwaiting() == credits*100 && seat(st, fmt.Sprintf("T%02d", seats-1)).GetBuyinAwaiting() == credits*100 {
			break
		}
	}
	if n > seats*credits/4 {
		t.Fatalf("%d statuses for %d changes: the stream queues every change instead of the latest", n, seats*credits)
	}
	t.Logf("%d statuses for %d changes", n, seats*credits)
}

// A console that goes away leaves nothing behind: its signal and its handler are freed (the
// goroutines counted, goleak-style).
func TestWatchTableCancelFreesIt(t *testing.T) {
	r := newRig(t)
	// A first stream and its end, so the connection's own goroutines are counted in the base.
	w := r.watchTable(r.dealer)
	w.until(t, "the first status", func(*pb.TableStatus) bool { return true })
	w.cancel()
	waitFor(t, "the first stream freed", func() bool { return r.table.watching() == 0 })
	base := runtime.NumGoroutine()
	var ws []*console
	for range 6 { // within the 8 calls a caller may have in progress, a stream being one

		w := r.watchTable(r.dealer)
		w.until(t, "the first status", func(*pb.TableStatus) bool { return true })
		ws = append(ws, w)
	}
	if n := r.table.watching(); n != 6 {
		t.Fatalf("%d streams registered, want 6", n)
	}
	for _, w := range ws {
		w.cancel()
	}
	waitFor(t, "every stream's signal freed", func() bool { return r.table.watching() == 0 })
	waitFor(t, "every stream's goroutines ended", func() bool { return runtime.NumGoroutine() <= base })
	// The table still tells a new console.
	w = r.watchTable(r.dealer)
	w.until(t, "a new console's first status", func(*pb.TableStatus) bool { return true })
}

// The stream is the dealer's and the supervisor's, never a terminal's.
func TestWatchTableRefusedToATerminal(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct {
		role string
		ok   bool
	}{{pki.RoleDealer, true}, {pki.RoleSupervisor, true}, {pki.RoleTerminal, false}, {pki.RoleCashier, false}} {
		stream, err := pb.NewDealerServiceClient(r.dial(c.role, "X1")).WatchTable(ctx, &pb.WatchTableRequest{})
		if err == nil {
			_, err = stream.Recv()
		}
		if (err == nil) != c.ok || (!c.ok && code(err) != codes.PermissionDenied) {
			t.Errorf("%s: %v", c.role, err)
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not within 5 s", what)
}
