package pki

import (
	"crypto/x509"
	"encoding/pem"
	"path/filepath"
	"testing"
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
