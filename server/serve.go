package server

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Files is where a table server's state lives on disk.
type Files struct {
	PKI    string // the PKI directory (tableserver pki init): ca.pem, server.pem, server-key.pem, crl.pem
	Ledger string // the ledger: a SQLite file, or a floor's PostgreSQL database, postgres://… (schema table_<TableID>)
	Listen string // the address to serve on
	Auto   bool   // open the table with the auto-dealer
	// Technicians is the technicians' PIN file; "" is PKI/technicians.
	Technicians string
	// Supervisors is the supervisors' PIN file (their card and PIN on a dealer's console,
	// supervisor.go); "" is PKI/supervisors.
	Supervisors string
	// CRLInterval is how often the revocation list's file is checked for a change (it is
	// also reloaded on SIGHUP); 0 is 10 s.
	CRLInterval time.Duration
	// LedgerKey is the ledger's seal key file (0600; made on the first start); "" keeps it
	// beside the ledger (ledger.KeyPath). Never inside the ledger. Required on PostgreSQL.
	LedgerKey string
	// FloorKey is, on PostgreSQL, the key file the floor's shared rows (tickets, cage) are
	// sealed under: the same file at every table server of the floor. "" is LedgerKey.
	FloorKey string
	// Promotion is the operator's promotional text for the winning number displays, one line
	// in a file; "" for none. Read at start (a bad file stops the start) and again on SIGHUP
	// (a bad file then is logged and the text shown stays).
	Promotion string
	// Attach, if set, is given the table once it is loaded, before it serves: what runs beside
	// the table in this process (the wheel follower, tableserver -wheel-port) starts here and
	// stops when ctx ends.
	Attach func(ctx context.Context, t *Table)
}

// ServeFiles runs a table until ctx ends: it loads the server certificate, opens the ledger and
// recovers the table from it, opens the table (with the auto-dealer when asked) and serves gRPC
// with mutual TLS. ready, if set, is told the address once it listens. The tableserver command
// and the crash harness's server process both run through here.
//
// It needs only the CA's certificate, never its key: the CA key can be kept offline. It
// refuses the certificates the revocation list names, and reloads the list when its file
// changes or the process gets SIGHUP.
func ServeFiles(ctx context.Context, cfg Config, f Files, log *slog.Logger, ready func(addr string)) error {
	files := pki.Files{Dir: f.PKI}
	caCert, _ := files.CA()
	caPEM, err := os.ReadFile(caCert)
	if err != nil {
		return fmt.Errorf("%w (create the PKI with: tableserver pki init -dir %s)", err, f.PKI)
	}
	ca, err := pki.ParseCert(caPEM)
	if err != nil {
		return fmt.Errorf("%s: %w", caCert, err)
	}
	srvPair, err := files.Load("server")
	if err != nil {
		return err
	}
	tlsCfg, err := pki.ServerTLS(caPEM, srvPair)
	if err != nil {
		return err
	}
	revoked, err := pki.NewRevocations(ca, files.CRL(), log)
	if err != nil {
		return err
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	interval := f.CRLInterval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	go revoked.Watch(ctx, interval, hup)
	techPath := f.Technicians
	if techPath == "" {
		techPath = filepath.Join(f.PKI, "technicians")
	}
	techs, err := LoadTechnicians(techPath)
	if err != nil {
		return err
	}
	supPath := f.Supervisors
	if supPath == "" {
		supPath = filepath.Join(f.PKI, "supervisors")
	}
	sups, err := LoadSupervisors(supPath)
	if err != nil {
		return err
	}
	// Refuses a ledger that fails its seal.
	led, err := ledger.OpenStore(ctx, ledger.StoreConfig{DSN: f.Ledger, TableID: cfg.TableID, KeyPath: f.LedgerKey, FloorKeyPath: f.FloorKey})
	if err != nil {
		return err
	}
	defer led.Close()
	if v, err := led.SchemaVersion(ctx); err == nil {
		log.Info("ledger open", "store", led.Dialect(), "schema_version", v)
	}
	t, err := NewTable(ctx, cfg, led, nil, log)
	if err != nil {
		return err
	}
	if f.Auto {
		if _, err := t.OpenTable("system", true); err != nil {
			return err
		}
	}
	if f.Promotion != "" {
		if err := t.LoadPromotion(f.Promotion); err != nil {
			return err
		}
		go reloadPromotion(ctx, t, f.Promotion, log)
	}
	if f.Attach != nil {
		f.Attach(ctx, t)
	}
	addr, shutdown, err := Listen(t, tlsCfg, f.Listen, WithRevocations(revoked), WithTechnicians(techs), WithSupervisors(sups), WithLogger(log))
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

// reloadPromotion reads the promotional text again at each SIGHUP (systemctl reload) until ctx
// ends: the operator edits the file and reloads, and the table plays on.
func reloadPromotion(ctx context.Context, t *Table, path string, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			if err := t.LoadPromotion(path); err != nil {
				log.Error("promotion not reloaded: the displays keep the text they show", "file", path, "err", err)
			}
		}
	}
}
