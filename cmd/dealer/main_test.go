package main

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// The console's money commands against a real table over mutual TLS: overpayments, resolve,
// holds, release, alarms.
func TestMoneyCommands(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	conn := lt.conn(pki.RoleSupervisor, "S7") // release and resolve are the pit boss's
	d := pb.NewDealerServiceClient(conn)
	ctx := context.Background()
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"overpayments"}, ""},
		{[]string{"overpayments", "-all"}, ""},
		{[]string{"holds"}, ""},
		{[]string{"alarms"}, ""},
		{[]string{"alarms", "5"}, ""},
		{[]string{"release", "000000000000000001", "walked away"}, "NotFound"},
		{[]string{"release"}, "missing argument"},
		{[]string{"resolve", "P1", "recovered"}, "NotFound"},
		{[]string{"resolve", "P1"}, "missing argument"},
		// handpay with the patron's identity (issue 33: cash by hand at or over the reporting
		// threshold): three words or none, checked before the call.
		{[]string{"handpay", "000000000000000001"}, "NotFound"},
		{[]string{"handpay", "000000000000000001", "passport", "PA1234567", "Jane Citizen"}, "NotFound"},
		{[]string{"handpay", "000000000000000001", "passport", "PA1234567"}, "three words"},
		{[]string{"handpay", "000000000000000001", "passport", "PA1234567", ""}, "the patron's name is required"},
		// over the cash cap (issue 31): the parts after the identity, read before the call.
		{[]string{"handpay", "000000000000000001", "passport", "PA1234567", "Jane Citizen", "cash=100000", "transfer=400000:TX-9"}, "NotFound"},
		{[]string{"handpay", "000000000000000001", "passport", "PA1234567", "Jane Citizen", "cash=1000.00"}, "METHOD=CENTS"},
		{[]string{"handpay", "000000000000000001", "passport", "PA1234567", "Jane Citizen", "transfer"}, "METHOD=CENTS"},
	} {
		_, err := command(ctx, d, c.args)
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: %v, want %q", c.args, err, c.err)
		}
	}
}

// The player-limits command (003 §4.6, 000 §4.3) against a real table over mutual TLS: a seat's
// and a card's limits set and cleared, with per-bet limits; a bad line refused before the call,
// bad limits and an unknown seat refused by the table.
func TestRule003_4_6_PlayerLimitsCommand(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	tbl := lt.Table
	if err := tbl.RegisterTerminal("T01"); err != nil {
		t.Fatal(err)
	}
	conn := lt.conn(pki.RoleDealer, "D3")
	d := pb.NewDealerServiceClient(conn)
	ctx := context.Background()
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"player-limits", "seat", "T01", "500", "100000", "500"}, ""},
		{[]string{"player-limits", "card", "PC-0042", "1000", "250000", "500", "2000", "straight=1000:10000:500"}, ""},
		{[]string{"player-limits", "seat", "T01", "clear"}, ""},
		{[]string{"player-limits", "seat", "T99", "500", "100000", "500"}, "NotFound"},
		{[]string{"player-limits", "seat", "T01", "500", "100", "500"}, "below the minimum"},
		{[]string{"player-limits", "card", "PC 1", "500", "1000", "500"}, "only letters"},
		{[]string{"player-limits", "card", "PC-1", "500", "1000", "500", "basket=1:2:1"}, "unknown bet"},
		{[]string{"player-limits", "seat", "T01"}, "usage"},
		{[]string{"player-limits", "row", "T01", "clear"}, "seat or card"},
		{[]string{"player-limits", "seat", "T01", "5.00", "100", "1"}, "not an amount"},
		{[]string{"player-limits", "seat", "T01", "clear", "now"}, "nothing after"},
		{[]string{"player-limits", "seat", "T01", "1", "2", "1", "straight=1:2"}, "BET=MIN:MAX:UNIT"},
	} {
		_, err := command(ctx, d, c.args)
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: %v, want %q", c.args, err, c.err)
		}
	}
	// Each change is in the audit log, with who made it.
	log, err := d.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, e := range log.Entries {
		if e.Kind == "player-limits" {
			if e.Actor != "dealer:D3" {
				t.Errorf("player-limits by %q, want dealer:D3", e.Actor)
			}
			seen = append(seen, e.Detail)
		}
	}
	if len(seen) != 3 || !strings.Contains(strings.Join(seen, "|"), "player card PC-0042: min 10.00 max 2500.00") {
		t.Errorf("audit log: %q", seen)
	}
}

// FuzzParsePlayerLimits: any command line either reads as a request naming exactly one of a seat
// or a card, with limits or clear, or is refused with an error; never a panic.
func FuzzParsePlayerLimits(f *testing.F) {
	f.Add("seat T01 500 100000 500")
	f.Add("card PC-1 1000 250000 500 2000 straight=1000:10000:500")
	f.Add("seat T01 clear")
	f.Add("card x 1 2 3 red=1:2")
	f.Fuzz(func(t *testing.T, line string) {
		req, err := parsePlayerLimits(strings.Fields(line))
		if err != nil {
			return
		}
		if (req.TerminalId == "") == (req.PlayerCard == "") && (req.TerminalId != "" || req.PlayerCard != "") {
			t.Fatalf("%q: %+v", line, req)
		}
		if req.Clear == (req.Limits != nil) {
			t.Fatalf("%q: clear %v with limits %v", line, req.Clear, req.Limits)
		}
	})
}

// The console's table and seat commands (issue 17, item 12) against a real table over mutual
// TLS, as the pit boss: closing (announce, too early, cancel), seats, vacate (refused for a seat
// that has not abstained), dispute, lights, clearfault — each answer checked, not only its error.
func TestTableAndSeatCommands(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	tbl := lt.Table
	if err := tbl.RegisterTerminal("T01"); err != nil {
		t.Fatal(err)
	}
	conn := lt.conn(pki.RoleSupervisor, "S7")
	d := pb.NewDealerServiceClient(conn)
	ctx := context.Background()
	run := statusCommand(t, ctx, d)
	if _, err := run("open"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("closing", "+5m"); err == nil || !strings.Contains(err.Error(), "at least 20m0s") {
		t.Fatalf("closing +5m: %v", err)
	}
	if _, err := run("closing", "soon"); err == nil || !strings.Contains(err.Error(), "+DURATION, HH:MM or cancel") {
		t.Fatalf("closing soon: %v", err)
	}
	before := time.Now()
	st, err := run("closing", "+25m")
	if err != nil {
		t.Fatal(err)
	}
	if at := time.Unix(0, st.ClosingAtUnixNanos); at.Sub(before) < 25*time.Minute || at.Sub(before) > 26*time.Minute {
		t.Fatalf("closing +25m announced for %v", at)
	}
	if st, err := run("seats"); err != nil || st.ClosingAtUnixNanos == 0 {
		t.Fatalf("seats: %v %v", st, err)
	}
	if st, err := run("closing", "cancel"); err != nil || st.ClosingAtUnixNanos != 0 {
		t.Fatalf("closing cancel: %v %v", st, err)
	}
	if _, err := run("vacate", "T01"); err == nil || !strings.Contains(err.Error(), "may not be asked to vacate") {
		t.Fatalf("vacate a seat with no player: %v", err)
	}
	if _, err := run("vacate"); err == nil || !strings.Contains(err.Error(), "missing argument") {
		t.Fatalf("vacate without a seat: %v", err)
	}
	if st, err := run("lights"); err != nil || st.RedLight {
		t.Fatalf("lights at the start: %v %v", st, err)
	}
	if _, err := run("dispute", "no round"); err == nil {
		t.Fatal("a dispute with no spin in play was taken")
	}
	if _, err := run("start"); err != nil {
		t.Fatal(err)
	}
	// wager: refused for a seat with no account, its arguments read and checked.
	if _, err := command(ctx, d, []string{"wager", "T01", "voisins", "100"}); err == nil || !strings.Contains(err.Error(), "no open chip account") {
		t.Fatalf("wager for a seat with no account: %v", err)
	}
	if _, err := command(ctx, d, []string{"wager", "T01", "voisins"}); err == nil || !strings.Contains(err.Error(), "TERMINAL BET CENTS") {
		t.Fatalf("wager without an amount: %v", err)
	}
	if _, err := command(ctx, d, []string{"wager", "T01", "neighbours", "100", "17", "x"}); err == nil || !strings.Contains(err.Error(), "spread") {
		t.Fatalf("wager with a bad spread: %v", err)
	}
	// refuse (003 §9.12): sent to the table as the supervisor, which finds the seat has no wager.
	if _, err := command(ctx, d, []string{"refuse", "T01", "all", "past", "posting"}); err == nil || !strings.Contains(err.Error(), "has no wager") {
		t.Fatalf("refuse on a seat with no wager: %v", err)
	}
	if _, err := command(ctx, d, []string{"refuse", "T01", "x", "late"}); err == nil || !strings.Contains(err.Error(), "INDEX") {
		t.Fatalf("refuse with a bad index: %v", err)
	}
	if _, err := run("dispute", "ball jumped out"); err != nil {
		t.Fatal(err)
	}
	if st, err := run("lights"); err != nil || !st.RedLight || !strings.Contains(st.Fault, "ball jumped out") {
		t.Fatalf("lights after the dispute: %v %v", st, err)
	}
	if _, err := run("clearfault", "ball replaced"); err != nil {
		t.Fatal(err)
	}
	if st, err := run("lights"); err != nil || st.RedLight {
		t.Fatalf("lights after the clear: %v %v", st, err)
	}
}

// closingTime reads +DURATION and HH:MM (today, or tomorrow once passed).
func TestClosingTime(t *testing.T) {
	now := time.Date(2026, 11, 24, 21, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"+20m", now.Add(20 * time.Minute), true},
		{"22:15", time.Date(2026, 11, 24, 22, 15, 0, 0, time.UTC), true},
		{"21:00", time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC), true},
		{"+-5m", time.Time{}, false},
		{"+0s", time.Time{}, false},
		{"25:00", time.Time{}, false},
		{"", time.Time{}, false},
	} {
		got, err := closingTime(c.in, now)
		if (err == nil) != c.ok || !got.Equal(c.want) {
			t.Errorf("%q: %v %v, want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// callWager writes the wire wager of each call bet the console takes.
func TestCallWager(t *testing.T) {
	w, err := callWager([]string{"T01", "neighbours", "250", "17", "3"})
	if err != nil || w.Kind != pb.BetKind_BET_KIND_NEIGHBOURS || w.Amount != 250 || len(w.Numbers) != 1 || w.Numbers[0] != "17" || w.Spread != 3 {
		t.Fatalf("neighbours of 17, 3 either side: %v %v", w, err)
	}
	if w, err := callWager([]string{"T01", "tier", "100"}); err != nil || w.Kind != pb.BetKind_BET_KIND_TIER {
		t.Fatalf("tier: %v %v", w, err)
	}
	// Announced bets (000 §11.4.2(b)): an inside bet's numbers, a dozen's number, a colour.
	if w, err := callWager([]string{"G01", "split", "500", "17,20"}); err != nil || w.Kind != pb.BetKind_BET_KIND_SPLIT || !slices.Equal(w.Numbers, []string{"17", "20"}) {
		t.Fatalf("split 17/20: %v %v", w, err)
	}
	if w, err := callWager([]string{"G01", "dozen", "500", "2"}); err != nil || w.Kind != pb.BetKind_BET_KIND_DOZEN || w.Which != 2 {
		t.Fatalf("second dozen: %v %v", w, err)
	}
	if w, err := callWager([]string{"G01", "red", "500"}); err != nil || w.Kind != pb.BetKind_BET_KIND_RED {
		t.Fatalf("red: %v %v", w, err)
	}
	for _, bad := range [][]string{{"T01", "tier", "1.5"}, {"T01", "tier"}, {"T01", "neighbours", "1", "2", "3", "4"}, {"G01", "dozen", "500", "x"}} {
		if _, err := callWager(bad); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}

// The console shows a seat a technician has out of play: `seats` prints it IN SERVICE with the
// technician and since when (and says when the terminal is not connected), and status follows
// its JSON with the same on stderr — run end to end, with the PKI directory's certificates.
func TestSeatsInService(t *testing.T) {
	// The table's clock stands three minutes back: the seat has been in service that long.
	at := time.Now().Add(-3 * time.Minute)
	dir, addr, _ := pkiTable(t, server.DefaultConfig(), func() time.Time { return at })
	files := pki.Files{Dir: dir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	terminal := func(id string) pb.TerminalServiceClient {
		pair, err := files.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := pki.ClientTLS(caPEM, pair, "")
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
	ctx := context.Background()
	if _, err := terminal("T01").SetInService(ctx, &pb.SetInServiceRequest{InService: true, TechnicianId: "technician", Reason: "technician mode"}); err != nil {
		t.Fatal(err)
	}
	console := func(args ...string) (string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(append([]string{"-addr", addr, "-pki", dir}, args...), &out, &errOut); code != 0 {
			t.Fatalf("dealer %v: %d %s", args, code, errOut.String())
		}
		return out.String(), errOut.String()
	}
	since := at.Local().Format("15:04:05 MST")
	out, _ := console("seats")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "T01") ||
		!strings.Contains(lines[0], "IN SERVICE technician technician since "+since+" (3m") ||
		!strings.Contains(lines[0], "s): technician mode [terminal not connected: not confirmed since]") {
		t.Fatalf("seats:\n%s", out)
	}
	out, errOut := console("status")
	// protojson varies its spacing on purpose: compare without it.
	if !strings.Contains(strings.Join(strings.Fields(out), ""), `"inService":{"technicianId":"technician"`) || !strings.Contains(errOut, "T01 IN SERVICE technician technician since "+since) {
		t.Fatalf("status:\n%s\nstderr:\n%s", out, errOut)
	}
	if _, err := terminal("T01").SetInService(ctx, &pb.SetInServiceRequest{}); err != nil {
		t.Fatal(err)
	}
	if out, errOut := console("status"); strings.Contains(out+errOut, "IN SERVICE") || strings.Contains(out, "inService") {
		t.Fatalf("back in play, status still says in service:\n%s\n%s", out, errOut)
	}
}

// TestRule003_9_12_RefuseCommand: the supervisor's `refuse TERMINAL INDEX[,INDEX...]|all
// REASON` names the seat, the wagers by index or all, and the grounds the player is told.
func TestRule003_9_12_RefuseCommand(t *testing.T) {
	for _, c := range []struct {
		args    []string
		all     bool
		indexes []uint32
		reason  string
	}{
		{[]string{"T01", "1", "late", "bet"}, false, []uint32{1}, "late bet"},
		{[]string{"T01", "0,2", "past-post"}, false, []uint32{0, 2}, "past-post"},
		{[]string{"T01", "all", "collusion suspected"}, true, nil, "collusion suspected"},
	} {
		req, err := refusal(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if req.TerminalId != c.args[0] || req.All != c.all || !slices.Equal(req.Indexes, c.indexes) || req.Reason != c.reason {
			t.Errorf("%v: got %v", c.args, req)
		}
	}
	for _, bad := range [][]string{{}, {"T01"}, {"T01", "all"}, {"T01", "1"}, {"T01", "1,x", "r"}, {"T01", "99999999999", "r"}, {"T01", "1,,2", "r"}, {"T02", "player", "left"}, {"T01", "all", " "}} {
		if req, err := refusal(bad); err == nil {
			t.Errorf("%v: accepted as %v", bad, req)
		}
	}
}

// FuzzRefusal: whatever the console is given, it refuses it or builds a request the table's own
// reading (server.RefusalOf) takes or refuses with an error; it never panics.
func FuzzRefusal(f *testing.F) {
	for _, s := range []string{"T01 1 late", "T01 all r", "T01 0,2 x y", "T01", "T01 ,, r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		req, err := refusal(strings.Fields(line))
		if err != nil {
			return
		}
		if req.Reason == "" || (req.All && len(req.Indexes) > 0) {
			t.Fatalf("%q: %v", line, req)
		}
		_, _, _, _ = server.RefusalOf(req)
	})
}

// TestRule003_9_12_SeatsListTheIndexesRefuseNames: `dealer seats` lists each seat's wagers
// under it with their index in the slip, and `refuse` by that index removes exactly that wager
// (003 §9.12), end to end over gRPC as the supervisor.
func TestRule003_9_12_SeatsListTheIndexesRefuseNames(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	tbl := lt.Table
	if err := tbl.RegisterTerminal("T01"); err != nil {
		t.Fatal(err)
	}
	conn := lt.conn(pki.RoleSupervisor, "S7")
	d := pb.NewDealerServiceClient(conn)
	ctx := context.Background()
	if _, err := command(ctx, d, []string{"open"}); err != nil {
		t.Fatal(err)
	}
	note := &pb.NoteEscrowRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}
	if _, err := tbl.ReportNoteEscrow("T01", note); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.CreditNote("T01", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		t.Fatal(err)
	}
	st, err := tbl.StartRound("dealer:D1")
	if err != nil {
		t.Fatal(err)
	}
	red := roulette.BetSpec{Name: "red"}
	s17 := roulette.BetSpec{Name: "straight", Numbers: []string{"17"}}
	if _, err := tbl.UpdateSlip("T01", st.RoundId, 1, []server.SlipWager{{Spec: red, Amount: 500}, {Spec: s17, Amount: 200}}); err != nil {
		t.Fatal(err)
	}
	seats := func() []string {
		t.Helper()
		out, err := command(ctx, d, []string{"seats"})
		if err != nil {
			t.Fatal(err)
		}
		return seatLines(out.(*pb.TableStatus), time.Now())
	}
	lines := seats()
	if len(lines) != 3 || strings.Join(strings.Fields(lines[1]), " ") != "[0] red 5.00" || strings.Join(strings.Fields(lines[2]), " ") != "[1] straight 17 2.00" {
		t.Fatalf("seats:\n%s", strings.Join(lines, "\n"))
	}
	if _, err := command(ctx, d, []string{"refuse", "T01", "1", "past-posting", "suspected"}); err != nil {
		t.Fatal(err)
	}
	if lines := seats(); len(lines) != 2 || !strings.Contains(lines[0], "slip      5.00") || !strings.Contains(lines[1], "[0] red") {
		t.Fatalf("seats after refusing [1]:\n%s", strings.Join(lines, "\n"))
	}
}

// statusCommand runs console commands on d that answer with the table's status (nil for one
// that answers otherwise).
func statusCommand(t *testing.T, ctx context.Context, d pb.DealerServiceClient) func(args ...string) (*pb.TableStatus, error) {
	return func(args ...string) (*pb.TableStatus, error) {
		t.Helper()
		out, err := command(ctx, d, args)
		if err != nil {
			return nil, err
		}
		st, _ := out.(*pb.TableStatus)
		return st, nil
	}
}
