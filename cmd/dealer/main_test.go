package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
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

// The console shows a seat a technician has out of play: `seats` prints it IN SERVICE with the
// technician and since when (and says when the terminal is not connected), and status follows
// its JSON with the same on stderr — run end to end, with the PKI directory's certificates.
func TestSeatsInService(t *testing.T) {
	dir := t.TempDir()
	if err := pki.Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	files := pki.Files{Dir: dir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := files.Load("server")
	if err != nil {
		t.Fatal(err)
	}
	srvTLS, err := pki.ServerTLS(caPEM, srv)
	if err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	// The table's clock stands three minutes back: the seat has been in service that long.
	at := time.Now().Add(-3 * time.Minute)
	clock := func() time.Time { return at }
	tbl, err := server.NewTable(context.Background(), server.DefaultConfig(), led, clock, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
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
