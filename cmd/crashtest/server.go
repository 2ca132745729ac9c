package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tablegames/ats/server"
)

const terminalID = "T01"

func pkiDir(dir string) string      { return filepath.Join(dir, "pki") }
func journalPath(dir string) string { return filepath.Join(dir, "terminal-"+terminalID+".db") }
func ledgerPath(dir string) string  { return filepath.Join(dir, "table.db") }

// tableConfig is a fast table: short rounds, so that kill points fall in every phase often.
func tableConfig() server.Config {
	cfg := server.DefaultConfig()
	cfg.TableID = "CRASH"
	cfg.Period, cfg.Warning = 1500*time.Millisecond, 500*time.Millisecond
	cfg.SpinTime, cfg.ResultTime = 300*time.Millisecond, 300*time.Millisecond
	return cfg
}

// runServer is the table server process the harness kills in -kill server: the same
// server.ServeFiles the tableserver command runs, on the harness's ledger file.
func runServer(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	dir := fs.String("dir", "", "harness directory")
	listen := fs.String("listen", "127.0.0.1:0", "address")
	verbose := fs.Bool("v", false, "log to stderr")
	// -kill floor runs two table servers on one PostgreSQL database: each its table id, the
	// database's address and the floor's key file (the same for both).
	tableID := fs.String("table", "", "table id (default: the one-table harness's)")
	db := fs.String("db", "", "ledger: SQLite file or postgres://… (default: the harness directory's table.db)")
	key := fs.String("ledger-key", "", "ledger key file (required with postgres://)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := tableConfig()
	if *tableID != "" {
		cfg.TableID = *tableID
	}
	if *db == "" {
		*db = ledgerPath(*dir)
	}
	log := slog.New(slog.DiscardHandler)
	if *verbose {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return server.ServeFiles(ctx, cfg, server.Files{PKI: pkiDir(*dir), Ledger: *db, LedgerKey: *key, Listen: *listen, Auto: true},
		log, func(addr string) { fmt.Fprintln(stdout, "ready", addr) })
}
