package server

import (
	"context"
	"crypto/tls"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/pki"
)

// Attack (issue 13, 7): one terminal flooding the table with calls. Its calls over the rate
// were refused, but it kept coming, and each refusal still cost the server the window of data
// the call had sent. A terminal that keeps calling over its rate is cut off: the call that
// crosses the line is told why (ResourceExhausted, "cut off for"), its connections — its
// Watch stream too — are closed, a reconnect is refused until the cut-off ends, an alarm names
// it on the dealer's console, and a second cut-off lasts twice as long. Another terminal
// betting at an honest pace through all of it has every slip served. No timing is asserted:
// only who was served and who was refused, and what they were told.
func TestAbusiveTerminalIsCutOffAndOthersServed(t *testing.T) {
	const base = 400 * time.Millisecond
	r := newRigWith(t, nil, WithCutoff(base))
	honest, round := openRound(t, r, "T2", 1_000_000)
	abuser := r.terminal("X1")
	if err := r.buyIn(abuser, "X1", "x", 1_000_000); err != nil {
		t.Fatal(err)
	}
	aw := r.watch(abuser)
	defer aw.cancel()

	// The honest terminal: a slip every 40 ms (25 calls a second, half its rate) until told to
	// stop; every one must be served.
	stop := make(chan struct{})
	var served, failed atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(40 * time.Millisecond)
		defer tick.Stop()
		for v := uint64(1); ; v++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			_, err := honest.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: v, Wagers: []*pb.Wager{straight("17", 100)}})
			if err != nil {
				failed.Add(1)
				t.Errorf("honest slip v%d: %v", v, err)
				continue
			}
			served.Add(1)
		}
	}()

	// flood calls as fast as it can until it is cut off, and returns what it was told.
	flood := func(what string) (admitted, refused int, cut error) {
		t.Helper()
		for i := range 100_000 {
			_, err := abuser.ServerTime(ctx, &pb.ServerTimeRequest{})
			switch {
			case err == nil:
				admitted++
			case code(err) == codes.ResourceExhausted && strings.Contains(err.Error(), "more than 50 calls a second"):
				refused++
			case code(err) == codes.ResourceExhausted && strings.Contains(err.Error(), "cut off for"):
				return admitted, refused, err
			default:
				t.Fatalf("%s: call %d: %v", what, i, err)
			}
		}
		t.Fatalf("%s: 100,000 calls and never cut off", what)
		return
	}
	admitted, refused, cut := flood("first flood")
	// Its burst is served (less the three calls of its buy-in and Watch), then CutoffStrikes
	// refusals (and the few forgiven while it flooded).
	if admitted < TerminalCallBurst-3 || refused < CutoffStrikes {
		t.Errorf("cut off after %d calls served and %d refused: want at least %d and %d", admitted, refused, TerminalCallBurst-3, CutoffStrikes)
	}
	if !strings.Contains(cut.Error(), `terminal "X1" cut off for 400ms`) || !strings.Contains(cut.Error(), "connections are closed") {
		t.Errorf("the cut-off says: %v", cut)
	}
	// Its Watch stream is closed with the connection.
	for open := true; open; {
		select {
		case _, open = <-aw.events: // events sent before the cut; closed when the stream ends
		case <-time.After(10 * time.Second):
			t.Fatal("the cut-off terminal's Watch stream is still open")
		}
	}

	// Until the cut-off ends nothing it sends is served: the closed connection (Unavailable)
	// and, once it has reconnected, the cut-off again at its first call.
	told := false
	begin := time.Now()
	for {
		_, err := abuser.ServerTime(ctx, &pb.ServerTimeRequest{})
		if err == nil {
			break
		}
		switch {
		case code(err) == codes.ResourceExhausted && strings.Contains(err.Error(), "is cut off until"):
			told = true
		case code(err) == codes.Unavailable:
		default:
			t.Fatalf("during the cut-off: %v", err)
		}
		if time.Since(begin) > 30*time.Second {
			t.Fatal("never served again after its cut-off")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !told {
		t.Error("a call made during the cut-off was never told it was cut off")
	}
	if time.Since(begin) < base/2 {
		t.Errorf("served again %v after the cut-off of %v", time.Since(begin), base)
	}

	// A second flood earns a cut-off twice as long.
	if _, _, cut = flood("second flood"); !strings.Contains(cut.Error(), "cut off for 800ms") {
		t.Errorf("the second cut-off says: %v", cut)
	}
	// While it is cut off, its address may open SuspectConnRate connections a second: a cabinet
	// reconnecting in a loop has the rest closed before their TLS handshake, whoever's
	// certificate they would show. (A TLS 1.3 client's handshake completes only if the
	// server went through with its own.)
	cfg, err := r.pki.ClientTLS(pki.RoleTerminal, "X1")
	if err != nil {
		t.Fatal(err)
	}
	handshakes := 0
	for range 20 {
		if c, err := tls.Dial("tcp", r.addr, cfg); err == nil {
			handshakes++
			c.Close()
		}
	}
	if handshakes == 0 || handshakes >= 10 {
		t.Errorf("%d of 20 quick reconnects during the cut-off got a handshake: want a few (%d a second)", handshakes, SuspectConnRate)
	}
	close(stop)
	wg.Wait()
	if served.Load() == 0 || failed.Load() != 0 {
		t.Errorf("the honest terminal: %d slips served, %d failed", served.Load(), failed.Load())
	}

	// The dealer's console shows both cut-offs with the terminal's identity; so does the audit log.
	var alarms []*pb.Alarm
	for i := 0; ; i++ {
		al, err := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if alarms = al.Alarms; len(alarms) >= 2 || i > 200 {
			break
		}
		time.Sleep(10 * time.Millisecond) // recorded off the connection's reader
	}
	if len(alarms) != 2 {
		t.Fatalf("alarms: %v, want two", alarms)
	}
	for i, a := range alarms {
		if a.Kind != AlarmCallFlood || a.TerminalId != "X1" {
			t.Errorf("alarm %d: %v", i, a)
		}
	}
	if !strings.Contains(alarms[0].Detail, "cut-off 2") || !strings.Contains(alarms[1].Detail, "cut-off 1") {
		t.Errorf("alarms, newest first: %v", alarms)
	}
	if st := r.status(); len(st.Alarms) != 2 {
		t.Errorf("status alarms: %v", st.Alarms)
	}
}

// A terminal's calls over its rate are still refused with the cut-off disabled, and it is
// never cut off (what a fuzz target or a test flooding on purpose asks for).
func TestCutoffDisabledStillRefusesOverTheRate(t *testing.T) {
	r := newRigWith(t, nil, WithCutoff(0))
	c := r.terminal("T1")
	var admitted, refused int
	for i := range 2 * (TerminalCallBurst + CutoffStrikes) {
		_, err := c.ServerTime(context.Background(), &pb.ServerTimeRequest{})
		switch {
		case err == nil:
			admitted++
		case code(err) == codes.ResourceExhausted && strings.Contains(err.Error(), "more than 50 calls a second"):
			refused++
		default:
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if admitted < TerminalCallBurst || refused == 0 {
		t.Fatalf("%d served, %d refused", admitted, refused)
	}
}

// BenchmarkMaximalSlip is what the most a terminal may send in one call costs the table: a
// slip of MaxSlipWagers wagers (one in ten a neighbours bet of nine pieces), read off the wire
// and priced. A terminal may start TerminalCallRate calls a second without being cut off, so
// this times that rate is the most CPU one terminal can take from the table.
func BenchmarkMaximalSlip(b *testing.B) {
	r := newRig(b)
	_, round := openRound(b, r, "T1", 10_000_000)
	ws := make([]*pb.Wager, MaxSlipWagers)
	nums := []string{"0", "17", "32", "5", "26"}
	for i := range ws {
		ws[i] = straight(nums[i%len(nums)], 100)
		if i%10 == 9 {
			ws[i] = &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{nums[i%len(nums)]}, Spread: 4, Amount: 100}
		}
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := r.table.UpdateSlip("T1", round, uint64(i+1), slipWagers(ws)); err != nil {
			b.Fatal(err)
		}
	}
}
