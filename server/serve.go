package server

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Files is where a table server's state lives on disk.
type Files struct {
	PKI    string // the PKI directory (tableserver pki init)
	Ledger string // the ledger SQLite file
	// LedgerKey is the ledger's seal key file (0600; made on the first start); "" keeps it
	// beside the ledger (ledger.KeyPath). Never inside the ledger.
	LedgerKey string
	Listen    string // the address to serve on
	Auto      bool   // open the table with the auto-dealer
}

// ServeFiles runs a table until ctx ends: it loads the server certificate, opens the ledger and
// recovers the table from it, opens the table (with the auto-dealer when asked) and serves gRPC
// with mutual TLS. ready, if set, is told the address once it listens. The tableserver command
// and the crash harness's server process both run through here.
func ServeFiles(ctx context.Context, cfg Config, f Files, log *slog.Logger, ready func(addr string)) error {
	files := pki.Files{Dir: f.PKI}
	caCert, _ := files.CA()
	caPEM, err := os.ReadFile(caCert)
	if err != nil {
		return fmt.Errorf("%w (create the PKI with: tableserver pki init -dir %s)", err, f.PKI)
	}
	srvPair, err := files.Load("server")
	if err != nil {
		return err
	}
	tlsCfg, err := pki.ServerTLS(caPEM, srvPair)
	if err != nil {
		return err
	}
	led, err := ledger.OpenWith(f.Ledger, f.LedgerKey) // refuses a ledger that fails its seal
	if err != nil {
		return err
	}
	defer led.Close()
	t, err := NewTable(ctx, cfg, led, nil, log)
	if err != nil {
		return err
	}
	if f.Auto {
		if _, err := t.OpenTable(true); err != nil {
			return err
		}
	}
	addr, shutdown, err := Listen(t, tlsCfg, f.Listen)
	if err != nil {
		return err
	}
	defer shutdown()
	log.Info("table server listening", "addr", addr, "table", cfg.TableID, "wheel", cfg.Wheel, "auto", f.Auto)
	if ready != nil {
		ready(addr)
	}
	t.Run(ctx)
	return nil
}
