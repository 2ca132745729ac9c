// Command cagepage is the cashier's station of the cage as a page in a browser (issue 33 point
// 11): log in with the cashier's id and PIN, scan or type a ticket's number, see what it is
// worth and whether it can be paid (and if not, the table's reason word for word), pay it once,
// print the receipt, open and close a shift with its totals. `atsctl cage` stays for scripts.
// A stopped ticket shows each stop (reason, who, where, when); a ticket at or over the
// reporting threshold is paid with the patron's ID once a second person's approval is on file,
// which another cashier gives from their own session (Approve).
//
//	cagepage -listen :8443 -cert cage.pem -key cage-key.pem -addr table1:7443 -pki pki -pins pki/cashiers
//
// It is a program of its own, not a page of the table server, because a floor has many tables
// and one cage: the station talks to any one table of the floor over the same gRPC API (and
// mutual TLS) as `atsctl cage`, the floor's shared ledger answers for every table's tickets,
// and no table server grows a web server for browsers to reach. Each cashier's calls carry that
// cashier's own certificate (from -pki, as atsctl's -id does), so the ledger names who paid;
// the PIN (-pins, the technicians' file format, written by `tableserver technician set-pin`)
// is what unlocks it at the station.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
	_ "time/tzdata" // the floor's zone (-zone) on a machine without tzdata

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(serve(ctx, os.Args[1:], os.Stderr, nil))
}

// serve runs the station until ctx ends; ready, if set, is told the address once it serves.
func serve(ctx context.Context, args []string, stderr io.Writer, ready func(addr string)) int {
	fs := flag.NewFlagSet("cagepage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8443", "HTTPS address the cashiers' browsers reach")
	certFile := fs.String("cert", "", "the page's HTTPS certificate (PEM), one the cashiers' browsers trust")
	keyFile := fs.String("key", "", "its private key (PEM)")
	clientCA := fs.String("client-ca", "", "optional: require a browser client certificate issued by this CA (PEM)")
	addr := fs.String("addr", "127.0.0.1:7443", "a table server of the floor (its cage API)")
	pkiDir := fs.String("pki", "pki", "PKI directory with ca.pem and each cashier's certificate")
	pins := fs.String("pins", "", "the cashiers' PIN file (tableserver technician set-pin -file FILE -id CASHIER)")
	idle := fs.Duration("idle", 10*time.Minute, "a session unused this long ends")
	zone := fs.String("zone", "Local", "the floor's time zone for the times shown (e.g. Australia/Sydney)")
	station := fs.String("station", "cage", "this station's name, printed on receipts")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "cagepage: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() != 0 {
		return fail("unexpected %q", fs.Args())
	}
	if *certFile == "" || *keyFile == "" {
		return fail("-cert and -key are required: the page is served over HTTPS only")
	}
	if *pins == "" {
		return fail("-pins is required: the cashiers' PIN file")
	}
	if *idle < time.Minute || *idle > 12*time.Hour {
		return fail("-idle %v: between 1m and 12h", *idle)
	}
	loc, err := time.LoadLocation(*zone)
	if err != nil {
		return fail("-zone %q: %v", *zone, err)
	}
	pinText, err := os.ReadFile(*pins)
	if err != nil {
		return fail("-pins: %v", err)
	}
	cashiers, err := server.ParseTechnicians(pinText)
	if err != nil {
		return fail("-pins %s: %v", *pins, err)
	}
	pair, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		return fail("-cert/-key: %v", err)
	}
	tlsCfg := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}
	if *clientCA != "" {
		b, err := os.ReadFile(*clientCA)
		if err != nil {
			return fail("-client-ca: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(b) {
			return fail("-client-ca %s: no certificate in it", *clientCA)
		}
		tlsCfg.ClientCAs, tlsCfg.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	dial := newCageDialer(*addr, *pkiDir)
	defer dial.close()
	page, err := NewPage(PageConfig{PINs: cashiers, Cage: dial.cage, Idle: *idle, Zone: loc, Station: *station, Log: log})
	if err != nil {
		return fail("%v", err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail("%v", err)
	}
	srv := &http.Server{Handler: page, TLSConfig: tlsCfg, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, MaxHeaderBytes: 64 << 10, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- srv.ServeTLS(ln, "", "") }()
	log.Info("cage page serving", "addr", ln.Addr().String(), "table", *addr)
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(stderr, "cagepage:", err)
			return 1
		}
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}
	return 0
}

// cageDialer keeps one connection per cashier to the table, made with that cashier's
// certificate.
type cageDialer struct {
	addr  string
	files pki.Files
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

func newCageDialer(addr, dir string) *cageDialer {
	return &cageDialer{addr: addr, files: pki.Files{Dir: dir}, conns: map[string]*grpc.ClientConn{}}
}

// cage is the cage API as cashier: an error when the station holds no certificate for them.
func (d *cageDialer) cage(cashier string) (pb.CageServiceClient, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c := d.conns[cashier]; c != nil {
		return pb.NewCageServiceClient(c), nil
	}
	caFile, _ := d.files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("the table's CA certificate: %w", err)
	}
	pair, err := d.files.Load(cashier)
	if err != nil {
		return nil, fmt.Errorf("the certificate of %s: %w", cashier, err)
	}
	cert, err := pki.ParseCert(pair.CertPEM)
	if err != nil {
		return nil, err
	}
	if role, id, err := pki.Identity(cert); err != nil || role != pki.RoleCashier || id != cashier {
		return nil, fmt.Errorf("the certificate named %s is not cashier %s's (role %q, id %q)", cashier, cashier, role, id)
	}
	tlsCfg, err := pki.ClientTLS(caPEM, pair, "")
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(d.addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		return nil, err
	}
	d.conns[cashier] = conn
	return pb.NewCageServiceClient(conn), nil
}

func (d *cageDialer) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		c.Close()
	}
}
