package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Demo is a table server embedded in the kiosk for demo mode: the same engine, ledger, mutual
// TLS and gRPC on a loopback port as a real table, with the auto-dealer dealing.
type Demo struct {
	Addr      string
	ClientTLS *tls.Config // a terminal certificate for the kiosk
	Table     *Table
	stop      func()
	led       *ledger.Ledger
	cancel    context.CancelFunc
}

// StartDemo starts a demo table with its ledger in dir, serving terminal id.
func StartDemo(dir, terminal string, period time.Duration, log *slog.Logger) (*Demo, error) {
	cfg := DefaultConfig()
	cfg.Period = period
	return StartDemoWith(dir, terminal, cfg, log)
}

// StartDemoWith starts a demo table with a configuration of its own (a faster auto-dealer for
// measurements, say).
func StartDemoWith(dir, terminal string, cfg Config, log *slog.Logger) (*Demo, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	led, err := ledger.Open(filepath.Join(dir, "demo-table.db"))
	if err != nil {
		return nil, err
	}
	cfg.TableID = "DEMO"
	t, err := NewTable(context.Background(), cfg, led, time.Now, log)
	if err != nil {
		led.Close()
		return nil, err
	}
	m, err := pki.NewMemory()
	if err != nil {
		led.Close()
		return nil, err
	}
	srvTLS, err := m.ServerTLS()
	if err != nil {
		led.Close()
		return nil, err
	}
	cliTLS, err := m.ClientTLS(pki.RoleTerminal, terminal)
	if err != nil {
		led.Close()
		return nil, err
	}
	addr, stop, err := Listen(t, srvTLS, "127.0.0.1:0")
	if err != nil {
		led.Close()
		return nil, fmt.Errorf("demo table: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go t.Run(ctx)
	if _, err := t.OpenTable(true); err != nil {
		cancel()
		stop()
		led.Close()
		return nil, err
	}
	return &Demo{Addr: addr, ClientTLS: cliTLS, Table: t, stop: stop, led: led, cancel: cancel}, nil
}

// Stop stops the demo table.
func (d *Demo) Stop() {
	d.cancel()
	d.stop()
	d.led.Close()
}
