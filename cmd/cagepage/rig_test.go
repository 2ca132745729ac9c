package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/internal/pgtest"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// floor is real table servers on sockets (mutual TLS from a PKI directory on disk as
// `tableserver pki init` makes it): one table T1 on a SQLite ledger (newFloor), or tables T1
// and T2 sharing a PostgreSQL floor (newPGFloor). Terminal T01 of T1 and T02 of T1 (T1's only
// on a SQLite floor) are connected; addr is T1's, addrs every table's; the cashiers' PIN file:
// cashier-1's PIN is 2468, cashier-2's 1357. Every table's reporting threshold is
// testThreshold, so a ticket of two A$50 notes is at it.
type floor struct {
	addr, pkiDir, pins string
	addrs              map[string]string
	led                *ledger.Ledger // T1's
	terms              map[string]pb.TerminalServiceClient
}

var cashierPINs = map[string]string{"cashier-1": "2468", "cashier-2": "1357"}

// testThreshold is the floor's reporting threshold in the tests: A$100.00, two notes of A$50.
const testThreshold = 10000

func newFloor(t *testing.T) *floor {
	t.Helper()
	return newFloorOf(t, nil, func(string) (*ledger.Ledger, error) {
		return ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	}, "T1")
}

// testCashCap is the cash cap of newCappedFloor: A$60.00, so a ticket of a A$50 and a A$20
// note is over it and under the reporting threshold.
const testCashCap = 6000

// newCappedFloor is newFloor with a cash cap (testCashCap).
func newCappedFloor(t *testing.T) *floor {
	t.Helper()
	return newFloorOf(t, func(c *server.Config) { c.CashCap = testCashCap }, func(string) (*ledger.Ledger, error) {
		return ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	}, "T1")
}

// newPGFloor is tables T1 and T2 on one PostgreSQL floor.
func newPGFloor(t *testing.T) *floor {
	t.Helper()
	dsn, keys := pgtest.DSN(t), t.TempDir()
	return newFloorOf(t, nil, func(table string) (*ledger.Ledger, error) {
		return ledger.OpenStore(context.Background(), ledger.StoreConfig{DSN: dsn, TableID: table,
			KeyPath: filepath.Join(keys, table+".key"), FloorKeyPath: filepath.Join(keys, "floor.key")})
	}, "T1", "T2")
}

func newFloorOf(t *testing.T, config func(*server.Config), open func(table string) (*ledger.Ledger, error), tables ...string) *floor {
	t.Helper()
	dir := t.TempDir()
	f := &floor{pkiDir: filepath.Join(dir, "pki"), pins: filepath.Join(dir, "cashiers"), addrs: map[string]string{},
		terms: map[string]pb.TerminalServiceClient{}}
	if err := pki.InitWith(f.pkiDir, pki.InitOptions{Terminals: []string{"T01", "T02"}, Cashiers: []string{"cashier-1", "cashier-2"}}); err != nil {
		t.Fatal(err)
	}
	files := pki.Files{Dir: f.pkiDir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := files.Load("server")
	if err != nil {
		t.Fatal(err)
	}
	tlsCfg, err := pki.ServerTLS(caPEM, srv)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range tables {
		led, err := open(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { led.Close() })
		cfg := server.DefaultConfig()
		cfg.TableID = id
		cfg.ReportingThreshold = testThreshold
		if config != nil {
			config(&cfg)
		}
		tbl, err := server.NewTable(context.Background(), cfg, led, time.Now, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.OpenTable("dealer:test", false); err != nil {
			t.Fatal(err)
		}
		addr, stop, err := server.Listen(tbl, tlsCfg, "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		f.addrs[id] = addr
		if id == tables[0] {
			f.addr, f.led = addr, led
		}
	}
	for _, id := range []string{"T01", "T02"} {
		f.terms[id] = pb.NewTerminalServiceClient(f.dialAs(t, id, f.addr))
	}
	var lines []string
	for id, pin := range cashierPINs {
		l, err := server.PINLine(id, pin, 1000) // few rounds: a test logs in many times
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if err := os.WriteFile(f.pins, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// ticket is a printed cash-out ticket from terminal of the notes given in cents (each 5000,
// 2000 or 1000): one note of A$50 is under testThreshold, two are at it.
func (f *floor) ticket(t *testing.T, terminal, key string, notes ...int64) string {
	t.Helper()
	ctx := context.Background()
	term := f.terms[terminal]
	for i, cents := range notes {
		code := map[int64]string{5000: "AUD50", 2000: "AUD20", 1000: "AUD10"}[cents]
		k := key
		if i > 0 {
			k = fmt.Sprintf("%s/note%d", key, i)
		}
		if _, err := term.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: k, Amount: cents, NoteCode: code}); err != nil {
			t.Fatal(err)
		}
		if _, err := term.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: k, Amount: cents, NoteCode: code}); err != nil {
			t.Fatal(err)
		}
	}
	co, err := term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key + "/p", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber
}

// dialAs is a connection to the table at addr with the certificate of id from the floor's
// PKI directory.
func (f *floor) dialAs(t *testing.T, id, addr string) *grpc.ClientConn {
	t.Helper()
	files := pki.Files{Dir: f.pkiDir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := files.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	ctls, err := pki.ClientTLS(caPEM, pair, "")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(ctls)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// stop stops ticket vn with the supervisor's certificate, for reason.
func (f *floor) stop(t *testing.T, addr, vn, reason string) *pb.TicketStop {
	t.Helper()
	// The stop list is a supervisor's: the supervisor's certificate.
	s, err := pb.NewCageServiceClient(f.dialAs(t, "supervisor", addr)).StopTicket(context.Background(), &pb.StopTicketRequest{ValidationNumber: vn, Reason: reason, IdempotencyKey: "stop " + reason})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// held puts a printed ticket into terminal's acceptor: the table holds it for that terminal.
func (f *floor) held(t *testing.T, terminal, vn string) {
	t.Helper()
	if _, err := f.terms[terminal].RedeemTicket(context.Background(), &pb.RedeemTicketRequest{IdempotencyKey: "hold-" + vn, ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
}

// payments is the ledger's cage payments of a ticket.
func (f *floor) payments(t *testing.T, vn string) []ledger.CagePayment {
	t.Helper()
	ps, err := f.led.CagePayments(context.Background(), "", time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var out []ledger.CagePayment
	for _, p := range ps {
		if p.Validation == vn {
			out = append(out, p)
		}
	}
	return out
}

// fakeClock is the page's clock, moved by the test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// pageRig is the page over a floor, served over HTTPS by httptest, with its clock.
type pageRig struct {
	*floor
	srv   *httptest.Server
	clock *fakeClock
	dial  *cageDialer
	// loseAnswers makes the table's answer to a PayTicket that it carried out get lost on the
	// way back, as a cut link would: the page sees Unavailable.
	loseAnswers atomic.Bool
}

// lossyCage is the cage API with PayTicket's answers lost while lose says so.
type lossyCage struct {
	pb.CageServiceClient
	lose *atomic.Bool
}

func (c lossyCage) PayTicket(ctx context.Context, req *pb.PayTicketRequest, opts ...grpc.CallOption) (*pb.PayTicketResponse, error) {
	res, err := c.CageServiceClient.PayTicket(ctx, req, opts...)
	if err == nil && c.lose.Load() {
		return nil, status.Error(codes.Unavailable, "connection reset (the answer was lost)")
	}
	return res, err
}

func newPageRig(t *testing.T) *pageRig {
	t.Helper()
	f := newFloor(t)
	b, err := os.ReadFile(f.pins)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := server.ParseTechnicians(b)
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Now()}
	dial := newCageDialer(f.addr, f.pkiDir)
	t.Cleanup(dial.close)
	r := &pageRig{floor: f, clock: clock, dial: dial}
	cage := func(cashier string) (pb.CageServiceClient, error) {
		c, err := dial.cage(cashier)
		if err != nil {
			return nil, err
		}
		return lossyCage{c, &r.loseAnswers}, nil
	}
	page, err := NewPage(PageConfig{PINs: pins, Cage: cage, Idle: 10 * time.Minute, Now: clock.Now,
		Zone: sydney(t), Station: "cage-test"})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewTLSServer(page)
	t.Cleanup(r.srv.Close)
	return r
}

func sydney(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Australia/Sydney")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// browserless is an HTTP client as a browser is for the page: cookies kept, redirects followed,
// and the same-origin headers a browser sends with a form.
type browserless struct {
	t      *testing.T
	c      *http.Client
	origin string
}

func (r *pageRig) client(t *testing.T) *browserless {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browserless{t: t, c: &http.Client{Transport: r.srv.Client().Transport, Jar: jar}, origin: r.srv.URL}
}
