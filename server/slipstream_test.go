package server

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/pki"
)

// openSlips opens a Slips stream on a terminal's connection.
func openSlips(t *testing.T, c pb.TerminalServiceClient) (grpc.BidiStreamingClient[pb.UpdateSlipRequest, pb.UpdateSlipResponse], context.CancelFunc) {
	t.Helper()
	sctx, cancel := context.WithCancel(ctx)
	st, err := c.Slips(sctx)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return st, cancel
}

// slipOn sends one slip on a stream and reads its response.
func slipOn(t *testing.T, st grpc.BidiStreamingClient[pb.UpdateSlipRequest, pb.UpdateSlipResponse], req *pb.UpdateSlipRequest) (*pb.UpdateSlipResponse, error) {
	t.Helper()
	if err := st.Send(req); err != nil {
		_, err = st.Recv()
		return nil, err
	}
	return st.Recv()
}

// Only a terminal's certificate may open the stream: a dealer, supervisor, technician or
// cashier is refused (PermissionDenied) as for UpdateSlip, over real mutual TLS.
func TestSlipsStreamRefusesOtherRoles(t *testing.T) {
	r := newRig(t)
	if _, round := openRound(t, r, "T1", 10_000); round == "" {
		t.Fatal("no round")
	}
	for _, role := range []string{pki.RoleDealer, pki.RoleSupervisor, pki.RoleTechnician, pki.RoleCashier} {
		c := pb.NewTerminalServiceClient(r.dial(role, "T1")) // an id of a terminal, in another role
		st, _ := openSlips(t, c)
		_, err := slipOn(t, st, &pb.UpdateSlipRequest{RoundId: "R000001", Version: 1, Wagers: []*pb.Wager{straight("17", 100)}})
		if code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "may not call /ats.table.v1.TerminalService/Slips") {
			t.Errorf("%s on the Slips stream: %v, want PermissionDenied", role, err)
		}
		// The unary call says the same.
		if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: "R000001", Version: 1}); code(err) != codes.PermissionDenied {
			t.Errorf("%s by UpdateSlip: %v", role, err)
		}
	}
	if st, _ := r.table.Status(); st.Terminals[0].SlipTotal != 0 {
		t.Errorf("a slip was taken: %+v", st.Terminals[0])
	}
}

// A terminal's stream updates its own slip and nobody else's: the request carries no
// terminal, the stream's certificate is the caller. A refusal comes in the response and the
// stream goes on; every refusal is the one UpdateSlip gives.
func TestSlipsStreamIsTheTerminalsOwnAndRefusesInBand(t *testing.T) {
	r := newRig(t)
	t2, round := openRound(t, r, "T2", 10_000)
	t1 := r.terminal("T1")
	if err := r.buyIn(t1, "T1", "n1", 10_000); err != nil {
		t.Fatal(err)
	}
	// T2's slip, by the unary call.
	if _, err := t2.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 5, Wagers: []*pb.Wager{straight("3", 700)}}); err != nil {
		t.Fatal(err)
	}
	st, _ := openSlips(t, t1)
	res, err := slipOn(t, st, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("17", 100), straight("18", 200)}})
	if err != nil || res.Code != 0 || res.Slip.GetVersion() != 1 || res.Slip.GetTotal() != 300 || res.Balance != 9_700 {
		t.Fatalf("T1's slip: %+v %v", res, err)
	}
	// Taken as sent: answered without the wagers, a result for each.
	if !res.WagersAsSent || len(res.Slip.Wagers) != 0 || len(res.Slip.Results) != 2 || res.Slip.Results[1].Accepted != 200 {
		t.Errorf("a slip taken as sent: %+v", res)
	}
	// A split written 18-17 is the table's 17-18: not as sent, so the slip is written back.
	split := &pb.Wager{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"18", "17"}, Amount: 100}
	res, err = slipOn(t, st, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: []*pb.Wager{straight("17", 100), split}})
	if err != nil || res.Code != 0 || res.WagersAsSent || len(res.Slip.Wagers) != 2 || fmt.Sprint(res.Slip.Wagers[1].Numbers) != "[17 18]" {
		t.Fatalf("a slip not as sent: %+v %v", res, err)
	}
	refusals := []struct {
		req  *pb.UpdateSlipRequest
		code codes.Code
		says string
	}{
		{&pb.UpdateSlipRequest{RoundId: round, Version: 1}, codes.FailedPrecondition, "not newer"},
		{&pb.UpdateSlipRequest{RoundId: "R999999", Version: 9}, codes.FailedPrecondition, ""},
		{&pb.UpdateSlipRequest{RoundId: round, Version: 9, Wagers: make([]*pb.Wager, MaxSlipWagers+1)}, codes.InvalidArgument, "at most 200"},
		{&pb.UpdateSlipRequest{RoundId: round, Version: 9, Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"99"}, Amount: 100}}}, codes.InvalidArgument, ""},
		{&pb.UpdateSlipRequest{RoundId: round, Version: 9, Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"1"}, Amount: 100, PlacedBy: "dealer:D1"}}}, codes.InvalidArgument, "placed_by"},
	}
	for i, tc := range refusals {
		// What UpdateSlip says to the same request, on a table in the same state: T1's twin
		// is not at hand, so the unary call is asked by T1 itself and must refuse alike.
		_, uerr := t1.UpdateSlip(ctx, tc.req)
		res, err := slipOn(t, st, tc.req)
		if err != nil {
			t.Fatalf("refusal %d ended the stream: %v", i, err)
		}
		if codes.Code(res.Code) != tc.code || !strings.Contains(res.Message, tc.says) || res.Slip != nil {
			t.Errorf("refusal %d: %d %q %v, want %v saying %q", i, res.Code, res.Message, res.Slip, tc.code, tc.says)
		}
		if code(uerr) != codes.Code(res.Code) || !strings.HasSuffix(uerr.Error(), res.Message) {
			t.Errorf("refusal %d: the stream says %d %q, UpdateSlip %v", i, res.Code, res.Message, uerr)
		}
	}
	// The stream still serves.
	res, err = slipOn(t, st, &pb.UpdateSlipRequest{RoundId: round, Version: 3, Wagers: []*pb.Wager{straight("17", 100)}})
	if err != nil || res.Code != 0 || res.Slip.GetTotal() != 100 {
		t.Fatalf("after the refusals: %+v %v", res, err)
	}
	status, err := r.table.Status()
	if err != nil {
		t.Fatal(err)
	}
	totals := map[string]int64{}
	for _, ts := range status.Terminals {
		totals[ts.TerminalId] = ts.SlipTotal
	}
	if totals["T1"] != 100 || totals["T2"] != 700 {
		t.Errorf("slip totals %v: want T1 100 (its stream's), T2 700 (untouched)", totals)
	}
	if err := st.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("after CloseSend: %v, want the stream's clean end (EOF)", err)
	}
}

// The cut-off (cutoff.go) counts the slips of a stream as it counts calls: a terminal sending
// slips on its stream as fast as it can is refused in the response over its rate, then cut off
// — the stream ends with ResourceExhausted saying so — and its next stream is refused until
// the cut-off ends. Another terminal's stream is served throughout.
func TestSlipsStreamCutOff(t *testing.T) {
	const base = 400 * time.Millisecond
	r := newRigWith(t, nil, WithCutoff(base))
	honest, round := openRound(t, r, "T2", 1_000_000)
	abuser := r.terminal("X1")
	if err := r.buyIn(abuser, "X1", "x", 1_000_000); err != nil {
		t.Fatal(err)
	}
	hs, _ := openSlips(t, honest)
	as, _ := openSlips(t, abuser)
	admitted, refused := 0, 0
	var cut error
	for v := uint64(1); cut == nil; v++ {
		if v > 100_000 {
			t.Fatal("100,000 slips on the stream and never cut off")
		}
		res, err := slipOn(t, as, &pb.UpdateSlipRequest{RoundId: round, Version: v, Wagers: []*pb.Wager{straight("17", 100)}})
		switch {
		case err != nil:
			cut = err
		case res.Code == 0:
			admitted++
		case codes.Code(res.Code) == codes.ResourceExhausted && strings.Contains(res.Message, "more than 50 calls a second"):
			refused++
		default:
			t.Fatalf("slip v%d: %d %q", v, res.Code, res.Message)
		}
		if v%50 == 0 { // the honest terminal, at its own pace, is served
			res, err := slipOn(t, hs, &pb.UpdateSlipRequest{RoundId: round, Version: v, Wagers: []*pb.Wager{straight("1", 100)}})
			if err != nil || res.Code != 0 {
				t.Fatalf("honest slip v%d: %+v %v", v, res, err)
			}
		}
	}
	if code(cut) != codes.ResourceExhausted || !strings.Contains(cut.Error(), `terminal "X1" cut off for 400ms`) {
		t.Fatalf("the stream ended with %v, want the cut-off", cut)
	}
	if admitted < TerminalCallBurst-5 || refused < CutoffStrikes {
		t.Errorf("cut off after %d slips served and %d refused: want about %d and at least %d", admitted, refused, TerminalCallBurst, CutoffStrikes)
	}
	// During the cut-off a new stream is refused (or its connection is found closed).
	st, err := abuser.Slips(ctx)
	if err == nil {
		_, err = slipOn(t, st, &pb.UpdateSlipRequest{RoundId: round, Version: 1_000_000})
	}
	if c := code(err); c != codes.ResourceExhausted && c != codes.Unavailable {
		t.Errorf("a new stream during the cut-off: %v", err)
	}
	// The alarm names the terminal.
	deadline := time.Now().Add(5 * time.Second)
	for {
		al, err := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range al.Alarms {
			found = found || (a.Kind == AlarmCallFlood && a.TerminalId == "X1")
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no call-flood alarm for X1: %+v", al.Alarms)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The honest stream is still served.
	if res, err := slipOn(t, hs, &pb.UpdateSlipRequest{RoundId: round, Version: 1_000_000, Wagers: []*pb.Wager{straight("2", 100)}}); err != nil || res.Code != 0 {
		t.Fatalf("honest slip after the cut-off: %+v %v", res, err)
	}
}

// FuzzSlipsStream: any request on the stream is answered exactly as UpdateSlip answers it —
// the same slip and balance, or the same refusal's code and message — on two tables in the
// same state, one asked by each path; never a panic, never a refusal with code 0. A slip the
// stream answers "as sent" (without its wagers) is one whose wagers UpdateSlip writes back
// exactly as the request had them.
func FuzzSlipsStream(f *testing.F) {
	seed := func(req *pb.UpdateSlipRequest, current bool) {
		b, err := proto.Marshal(req)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, current)
	}
	seed(&pb.UpdateSlipRequest{Wagers: []*pb.Wager{straight("17", 100), {Kind: pb.BetKind_BET_KIND_RED, Amount: 500}}}, true)
	seed(&pb.UpdateSlipRequest{Version: 1, Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{"17"}, Spread: 2, Amount: 100}}}, true)
	seed(&pb.UpdateSlipRequest{RoundId: "R1", Version: 3, Secret: true}, false)
	seed(&pb.UpdateSlipRequest{Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"40"}, Amount: -1}}}, true)
	// written otherwise than the table writes them back: never "as sent"
	seed(&pb.UpdateSlipRequest{Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"18", "17"}, Amount: 100}}}, true)
	seed(&pb.UpdateSlipRequest{Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{"17"}, Amount: 100}}}, true)
	f.Add([]byte{0xff, 0x01}, true)
	unaryTbl, _ := openFuzzTable(f)
	streamTbl, _ := openFuzzTable(f)
	var round string
	for _, tbl := range []*Table{unaryTbl, streamTbl} {
		if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
			f.Fatal(err)
		}
		st, err := tbl.StartRound("dealer:test")
		if err != nil {
			f.Fatal(err)
		}
		round = st.RoundId
	}
	unary := &terminalService{t: unaryTbl}
	e := &edge{t: streamTbl, buckets: map[string]*callGuard{}, now: time.Now, rate: 1e9, burst: 1e9}
	stream := &terminalService{t: streamTbl, edge: e}
	leaf := &x509.Certificate{}
	version := uint64(0)
	f.Fuzz(func(t *testing.T, raw []byte, current bool) {
		req := &pb.UpdateSlipRequest{}
		if err := proto.Unmarshal(raw, req); err != nil {
			return // not a request gRPC would hand the handler
		}
		if current { // most requests are for the open round, with a newer version
			version++
			req.RoundId, req.Version = round, version
		}
		ures, uerr := unary.UpdateSlip(context.WithValue(context.Background(), identityKey{}, identity{pki.RoleTerminal, "T1"}), proto.Clone(req).(*pb.UpdateSlipRequest))
		sres, err := stream.streamSlip("T1", leaf, req)
		if err != nil {
			t.Fatalf("the stream was ended by %v", err)
		}
		if uerr != nil {
			if sres.Code == 0 || sres.Slip != nil || fmt.Sprintf("rpc error: code = %s desc = %s", codes.Code(sres.Code), sres.Message) != uerr.Error() {
				t.Fatalf("UpdateSlip refused %v; the stream answered %d %q %v", uerr, sres.Code, sres.Message, sres.Slip)
			}
			return
		}
		if sres.Code != 0 {
			t.Fatalf("UpdateSlip answered %v; the stream refused %d %q", ures, sres.Code, sres.Message)
		}
		if sres.WagersAsSent {
			// Claimed only when the wagers UpdateSlip writes back are the request's, exactly;
			// with them put back, the answers are the same.
			if len(ures.Slip.Wagers) != len(req.Wagers) {
				t.Fatalf("as sent, but UpdateSlip answered %d wagers to %d sent", len(ures.Slip.Wagers), len(req.Wagers))
			}
			for i, w := range ures.Slip.Wagers {
				if !proto.Equal(w, req.Wagers[i]) {
					t.Fatalf("as sent, but wager %d was sent %v and acknowledged %v", i, req.Wagers[i], w)
				}
			}
			sres = proto.Clone(sres).(*pb.UpdateSlipResponse)
			sres.Slip.Wagers, sres.WagersAsSent = req.Wagers, false
		}
		if !proto.Equal(ures, sres) {
			t.Fatalf("UpdateSlip answered %v; the stream %v", ures, sres)
		}
	})
}
