package server

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// seat is what the dealer's status says of a terminal (nil: the status does not list it).
func (r *rig) seat(id string) *pb.TerminalStatus {
	r.t.Helper()
	st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	for _, ts := range st.Terminals {
		if ts.TerminalId == id {
			return ts
		}
	}
	return nil
}

// auditOf is the audit log's entries of one kind, newest first.
func (r *rig) auditOf(kind string) []string {
	r.t.Helper()
	evs, err := r.table.AuditLog(100)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e.Actor+" "+e.Terminal+" "+e.Detail)
		}
	}
	return out
}

// A terminal reports it is in service, over its own certificate: the dealer's status shows the
// seat in service with the technician and since when; its slip on the open spin is voided and
// no wager is taken from it (its withdrawal, an empty slip, is); reported again (a reconnect)
// nothing changes and nothing more is audited; disconnected it stays in service, shown not
// connected; back in play it bets again. Each change is audited with the terminal as actor and
// the technician in the detail.
func TestSeatInService(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T01"), r.terminal("T02")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := r.buyIn(t1, "T01", "b1", 5000); err != nil {
		t.Fatal(err)
	}
	if err := r.buyIn(t2, "T02", "b2", 5000); err != nil {
		t.Fatal(err)
	}
	w1 := r.watch(t1)
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	round := st.RoundId
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("17", 500)}}); err != nil {
		t.Fatal(err)
	}
	if s := r.seat("T01"); s.SlipTotal != 500 || s.InService != nil {
		t.Fatalf("before: %v", s)
	}

	at := r.clock.Now()
	res, err := t1.SetInService(ctx, &pb.SetInServiceRequest{InService: true, TechnicianId: "tech1", Reason: "technician mode"})
	if err != nil || res.SinceUnixNanos != at.UnixNano() {
		t.Fatalf("in service: %v %v", res, err)
	}
	s := r.seat("T01")
	if s.InService.GetTechnicianId() != "tech1" || s.InService.SinceUnixNanos != at.UnixNano() || s.InService.Reason != "technician mode" || !s.Connected {
		t.Fatalf("the seat in the status: %v", s)
	}
	if s.SlipTotal != 0 {
		t.Fatalf("the slip of a seat taken out of play before the deadline stands: %d", s.SlipTotal)
	}
	if r.seat("T02").InService != nil {
		t.Fatal("another seat shown in service")
	}
	_, err = t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: []*pb.Wager{straight("17", 500)}})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "in service") {
		t.Fatalf("a wager from a seat in service: %v", err)
	}
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 3}); err != nil {
		t.Fatalf("the withdrawal (an empty slip) from a seat in service: %v", err)
	}
	if _, err := t2.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("17", 500)}}); err != nil {
		t.Fatalf("another seat's wager: %v", err)
	}

	// Reported again, after a reconnection: the same session, the same time, no new audit.
	r.clock.Add(time.Minute)
	if res, err := t1.SetInService(ctx, &pb.SetInServiceRequest{InService: true, TechnicianId: "tech1", Reason: "technician mode"}); err != nil || res.SinceUnixNanos != at.UnixNano() {
		t.Fatalf("reported again: %v %v", res, err)
	}
	// Disconnected: still in service, shown not connected.
	w1.cancel()
	r.waitConnected("T01", false)
	if s := r.seat("T01"); s.Connected || s.InService.GetTechnicianId() != "tech1" {
		t.Fatalf("disconnected in service: %v", s)
	}
	r.clock.Add(time.Minute)
	if res, err := t1.SetInService(ctx, &pb.SetInServiceRequest{}); err != nil || res.SinceUnixNanos != 0 {
		t.Fatalf("back in play: %v %v", res, err)
	}
	if s := r.seat("T01"); s.InService != nil {
		t.Fatalf("back in play, the status says %v", s)
	}
	if _, err := t1.SetInService(ctx, &pb.SetInServiceRequest{}); err != nil {
		t.Fatalf("back in play told again: %v", err)
	}
	in, out := r.auditOf("terminal-in-service"), r.auditOf("terminal-back-in-play")
	if len(in) != 1 || in[0] != "terminal:T01 T01 technician tech1: technician mode" {
		t.Fatalf("audited in service: %q", in)
	}
	if len(out) != 1 || !strings.HasPrefix(out[0], "terminal:T01 T01 technician tech1, in service since ") || !strings.HasSuffix(out[0], "(2m0s)") {
		t.Fatalf("audited back in play: %q", out)
	}
	if v := r.auditOf("slip-void"); len(v) != 1 || !strings.Contains(v[0], "in service (technician tech1)") {
		t.Fatalf("the voided slip: %q", v)
	}
	r.conserved()
}

// Another technician taking over a seat in service is a change (audited, a new since); a
// malformed report is refused; and only a terminal's certificate may report, for its own seat.
func TestSeatInServiceRefusals(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T01")
	if _, err := t1.SetInService(ctx, &pb.SetInServiceRequest{InService: true, TechnicianId: "tech1"}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Second)
	res, err := t1.SetInService(ctx, &pb.SetInServiceRequest{InService: true, TechnicianId: "tech2"})
	if err != nil || res.SinceUnixNanos != r.clock.Now().UnixNano() {
		t.Fatalf("taken over: %v %v", res, err)
	}
	if in := r.auditOf("terminal-in-service"); len(in) != 2 || !strings.Contains(in[0], "tech2 (taking over from tech1)") {
		t.Fatalf("audited: %q", in)
	}
	for _, bad := range []*pb.SetInServiceRequest{
		{InService: true},
		{InService: true, TechnicianId: "../tech1"},
		{InService: true, TechnicianId: "tech 1"},
		{InService: true, TechnicianId: "tech1", Reason: "line\nbreak"},
		{InService: true, TechnicianId: "tech1", Reason: strings.Repeat("x", 201)},
		{TechnicianId: "tech1"},
	} {
		if _, err := t1.SetInService(ctx, bad); code(err) != codes.InvalidArgument {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if s := r.seat("T01"); s.InService.GetTechnicianId() != "tech2" {
		t.Fatalf("after refused reports: %v", s)
	}
	for _, role := range []string{pki.RoleDealer, pki.RoleSupervisor, pki.RoleTechnician} {
		c := pb.NewTerminalServiceClient(r.dial(role, "T01"))
		if _, err := c.SetInService(ctx, &pb.SetInServiceRequest{}); code(err) != codes.PermissionDenied {
			t.Errorf("%s reported a seat back in play: %v", role, err)
		}
	}
	// T02's certificate reports T02, whatever it says: T01 stays in service.
	if _, err := r.terminal("T02").SetInService(ctx, &pb.SetInServiceRequest{}); err != nil {
		t.Fatal(err)
	}
	if r.seat("T01").InService == nil {
		t.Fatal("another terminal put T01 back in play")
	}
}

// FuzzSetInService sends arbitrary reports through the terminal service: never a panic; a
// report is taken exactly when it is well formed, and then the status says what it said.
func FuzzSetInService(f *testing.F) {
	f.Add(true, "tech1", "technician mode")
	f.Add(false, "", "")
	f.Add(false, "tech1", "")
	f.Add(true, "", "x")
	f.Add(true, "tech1", "\xff\xfe")
	f.Add(true, strings.Repeat("t", 40), strings.Repeat("校", 201))
	r := newRig(f)
	tctx := context.WithValue(ctx, identityKey{}, identity{role: pki.RoleTerminal, id: "T01"})
	s := &terminalService{t: r.table}
	f.Fuzz(func(t *testing.T, in bool, id, reason string) {
		_, err := s.SetInService(tctx, &pb.SetInServiceRequest{InService: in, TechnicianId: id, Reason: reason})
		st, serr := r.table.Status()
		if serr != nil {
			t.Fatal(serr)
		}
		var seat *pb.SeatService
		for _, ts := range st.Terminals {
			if ts.TerminalId == "T01" {
				seat = ts.InService
			}
		}
		wellFormed := (!in && id == "" && reason == "") || (in && technicianIDForTest.MatchString(id) && len([]rune(reason)) <= 200 && printableForTest(reason))
		switch {
		case !wellFormed:
			if code(err) != codes.InvalidArgument {
				t.Fatalf("%v %q %q: %v", in, id, reason, err)
			}
		case err != nil:
			t.Fatalf("%v %q %q refused: %v", in, id, reason, err)
		case !in && seat != nil, in && (seat.GetTechnicianId() != id || seat.Reason != reason):
			t.Fatalf("%v %q %q: the status says %v", in, id, reason, seat)
		}
	})
}

// technicianIDForTest is the ids a terminal may report: a certificate's or a technicians
// file's (which also allows '.').
var technicianIDForTest = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

// printableForTest is the wire's rule said again independently: valid UTF-8, no control
// characters (C0, DEL, C1).
func printableForTest(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if c < 0x20 || (c >= 0x7f && c < 0xa0) {
			return false
		}
	}
	return true
}
