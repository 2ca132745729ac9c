package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// liveTable is a real table server for the console's commands to run against: mutual TLS on
// loopback with an in-memory PKI, a real SQLite ledger in the test's directory. It is stopped,
// and every connection made through it closed, when the test ends.
type liveTable struct {
	t     *testing.T
	Table *server.Table
	PKI   *pki.Memory
	Addr  string
}

// newLiveTable starts a table with cfg on the wall clock.
func newLiveTable(t *testing.T, cfg server.Config) *liveTable {
	t.Helper()
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	tbl, err := server.NewTable(context.Background(), cfg, led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srvTLS, err := m.ServerTLS()
	if err != nil {
		t.Fatal(err)
	}
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop) // registered after the ledger's close, so it runs first
	return &liveTable{t: t, Table: tbl, PKI: m, Addr: addr}
}

// conn is a connection to the table with the certificate of role and id.
func (l *liveTable) conn(role, id string) *grpc.ClientConn {
	l.t.Helper()
	cfg, err := l.PKI.ClientTLS(role, id)
	if err != nil {
		l.t.Fatal(err)
	}
	conn, err := grpc.NewClient(l.Addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	if err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { conn.Close() })
	return conn
}

// dealer is the console's client as role and id: a dealer or the pit boss (supervisor).
func (l *liveTable) dealer(role, id string) pb.DealerServiceClient {
	return pb.NewDealerServiceClient(l.conn(role, id))
}

// pkiTable starts a table whose certificates are a PKI directory on disk (pki.Init: T01, the
// dealer, the supervisor …), for the console's run end to end with -pki: the directory, the
// table's address and the table, on clock, served with opts.
func pkiTable(t *testing.T, cfg server.Config, clock func() time.Time, opts ...server.Option) (dir, addr string, tbl *server.Table) {
	t.Helper()
	dir = t.TempDir()
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
	t.Cleanup(func() { led.Close() })
	tbl, err = server.NewTable(context.Background(), cfg, led, clock, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop) // registered after the ledger's close, so it runs first
	return dir, addr, tbl
}
