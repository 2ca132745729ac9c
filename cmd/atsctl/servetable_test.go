package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// serveTable runs a real table server on loopback with the server certificate of the PKI
// directory pkiDir (made by pki.Init or pki.InitWith), on a fresh SQLite ledger, opened by the
// dealer when open is true; it returns the server's address, the table and the CA's PEM.
func serveTable(t *testing.T, pkiDir string, open bool, opts ...server.Option) (addr string, tbl *server.Table, caPEM []byte) {
	return serveTableOn(t, pkiDir, filepath.Join(t.TempDir(), "table.db"), open, opts...)
}

// serveTableOn is serveTable on the SQLite ledger at ledgerPath.
func serveTableOn(t *testing.T, pkiDir, ledgerPath string, open bool, opts ...server.Option) (addr string, tbl *server.Table, caPEM []byte) {
	t.Helper()
	files := pki.Files{Dir: pkiDir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := files.Load("server")
	if err != nil {
		t.Fatal(err)
	}
	tlsCfg, err := pki.ServerTLS(caPEM, srv)
	if err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	tbl, err = server.NewTable(context.Background(), server.DefaultConfig(), led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if open {
		if _, err := tbl.OpenTable("dealer:test", false); err != nil {
			t.Fatal(err)
		}
	}
	addr, stop, err := server.Listen(tbl, tlsCfg, "127.0.0.1:0", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return addr, tbl, caPEM
}
