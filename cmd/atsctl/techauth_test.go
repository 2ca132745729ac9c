package main

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// technicianTable is a real table server on loopback with a PKI directory (terminal T01, the
// default "technician" certificate) and technician PINs: tech-1's 482913, technician's 135790.
func technicianTable(t *testing.T) (addr, pkiDir string, tbl *server.Table) {
	t.Helper()
	pkiDir = t.TempDir()
	if err := pki.Init(pkiDir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	pins := filepath.Join(t.TempDir(), "technicians")
	if err := server.SetPIN(pins, "tech-1", "482913", 1000); err != nil {
		t.Fatal(err)
	}
	if err := server.SetPIN(pins, "technician", "135790", 1000); err != nil {
		t.Fatal(err)
	}
	techs, err := server.LoadTechnicians(pins)
	if err != nil {
		t.Fatal(err)
	}
	addr, tbl, _ = serveTable(t, pkiDir, false, server.WithTechnicians(techs))
	return addr, pkiDir, tbl
}

// Headless technician mode asks the table server, as the kiosk does: with the terminal's
// certificate the table checks the technician's PIN (its audit names the terminal and the
// technician), refuses a wrong one (journalled here) and locks the technician out after three,
// the right PIN too — the kiosk's throttle, since it is the table's; with a technician's own
// certificate its own PIN opens, for its own id only. A table that cannot be reached opens
// nothing and says so (no fallback to the terminal's file, whose PIN here would be right), and
// without a table server named the command refuses to start.
func TestTechnicianHeadlessAsksTheTable(t *testing.T) {
	addr, pkiDir, tbl := technicianTable(t)
	dir := t.TempDir()
	jpath := writeJournal(t)
	// The terminal's file knows tech-1's card and name, with another PIN: it must not open.
	if err := technician.Open(dir, nil).Add("tech-1", "Tess", "900001", "246810"); err != nil {
		t.Fatal(err)
	}
	meters := func(pin string, extra ...string) (int, string, string) {
		args := append([]string{"technician", "meters", "-dir", dir, "-journal", jpath, "-server", addr, "-pki", pkiDir}, extra...)
		return techctl(t, pin+"\n", args...)
	}
	if code, out, e := meters("482913", "-id", "tech-1"); code != 0 || !strings.Contains(out, "notes in") {
		t.Fatalf("the table's PIN: %d %s %s", code, out, e)
	}
	if code, _, e := meters("246810", "-id", "tech-1"); code != 1 || !strings.Contains(e, "wrong PIN") {
		t.Fatalf("the terminal file's PIN: %d %s", code, e)
	}
	if code, _, e := meters("000000", "-id", "tech-1"); code != 1 || !strings.Contains(e, "wrong PIN") {
		t.Fatalf("second wrong PIN: %d %s", code, e)
	}
	if code, _, e := meters("000000", "-id", "tech-1"); code != 1 || !strings.Contains(e, "too many wrong PINs") {
		t.Fatalf("third wrong PIN: %d %s, want the lockout", code, e)
	}
	if code, _, e := meters("482913", "-id", "tech-1"); code != 1 || !strings.Contains(e, "too many wrong PINs") {
		t.Fatalf("the right PIN while locked out: %d %s", code, e)
	}
	evs, err := tbl.AuditLog(50)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if strings.HasPrefix(e.Kind, "technician-") {
			if e.Actor != "terminal:T01" || e.Terminal != "T01" || !strings.Contains(e.Detail, "tech-1") {
				t.Errorf("audit entry: %+v", e)
			}
			n[e.Kind]++
		}
	}
	if n["technician-authenticated"] != 1 || n["technician-pin-refused"] != 4 {
		t.Errorf("the table's audit: %v", n)
	}

	// The technician's own certificate, on the technician's laptop.
	if code, out, e := meters("135790", "-id", "technician", "-cert", "technician"); code != 0 || !strings.Contains(out, "notes in") {
		t.Fatalf("the technician's certificate: %d %s %s", code, out, e)
	}
	if code, _, e := meters("482913", "-id", "tech-1", "-cert", "technician"); code != 1 || !strings.Contains(e, "not tech-1's") {
		t.Fatalf("another technician's certificate: %d %s", code, e)
	}

	// No table: nothing opens, and the file's PIN is not tried.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := lis.Addr().String()
	lis.Close()
	code, _, e := techctl(t, "246810\n", "technician", "meters", "-dir", dir, "-journal", jpath, "-server", gone, "-pki", pkiDir, "-id", "tech-1")
	if code != 1 || !strings.Contains(e, "cannot be reached") || !strings.Contains(e, gone) {
		t.Fatalf("no table: %d %s", code, e)
	}
	if code, _, e := techctl(t, "246810\n", "technician", "meters", "-dir", dir, "-journal", jpath, "-id", "tech-1"); code != 2 || !strings.Contains(e, "-server") {
		t.Fatalf("no table named: %d %s", code, e)
	}

	// The journal holds the PINs the table refused (4): not the other technician's certificate,
	// refused before any PIN was asked, nor the table that could not be asked.
	j, err := journal.OpenReadOnly(jpath)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	rs, err := j.Records(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, r := range rs {
		if r.Kind == app.ServiceRefused {
			refused++
		}
	}
	if refused != 4 {
		t.Errorf("refusals journalled: %d, want 4", refused)
	}
}
