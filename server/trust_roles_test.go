package server

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/pki"
)

// openRound opens the table and a round, and funds a terminal that watches it.
func openRound(t testing.TB, r *rig, term string, funds int64) (pb.TerminalServiceClient, string) {
	t.Helper()
	c := r.terminal(term)
	r.watch(c)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := r.buyIn(c, term, "n", funds); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return c, st.RoundId
}

// Attack (issue 13, 7): one terminal sent slips of 100,000 wagers and stalled the table. A slip
// holds at most MaxSlipWagers wagers; more is InvalidArgument, a request over MaxRecvMsgBytes
// is refused by gRPC before it is decoded, and a maximal slip is still priced and accepted.
func TestOversizedSlipIsRefused(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 10_000_000)
	slip := func(n int) []*pb.Wager {
		ws := make([]*pb.Wager, n)
		for i := range ws {
			ws[i] = straight("17", 100)
			if i%10 == 9 {
				ws[i] = &pb.Wager{Kind: pb.BetKind_BET_KIND_NEIGHBOURS, Numbers: []string{"17"}, Spread: 4, Amount: 100}
			}
		}
		return ws
	}
	res, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: slip(MaxSlipWagers)})
	if err != nil {
		t.Fatalf("a maximal slip of %d wagers: %v", MaxSlipWagers, err)
	}
	if len(res.Slip.Results) != MaxSlipWagers {
		t.Fatalf("%d results for %d wagers", len(res.Slip.Results), MaxSlipWagers)
	}
	_, err = c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: slip(MaxSlipWagers + 1)})
	if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "at most 200") {
		t.Fatalf("a slip of %d wagers: %v, want InvalidArgument", MaxSlipWagers+1, err)
	}
	_, err = c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 3, Wagers: slip(100_000)})
	if code(err) != codes.ResourceExhausted {
		t.Fatalf("a slip of 100,000 wagers: %v, want ResourceExhausted (message too large)", err)
	}
	// The engine refuses it too, for a caller in this process.
	if _, err := r.table.UpdateSlip("T1", round, 4, make([]SlipWager, MaxSlipWagers+1)); code(err) != codes.InvalidArgument {
		t.Fatalf("engine: %v", err)
	}
	// The acknowledged slip is still the maximal one.
	if st, _ := r.table.Status(); st.Terminals[0].SlipTotal != res.Slip.Total {
		t.Errorf("slip total %d, want %d", st.Terminals[0].SlipTotal, res.Slip.Total)
	}
}

// Attack (issue 13, 7): one certificate held any number of streams and calls at once. A third
// Watch stream of one terminal is refused while two are open; another terminal is unaffected;
// closing one makes room.
func TestWatchStreamsPerTerminalAreBounded(t *testing.T) {
	r := newRig(t)
	c := r.terminal("T1")
	w1, w2 := r.watch(c), r.watch(c)
	defer w1.cancel()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, err := c.Watch(cctx, &pb.WatchRequest{})
	if err == nil {
		_, err = s.Recv()
	}
	if code(err) != codes.ResourceExhausted {
		t.Fatalf("a third Watch stream: %v, want ResourceExhausted", err)
	}
	r.watch(r.terminal("T2")).cancel() // another identity has its own bound
	w2.cancel()
	for i := 0; ; i++ {
		s, err := c.Watch(cctx, &pb.WatchRequest{})
		if err == nil {
			if _, err = s.Recv(); err == nil {
				break
			}
		}
		if i > 200 {
			t.Fatalf("no Watch stream after one closed: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The in-flight bound refuses the call over it and frees its place when a call ends.
func TestInFlightCallsPerIdentityAreBounded(t *testing.T) {
	e := &edge{inFlight: map[identity]int{}}
	who := identity{pki.RoleTerminal, "T1"}
	var done []func()
	for range MaxInFlight {
		d, err := e.acquire(who, e.inFlight, MaxInFlight, "calls")
		if err != nil {
			t.Fatal(err)
		}
		done = append(done, d)
	}
	if _, err := e.acquire(who, e.inFlight, MaxInFlight, "calls"); code(err) != codes.ResourceExhausted {
		t.Fatalf("call %d: %v, want ResourceExhausted", MaxInFlight+1, err)
	}
	if d, err := e.acquire(identity{pki.RoleTerminal, "T2"}, e.inFlight, MaxInFlight, "calls"); err != nil {
		t.Fatalf("another terminal: %v", err)
	} else {
		d()
	}
	done[0]()
	if _, err := e.acquire(who, e.inFlight, MaxInFlight, "calls"); err != nil {
		t.Fatalf("after one ended: %v", err)
	}
}

// A slip priced outside the lock while the balance changes is priced again against the new
// balance: it never stores a price made against a balance that is gone.
func TestSlipPricedOutsideTheLockSeesACreditInBetween(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 1000)
	in, err := func() (pricing, error) {
		r.table.mu.Lock()
		defer r.table.mu.Unlock()
		return r.table.slipInputs(r.clock.Now(), "T1", round, 1, 1, "")
	}()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := creditNotes(ctx, c, "n2", 5000); err != nil {
		t.Fatal(err)
	}
	r.table.mu.Lock()
	cur, err := r.table.slipInputs(r.clock.Now(), "T1", round, 1, 1, "")
	r.table.mu.Unlock()
	if err != nil || cur.same(in) {
		t.Fatalf("a credit in between went unnoticed (%v)", err)
	}
	res, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 5000}}})
	if err != nil || res.Slip.Total != 5000 || res.Balance != 1000 {
		t.Fatalf("slip %v balance %d: %v", res.GetSlip(), res.GetBalance(), err)
	}
}

// Attack (issue 13, 8): the dealer credited "T-GHOST", a terminal that does not exist. The
// dealer can credit or close only a terminal that has connected with its certificate.
func TestDealerCannotCreditAGhostTerminal(t *testing.T) {
	r := newRig(t)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "g", TerminalId: "T-GHOST", Amount: 5000})
	if code(err) != codes.NotFound || !strings.Contains(err.Error(), "T-GHOST") {
		t.Fatalf("credit to T-GHOST: %v, want NotFound", err)
	}
	_, err = r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: "g", TerminalId: "T-GHOST"})
	if code(err) != codes.NotFound {
		t.Fatalf("close of T-GHOST: %v, want NotFound", err)
	}
	// Once T1 has connected with its certificate it is known, also after a restart.
	if _, err := r.terminal("T1").ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil {
		t.Fatal(err)
	}
	r.shutdown()
	r.start()
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "k", TerminalId: "T1", Amount: 5000}); err != nil {
		t.Fatalf("credit to a known terminal: %v", err)
	}
}

// Attack (issue 13, 8): any dealer certificate could correct results, invalidate rounds,
// hand-pay and confirm jackpots. Those are the supervisor's; the dealer runs the round; a
// technician calls neither; and every method the server serves has an entry in the role table
// (a new RPC without one would be refused to all).
func TestRolesAreSeparated(t *testing.T) {
	r := newRig(t)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func(pb.DealerServiceClient) error{
		"CorrectOutcome": func(d pb.DealerServiceClient) error {
			_, err := d.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: "R1", Number: "1"})
			return err
		},
		"InvalidateRound": func(d pb.DealerServiceClient) error {
			_, err := d.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: "R1"})
			return err
		},
		"Handpay": func(d pb.DealerServiceClient) error {
			_, err := d.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "h", ValidationNumber: "1"})
			return err
		},
		"ConfirmJackpot": func(d pb.DealerServiceClient) error {
			_, err := d.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: "R1"})
			return err
		},
	} {
		if err := call(r.dealer); code(err) != codes.PermissionDenied {
			t.Errorf("dealer %s: %v, want PermissionDenied", name, err)
		}
		if err := call(r.super); code(err) == codes.PermissionDenied {
			t.Errorf("supervisor %s: %v", name, err)
		}
	}
	if _, err := r.super.StartRound(ctx, &pb.StartRoundRequest{}); err != nil {
		t.Errorf("the supervisor cannot run the round: %v", err)
	}
	tech := pb.NewDealerServiceClient(r.dial(pki.RoleTechnician, "tech1"))
	if _, err := tech.GetStatus(ctx, &pb.GetStatusRequest{}); code(err) != codes.PermissionDenied {
		t.Errorf("technician GetStatus: %v", err)
	}
	if _, err := pb.NewTechnicianServiceClient(r.dial(pki.RoleDealer, "D2")).Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "1234"}); code(err) != codes.PermissionDenied {
		t.Errorf("dealer Authenticate: %v", err)
	}
	s := NewGRPC(r.table, &tls.Config{})
	for svc, info := range s.GetServiceInfo() {
		for _, m := range info.Methods {
			if _, ok := rolesFor("/" + svc + "/" + m.Name); !ok {
				t.Errorf("/%s/%s has no entry in the role table", svc, m.Name)
			}
		}
	}
	if mayCall(pki.RoleSupervisor, "/ats.table.v1.DealerService/NoSuchMethod") {
		t.Error("a method missing from the role table is allowed")
	}
}

// Every privileged action records who did it: the audit log names the certificate.
func TestAuditLogRecordsTheActor(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 10000)
	if _, err := creditNotes(ctx, c, "note", 1000); err != nil { // a note in, done by the terminal
		t.Fatal(err)
	}
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("17", 100)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "20"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "b", TerminalId: "T1", Amount: 500}); err != nil {
		t.Fatal(err)
	}
	log, err := r.dealer.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if log.Caller != "dealer:D1" {
		t.Errorf("caller %q", log.Caller)
	}
	actors := map[string]string{}
	for _, e := range log.Entries {
		if _, seen := actors[e.Kind]; !seen {
			actors[e.Kind] = e.Actor
		}
	}
	for kind, want := range map[string]string{"note-in": "terminal:T1", "correction": "supervisor:S1",
		"buy-in-offered": "dealer:D1"} {
		if actors[kind] != want {
			t.Errorf("%s recorded as done by %q, want %q (log: %v)", kind, actors[kind], want, actors)
		}
	}
	for kind, actor := range actors {
		if actor == "" {
			t.Errorf("%s records no actor", kind)
		}
	}
	if _, err := r.dealer.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 5000}); code(err) != codes.InvalidArgument {
		t.Errorf("limit 5000: %v", err)
	}
}

// The technician authenticates with their PIN; wrong PINs are refused, then locked out even
// for the right PIN, and every attempt is in the audit log.
func TestTechnicianPINIsCheckedAndThrottled(t *testing.T) {
	dir := t.TempDir()
	pins := filepath.Join(dir, "technicians")
	if err := SetPIN(pins, "tech1", "482913", 1000); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(pins); st.Mode().Perm() != 0o600 {
		t.Errorf("PIN file mode %v", st.Mode().Perm())
	}
	b, _ := os.ReadFile(pins)
	if strings.Contains(string(b), "482913") {
		t.Fatal("the PIN is in the file in clear")
	}
	techs, err := LoadTechnicians(pins)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Now()
	techs.now = func() time.Time { return clock }
	r := newRig(t)
	r.stop()
	tlsCfg, _ := r.pki.ServerTLS()
	addr, stop, err := Listen(r.table, tlsCfg, "127.0.0.1:0", WithTechnicians(techs))
	if err != nil {
		t.Fatal(err)
	}
	r.addr, r.stop = addr, stop
	tc := pb.NewTechnicianServiceClient(r.dial(pki.RoleTechnician, "tech1"))
	res, err := tc.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "482913"})
	if err != nil || res.TechnicianId != "tech1" {
		t.Fatalf("right PIN: %v %v", res, err)
	}
	for i := range 2 {
		if _, err := tc.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "000000"}); code(err) != codes.PermissionDenied {
			t.Fatalf("wrong PIN %d: %v", i+1, err)
		}
	}
	if _, err := tc.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "000000"}); code(err) != codes.ResourceExhausted {
		t.Fatalf("third wrong PIN: %v, want a lockout", err)
	}
	if _, err := tc.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "482913"}); code(err) != codes.ResourceExhausted {
		t.Fatalf("right PIN while locked out: %v", err)
	}
	clock = clock.Add(pinLockout + time.Second)
	if _, err := tc.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "482913"}); err != nil {
		t.Fatalf("right PIN after the lockout: %v", err)
	}
	// Another technician certificate with no PIN of its own gets nowhere with tech1's.
	other := pb.NewTechnicianServiceClient(r.dial(pki.RoleTechnician, "tech2"))
	if _, err := other.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "482913"}); code(err) != codes.PermissionDenied {
		t.Fatalf("tech2 with tech1's PIN: %v", err)
	}
	evs, err := r.table.AuditLog(20)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if strings.HasPrefix(e.Kind, "technician-") {
			n[e.Kind+" "+e.Actor]++
		}
	}
	if n["technician-authenticated technician:tech1"] != 2 || n["technician-pin-refused technician:tech1"] != 4 || n["technician-pin-refused technician:tech2"] != 1 {
		t.Errorf("audit log: %v", n)
	}
}

// Attack (issue 13, 8): the CA key sat on the online server, and a lost certificate could not
// be withdrawn. The server runs from a directory without ca-key.pem (the offline-CA
// procedure), and a certificate revoked at the offline CA and copied over as crl.pem is refused
// — on the connection it already had, and on a new one — without a restart.
func TestServerRunsWithoutTheCAKeyAndRefusesRevokedCertificates(t *testing.T) {
	offline := filepath.Join(t.TempDir(), "offline")
	if err := pki.Init(offline, []string{"T01", "T02"}); err != nil {
		t.Fatal(err)
	}
	online := filepath.Join(t.TempDir(), "online")
	os.MkdirAll(online, 0o700)
	copyFiles := func(names ...string) {
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(offline, n))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(online, n), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyFiles("ca.pem", "server.pem", "server-key.pem", "crl.pem")
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- ServeFiles(cctx, DefaultConfig(), Files{PKI: online, Ledger: filepath.Join(t.TempDir(), "t.db"),
			Listen: "127.0.0.1:0", CRLInterval: 20 * time.Millisecond}, slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(a string) { ready <- a })
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-served:
		t.Fatalf("the server does not run without the CA key: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no server")
	}
	dial := func(id string) pb.TerminalServiceClient {
		pair, err := pki.Files{Dir: offline}.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		caPEM, _ := os.ReadFile(filepath.Join(offline, "ca.pem"))
		cfg, err := pki.ClientTLS(caPEM, pair, "localhost")
		if err != nil {
			t.Fatal(err)
		}
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return pb.NewTerminalServiceClient(conn)
	}
	t01 := dial("T01")
	if _, err := t01.ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil {
		t.Fatalf("T01 before revocation: %v", err)
	}
	// Issuing needs the CA key, which the online directory lacks.
	if err := pki.IssueTo(online, pki.RoleTerminal, "T09"); err == nil || !strings.Contains(err.Error(), "offline") {
		t.Errorf("issuing without the CA key: %v", err)
	}
	// A slip stream opened before the revocation: its first slip is refused in the response
	// (no round is open), and the stream stays open for the next.
	slips, err := t01.Slips(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := slips.Send(&pb.UpdateSlipRequest{RoundId: "R000001", Version: 1}); err != nil {
		t.Fatal(err)
	}
	if res, err := slips.Recv(); err != nil || res.Code == 0 {
		t.Fatalf("a slip with no round open: %+v %v", res, err)
	}
	if err := pki.Revoke(offline, "T01"); err != nil {
		t.Fatal(err)
	}
	copyFiles("crl.pem")
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := t01.ServerTime(ctx, &pb.ServerTimeRequest{})
		if code(err) == codes.Unauthenticated && strings.Contains(err.Error(), "revoked") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("T01 after revocation: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The stream opened before the revocation ends at its next slip, saying why: the
	// certificate is checked at every slip, not only when the stream opened.
	_ = slips.Send(&pb.UpdateSlipRequest{RoundId: "R000001", Version: 2}) // a failed send's status is Recv's
	if res, err := slips.Recv(); code(err) != codes.Unauthenticated || !strings.Contains(err.Error(), "revoked") {
		t.Errorf("a slip on T01's stream after revocation: %+v %v", res, err)
	}
	if _, err := dial("T01").ServerTime(ctx, &pb.ServerTimeRequest{}); err == nil {
		t.Error("a new connection with the revoked certificate was accepted")
	}
	if _, err := dial("T02").ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil {
		t.Errorf("T02 (not revoked): %v", err)
	}
	// A damaged revocation list does not un-revoke anyone.
	os.WriteFile(filepath.Join(online, "crl.pem"), []byte("garbage"), 0o600)
	time.Sleep(100 * time.Millisecond)
	if _, err := dial("T01").ServerTime(ctx, &pb.ServerTimeRequest{}); err == nil {
		t.Error("a damaged revocation list let the revoked certificate back in")
	}
	cancel()
	if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}
