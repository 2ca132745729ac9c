package pki

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Revocations is the table server's view of the revocation list: the serial numbers of the
// client certificates the CA revoked. It is read at every handshake and call, and replaced
// whole when the list file changes.
type Revocations struct {
	ca   *x509.Certificate
	path string
	log  *slog.Logger

	set atomic.Pointer[map[string]bool]

	mu    sync.Mutex // serialises reloads
	mtime time.Time
	size  int64
}

// NewRevocations loads the revocation list at path, signed by ca. A missing file is an empty
// list (a PKI made before revocation existed); one that does not parse or verify is an error.
func NewRevocations(ca *x509.Certificate, path string, log *slog.Logger) (*Revocations, error) {
	if log == nil {
		log = slog.Default()
	}
	r := &Revocations{ca: ca, path: path, log: log}
	empty := map[string]bool{}
	r.set.Store(&empty)
	if err := r.reload(true); err != nil {
		return nil, err
	}
	return r, nil
}

// Revoked reports whether the certificate is on the list.
func (r *Revocations) Revoked(cert *x509.Certificate) bool {
	if r == nil || cert == nil {
		return false
	}
	return (*r.set.Load())[cert.SerialNumber.String()]
}

// Len is the number of revoked certificates.
func (r *Revocations) Len() int { return len(*r.set.Load()) }

// Reload reads the list again. A list that no longer parses or verifies is refused and the one
// in force kept: a damaged file must not un-revoke anyone.
func (r *Revocations) Reload() error { return r.reload(true) }

// reloadIfChanged reloads when the file's modification time or size changed.
func (r *Revocations) reloadIfChanged() error { return r.reload(false) }

func (r *Revocations) reload(force bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	st, err := os.Stat(r.path)
	if errors.Is(err, os.ErrNotExist) {
		if len(*r.set.Load()) > 0 {
			// Revocations are never dropped by a file vanishing.
			return fmt.Errorf("pki: revocation list %s is gone; keeping the %d revocations in force", r.path, r.Len())
		}
		return nil
	}
	if err != nil {
		return err
	}
	if !force && st.ModTime().Equal(r.mtime) && st.Size() == r.size {
		return nil
	}
	b, err := os.ReadFile(r.path)
	if err != nil {
		return err
	}
	crl, err := ParseCRL(b, r.ca)
	if err != nil {
		return fmt.Errorf("%w (keeping the %d revocations in force)", err, r.Len())
	}
	set := make(map[string]bool, len(crl.RevokedCertificateEntries))
	for _, e := range crl.RevokedCertificateEntries {
		set[e.SerialNumber.String()] = true
	}
	r.set.Store(&set)
	r.mtime, r.size = st.ModTime(), st.Size()
	r.log.Info("revocation list loaded", "path", r.path, "revoked", len(set))
	return nil
}

// Watch reloads the list whenever its file changes (checked every interval) and whenever
// hup delivers (SIGHUP), until ctx ends.
func (r *Revocations) Watch(ctx context.Context, interval time.Duration, hup <-chan os.Signal) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case <-hup:
			err = r.Reload()
		case <-tick.C:
			err = r.reloadIfChanged()
		}
		if err != nil {
			r.log.Error("revocation list", "err", err)
		}
	}
}

// Protect makes a server TLS configuration refuse revoked client certificates at the
// handshake. (The gRPC interceptor checks every call too, so a revocation also reaches
// connections made before it.)
func (r *Revocations) Protect(cfg *tls.Config) {
	prev := cfg.VerifyConnection
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) > 0 && r.Revoked(cs.PeerCertificates[0]) {
			return fmt.Errorf("pki: certificate %q (serial %s) is revoked", cs.PeerCertificates[0].Subject.CommonName, cs.PeerCertificates[0].SerialNumber)
		}
		if prev != nil {
			return prev(cs)
		}
		return nil
	}
}
