package server

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// pinRig is a table whose technician PINs are tech1's 482913, on a clock the test moves.
func pinRig(t *testing.T) (*rig, *Technicians, *time.Time) {
	t.Helper()
	line, err := PINLine("tech1", "482913", 1000)
	if err != nil {
		t.Fatal(err)
	}
	techs, err := ParseTechnicians([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Now()
	techs.now = func() time.Time { return clock }
	return newRigWith(t, nil, WithTechnicians(techs)), techs, &clock
}

// A terminal asks the table to check the PIN typed on its PIN pad: the right PIN passes, wrong
// ones are refused and, after three, lock the technician out (the right PIN too) with the same
// throttle as the technician's own certificate; every attempt is audited with the terminal as
// actor and the technician in the detail.
func TestTerminalChecksTechnicianPINAtTheTable(t *testing.T) {
	r, _, clock := pinRig(t)
	tc := pb.NewTerminalServiceClient(r.dial(pki.RoleTerminal, "T01"))
	auth := func(id, pin string) (*pb.TechnicianAuthenticateResponse, error) {
		return tc.AuthenticateTechnician(ctx, &pb.AuthenticateTechnicianRequest{TechnicianId: id, Pin: pin})
	}
	if res, err := auth("tech1", "482913"); err != nil || res.TechnicianId != "tech1" {
		t.Fatalf("right PIN: %v %v", res, err)
	}
	for i := range 2 {
		if _, err := auth("tech1", "000000"); code(err) != codes.PermissionDenied {
			t.Fatalf("wrong PIN %d: %v", i+1, err)
		}
	}
	if _, err := auth("tech1", "000000"); code(err) != codes.ResourceExhausted {
		t.Fatalf("third wrong PIN: %v, want a lockout", err)
	}
	if _, err := auth("tech1", "482913"); code(err) != codes.ResourceExhausted {
		t.Fatalf("right PIN while locked out: %v", err)
	}
	// The lock-out is the technician's, whichever way the PIN comes: their own certificate is
	// locked out too.
	own := pb.NewTechnicianServiceClient(r.dial(pki.RoleTechnician, "tech1"))
	if _, err := own.Authenticate(ctx, &pb.TechnicianAuthenticateRequest{Pin: "482913"}); code(err) != codes.ResourceExhausted {
		t.Fatalf("technician's certificate while locked out at a terminal: %v", err)
	}
	*clock = clock.Add(pinLockout + time.Second)
	if _, err := auth("tech1", "482913"); err != nil {
		t.Fatalf("right PIN after the lockout: %v", err)
	}
	if _, err := auth("tech2", "482913"); code(err) != codes.PermissionDenied {
		t.Fatalf("an unknown technician: %v", err)
	}
	if _, err := auth("../tech1", "482913"); code(err) != codes.InvalidArgument {
		t.Fatalf("a malformed technician id: %v", err)
	}
	evs, err := r.table.AuditLog(20)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if strings.HasPrefix(e.Kind, "technician-") && e.Actor == "terminal:T01" {
			if e.Terminal != "T01" || !strings.Contains(e.Detail, "tech") {
				t.Errorf("audit entry without the terminal or the technician: %+v", e)
			}
			n[e.Kind]++
		}
	}
	if n["technician-authenticated"] != 2 || n["technician-pin-refused"] != 5 {
		t.Errorf("audit log: %v", n)
	}
}

// Attack: a dealer (or a technician) certificate asks the terminal's PIN check, to guess PINs
// from outside a cabinet. Only terminal certificates may call it; and a table with no PIN file
// refuses every PIN.
func TestTechnicianPINCheckIsTerminalsOnly(t *testing.T) {
	r, _, _ := pinRig(t)
	for _, role := range []string{pki.RoleDealer, pki.RoleSupervisor, pki.RoleTechnician} {
		c := pb.NewTerminalServiceClient(r.dial(role, "x1"))
		if _, err := c.AuthenticateTechnician(ctx, &pb.AuthenticateTechnicianRequest{TechnicianId: "tech1", Pin: "482913"}); code(err) != codes.PermissionDenied {
			t.Errorf("%s: %v", role, err)
		}
	}
	bare := newRig(t)
	c := pb.NewTerminalServiceClient(bare.dial(pki.RoleTerminal, "T01"))
	if _, err := c.AuthenticateTechnician(ctx, &pb.AuthenticateTechnicianRequest{TechnicianId: "tech1", Pin: "482913"}); code(err) != codes.FailedPrecondition {
		t.Errorf("a table without PINs: %v", err)
	}
}

// FuzzAuthenticateTechnician sends arbitrary technician ids and PINs through the terminal's
// check: never a panic, only tech1's right PIN passes, a malformed id is InvalidArgument and
// anything else PermissionDenied or ResourceExhausted.
func FuzzAuthenticateTechnician(f *testing.F) {
	line, err := PINLine("tech1", "482913", 10)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("tech1", "482913")
	f.Add("", "")
	f.Add("tech1\x00", "482913")
	f.Add(strings.Repeat("t", 300), strings.Repeat("9", 10000))
	r := newRig(f)
	tctx := context.WithValue(ctx, identityKey{}, identity{role: pki.RoleTerminal, id: "T01"})
	f.Fuzz(func(t *testing.T, id, pin string) {
		techs, err := ParseTechnicians([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		s := &terminalService{t: r.table, pins: techs, log: slog.New(slog.DiscardHandler)}
		res, err := s.AuthenticateTechnician(tctx, &pb.AuthenticateTechnicianRequest{TechnicianId: id, Pin: pin})
		switch {
		case pki.ValidID(id) != nil:
			if code(err) != codes.InvalidArgument {
				t.Fatalf("id %q: %v", id, err)
			}
		case id == "tech1" && pin == "482913":
			if err != nil || res.TechnicianId != "tech1" {
				t.Fatalf("right PIN refused: %v", err)
			}
		case err == nil:
			t.Fatalf("%q %q accepted", id, pin)
		case status.Code(err) != codes.PermissionDenied:
			t.Fatalf("%q %q: %v", id, pin, err)
		}
	})
}
