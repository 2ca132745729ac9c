package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tablegames/ats/server/pki"
)

// The cage guide's `pki init -cashiers cashier-1,cashier-2` once failed with "flag provided but
// not defined": every cashier it names gets a certificate with the cashier role.
func TestPKIInitIssuesTheCashiersNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	var stderr bytes.Buffer
	if code := run([]string{"pki", "init", "-dir", dir, "-terminals", "T01", "-cashiers", "cashier-1,cage-night"}, &stderr); code != 0 {
		t.Fatalf("pki init -cashiers: exit %d: %s", code, stderr.String())
	}
	for _, id := range []string{"cashier-1", "cage-night"} {
		cert, err := pki.Files{Dir: dir}.Cert(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		role, got, err := pki.Identity(cert)
		if err != nil || role != pki.RoleCashier || got != id {
			t.Errorf("%s: identity %q %q (%v), want role %q", id, role, got, err, pki.RoleCashier)
		}
	}
}
