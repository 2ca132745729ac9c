package server

import (
	"context"
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// displayStream is a winning number display's stream, read in a goroutine so a test can wait
// for the state it expects.
type displayStream struct {
	states chan *pb.DisplayState
	cancel context.CancelFunc
}

func (r *rig) display(id string) *displayStream {
	r.t.Helper()
	c, cancel := context.WithCancel(context.Background())
	s, err := pb.NewDisplayServiceClient(r.dial(pki.RoleDisplay, id)).Watch(c, &pb.DisplayWatchRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	d := &displayStream{states: make(chan *pb.DisplayState, 100), cancel: cancel}
	go func() {
		defer close(d.states)
		for {
			st, err := s.Recv()
			if err != nil {
				return
			}
			d.states <- st
		}
	}()
	r.t.Cleanup(cancel)
	return d
}

// until waits for a state that pred accepts.
func (d *displayStream) until(t *testing.T, what string, pred func(*pb.DisplayState) bool) *pb.DisplayState {
	t.Helper()
	timeout := time.After(5 * time.Second)
	var last *pb.DisplayState
	for {
		select {
		case st, ok := <-d.states:
			if !ok {
				t.Fatalf("the display stream ended waiting for %s (last %v)", what, last)
			}
			if pred(st) {
				return st
			}
			last = st
		case <-timeout:
			t.Fatalf("no display state with %s (last %v)", what, last)
		}
	}
}

// Attack: a TV in the pit holds a display certificate; whoever takes it from the TV must get
// nothing from it but what the TV shows. A display certificate is refused on every method the
// server serves but DisplayService.Watch (health and reflection, open to any certificate of
// the CA, aside), and every other role is refused DisplayService.Watch (roles.go says why).
func TestDisplayCertificateCallsNothingElse(t *testing.T) {
	r := newRig(t)
	conn := r.dial(pki.RoleDisplay, "wnd-1")
	s := NewGRPC(r.table, &tls.Config{})
	tried := 0
	for svc, info := range s.GetServiceInfo() {
		if strings.HasPrefix(svc, "grpc.") || svc == pb.DisplayService_ServiceDesc.ServiceName {
			continue
		}
		for _, m := range info.Methods {
			method := "/" + svc + "/" + m.Name
			var err error
			if m.IsClientStream || m.IsServerStream {
				var st grpc.ClientStream
				st, err = conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, method)
				if err == nil {
					st.SendMsg(&emptypb.Empty{})
					st.CloseSend()
					err = st.RecvMsg(&emptypb.Empty{})
				}
			} else {
				err = conn.Invoke(ctx, method, &emptypb.Empty{}, &emptypb.Empty{})
			}
			if code(err) != codes.PermissionDenied {
				t.Errorf("display certificate on %s: %v, want PermissionDenied", method, err)
			}
			tried++
		}
	}
	if tried < 50 {
		t.Fatalf("only %d methods tried", tried)
	}
	for _, role := range pki.Roles {
		if role == pki.RoleDisplay {
			continue
		}
		st, err := pb.NewDisplayServiceClient(r.dial(role, role+"-1")).Watch(ctx, &pb.DisplayWatchRequest{})
		if err == nil {
			_, err = st.Recv()
		}
		if code(err) != codes.PermissionDenied {
			t.Errorf("%s certificate on DisplayService.Watch: %v, want PermissionDenied", role, err)
		}
	}
}

// Rule: a display shows what anyone at the table may see and nothing of any one player's. The
// state has no field that could carry a balance, an account, a card, a PIN or a ticket.
func TestDisplayStateCarriesNoPlayersSecrets(t *testing.T) {
	seen := map[protoreflect.FullName]bool{}
	var walk func(md protoreflect.MessageDescriptor)
	walk = func(md protoreflect.MessageDescriptor) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		fs := md.Fields()
		for i := range fs.Len() {
			f := fs.Get(i)
			for _, bad := range []string{"balance", "account", "card", "pin", "ticket", "validation", "slip", "wager"} {
				if strings.Contains(string(f.Name()), bad) {
					t.Errorf("%s.%s: a display is told no %s", md.FullName(), f.Name(), bad)
				}
			}
			if f.Message() != nil {
				walk(f.Message())
			}
		}
	}
	walk((&pb.DisplayState{}).ProtoReflect().Descriptor())
}

// Rule (001 §2.2.4, §2.2.8): the display shows the outcome of the most recent spin as soon as
// the round settles, with the strip, the statistics and the limits, and the jackpot meter as
// the round's wagers feed it, over real gRPC.
func TestDisplayShowsTheSettledRoundAndTheMeter(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: 100000, Ceiling: 10_000_000, RateBP: 100} })
	d := r.display("wnd-1")
	first := d.until(t, "the first state", func(*pb.DisplayState) bool { return true })
	if first.Phase != pb.Phase_PHASE_CLOSED || len(first.History) != 0 || !first.Jackpot || first.JackpotMeter != 100000 ||
		first.Limits.GetDefault().GetMin() == 0 || first.Wheel != pb.Wheel_WHEEL_SINGLE_ZERO {
		t.Fatalf("first state %v", first)
	}
	c, round := openRound(t, r, "T1", 100000)
	d.until(t, "the wagering phase", func(s *pb.DisplayState) bool { return s.Phase == pb.Phase_PHASE_WAGERING })
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 10000}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	// Settled: 17 the latest, and 1 % of 100.00 on the meter (1.00).
	got := d.until(t, "17 the latest, the meter fed", func(s *pb.DisplayState) bool {
		return len(s.History) > 0 && s.JackpotMeter == 100100
	})
	if got.History[0].Number != "17" || got.History[0].RoundId != round || got.Splits.GetSample() != 1 || got.Splits.GetBlack() != 1 {
		t.Fatalf("after the round: %v", got)
	}
	// An invalidated round's number no longer stands: it leaves the display.
	if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "ball left the wheel"}); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the invalidated round gone", func(s *pb.DisplayState) bool { return len(s.History) == 0 })
}

// Rule (001 §2.2.4): at a table where no terminal plays (a TV in an empty pit), the outcome
// still reaches the display: the outcome goes to the terminals by its own path (deliverOutcome),
// not the broadcast, and a display once stayed on NO MORE BETS (a double-zero table, 00, no
// jackpot: nothing else was broadcast after it).
func TestDisplayShowsTheOutcomeAtATableWithoutPlayers(t *testing.T) {
	r := newRigWith(t, func(c *Config) {
		c.RulesProfile, c.Wheel, c.LayoutProfile = table.ProfileStar, roulette.DoubleZero, roulette.Star
	})
	d := r.display("wnd-1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "00"}); err != nil {
		t.Fatal(err)
	}
	got := d.until(t, "00 the latest", func(s *pb.DisplayState) bool { return len(s.History) > 0 })
	if got.History[0].Number != "00" || got.Phase != pb.Phase_PHASE_RESULT || got.Wheel != pb.Wheel_WHEEL_DOUBLE_ZERO {
		t.Fatalf("after the round: %v", got)
	}
}

// Rule (001 §2.2.8): the display shows the winning jackpot message — the amount and the seat —
// at the hit, for JackpotWinShown, and then no more.
func TestDisplayShowsTheJackpotWonForASetTime(t *testing.T) {
	// Seed 1000.00, hits at 1000.01: the first qualifying wager hits.
	r := newRigWith(t, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: 100000, Ceiling: 100001, RateBP: 10} })
	d := r.display("wnd-1")
	c, round := openRound(t, r, "T1", 100000)
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 10000}}}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "2"}); err != nil {
		t.Fatal(err)
	}
	won := d.until(t, "the jackpot won", func(s *pb.DisplayState) bool { return s.JackpotWin != nil })
	if w := won.JackpotWin; w.Seat != "T1" || w.Amount != 100010 || w.RoundId != round {
		t.Fatalf("jackpot message %v", w)
	}
	if won.JackpotMeter != 100000 {
		t.Errorf("meter %d after the hit, want the seed", won.JackpotMeter)
	}
	// Confirmed by the pit boss: the message stays as it was.
	if _, err := r.super.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	// Past its time, the next change shows the table without it.
	r.clock.Add(JackpotWinShown)
	if _, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{}); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the message gone", func(s *pb.DisplayState) bool { return s.JackpotWin == nil && s.Phase == pb.Phase_PHASE_WAGERING })
}

// The operator's promotional text reaches the displays at once; text a TV cannot show as one
// line is refused with the reason, and the text shown stays.
func TestDisplayPromotionIsCheckedAndPushed(t *testing.T) {
	r := newRig(t)
	d := r.display("wnd-1")
	if err := r.table.SetPromotion("  Happy hour: 5–7 pm, 欢迎  "); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the promotion", func(s *pb.DisplayState) bool { return s.Promotion == "Happy hour: 5–7 pm, 欢迎" })
	for _, bad := range []string{"two\nlines", "bell\a", strings.Repeat("x", MaxPromotionRunes+1), "\xff"} {
		if err := r.table.SetPromotion(bad); err == nil {
			t.Errorf("promotion %q accepted", bad)
		}
	}
	file := filepath.Join(t.TempDir(), "promotion")
	if err := os.WriteFile(file, []byte("Double points\n  tonight\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.table.LoadPromotion(file); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the file's promotion", func(s *pb.DisplayState) bool { return s.Promotion == "Double points tonight" })
	if err := r.table.LoadPromotion(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing promotion file accepted")
	}
	if got := r.table.Display().Promotion; got != "Double points tonight" {
		t.Errorf("after a bad file: %q", got)
	}
}
