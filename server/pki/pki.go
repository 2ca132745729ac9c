// Package pki is the table's small certificate authority. The table server, every terminal and
// the dealer console authenticate each other with mutual TLS: the CA signs a server certificate
// for the table's addresses and one client certificate per terminal and per dealer console.
// A client's role is its certificate's Organizational Unit (terminal, dealer, supervisor,
// technician, cashier or display) and its identity the Common Name, so a terminal cannot claim another's id or call
// dealer functions, and a dealer cannot do what only a supervisor may.
//
// Client certificates are short-lived (90 days unless told otherwise) and renewed with `pki
// renew`, which keeps the identity and role; a lost or stolen one is revoked with `pki revoke`,
// which adds it to the CA-signed revocation list crl.pem that the table server reloads (on
// SIGHUP, and by noticing the file changed) and checks at every handshake and call.
//
// The CA key is needed only to issue, renew and revoke. The table server runs with ca.pem,
// its own server.pem/server-key.pem and crl.pem alone, so the CA key can live offline
// (docs/guides/certificates.md, "Keeping the CA key offline").
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
	"regexp"
	"strings"
	"time"
)

// The roles a client certificate can carry.
const (
	RoleTerminal = "terminal"
	// RoleDealer runs the round (open, start, drop, outcome, no spin) and the players'
	// accounts (dealer buy-in, closing an account).
	RoleDealer = "dealer"
	// RoleSupervisor (the pit boss) corrects and invalidates rounds, hand-pays, confirms
	// jackpots and releases holds.
	RoleSupervisor = "supervisor"
	// RoleTechnician is a field technician, who also proves it is them with a PIN.
	RoleTechnician = "technician"
	// RoleCashier works the cage: looks up and pays cash-out tickets printed anywhere on the
	// floor, and reads their own shift's totals (CageService).
	RoleCashier = "cashier"
	// RoleDisplay is a winning number display (a TV in the pit, cmd/wnd): it follows the
	// table's public state (DisplayService) and may call nothing else.
	RoleDisplay = "display"
)

// Roles lists every role, terminal first.
var Roles = []string{RoleTerminal, RoleDealer, RoleSupervisor, RoleTechnician, RoleCashier, RoleDisplay}

func knownRole(role string) bool {
	for _, r := range Roles {
		if r == role {
			return true
		}
	}
	return false
}

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

// Lifetimes. A client certificate lives 90 days by default, so one copied off a cabinet or a
// console stops working by itself; it is renewed (`pki renew`) before then. The server's
// certificate lives a little over a year; the CA ten years.
const (
	DefaultClientValidity = 90 * 24 * time.Hour
	DefaultServerValidity = 397 * 24 * time.Hour
	caValidity            = 10 * 365 * 24 * time.Hour
)

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
		NotAfter:              time.Now().Add(caValidity),
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

// IssueServer issues the table server's certificate for the given host names and addresses,
// valid DefaultServerValidity.
func (ca *CA) IssueServer(hosts ...string) (Issued, error) {
	return ca.IssueServerFor(DefaultServerValidity, hosts...)
}

// IssueServerFor issues the server's certificate valid for the given time.
func (ca *CA) IssueServerFor(validity time.Duration, hosts ...string) (Issued, error) {
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
	return ca.issue(tmpl, validity)
}

// IssueClient issues a client certificate for a terminal, console or technician, valid
// DefaultClientValidity.
func (ca *CA) IssueClient(role, id string) (Issued, error) {
	return ca.IssueClientFor(role, id, DefaultClientValidity)
}

// IssueClientFor issues a client certificate valid for the given time.
func (ca *CA) IssueClientFor(role, id string, validity time.Duration) (Issued, error) {
	if !knownRole(role) {
		return Issued{}, fmt.Errorf("pki: unknown role %q (one of %v)", role, Roles)
	}
	if err := ValidID(id); err != nil {
		return Issued{}, err
	}
	return ca.issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: id, OrganizationalUnit: []string{role}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, validity)
}

func (ca *CA) issue(tmpl *x509.Certificate, validity time.Duration) (Issued, error) {
	if validity <= 0 {
		return Issued{}, fmt.Errorf("pki: validity %v: must be positive", validity)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Issued{}, err
	}
	tmpl.SerialNumber = serial()
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(validity)
	if tmpl.NotAfter.After(ca.Cert.NotAfter) {
		tmpl.NotAfter = ca.Cert.NotAfter // a certificate cannot outlive its CA
	}
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
	if !knownRole(role) {
		return "", "", fmt.Errorf("pki: unknown role %q", role)
	}
	return role, cert.Subject.CommonName, nil
}

// idPattern is what a client id may be: it names the certificate's files in the PKI directory
// (ID.pem, ID-key.pem), so no path separators, dots or leading dashes.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)

// reserved are names of the PKI directory's own files: a client called "server" would
// overwrite the server's certificate, "ca" the CA's.
var reserved = []string{"server", "ca", "ca-key", "crl", "technicians"}

// ValidID checks a client id: 1–32 letters, digits, '_' or '-', starting with a letter or
// digit, and not one of the directory's own names.
func ValidID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("pki: id %q: use 1-32 letters, digits, '_' or '-', starting with a letter or digit", id)
	}
	for _, r := range reserved {
		if strings.EqualFold(id, r) {
			return fmt.Errorf("pki: id %q is reserved (the directory's own %s files)", id, r)
		}
	}
	return nil
}

// InitOptions says what Init creates.
type InitOptions struct {
	Terminals   []string // one terminal certificate each
	Hosts       []string // the server's names and addresses beyond localhost and loopback
	Dealers     []string // dealer certificates; nil: "dealer"
	Supervisors []string // supervisor certificates; nil: "supervisor"
	Technicians []string // technician certificates; nil: "technician"
	Cashiers    []string // the cage's cashier certificates; nil: "cashier-1"
	Displays    []string // winning number displays' certificates; nil: "wnd-1"
	// Force replaces an existing CA. Without it Init refuses a directory that has one:
	// a new CA locks out every terminal and console deployed with the old one.
	Force          bool
	ClientValidity time.Duration // 0: DefaultClientValidity
	ServerValidity time.Duration // 0: DefaultServerValidity
}

// Init creates a PKI directory: the CA, the server certificate for localhost and the loopback
// addresses plus hosts, a dealer, a supervisor, a technician, a cashier (cashier-1) and a
// winning number display (wnd-1) certificate, and one certificate per terminal id. It refuses a directory that already has a CA.
func Init(dir string, terminals []string, hosts ...string) error {
	return InitWith(dir, InitOptions{Terminals: terminals, Hosts: hosts})
}

// InitWith is Init with options.
func InitWith(dir string, o InitOptions) error {
	if o.Dealers == nil {
		o.Dealers = []string{"dealer"}
	}
	if o.Supervisors == nil {
		o.Supervisors = []string{"supervisor"}
	}
	if o.Technicians == nil {
		o.Technicians = []string{"technician"}
	}
	if o.Cashiers == nil {
		o.Cashiers = []string{"cashier-1"}
	}
	if o.Displays == nil {
		o.Displays = []string{"wnd-1"}
	}
	if o.ClientValidity == 0 {
		o.ClientValidity = DefaultClientValidity
	}
	if o.ServerValidity == 0 {
		o.ServerValidity = DefaultServerValidity
	}
	// Check every id before writing anything: a bad one must not leave half a directory.
	seen := map[string]bool{}
	for _, group := range [][]string{o.Terminals, o.Dealers, o.Supervisors, o.Technicians, o.Cashiers} {
		for _, id := range group {
			if err := ValidID(id); err != nil {
				return err
			}
			if seen[id] {
				return fmt.Errorf("pki: id %q given twice", id)
			}
			seen[id] = true
		}
	}
	f := Files{Dir: dir}
	if !o.Force {
		var exist []string
		cc, ck := f.CA()
		for _, p := range []string{cc, ck} {
			if _, err := os.Stat(p); err == nil {
				exist = append(exist, p)
			}
		}
		if len(exist) > 0 {
			return fmt.Errorf("pki: %s already has a CA (%s): a new one would lock out every terminal and console issued by it; renew or issue certificates instead, or pass -force to replace it",
				dir, strings.Join(exist, ", "))
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ca, err := NewCA("table")
	if err != nil {
		return err
	}
	kder, err := x509.MarshalECPrivateKey(ca.Key)
	if err != nil {
		return err
	}
	cc, ck := f.CA()
	if err := writeFile(cc, ca.PEM, 0o644); err != nil {
		return err
	}
	if err := writeFile(ck, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return err
	}
	// A revocation list from an old CA would no longer verify: start an empty one.
	if err := f.writeCRL(ca, nil, 1); err != nil {
		return err
	}
	srv, err := ca.IssueServerFor(o.ServerValidity, append([]string{"localhost", "127.0.0.1", "::1"}, o.Hosts...)...)
	if err != nil {
		return err
	}
	if err := f.write("server", srv); err != nil {
		return err
	}
	for _, g := range []struct {
		role string
		ids  []string
	}{{RoleDealer, o.Dealers}, {RoleSupervisor, o.Supervisors}, {RoleTechnician, o.Technicians}, {RoleCashier, o.Cashiers}, {RoleTerminal, o.Terminals}, {RoleDisplay, o.Displays}} {
		for _, id := range g.ids {
			is, err := ca.IssueClientFor(g.role, id, o.ClientValidity)
			if err != nil {
				return err
			}
			if err := f.write(id, is); err != nil {
				return err
			}
		}
	}
	return nil
}

// IssueTo issues one more client certificate from the CA in dir, valid
// DefaultClientValidity. It refuses an id that already has a certificate there: that is a
// renewal (Renew), which keeps the role.
func IssueTo(dir, role, id string) error {
	return IssueFor(dir, role, id, DefaultClientValidity)
}

// IssueFor is IssueTo with a lifetime.
func IssueFor(dir, role, id string, validity time.Duration) error {
	if err := ValidID(id); err != nil {
		return err
	}
	f := Files{Dir: dir}
	if c, _ := f.Pair(id); exists(c) {
		return fmt.Errorf("pki: %s already has a certificate (%s): renew it with pki renew -id %s", id, c, id)
	}
	ca, err := f.LoadCA()
	if err != nil {
		return err
	}
	is, err := ca.IssueClientFor(role, id, validity)
	if err != nil {
		return err
	}
	return f.write(id, is)
}

// Renew re-issues the certificate of id with the same identity and role, a new key and a new
// lifetime. The old certificate stays valid until it expires (revoke it if it was lost).
func Renew(dir, id string, validity time.Duration) error {
	if err := ValidID(id); err != nil {
		return err
	}
	f := Files{Dir: dir}
	old, err := f.Cert(id)
	if err != nil {
		return err
	}
	role, cn, err := Identity(old)
	if err != nil {
		return fmt.Errorf("pki: %s: %w", id, err)
	}
	ca, err := f.LoadCA()
	if err != nil {
		return err
	}
	is, err := ca.IssueClientFor(role, cn, validity)
	if err != nil {
		return err
	}
	return f.write(id, is)
}

// Revoke adds the certificate of id to the CA-signed revocation list crl.pem (serial numbers
// already there stay). Copy crl.pem to the table server's PKI directory; it reloads it.
func Revoke(dir, id string) error {
	if err := ValidID(id); err != nil {
		return err
	}
	f := Files{Dir: dir}
	cert, err := f.Cert(id)
	if err != nil {
		return err
	}
	ca, err := f.LoadCA()
	if err != nil {
		return err
	}
	var entries []x509.RevocationListEntry
	number := int64(1)
	if old, err := f.LoadCRL(ca.Cert); err == nil {
		entries = old.RevokedCertificateEntries
		if old.Number != nil {
			number = old.Number.Int64() + 1
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if e.SerialNumber.Cmp(cert.SerialNumber) == 0 {
			return nil // already revoked
		}
	}
	entries = append(entries, x509.RevocationListEntry{SerialNumber: cert.SerialNumber, RevocationTime: time.Now()})
	return f.writeCRL(ca, entries, number)
}

func (f Files) writeCRL(ca *CA, entries []x509.RevocationListEntry, number int64) error {
	der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		RevokedCertificateEntries: entries,
		Number:                    big.NewInt(number),
		ThisUpdate:                time.Now().Add(-time.Hour),
		// The server does not stop at NextUpdate (an old list is better than none); it is
		// set to the CA's end because the field is required.
		NextUpdate: ca.Cert.NotAfter,
	}, ca.Cert, ca.Key)
	if err != nil {
		return fmt.Errorf("pki: revocation list: %w", err)
	}
	return writeFile(f.CRL(), pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der}), 0o644)
}

// LoadCRL reads the directory's revocation list and checks the CA signed it.
func (f Files) LoadCRL(ca *x509.Certificate) (*x509.RevocationList, error) {
	b, err := os.ReadFile(f.CRL())
	if err != nil {
		return nil, err
	}
	return ParseCRL(b, ca)
}

// ParseCRL parses a PEM revocation list and checks the CA signed it.
func ParseCRL(b []byte, ca *x509.Certificate) (*x509.RevocationList, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "X509 CRL" {
		return nil, errors.New("pki: the revocation list is not a PEM X509 CRL")
	}
	crl, err := x509.ParseRevocationList(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("pki: revocation list: %w", err)
	}
	if err := crl.CheckSignatureFrom(ca); err != nil {
		return nil, fmt.Errorf("pki: revocation list not signed by this CA: %w", err)
	}
	return crl, nil
}

// Files names the PEM files of a PKI directory.
type Files struct{ Dir string }

// CA returns the paths of the CA certificate and key.
func (f Files) CA() (cert, key string) {
	return filepath.Join(f.Dir, "ca.pem"), filepath.Join(f.Dir, "ca-key.pem")
}

// CRL is the path of the revocation list.
func (f Files) CRL() string { return filepath.Join(f.Dir, "crl.pem") }

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

// Cert reads and parses the certificate named name.
func (f Files) Cert(name string) (*x509.Certificate, error) {
	c, _ := f.Pair(name)
	b, err := os.ReadFile(c)
	if err != nil {
		return nil, err
	}
	return ParseCert(b)
}

// ParseCert parses the first certificate of a PEM file.
func ParseCert(b []byte) (*x509.Certificate, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "CERTIFICATE" {
		return nil, errors.New("pki: not a PEM certificate")
	}
	return x509.ParseCertificate(blk.Bytes)
}

// LoadCA reads the CA certificate and key of a PKI directory.
func (f Files) LoadCA() (*CA, error) {
	cc, ck := f.CA()
	certPEM, err := os.ReadFile(cc)
	if err != nil {
		return nil, err
	}
	keyPEM, err := os.ReadFile(ck)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("pki: no CA key %s: issue, renew and revoke where the CA key is kept (offline), then copy the files to the table", ck)
	}
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
	// The key first: a certificate is never left beside a key that is not its own.
	if err := writeFile(k, is.KeyPEM, 0o600); err != nil {
		return err
	}
	return writeFile(c, is.CertPEM, 0o644)
}

// writeFile writes a file whole, with exactly mode, through a temporary file renamed over it:
// os.WriteFile keeps an existing file's mode (a key left 0644 stays world-readable on
// re-issue), and a crash mid-write must not leave half a key.
func writeFile(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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
