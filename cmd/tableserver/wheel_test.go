package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/wheel"
	"github.com/tablegames/ats/internal/pgtest"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// wheelTable is `tableserver -wheel-port PTY` on a SQLite ledger, the emulated wheel serving the
// pty's other end, a dealer over gRPC and terminals through the client package.
type wheelTable struct {
	t      *testing.T
	emu    *emulator.Wheel
	dealer pb.DealerServiceClient
	terms  map[string]*client.Client
}

func startWheelTable(t *testing.T, terminals ...string) *wheelTable {
	t.Helper()
	return startWheelTableWith(t, roulette.SingleZero, nil, terminals...)
}

// startWheelTableWith starts the table with extra flags, the emulated wheel of kind.
func startWheelTableWith(t *testing.T, kind roulette.Wheel, flags []string, terminals ...string) *wheelTable {
	t.Helper()
	dir := t.TempDir()
	if err := pki.Init(dir, terminals); err != nil {
		t.Fatal(err)
	}
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	emu := emulator.NewWheel(emulator.WheelConfig{Wheel: kind, Heartbeat: 100 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { emu.Serve(ctx, pty.Device); close(served) }()
	// The wheel's rules hold carded or not: its terminals wager without cards (-carded=false).
	addr := startServer(t, dir, append([]string{"-period", "1h", "-carded=false", "-wheel-port", pty.Path}, flags...)...)
	t.Cleanup(func() {
		cancel()
		<-served
		pty.Close()
	})
	w := &wheelTable{t: t, emu: emu, dealer: pb.NewDealerServiceClient(dial(t, addr, dir, "dealer")), terms: map[string]*client.Client{}}
	for _, id := range terminals {
		cfg, err := client.LoadTLS(dir, id)
		if err != nil {
			t.Fatal(err)
		}
		c, err := client.Dial(client.Config{Addr: addr, TLS: cfg})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		w.terms[id] = c
	}
	if _, err := w.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := emu.Spin(24, wheel.Clockwise); err != nil {
		t.Fatal(err)
	}
	return w
}

// statusUntil polls the dealer's status until ok.
func (w *wheelTable) statusUntil(what string, ok func(*pb.TableStatus) bool) *pb.TableStatus {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, err := w.dealer.GetStatus(context.Background(), &pb.GetStatusRequest{})
		if err != nil {
			w.t.Fatal(err)
		}
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the dealer's status never showed %s: phase %v, proposal %v, wheel fault %q, alarms %v",
				what, st.Phase, st.WheelProposal, st.WheelFault, st.Alarms)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// event waits for terminal id's first event satisfying ok.
func (w *wheelTable) event(id, what string, ok func(table.Event) bool) table.Event {
	w.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e := <-w.terms[id].Events():
			if ok(e) {
				return e
			}
		case <-timeout:
			w.t.Fatalf("terminal %s never saw %s", id, what)
		}
	}
}

func (w *wheelTable) startRound() string {
	w.t.Helper()
	st, err := w.dealer.StartRound(context.Background(), &pb.StartRoundRequest{})
	if err != nil {
		w.t.Fatal(err)
	}
	return st.RoundId
}

func straight(n roulette.Number, cents int64) []table.SlipBet {
	return []table.SlipBet{{Bet: roulette.Bet{Spot: roulette.Spot{Kind: roulette.Straight, Mask: roulette.MaskOf(n)}}, Amount: cents}}
}

// SPEC §9.2, 001 §5.1.3, end to end: the emulated wheel's ball-drop, over a real pty into
// tableserver -wheel-port, locks every terminal and refuses their later slips; the number both
// sensors read is proposed, confirmed by the dealer with one action, and settles.
func TestRule9_2WheelBallDropLocksEveryTerminalAndItsConfirmedNumberSettles(t *testing.T) {
	wheelDropAndConfirm(t)
}

// The same on a floor's PostgreSQL (pgtest: a throwaway cluster; skipped without PostgreSQL
// unless ATS_REQUIRE_POSTGRES is set).
func TestRule9_2WheelBallDropLocksEveryTerminalOnPostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	wheelDropAndConfirm(t, "-db", dsn, "-ledger-key", filepath.Join(t.TempDir(), "floor.key"))
}

func wheelDropAndConfirm(t *testing.T, flags ...string) {
	ids := []string{"T01", "T02", "T03"}
	w := startWheelTableWith(t, roulette.SingleZero, flags, ids...)
	ctx := context.Background()
	for _, id := range ids {
		w.event(id, "the table", func(e table.Event) bool { _, ok := e.(table.Snapshot); return ok })
		if err := w.terms[id].ReportNoteEscrow(ctx, id+"-n", 5000, "AUD50"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.terms[id].CreditNote(ctx, id+"-n", 5000, "AUD50"); err != nil {
			t.Fatal(err)
		}
	}
	round := w.startRound()
	for _, id := range ids {
		if _, err := w.terms[id].UpdateSlip(ctx, round, 1, straight(17, 1000)); err != nil {
			t.Fatalf("%s: a slip in the period: %v", id, err)
		}
	}
	if err := w.emu.Launch(0); err != nil {
		t.Fatal(err)
	}
	if err := w.emu.Drop(12); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		w.event(id, "the ball-drop end the period", func(e table.Event) bool {
			p, ok := e.(table.PhaseChanged)
			return ok && p.RoundID == round && p.Phase == table.PhaseNoMoreBets && p.BallDropping
		})
		if _, err := w.terms[id].UpdateSlip(ctx, round, 2, straight(17, 2000)); err == nil {
			t.Fatalf("%s: a slip after the wheel's ball-drop was accepted", id)
		}
	}
	if err := w.emu.Read("17", "17"); err != nil {
		t.Fatal(err)
	}
	st := w.statusUntil("the wheel's proposal", func(st *pb.TableStatus) bool { return st.WheelProposal != nil })
	if st.WheelProposal.Number != "17" || st.WheelProposal.RoundId != round || st.Phase != pb.Phase_PHASE_NO_MORE_BETS {
		t.Fatalf("proposal %v in %v: want 17 of %s, waiting for the dealer", st.WheelProposal, st.Phase, round)
	}
	st, err := w.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, ConfirmWheel: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase != pb.Phase_PHASE_RESULT || st.History[0].Number != "17" {
		t.Fatalf("after the confirmation: %v, history %v", st.Phase, st.History)
	}
	for _, id := range ids {
		e := w.event(id, "its settlement", func(e table.Event) bool { s, ok := e.(table.Settled); return ok && s.RoundID == round })
		if s := e.(table.Settled); s.Number != 17 || s.Staked != 1000 || s.Returned != 36000 || s.Balance != 5000-1000+36000 {
			t.Errorf("%s settled %+v: want 10.00 on 17 (not the 20.00 sent after the drop) paid 360.00", id, s)
		}
	}
}

// SPEC §9.2, 004 §8.1, end to end: each fault the emulated wheel reports leaves no proposal, an
// alarm naming it on the dealer's console, the confirmation refused, and the dealer's no spin
// or manual entry works.
func TestRule9_2EveryWheelFaultLeavesTheDealerToDecide(t *testing.T) {
	w := startWheelTable(t, "T01")
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range []struct {
		name  string
		spin  func()
		alarm string
		// drops: the wheel reported the ball about to drop, which ends the period by itself
		// (the alarm of a fault at the launch can reach the table before the drop does).
		drops bool
	}{
		{"disagree", func() { must(w.emu.Launch(0)); must(w.emu.Drop(12)); must(w.emu.Read("17", "18")) }, "sensors disagree", true},
		{"SW same direction", func() { must(w.emu.Launch(wheel.Clockwise)); must(w.emu.Drop(12)); must(w.emu.Read("5", "5")) }, "SW fault", true},
		{"RV short spin", func() { must(w.emu.Launch(0)); must(w.emu.Drop(2)); must(w.emu.Read("5", "5")) }, "RV fault", true},
		{"OW out of wheel", func() { must(w.emu.Launch(0)); must(w.emu.Drop(12)); must(w.emu.Fault("ow", 0)) }, "OW fault", true},
		{"NB no ball", func() { must(w.emu.Launch(0)); must(w.emu.Fault("nb", 0)) }, "NB fault", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			round := w.startRound()
			c.spin()
			// A no-ball leaves the period open: the dealer ends it (the console's drop).
			st := w.statusUntil("the alarm", func(st *pb.TableStatus) bool {
				return len(st.Alarms) > 0 && strings.Contains(st.Alarms[0].Detail, c.alarm) && st.Alarms[0].Kind == server.AlarmWheel &&
					(!c.drops || st.Phase != pb.Phase_PHASE_WAGERING)
			})
			if st.Phase == pb.Phase_PHASE_WAGERING {
				var err error
				if st, err = w.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: round}); err != nil {
					t.Fatal(err)
				}
			}
			if st.WheelProposal != nil || !strings.Contains(st.WheelFault, c.alarm) {
				t.Fatalf("after %s: proposal %v, wheel fault %q", c.name, st.WheelProposal, st.WheelFault)
			}
			if _, err := w.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, ConfirmWheel: true}); err == nil {
				t.Fatalf("after %s the dealer confirmed an outcome the wheel did not propose", c.name)
			}
			if i%2 == 0 {
				if st, err := w.dealer.NoSpin(ctx, &pb.RoundRequest{RoundId: round}); err != nil || st.Phase != pb.Phase_PHASE_NO_MORE_BETS {
					t.Fatalf("no spin: %v %v", st, err)
				}
			}
			st, err := w.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "26"})
			if err != nil || st.History[0].Number != "26" {
				t.Fatalf("the dealer's manual entry: %v %v", st, err)
			}
		})
	}
}

// The table's kind of wheel is checked against the wheel's heartbeat: a single-zero wheel on a
// double-zero table (-rules star) is an alarm, and its reads are never proposed.
func TestWheelOfAnotherKindIsAnAlarmNotAnOutcome(t *testing.T) {
	w := startWheelTableWith(t, roulette.SingleZero, []string{"-rules", "star"})
	w.statusUntil("the wrong wheel's alarm", func(st *pb.TableStatus) bool {
		return len(st.Alarms) > 0 && strings.Contains(st.Alarms[0].Detail, "not the table's kind of wheel")
	})
	round := w.startRound()
	if err := w.emu.Launch(0); err != nil {
		t.Fatal(err)
	}
	if err := w.emu.Drop(12); err != nil {
		t.Fatal(err)
	}
	if err := w.emu.Read("17", "17"); err != nil {
		t.Fatal(err)
	}
	st := w.statusUntil("the read refused", func(st *pb.TableStatus) bool {
		return st.Phase == pb.Phase_PHASE_NO_MORE_BETS && strings.Contains(st.WheelFault, "not the table's kind of wheel")
	})
	if st.WheelProposal != nil || st.RoundId != round {
		t.Fatalf("a single-zero wheel's read on a double-zero table: proposal %v", st.WheelProposal)
	}
}

// startServer runs `tableserver -listen 127.0.0.1:0 -pki DIR -db DIR/table.db ARGS…` until the
// test's cleanup stops it (and checks it exited 0), and returns its address.
func startServer(t *testing.T, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- serve(ctx, append([]string{"-listen", "127.0.0.1:0", "-pki", dir, "-db", filepath.Join(dir, "table.db")}, args...),
			&stderr, func(addr string) { ready <- addr })
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("tableserver exit %d: %s", code, stderr.String())
		}
	})
	select {
	case addr := <-ready:
		return addr
	case code := <-done:
		t.Fatalf("tableserver %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("the table server did not start")
	}
	return ""
}

// dial connects to the table at addr with certificate name of the PKI in dir (a dealer's loads
// as a terminal's does), closed with the test.
func dial(t *testing.T, addr, dir, name string) *grpc.ClientConn {
	t.Helper()
	cfg, err := client.LoadTLS(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
