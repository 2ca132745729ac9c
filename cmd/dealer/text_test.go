package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// sydney is the fixed zone and clock of the console's tests: 11:25 on 23 November 2026 in
// Sydney (AEDT, UTC+11), 00:25 UTC.
func sydney(t *testing.T) view {
	t.Helper()
	loc, err := time.LoadLocation("Australia/Sydney")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 11, 25, 12, 0, loc)
	return view{loc: loc, now: func() time.Time { return at }}
}

// Issue 33, point 8: log, alarms, holds, overpayments, closing, release and handpay printed
// raw JSON with unix nanoseconds, and the cage mixed UTC with local time. They print aligned
// lines, every time in the console's zone with its abbreviation, every amount grouped and in
// the table's currency. The golden file is the whole screen of each (go test -update rewrites
// it).
func TestConsoleTextOutputGolden(t *testing.T) {
	v := sydney(t)
	at := func(hms string) int64 {
		tm, err := time.ParseInLocation("2006-01-02 15:04:05", "2026-11-23 "+hms, v.loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixNano()
	}
	cases := []struct {
		cmd   string
		reply proto.Message
	}{
		{"log", &pb.GetAuditLogResponse{Entries: []*pb.AuditEntry{
			{Seq: 0, AtUnixNanos: at("11:20:00"), Kind: "cage-paid", TerminalId: "T01", TableId: "T1", Amount: 1004000, FromTableId: "T2",
				Detail: "123456789012345678 (issued here by T01) paid in cash at the cage through table T2 by cashier-1", Actor: "cashier:cashier-1"},
			{Seq: 43, AtUnixNanos: at("11:10:00"), Kind: "closure-announced", Detail: "2026-11-23T12:45:00Z", Actor: "supervisor:S1"},
			{Seq: 42, AtUnixNanos: at("11:05:09"), Kind: "correction", RoundId: "R000017", Detail: "17 -> 20", Actor: "supervisor:S1"},
			{Seq: 41, AtUnixNanos: at("09:00:00"), Kind: "note-in", TerminalId: "T02", TableId: "T1", Amount: 5000, Actor: "terminal:T02"},
		}}},
		{"log", &pb.GetAuditLogResponse{}},
		{"alarms", &pb.ListAlarmsResponse{Alarms: []*pb.Alarm{
			{Id: "T2:7", AtUnixNanos: at("11:24:00"), Kind: "ticket-guessing", TerminalId: "cashier:cashier-1", TableId: "T2",
				Detail: "5 failed ticket validations within 1m0s: refused at every cage of the floor for 30s (lockout 1)"},
			{Id: "T1:3", AtUnixNanos: at("08:00:00"), Kind: "player-call", TerminalId: "T01", TableId: "T1", Detail: "seat T01 calls the dealer",
				AckedBy: "supervisor:S1", AckedAtUnixNanos: at("08:02:30")},
		}}},
		{"alarms", &pb.ListAlarmsResponse{}},
		{"holds", &pb.TableStatus{TicketHolds: []*pb.TicketHold{
			{ValidationNumber: "123456789012345678", TerminalId: "T03", HolderTableId: "T1", Amount: 40000,
				HeldAtUnixNanos: at("11:24:12"), LapsesAtUnixNanos: at("11:25:12")},
		}}},
		{"holds", &pb.TableStatus{}},
		{"overpayments", &pb.ListOverpaymentsResponse{Overpayments: []*pb.Overpayment{
			{Id: "Pabc", AtUnixNanos: at("10:00:00"), Kind: "overpayment", TerminalId: "T01", RoundId: "R000017", Amount: 36000, State: "open",
				Reason: "correction 17 -> 20 (the account has been closed since)"},
			{Id: "Pdef", AtUnixNanos: at("09:00:00"), Kind: "underpayment", TerminalId: "T02", RoundId: "R000016", Amount: 125050, State: "paid",
				Reason: "invalidated: wrong ball", ResolvedBy: "supervisor:S1", ResolvedAtUnixNanos: at("09:30:00"), Note: "paid at the cage"},
		}}},
		{"closing", &pb.TableStatus{ClosingAtUnixNanos: at("23:45:00")}},
		{"closing", &pb.TableStatus{}},
		{"release", &pb.ReleaseTicketHoldResponse{Ticket: &pb.Ticket{ValidationNumber: "123456789012345678", Amount: 40000}, ReleasedFrom: "T03"}},
		{"handpay", &pb.HandpayResponse{Ticket: &pb.Ticket{ValidationNumber: "876543210987654321", Amount: 1004000, TerminalId: "T01", State: "handpaid"}}},
		{"handpay", &pb.HandpayResponse{Ticket: &pb.Ticket{ValidationNumber: "876543210987654322", Amount: 500000, TerminalId: "T02", State: "handpaid"},
			Cash: 100000, Parts: []*pb.PaymentPart{{Method: "cash", Amount: 100000}, {Method: "transfer", Amount: 400000, Reference: "TX-9"}}}},
	}
	var b strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&b, "$ dealer -tz Australia/Sydney %s\n", c.cmd)
		for _, l := range render(c.cmd, c.reply, "AUD", v) {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
	}
	got := b.String()
	if strings.Contains(got, "UTC") || strings.Contains(got, "A$ ") {
		t.Errorf("a time in UTC or an ungrouped amount on the console's screen:\n%s", got)
	}
	golden := filepath.Join("testdata", "console-text.txt")
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the console's text differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

// log's times read in the console's zone, by its clock: HH:MM today, a date and time, RFC
// 3339, or a duration ago; a bad one is refused with what a time is.
func TestLogRequestTimes(t *testing.T) {
	v := sydney(t)
	for _, c := range []struct {
		args         []string
		since, until string // RFC 3339 in UTC, "" for none
		limit        int32
		err          string
	}{
		{[]string{"-since", "10:00"}, "2026-11-22T23:00:00Z", "", 20, ""},
		{[]string{"-since", "2026-11-22 18:30", "-until", "2026-11-23 09:00:00", "50"}, "2026-11-22T07:30:00Z", "2026-11-22T22:00:00Z", 50, ""},
		{[]string{"-since", "90m"}, "2026-11-22T22:55:12Z", "", 20, ""},
		{[]string{"-until", "2026-11-23T00:00:00Z"}, "", "2026-11-23T00:00:00Z", 20, ""},
		{[]string{"-kind", "cage-paid", "-terminal", "T1/T01", "5"}, "", "", 5, ""},
		{[]string{"-since", "yesterday"}, "", "", 0, "a time is"},
		{[]string{"-since", "-5m"}, "", "", 0, "positive"},
		{[]string{"-since", "11:00", "-until", "10:00"}, "", "", 0, "not after"},
		{[]string{"0"}, "", "", 0, "1 to 1000"},
		{[]string{"5", "6"}, "", "", 0, "unexpected"},
		{[]string{"-tz", "UTC"}, "", "", 0, "not defined"},
	} {
		req, err := logRequest(c.args, v)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		stamp := func(n int64) string {
			if n == 0 {
				return ""
			}
			return time.Unix(0, n).UTC().Format(time.RFC3339)
		}
		if stamp(req.SinceUnixNanos) != c.since || stamp(req.UntilUnixNanos) != c.until || req.Limit != c.limit {
			t.Errorf("%q: since %s until %s limit %d, want %s %s %d", c.args, stamp(req.SinceUnixNanos), stamp(req.UntilUnixNanos), req.Limit,
				c.since, c.until, c.limit)
		}
	}
}

// log filters by kind, by terminal and by time, at a real table over mutual TLS: one test
// each.
func TestLogFilters(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	for _, id := range []string{"T01", "T02"} {
		if err := lt.Table.RegisterTerminal(id); err != nil {
			t.Fatal(err)
		}
	}
	d := lt.dealer(pki.RoleDealer, "D1")
	ctx := context.Background()
	if _, err := d.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"T01", "T02", "T01"} {
		if _, err := d.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: fmt.Sprint("c", i), TerminalId: id, Amount: int64(1000 * (i + 1))}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // entries apart in time
	}
	all, err := d.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 100})
	if err != nil || len(all.Entries) < 4 {
		t.Fatalf("the whole log: %v %v", all, err)
	}
	logOf := func(args ...string) []*pb.AuditEntry {
		t.Helper()
		reply, err := command(ctx, d, append([]string{"log"}, args...))
		if err != nil {
			t.Fatalf("log %q: %v", args, err)
		}
		return reply.(*pb.GetAuditLogResponse).Entries
	}
	t.Run("kind", func(t *testing.T) {
		got := logOf("-kind", "buy-in-offered")
		if len(got) != 3 {
			t.Fatalf("%d buy-ins offered, want 3: %v", len(got), got)
		}
		for _, e := range got {
			if e.Kind != "buy-in-offered" {
				t.Errorf("-kind buy-in-offered gave %v", e)
			}
		}
	})
	t.Run("terminal", func(t *testing.T) {
		got := logOf("-terminal", "T02")
		if len(got) == 0 {
			t.Fatal("nothing of T02")
		}
		for _, e := range got {
			if e.TerminalId != "T02" || e.TableId == "" {
				t.Errorf("-terminal T02 gave %v", e)
			}
		}
		if q := logOf("-terminal", "T02", "-kind", "buy-in-offered"); len(q) != 1 || q[0].Amount != 2000 {
			t.Errorf("T02's buy-in: %v", q)
		}
	})
	t.Run("time", func(t *testing.T) {
		offers := logOf("-kind", "buy-in-offered") // newest first
		second := time.Unix(0, offers[1].AtUnixNanos).Format(time.RFC3339Nano)
		since := logOf("-kind", "buy-in-offered", "-since", second)
		until := logOf("-kind", "buy-in-offered", "-until", second)
		if len(since) != 2 || since[1].AtUnixNanos != offers[1].AtUnixNanos || len(until) != 1 || until[0].AtUnixNanos != offers[2].AtUnixNanos {
			t.Fatalf("-since %s: %v; -until: %v", second, since, until)
		}
		if got := logOf("-since", "1h"); len(got) != len(all.Entries) {
			t.Errorf("-since 1h: %d entries, want all %d", len(got), len(all.Entries))
		}
	})
}

// An alarm is acknowledged by a supervisor (the one the lockout tells the cashier to call),
// recorded with who and when and shown in the list; the first acknowledgement stands; a
// dealer may read the alarms but not acknowledge them.
func TestAlarmAcknowledgedBySupervisorWithWhoAndWhen(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	ctx := context.Background()
	cage := pb.NewCageServiceClient(lt.conn(pki.RoleCashier, "cashier-1"))
	for i := range 5 {
		if _, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: fmt.Sprintf("%018d", i)}); status.Code(err) != codes.NotFound {
			t.Fatal(err)
		}
	}
	dealer, s1, s2 := lt.dealer(pki.RoleDealer, "D1"), lt.dealer(pki.RoleSupervisor, "S1"), lt.dealer(pki.RoleSupervisor, "S2")
	list, err := command(ctx, dealer, []string{"alarms"})
	if err != nil || len(list.(*pb.ListAlarmsResponse).Alarms) != 1 {
		t.Fatalf("alarms: %v %v", list, err)
	}
	a := list.(*pb.ListAlarmsResponse).Alarms[0]
	if a.Id == "" || a.AckedBy != "" || a.Kind != server.AlarmTicketGuessing {
		t.Fatalf("the alarm: %v", a)
	}
	if _, err := command(ctx, dealer, []string{"alarms", "ack", a.Id}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("a dealer acknowledged an alarm: %v", err)
	}
	before := time.Now()
	acked, err := command(ctx, s1, []string{"alarms", "ack", a.Id})
	if err != nil {
		t.Fatal(err)
	}
	if got := acked.(*pb.Alarm); got.AckedBy != "supervisor:S1" || time.Unix(0, got.AckedAtUnixNanos).Before(before.Add(-time.Second)) {
		t.Fatalf("acknowledged: %v", got)
	}
	again, err := command(ctx, s2, []string{"alarms", "ack", a.Id})
	if err != nil || again.(*pb.Alarm).AckedBy != "supervisor:S1" {
		t.Fatalf("a second acknowledgement replaced the first: %v %v", again, err)
	}
	list, err = command(ctx, dealer, []string{"alarms"})
	if err != nil || list.(*pb.ListAlarmsResponse).Alarms[0].AckedBy != "supervisor:S1" {
		t.Fatalf("the list after: %v %v", list, err)
	}
	for _, c := range []struct {
		args []string
		code codes.Code
		err  string
	}{
		{[]string{"alarms", "ack", "T9:1"}, codes.NotFound, ""},
		{[]string{"alarms", "ack", a.Id[:strings.Index(a.Id, ":")] + ":999"}, codes.NotFound, ""},
		{[]string{"alarms", "ack", "nonsense"}, codes.InvalidArgument, ""},
		{[]string{"alarms", "ack"}, codes.Unknown, "ALARM_ID"},
	} {
		_, err := command(ctx, s1, c.args)
		if status.Code(err) != c.code || !strings.Contains(fmt.Sprint(err), c.err) {
			t.Errorf("%q: %v, want %v %q", c.args, err, c.code, c.err)
		}
	}
	// The acknowledgement is in the log, with who.
	log, err := command(ctx, s1, []string{"log", "-kind", "alarm-acknowledged"})
	if err != nil || len(log.(*pb.GetAuditLogResponse).Entries) != 1 || log.(*pb.GetAuditLogResponse).Entries[0].Actor != "supervisor:S1" {
		t.Fatalf("the log of acknowledgements: %v %v", log, err)
	}
}

// cards (carded play's report) reads its window in the console's zone and one card; a bad
// window is refused with why.
func TestCardsRequest(t *testing.T) {
	v := sydney(t)
	req, err := cardReportRequest([]string{"-since", "2026-11-22 18:30", "-until", "2026-11-23 09:00:00", "-card", "C42"}, v)
	if err != nil || req.CardId != "C42" || time.Unix(0, req.FromUnixNanos).UTC().Format(time.RFC3339) != "2026-11-22T07:30:00Z" ||
		time.Unix(0, req.ToUnixNanos).UTC().Format(time.RFC3339) != "2026-11-22T22:00:00Z" {
		t.Fatalf("%v %v", req, err)
	}
	for _, bad := range [][]string{{"-since", "11:00", "-until", "10:00"}, {"x"}, {"-since", "yesterday"}} {
		if _, err := cardReportRequest(bad, v); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}
