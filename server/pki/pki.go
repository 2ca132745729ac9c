// Package pki is the table's small certificate authority. The table server, every terminal and
// the dealer console authenticate each other with mutual TLS: the CA signs a server certificate
// for the table's addresses and one client certificate per terminal and per dealer console.
// A client's role is its certificate's Organizational Unit ("terminal" or "dealer") and its
// identity the Common Name, so a terminal cannot claim another's id or call dealer functions.
package pki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// The roles a client certificate can carry.
const (
	RoleTerminal = "terminal"
	RoleDealer   = "dealer"
)

// CA is a certificate authority that can issue certificates.
type CA struct {
	Cert *x509.Certificate
	Key  *ecdsa.PrivateKey
	PEM  []byte
}

// Issued is a certificate and its key, PEM-encoded.
type Issued struct {
	CertPEM []byte
	KeyPEM  []byte
}

// validity of issued certificates. Ten years: a kiosk in a casino is re-keyed by a technician,
// not by expiry, and an expired certificate mid-shift would close the table.
const validity = 10 * 365 * 24 * time.Hour

// NewCA creates a new CA named for the table.
func NewCA(name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name + " CA", Organization: []string{"ATS table"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(validity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, Key: key, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
	if err != nil {
		panic("pki: crypto/rand failed: " + err.Error()) // the OS RNG failing is unrecoverable
	}
	return n
}

// IssueServer issues the table server's certificate for the given host names and addresses.
func (ca *CA) IssueServer(hosts ...string) (Issued, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "tableserver"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	return ca.issue(tmpl)
}

// IssueClient issues a client certificate for a terminal or dealer console.
func (ca *CA) IssueClient(role, id string) (Issued, error) {
	if role != RoleTerminal && role != RoleDealer {
		return Issued{}, fmt.Errorf("pki: unknown role %q", role)
	}
	if id == "" {
		return Issued{}, errors.New("pki: a client certificate needs an id")
	}
	return ca.issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: id, OrganizationalUnit: []string{role}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
}

func (ca *CA) issue(tmpl *x509.Certificate) (Issued, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Issued{}, err
	}
	tmpl.SerialNumber = serial()
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(validity)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		return Issued{}, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return Issued{}, err
	}
	return Issued{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}),
	}, nil
}

// ServerTLS is the server side of mutual TLS: it presents its certificate and requires a client
// certificate signed by the CA.
func ServerTLS(caPEM []byte, server Issued) (*tls.Config, error) {
	cert, err := tls.X509KeyPair(server.CertPEM, server.KeyPEM)
	if err != nil {
		return nil, fmt.Errorf("pki: server certificate: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("pki: no CA certificate in the CA file")
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// ClientTLS is the client side: it trusts only the table's CA and presents the client's certificate.
func ClientTLS(caPEM []byte, client Issued, serverName string) (*tls.Config, error) {
	cert, err := tls.X509KeyPair(client.CertPEM, client.KeyPEM)
	if err != nil {
		return nil, fmt.Errorf("pki: client certificate: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("pki: no CA certificate in the CA file")
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		RootCAs:      pool,
		ServerName:   serverName,
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// Identity returns the role and id of a verified client certificate.
func Identity(cert *x509.Certificate) (role, id string, err error) {
	if len(cert.Subject.OrganizationalUnit) != 1 || cert.Subject.CommonName == "" {
		return "", "", errors.New("pki: certificate names no role and id")
	}
	role = cert.Subject.OrganizationalUnit[0]
	if role != RoleTerminal && role != RoleDealer {
		return "", "", fmt.Errorf("pki: unknown role %q", role)
	}
	return role, cert.Subject.CommonName, nil
}

// Files names the PEM files of a PKI directory.
type Files struct{ Dir string }

// CA returns the paths of the CA certificate and key.
func (f Files) CA() (cert, key string) {
	return filepath.Join(f.Dir, "ca.pem"), filepath.Join(f.Dir, "ca-key.pem")
}

// Pair returns the paths of a certificate and key named name ("server", "dealer", "T01" …).
func (f Files) Pair(name string) (cert, key string) {
	return filepath.Join(f.Dir, name+".pem"), filepath.Join(f.Dir, name+"-key.pem")
}

// Load reads a certificate and key pair.
func (f Files) Load(name string) (Issued, error) {
	c, k := f.Pair(name)
	cert, err := os.ReadFile(c)
	if err != nil {
		return Issued{}, err
	}
	key, err := os.ReadFile(k)
	if err != nil {
		return Issued{}, err
	}
	return Issued{CertPEM: cert, KeyPEM: key}, nil
}

// Init creates a PKI directory: the CA, the server certificate for localhost and the loopback
// addresses plus hosts, a dealer certificate, and one certificate per terminal id.
func Init(dir string, terminals []string, hosts ...string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f := Files{Dir: dir}
	ca, err := NewCA("table")
	if err != nil {
		return err
	}
	kder, err := x509.MarshalECPrivateKey(ca.Key)
	if err != nil {
		return err
	}
	cc, ck := f.CA()
	if err := os.WriteFile(cc, ca.PEM, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(ck, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return err
	}
	srv, err := ca.IssueServer(append([]string{"localhost", "127.0.0.1", "::1"}, hosts...)...)
	if err != nil {
		return err
	}
	if err := f.write("server", srv); err != nil {
		return err
	}
	d, err := ca.IssueClient(RoleDealer, "dealer")
	if err != nil {
		return err
	}
	if err := f.write("dealer", d); err != nil {
		return err
	}
	for _, id := range terminals {
		if err := IssueTo(dir, RoleTerminal, id); err != nil {
			return err
		}
	}
	return nil
}

// IssueTo issues one more client certificate from the CA in dir.
func IssueTo(dir, role, id string) error {
	f := Files{Dir: dir}
	ca, err := f.LoadCA()
	if err != nil {
		return err
	}
	is, err := ca.IssueClient(role, id)
	if err != nil {
		return err
	}
	return f.write(id, is)
}

// LoadCA reads the CA certificate and key of a PKI directory.
func (f Files) LoadCA() (*CA, error) {
	cc, ck := f.CA()
	certPEM, err := os.ReadFile(cc)
	if err != nil {
		return nil, err
	}
	keyPEM, err := os.ReadFile(ck)
	if err != nil {
		return nil, err
	}
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, errors.New("pki: CA files are not PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, err
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, Key: key, PEM: certPEM}, nil
}

func (f Files) write(name string, is Issued) error {
	c, k := f.Pair(name)
	if err := os.WriteFile(c, is.CertPEM, 0o644); err != nil {
		return err
	}
	return os.WriteFile(k, is.KeyPEM, 0o600)
}

// Memory is an in-memory PKI for tests and the demo's embedded table server.
type Memory struct {
	CA     *CA
	Server Issued
}

// NewMemory creates a CA and a server certificate for the loopback addresses.
func NewMemory() (*Memory, error) {
	ca, err := NewCA("table")
	if err != nil {
		return nil, err
	}
	srv, err := ca.IssueServer("localhost", "127.0.0.1", "::1")
	if err != nil {
		return nil, err
	}
	return &Memory{CA: ca, Server: srv}, nil
}

// ServerTLS returns the server's TLS configuration.
func (m *Memory) ServerTLS() (*tls.Config, error) { return ServerTLS(m.CA.PEM, m.Server) }

// ClientTLS issues a client certificate and returns its TLS configuration.
func (m *Memory) ClientTLS(role, id string) (*tls.Config, error) {
	is, err := m.CA.IssueClient(role, id)
	if err != nil {
		return nil, err
	}
	return ClientTLS(m.CA.PEM, is, "localhost")
}
