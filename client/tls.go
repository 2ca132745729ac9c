package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"
	"path/filepath"
)

// LoadTLS reads a terminal's mutual-TLS configuration from a PKI directory made by
// `tableserver pki init`: ca.pem, ID.pem and ID-key.pem.
func LoadTLS(dir, id string) (*tls.Config, error) {
	caPEM, err := os.ReadFile(filepath.Join(dir, "ca.pem"))
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(dir, id+".pem"), filepath.Join(dir, id+"-key.pem"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("client: no CA certificate in " + dir)
	}
	// No ServerName: gRPC's TLS credentials check the server's certificate against the host of
	// the address dialled, so a table server elsewhere needs its name or address in its
	// certificate (`tableserver pki init -hosts`).
	return &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: pool, MinVersion: tls.VersionTLS13}, nil
}
