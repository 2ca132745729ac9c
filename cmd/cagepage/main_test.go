package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/server/pki"
)

// What the station needs is asked for by name, before it serves anything.
func TestStationRefusesToStartWithoutWhatItNeeds(t *testing.T) {
	dir := t.TempDir()
	pins := filepath.Join(dir, "pins")
	if err := os.WriteFile(pins, []byte("not a pin line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "-cert and -key are required"},
		{[]string{"-cert", "c", "-key", "k"}, "-pins is required"},
		{[]string{"-cert", "c", "-key", "k", "-pins", pins, "-idle", "10s"}, "-idle 10s: between 1m and 12h"},
		{[]string{"-cert", "c", "-key", "k", "-pins", pins, "-zone", "Mars/Olympus"}, `-zone "Mars/Olympus"`},
		{[]string{"-cert", "c", "-key", "k", "-pins", pins}, "line 1: want id, scheme, iterations, salt, hash"},
		{[]string{"-cert", "c", "-key", "k", "-pins", filepath.Join(dir, "none")}, "-pins:"},
		{[]string{"extra"}, `unexpected ["extra"]`},
	} {
		var stderr bytes.Buffer
		if code := serve(context.Background(), c.args, &stderr, nil); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// With -client-ca, a browser without a client certificate of that CA does not reach the page.
func TestClientCertificateRequiredWhenAsked(t *testing.T) {
	f := newFloor(t)
	origin := startStation(t, f, "-client-ca", filepath.Join(f.pkiDir, "ca.pem"))
	files := pki.Files{Dir: f.pkiDir}
	caPEM, err := os.ReadFile(filepath.Join(f.pkiDir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	get := func(certs []tls.Certificate) error {
		c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: certs}}}
		res, err := c.Get(origin + "/")
		if err == nil {
			res.Body.Close()
		}
		return err
	}
	if err := get(nil); err == nil {
		t.Fatal("a browser without a client certificate reached the page")
	}
	pair, err := files.Load("cashier-1")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.X509KeyPair(pair.CertPEM, pair.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	if err := get([]tls.Certificate{cert}); err != nil {
		t.Fatalf("with a certificate of the CA: %v", err)
	}
}
