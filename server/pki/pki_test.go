package pki

import (
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestInitIssueAndIdentity(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := Init(dir, []string{"T01", "T02"}, "table-7.casino"); err != nil {
		t.Fatal(err)
	}
	if err := IssueTo(dir, RoleTerminal, "T03"); err != nil {
		t.Fatal(err)
	}
	f := Files{Dir: dir}
	for name, want := range map[string][2]string{"T01": {RoleTerminal, "T01"}, "T03": {RoleTerminal, "T03"}, "dealer": {RoleDealer, "dealer"}} {
		is, err := f.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := pem.Decode(is.CertPEM)
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		role, id, err := Identity(cert)
		if err != nil || role != want[0] || id != want[1] {
			t.Errorf("%s: %s %s %v", name, role, id, err)
		}
	}
	srv, err := f.Load("server")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pem.Decode(srv.CertPEM)
	cert, _ := x509.ParseCertificate(b.Bytes)
	if err := cert.VerifyHostname("table-7.casino"); err != nil {
		t.Error(err)
	}
	if err := cert.VerifyHostname("127.0.0.1"); err != nil {
		t.Error(err)
	}
	if _, err := (&CA{}).IssueClient("croupier", "x"); err == nil {
		t.Error("unknown role issued")
	}
	if err := IssueTo(filepath.Join(t.TempDir(), "none"), RoleTerminal, "T9"); err == nil {
		t.Error("issued without a CA")
	}
	if _, err := ServerTLS([]byte("not pem"), srv); err == nil {
		t.Error("server TLS without a CA")
	}
}

// Attack (issue 13, 8): `pki init` on a directory with a CA replaced it without a word, locking
// out every deployed terminal. It refuses, naming what exists, unless forced.
func TestInitRefusesAnExistingCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "ca.pem"))
	err := Init(dir, []string{"T01"})
	if err == nil || !strings.Contains(err.Error(), "ca.pem") || !strings.Contains(err.Error(), "-force") {
		t.Fatalf("second init: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "ca.pem"))
	if string(before) != string(after) {
		t.Fatal("the refused init changed the CA")
	}
	if err := InitWith(dir, InitOptions{Terminals: []string{"T01"}, Force: true}); err != nil {
		t.Fatalf("forced init: %v", err)
	}
	// The defaults: dealer, supervisor, technician and cashier certificates with their roles.
	for id, role := range map[string]string{"dealer": RoleDealer, "supervisor": RoleSupervisor, "technician": RoleTechnician, "cashier-1": RoleCashier} {
		c, err := Files{Dir: dir}.Cert(id)
		if err != nil {
			t.Fatal(err)
		}
		if r, _, _ := Identity(c); r != role {
			t.Errorf("%s has role %q", id, r)
		}
	}
}

// Attack (issue 13, 8): `pki issue -id ../escaped` wrote outside the directory, and `-id server`
// overwrote the server's certificate. Ids are checked and the directory's own names reserved.
func TestIssueRefusesEscapingAndReservedIDs(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pki")
	if err := Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	srv, _ := os.ReadFile(filepath.Join(dir, "server.pem"))
	for _, id := range []string{"../escaped", "a/b", "", ".hidden", "-x", "T 1", strings.Repeat("x", 33), "server", "Server", "ca", "ca-key", "crl", "technicians"} {
		if err := IssueTo(dir, RoleTerminal, id); err == nil {
			t.Errorf("issued to %q", id)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "escaped.pem")); err == nil {
		t.Error("a certificate was written outside the directory")
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "server.pem")); string(now) != string(srv) {
		t.Error("the server certificate was overwritten")
	}
	// An id with a certificate already is renewed, not issued over (which could change its role).
	if err := IssueTo(dir, RoleSupervisor, "dealer"); err == nil || !strings.Contains(err.Error(), "renew") {
		t.Errorf("issue over the dealer's certificate: %v", err)
	}
}

// Attack (issue 13, 8): a key file that existed with mode 0644 stayed world-readable when
// re-issued. Keys are always written 0600.
func TestKeysAreAlways0600(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dir, "T01-key.pem")
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Renew(dir, "T01", time.Hour); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"T01-key.pem", "server-key.pem", "ca-key.pem", "dealer-key.pem", "supervisor-key.pem", "technician-key.pem"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v", name, st.Mode().Perm())
		}
	}
}

// Attack (issue 13, 8): certificates lasted 10 years with no way to withdraw one. Client
// certificates last 90 days (or as told), renew keeps the identity and role with a new key,
// and revoke writes a revocation list signed by the CA.
func TestShortLifetimesRenewAndRevoke(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	f := Files{Dir: dir}
	c, _ := f.Cert("T01")
	if life := c.NotAfter.Sub(c.NotBefore); life > DefaultClientValidity+2*time.Hour {
		t.Errorf("a terminal certificate lasts %v", life)
	}
	if err := IssueFor(dir, RoleSupervisor, "S2", 7*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := Renew(dir, "S2", 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	s2, _ := f.Cert("S2")
	if r, id, _ := Identity(s2); r != RoleSupervisor || id != "S2" || s2.NotAfter.Sub(s2.NotBefore) > 31*24*time.Hour {
		t.Errorf("renewed S2: %s %s %v", r, id, s2.NotAfter.Sub(s2.NotBefore))
	}
	if err := Revoke(dir, "T01"); err != nil {
		t.Fatal(err)
	}
	if err := Revoke(dir, "S2"); err != nil {
		t.Fatal(err)
	}
	ca, _ := f.LoadCA()
	crl, err := f.LoadCRL(ca.Cert)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := NewRevocations(ca.Cert, f.CRL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(crl.RevokedCertificateEntries) != 2 || !rv.Revoked(c) || !rv.Revoked(s2) {
		t.Errorf("revocation list: %d entries", len(crl.RevokedCertificateEntries))
	}
	d, _ := f.Cert("dealer")
	if rv.Revoked(d) {
		t.Error("the dealer is revoked")
	}
	// A list signed by another CA is refused.
	other, _ := NewCA("other")
	if _, err := NewRevocations(other.Cert, f.CRL(), nil); err == nil {
		t.Error("a revocation list of another CA was accepted")
	}
}

// FuzzValidID: an id the check accepts is one file name in the directory, never a path, and
// never one of the directory's own names.
func FuzzValidID(f *testing.F) {
	for _, s := range []string{"T01", "../x", "server", "a/b", "-x", "", "dealer_2", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if ValidID(id) != nil {
			return
		}
		c, k := Files{Dir: "/d"}.Pair(id)
		if filepath.Dir(c) != "/d" || filepath.Dir(k) != "/d" || strings.ContainsAny(id, "/\\.\x00") {
			t.Fatalf("%q escapes: %s %s", id, c, k)
		}
		for _, r := range reserved {
			if strings.EqualFold(id, r) {
				t.Fatalf("%q is reserved", id)
			}
		}
	})
}

// The cage's cashiers get certificates of their own role, at init and later by issue.
func TestCashierCertificates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := InitWith(dir, InitOptions{Cashiers: []string{"cashier-1", "cage-night"}}); err != nil {
		t.Fatal(err)
	}
	if err := IssueTo(dir, RoleCashier, "cashier-3"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"cashier-1", "cage-night", "cashier-3"} {
		c, err := Files{Dir: dir}.Cert(id)
		if err != nil {
			t.Fatal(err)
		}
		if r, cn, _ := Identity(c); r != RoleCashier || cn != id {
			t.Errorf("%s: role %q, id %q", id, r, cn)
		}
	}
	if err := IssueTo(dir, "cage", "x"); err == nil {
		t.Error("an unknown role was issued")
	}
}
