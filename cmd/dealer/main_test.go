package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// The console's money commands against a real table over mutual TLS: overpayments, resolve,
// holds, release, alarms.
func TestMoneyCommands(t *testing.T) {
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	tbl, err := server.NewTable(context.Background(), server.DefaultConfig(), led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srvTLS, _ := m.ServerTLS()
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cliTLS, _ := m.ClientTLS(pki.RoleSupervisor, "S7") // release and resolve are the pit boss's
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(cliTLS)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
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
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	tbl, err := server.NewTable(context.Background(), server.DefaultConfig(), led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.RegisterTerminal("T01"); err != nil {
		t.Fatal(err)
	}
	srvTLS, _ := m.ServerTLS()
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cliTLS, _ := m.ClientTLS(pki.RoleDealer, "D3")
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(cliTLS)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
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
