package demo

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
	"github.com/tablegames/ats/server/precommit"
)

// Table is a table server embedded in the process: the same engine, ledger, mutual TLS and
// gRPC on a loopback port as a real table, opened with the auto-dealer dealing. The demo runs
// one; tests that want a real table without its devices start one directly.
type Table struct {
	Addr      string      // host:port on loopback
	ClientTLS *tls.Config // a terminal certificate for the terminal it serves, from a throwaway CA
	Table     *server.Table

	stop   func() // the gRPC server's
	led    *ledger.Ledger
	cancel context.CancelFunc
	ran    chan struct{} // closed when the table's clock has stopped
}

// StartTable starts a table with its ledger (demo-table.db) in dir, serving terminal id, and
// opens it with the auto-dealer. A nil log discards the table's log.
func StartTable(dir, terminal string, cfg server.Config, log *slog.Logger) (_ *Table, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	led, err := ledger.Open(filepath.Join(dir, "demo-table.db"))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			led.Close()
		}
	}()
	cfg.TableID = "DEMO"
	t, err := server.NewTable(context.Background(), cfg, led, time.Now, log)
	if err != nil {
		return nil, err
	}
	// A CA made for this process: the demo needs no PKI directory, and nothing else trusts it.
	m, err := pki.NewMemory()
	if err != nil {
		return nil, err
	}
	srvTLS, err := m.ServerTLS()
	if err != nil {
		return nil, err
	}
	cliTLS, err := m.ClientTLS(pki.RoleTerminal, terminal)
	if err != nil {
		return nil, err
	}
	// The demo issued the terminal's certificate, so its table knows the terminal from the
	// start (a dealer buy-in may come before the terminal first connects).
	if err := t.RegisterTerminal(terminal); err != nil {
		return nil, err
	}
	pins, err := demoPINs()
	if err != nil {
		return nil, err
	}
	sups, err := demoSupervisorPINs()
	if err != nil {
		return nil, err
	}
	addr, stop, err := server.Listen(t, srvTLS, "127.0.0.1:0", server.WithTechnicians(pins), server.WithSupervisors(sups))
	if err != nil {
		return nil, fmt.Errorf("demo table: %w", err)
	}
	if err := writeDisplayPKI(dir, addr, m); err != nil {
		stop()
		return nil, err
	}
	if cfg.Carded {
		// The demo's player cards, as a cage would have registered them (cards.go).
		if err := registerCards(context.Background(), &precommit.LedgerStore{L: led, S: cfg.Precommit}, time.Now()); err != nil {
			stop()
			return nil, fmt.Errorf("demo: the demo's player cards: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Table{Addr: addr, ClientTLS: cliTLS, Table: t, stop: stop, led: led, cancel: cancel, ran: make(chan struct{})}
	go func() { defer close(d.ran); t.Run(ctx) }()
	if _, err := t.OpenTable("system", true); err != nil {
		d.halt()
		return nil, err
	}
	return d, nil
}

// The demo table's one technician and PIN, checked by its technician PINs like a real table's
// (docs/guides/technician.md). For the demo only: anyone can read them here.
const (
	Technician    = "demo-tech"
	TechnicianPIN = "246810"
)

// demoPINs is the demo table's PIN file: Technician's PIN.
func demoPINs() (*server.Technicians, error) {
	return demoPINFile(Technician, TechnicianPIN, server.TechnicianPolicy)
}

// demoPINFile is a PIN file of one id's PIN, hashed with few iterations (the demo and its tests
// start many tables; the PIN is public anyway).
func demoPINFile(id, pin string, policy server.PINPolicy) (*server.PINs, error) {
	line, err := server.PINLine(id, pin, 1000)
	if err != nil {
		return nil, err
	}
	return server.ParsePINs([]byte(line), policy)
}

// The demo table's supervisor card and PIN, for a supervisor's actions at a dealer's console
// (notes/supervisor.md). For the demo only, like the technician's.
const (
	Supervisor    = "demo-super"
	SupervisorPIN = "135790"
)

// demoSupervisorPINs is the demo table's supervisors' PIN file: Supervisor's PIN.
func demoSupervisorPINs() (*server.PINs, error) {
	return demoPINFile(Supervisor, SupervisorPIN, server.SupervisorPolicy)
}

// halt stops the clock and the gRPC server and waits for the clock, so nothing writes to the
// ledger once it is closed.
func (d *Table) halt() {
	d.cancel()
	d.stop()
	<-d.ran
}

// Close stops the table and closes its ledger.
func (d *Table) Close() error {
	d.halt()
	if err := d.led.Close(); err != nil {
		return fmt.Errorf("demo table: closing the ledger: %w", err)
	}
	return nil
}

// DisplayID is the demo's winning number display certificate's id (role display).
const DisplayID = "wnd-1"

// writeDisplayPKI lets a winning number display follow the demo table (cmd/wnd; packaging/run.sh
// -wnd): dir/wnd holds the process's CA certificate, a display certificate (DisplayID: it may
// call nothing but the display's stream) and the table's address in addr. A new table replaces
// them.
func writeDisplayPKI(dir, addr string, m *pki.Memory) error {
	d := filepath.Join(dir, "wnd")
	if err := os.MkdirAll(d, 0o700); err != nil {
		return err
	}
	is, err := m.CA.IssueClient(pki.RoleDisplay, DisplayID)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{{"ca.pem", m.CA.PEM, 0o644}, {DisplayID + ".pem", is.CertPEM, 0o644}, {DisplayID + "-key.pem", is.KeyPEM, 0o600},
		{"addr", []byte(addr + "\n"), 0o644}} {
		if err := os.WriteFile(filepath.Join(d, f.name), f.data, f.mode); err != nil {
			return fmt.Errorf("demo: the display's files: %w", err)
		}
	}
	return nil
}
