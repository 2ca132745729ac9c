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
