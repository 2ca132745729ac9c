package main

// -kill floor (issue 16): a floor of two table servers, T1 and T2, as separate processes on one
// throwaway PostgreSQL, sharing its tickets. T1 is the one-table harness (the real terminal
// core, app/station, with the emulated acceptor and printer; its bot cashes out and its player
// feeds printed tickets back). T2's terminal is a real client.Client the harness drives as a
// terminal would (hold, then commit or cancel), with terminal id T01 like T1's — terminal ids
// repeat across tables, so a hold is a table's and a terminal's. The cage pays tickets in cash
// through CageService at either table server. The harness takes tickets that came out of T1's
// printer to T2's terminal or the cage and SIGKILLs a table server — the issuer T1 or the
// redeemer T2, at random — between the hold and the commit, during the commit, or right
// after it; the killed server restarts on its schema and the terminals and the cashier recover
// by asking again with the same idempotency key. At the end every ticket must have been paid
// exactly once — at T1's acceptor (its stacker), at T2's terminal (the harness's record of what
// it credited) or at the cage (what the cashier handed over) — or still be owed to its bearer,
// and each table's conservation and the floor's (their sum, less the cage's cash) must hold.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/pgtest"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// The floor's tables and its cashier (pki.InitWith's default cashier certificate).
const (
	floorT1   = "T1" // the issuer: the station, its printer and acceptor
	floorT2   = "T2" // the redeemer: a client.Client as its terminal T01
	cashierID = "cashier-1"
)

// floorRun is what -kill floor adds to a harness run.
type floorRun struct {
	dsn    string
	stopPG func()
	key    string // the floor's ledger key: the same file for both table servers

	t2Addr string
	t2     *child
	c2     *client.Client
	cage   map[string]pb.CageServiceClient // the cashier's connection to each table server
	conns  []*grpc.ClientConn

	mu       sync.Mutex           // credited, cashed, outcomes: a race point pays at T2 and the cage at once
	credited map[string]int64     // T2's terminal: tickets it was credited, as its stacker would hold them
	cashed   map[string]int64     // the cage: tickets paid in cash
	outcomes map[string]int       // what each attempt came to, for the report
	seen     map[string]time.Time // when the harness first saw each ticket out of the printer
}

// startFloor starts the throwaway PostgreSQL; the table servers start after it.
func (h *harness) startFloor() error {
	dsn, stop, err := pgtest.Throwaway()
	if err != nil {
		return fmt.Errorf("-kill floor needs PostgreSQL: %w", err)
	}
	h.floor = &floorRun{dsn: dsn, stopPG: stop, key: filepath.Join(h.dir, "floor.key"),
		cage: map[string]pb.CageServiceClient{}, credited: map[string]int64{}, cashed: map[string]int64{}, outcomes: map[string]int{}, seen: map[string]time.Time{}}
	if h.floor.t2Addr, err = freeAddr(); err != nil {
		return err
	}
	return nil
}

func (f *floorRun) serverArgs(table string) []string {
	return []string{"-table", table, "-db", f.dsn, "-ledger-key", f.key}
}

// close ends the clients and the table server T2 (if still running) and removes the database.
func (f *floorRun) close() {
	if f.c2 != nil {
		f.c2.Close()
	}
	for _, c := range f.conns {
		c.Close()
	}
	if f.t2 != nil {
		f.t2.kill()
	}
	f.stopPG()
}

func (h *harness) startServer2() error {
	c, err := h.spawn("server T2", h.childArgs("server", append([]string{"-listen", h.floor.t2Addr}, h.floor.serverArgs(floorT2)...)...)...)
	if err != nil {
		return err
	}
	h.floor.t2 = c
	if _, ok := c.waitFor("ready", 30*time.Second); !ok {
		return fmt.Errorf("table server T2 did not start: %s", c.tail())
	}
	return nil
}

// connectFloor starts T2 and dials T2's terminal and the cashier's connections.
func (h *harness) connectFloor() error {
	f := h.floor
	if err := h.startServer2(); err != nil {
		return err
	}
	tlsCfg, err := client.LoadTLS(pkiDir(h.dir), terminalID)
	if err != nil {
		return err
	}
	// Retries with a short backoff: a table server restarts in well under a second.
	log := slog.New(slog.DiscardHandler)
	if h.o.Verbose {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if f.c2, err = client.Dial(client.Config{Addr: f.t2Addr, TLS: tlsCfg, Logger: log,
		BaseBackoff: 50 * time.Millisecond, MaxBackoff: 500 * time.Millisecond}); err != nil {
		return err
	}
	ctlsCfg, err := client.LoadTLS(pkiDir(h.dir), cashierID)
	if err != nil {
		return err
	}
	for table, addr := range map[string]string{floorT1: h.srvAddr, floorT2: f.t2Addr} {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(ctlsCfg)))
		if err != nil {
			return err
		}
		f.conns = append(f.conns, conn)
		f.cage[table] = pb.NewCageServiceClient(conn)
	}
	return nil
}

// floorPoints are where in a redemption the harness kills a table server.
var floorPoints = []string{"after hold", "during commit", "after commit"}

// floorKill is one kill point: a ticket from T1's printer is taken to T2's terminal (one in
// two), the cage (through T1 or T2, one in four) or both at once (one in four), and the issuer
// or the redeemer is killed at one of the floorPoints.
func (h *harness) floorKill(i int) (err error) {
	f := h.floor
	v := h.pickTicket()
	victim := []string{floorT1, floorT2}[h.rng.IntN(2)]
	point := floorPoints[h.rng.IntN(len(floorPoints))]
	key := fmt.Sprintf("floor-%d-%d", h.o.Seed, i)
	killed := false
	kill := func() error {
		killed = true
		h.points[fmt.Sprintf("%s killed %s", victim, point)]++
		if victim == floorT1 {
			h.server.kill()
		} else {
			f.t2.kill()
		}
		time.Sleep(time.Duration(h.rng.IntN(500)) * time.Millisecond)
		if victim == floorT1 {
			return h.startServer()
		}
		return h.startServer2()
	}
	// Whatever the attempt came to, the server still dies at the chosen point's time: the
	// terminals and the cage must come through a kill whether or not a payment was in flight.
	defer func() {
		if !killed {
			if kerr := kill(); err == nil {
				err = kerr
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if v == "" {
		f.outcome("no ticket printed yet")
		return nil
	}
	switch h.rng.IntN(4) {
	case 0:
		return h.payAtCage(ctx, v, key, h.pickVia(), point, kill)
	case 1:
		// A race for the one ticket: the cashier pays it while T2's terminal takes it, and a
		// server dies in the middle. One of them gets it, or neither (the ticket held by the
		// terminal that then lost it), never both.
		h.points["race: T2's terminal and the cage at once"]++
		cage := make(chan error, 1)
		via := h.pickVia()
		go func() { cage <- h.payAtCage(ctx, v, key+"-cage", via, "", func() error { return nil }) }()
		t2err := h.redeemAtT2(ctx, v, key, point, kill)
		return errors.Join(t2err, <-cage)
	}
	return h.redeemAtT2(ctx, v, key, point, kill)
}

// pickVia is the table server the cashier's payment goes through.
func (h *harness) pickVia() string { return []string{floorT1, floorT2}[h.rng.IntN(2)] }

// outcome counts what an attempt came to.
func (f *floorRun) outcome(what string) {
	f.mu.Lock()
	f.outcomes[what]++
	f.mu.Unlock()
}

// cashoutPct is how often the bot at T1 cashes out: on the floor, most rounds, so that there
// are fresh tickets to take to T2 and the cage.
func (h *harness) cashoutPct() int {
	if h.floor != nil {
		return 80
	}
	return 30
}

// pickTicket is a ticket that came out of T1's printer: one in six times any (a ticket paid
// already must be refused wherever it is taken again), else one not yet paid anywhere the
// harness knows of, waiting a while for the bot's next cash-out; "" when none was printed.
func (h *harness) pickTicket() string {
	replay := h.rng.IntN(6) == 0
	deadline := time.Now().Add(20 * time.Second)
	for {
		stacked := map[string]bool{}
		for _, e := range h.acc.Cashbox() {
			stacked[e.Barcode] = true
		}
		var fresh, all []string
		for _, t := range h.prn.Printed() {
			if len(t.Fields) <= 6 {
				continue
			}
			v := t.Fields[6]
			all = append(all, v)
			// A ticket just out of the printer is not yet confirmed printed (the station
			// confirms it once the printer reports it taken): fresh only after a moment.
			if _, ok := h.floor.seen[v]; !ok {
				h.floor.seen[v] = time.Now()
			}
			if time.Since(h.floor.seen[v]) < 3*time.Second {
				continue
			}
			_, atT2 := h.floor.credited[v]
			_, atCage := h.floor.cashed[v]
			if !atT2 && !atCage && !stacked[v] {
				fresh = append(fresh, v)
			}
		}
		switch {
		case replay && len(all) > 0:
			return all[h.rng.IntN(len(all))]
		case len(fresh) > 0:
			return fresh[h.rng.IntN(len(fresh))]
		case time.Now().After(deadline):
			if len(all) == 0 {
				return ""
			}
			return all[h.rng.IntN(len(all))]
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// redeemAtT2 is T2's terminal taking a ticket: hold (RedeemTicket), then commit (or, one time
// in eight, cancel: the player took it back), each asked again with its key through the kill.
func (h *harness) redeemAtT2(ctx context.Context, v, key, point string, kill func() error) error {
	f := h.floor
	amount, err := f.c2.RedeemTicket(ctx, key+"-hold", v)
	if err != nil {
		if table.Refused(err) {
			f.outcome("T2 hold refused: " + refusalKind(err))
			return nil
		}
		return fmt.Errorf("T2 hold of %s: %w", v, err)
	}
	if point == "after hold" {
		if err := kill(); err != nil {
			return err
		}
	}
	if point == "after hold" && h.rng.IntN(8) == 0 {
		if _, err := f.c2.CancelRedeem(ctx, key+"-cancel", v); err != nil {
			return fmt.Errorf("T2 cancel of %s: %w", v, err)
		}
		f.outcome("T2 held, then cancelled")
		return nil
	}
	type result struct {
		m   table.Money
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := f.c2.CommitRedeem(ctx, key+"-commit", v)
		done <- result{m, err}
	}()
	if point == "during commit" {
		time.Sleep(time.Duration(h.rng.IntN(4000)) * time.Microsecond)
		if err := kill(); err != nil {
			return err
		}
	}
	r := <-done
	if r.err != nil {
		if table.Refused(r.err) {
			// Not ours to credit: another terminal took the ticket (a lapsed hold) — the
			// checks at the end find where it went.
			f.outcome("T2 commit refused: " + refusalKind(r.err))
			return nil
		}
		return fmt.Errorf("T2 commit of %s: %w", v, r.err)
	}
	if r.m.Amount != amount {
		return fmt.Errorf("T2 held %s for %s and was credited %s", v, cents(amount), cents(r.m.Amount))
	}
	f.mu.Lock()
	_, twice := f.credited[v]
	f.credited[v] = r.m.Amount
	f.outcomes["T2 credited"]++
	f.mu.Unlock()
	if twice {
		return fmt.Errorf("T2's terminal was credited ticket %s twice", v)
	}
	if point == "after commit" {
		return kill()
	}
	return nil
}

// payAtCage is the cashier paying a ticket in cash through one of the table servers, asking
// again with the same key until the answer is final. "after hold" has no hold at the cage: the
// server dies before the payment is asked for.
func (h *harness) payAtCage(ctx context.Context, v, key, via, point string, kill func() error) error {
	f := h.floor
	if point == "after hold" {
		if err := kill(); err != nil {
			return err
		}
	}
	type result struct {
		res *pb.PayTicketResponse
		err error
	}
	done := make(chan result, 1)
	go func() {
		for {
			actx, cancel := context.WithTimeout(ctx, 5*time.Second)
			res, err := f.cage[via].PayTicket(actx, &pb.PayTicketRequest{ValidationNumber: v, IdempotencyKey: key})
			cancel()
			switch status.Code(err) {
			case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted:
				if ctx.Err() == nil {
					time.Sleep(100 * time.Millisecond)
					continue
				}
			}
			done <- result{res, err}
			return
		}
	}()
	if point == "during commit" {
		time.Sleep(time.Duration(h.rng.IntN(4000)) * time.Microsecond)
		if err := kill(); err != nil {
			return err
		}
	}
	r := <-done
	if r.err != nil {
		if st := status.Code(r.err); st == codes.FailedPrecondition || st == codes.NotFound || st == codes.ResourceExhausted {
			f.outcome("cage refused: " + refusalKind(r.err))
			return nil
		}
		return fmt.Errorf("cage payment of %s via %s: %w", v, via, r.err)
	}
	f.mu.Lock()
	_, twice := f.cashed[v]
	f.cashed[v] = r.res.Amount
	f.outcomes["cage paid via "+via]++
	f.mu.Unlock()
	if twice {
		return fmt.Errorf("the cage paid ticket %s twice", v)
	}
	if point == "after commit" {
		return kill()
	}
	return nil
}

// refusalKind is a refusal's message without its ticket number and times, so the report counts
// refusals by kind.
func refusalKind(err error) string {
	msg := err.Error()
	for _, k := range []string{"already been redeemed", "already been paid", "being redeemed at another terminal", "is in the acceptor",
		"not confirmed printed", "never confirmed printed", "paid by hand", "not held by this terminal", "expired", "unknown", "no ticket"} {
		if strings.Contains(msg, k) {
			return k
		}
	}
	return msg
}

// openLedger opens a table's ledger for the checks: the harness's SQLite file, or on the floor
// the table's schema of the floor's database.
func (h *harness) openLedger(table string) (*ledger.Ledger, error) {
	if h.floor == nil {
		return ledger.Open(ledgerPath(h.dir))
	}
	return ledger.OpenStore(context.Background(), ledger.StoreConfig{DSN: h.floor.dsn, TableID: table, KeyPath: h.floor.key})
}

// FloorBooks are the floor's figures: what T2's terminal and the cage paid, the tables'
// conservations and the floor's.
type FloorBooks struct {
	T2Credited, CagePaid           int
	T2CreditedCents, CagePaidCents int64
	CagePayments                   int // cage_payments rows
	T2                             ledger.Conservation
	FloorLeft, FloorRight          int64
	Outcomes                       map[string]int
}

func (f *FloorBooks) String() string {
	if f == nil {
		return ""
	}
	var s strings.Builder
	fmt.Fprintf(&s, "  floor: T2's terminal credited %d tickets (%s); the cage paid %d (%s), %d cage payments recorded\n",
		f.T2Credited, cents(f.T2CreditedCents), f.CagePaid, cents(f.CagePaidCents), f.CagePayments)
	fmt.Fprintf(&s, "  ledger T2: %s\n", f.T2)
	fmt.Fprintf(&s, "  floor: money in − money out − cage cash = %s; balances + open tickets + house ± under/overpaid = %s\n",
		cents(f.FloorLeft), cents(f.FloorRight))
	keys := make([]string, 0, len(f.Outcomes))
	for k := range f.Outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s.WriteString("  attempts:\n")
	for _, k := range keys {
		fmt.Fprintf(&s, "    %5d  %s\n", f.Outcomes[k], k)
	}
	return s.String()
}

// floorCheck checks the floor: every ticket paid at one place at most, each place's record
// matching the ledger, each table's conservation and the floor's. t1 is T1's ledger (whose
// Tickets are the floor's), stacked T1's stacker.
func (h *harness) floorCheck(ctx context.Context, t1 *ledger.Ledger, c1 ledger.Conservation, stacked map[string]int, bad func(string, ...any)) (*FloorBooks, error) {
	f := h.floor
	fb := &FloorBooks{Outcomes: f.outcomes}
	t2, err := h.openLedger(floorT2)
	if err != nil {
		return nil, err
	}
	defer t2.Close()
	if fb.T2, err = t2.ConserveTable(ctx, floorT2); err != nil {
		return nil, err
	}
	if !fb.T2.Holds() {
		bad("table T2 does not conserve: %s", fb.T2)
	}
	tickets, err := t1.Tickets(ctx)
	if err != nil {
		return nil, err
	}
	payments, err := t1.CagePayments(ctx, "", time.Time{}, time.Time{})
	if err != nil {
		return nil, err
	}
	fb.CagePayments = len(payments)
	paidRows := map[string]int64{}
	for _, p := range payments {
		paidRows[p.Validation] += p.Amount
	}
	var toT2, toCage int64
	known := map[string]bool{}
	for _, tk := range tickets {
		v := tk.Validation
		known[v] = true
		_, atT2 := f.credited[v]
		_, atCage := f.cashed[v]
		atT1 := stacked[v] > 0
		places := 0
		for _, at := range []bool{atT1, atT2, atCage} {
			if at {
				places++
			}
		}
		if places > 1 {
			bad("ticket %s (%s) was paid at %d places (T1's stacker %v, T2's terminal %v, the cage %v)", v, cents(tk.Amount), places, atT1, atT2, atCage)
		}
		if tk.IssuerTable != floorT1 {
			bad("ticket %s was issued at %q: only T1 cashes out here", v, tk.IssuerTable)
		}
		if tk.State != ledger.TicketRedeemed {
			if places > 0 || paidRows[v] != 0 {
				bad("ticket %s is %s in the ledger but was paid (T1 %v, T2 %v, cage %v)", v, tk.State, atT1, atT2, atCage)
			}
			continue
		}
		switch tk.RedeemedWhere {
		case floorT1:
			if !atT1 {
				bad("ticket %s is redeemed at T1 but is not in T1's stacker", v)
			}
		case floorT2:
			toT2 += tk.Amount
			if !atT2 {
				bad("ticket %s is redeemed at T2 but T2's terminal was never credited it", v)
			} else if f.credited[v] != tk.Amount {
				bad("ticket %s of %s: T2's terminal was credited %s", v, cents(tk.Amount), cents(f.credited[v]))
			}
			if tk.RedeemedBy != terminalID {
				bad("ticket %s redeemed at T2 by %q", v, tk.RedeemedBy)
			}
		case ledger.RedeemedAtCage:
			toCage += tk.Amount
			if !atCage {
				bad("ticket %s is paid at the cage in the ledger but the cashier never handed it over", v)
			} else if f.cashed[v] != tk.Amount {
				bad("ticket %s of %s: the cage paid %s", v, cents(tk.Amount), cents(f.cashed[v]))
			}
			if paidRows[v] != tk.Amount {
				bad("ticket %s paid at the cage: cage payments record %s", v, cents(paidRows[v]))
			}
			if tk.RedeemedBy != cashierID {
				bad("ticket %s paid at the cage by %q", v, tk.RedeemedBy)
			}
		default:
			bad("ticket %s redeemed at %q", v, tk.RedeemedWhere)
		}
	}
	for v, a := range f.credited {
		fb.T2Credited++
		fb.T2CreditedCents += a
		if !known[v] {
			bad("T2's terminal was credited %s, which the floor never issued", v)
		}
	}
	for v, a := range f.cashed {
		fb.CagePaid++
		fb.CagePaidCents += a
		if !known[v] {
			bad("the cage paid %s, which the floor never issued", v)
		}
	}
	for v := range paidRows {
		if _, ok := f.cashed[v]; !ok {
			bad("the cage's payments record %s, which the cashier never paid", v)
		}
	}
	// T2's books: no notes, no play — exactly the tickets its terminal was credited.
	if fb.T2.TicketsIn != fb.T2CreditedCents || fb.T2.Balances != fb.T2CreditedCents || toT2 != fb.T2CreditedCents {
		bad("T2 took in %s of tickets and holds %s; its terminal was credited %s; the floor's tickets redeemed at T2 come to %s",
			cents(fb.T2.TicketsIn), cents(fb.T2.Balances), cents(fb.T2CreditedCents), cents(toT2))
	}
	// T1's tickets out are those paid at T2 and at the cage.
	if c1.TicketsOut != toT2+toCage || toCage != fb.CagePaidCents {
		bad("T1's tickets out %s; paid at T2 %s, at the cage %s (the cashier handed over %s)",
			cents(c1.TicketsOut), cents(toT2), cents(toCage), cents(fb.CagePaidCents))
	}
	// The floor: what came in (notes) less what went out (the dealer's money out, the cage's
	// cash) is what is still on the floor (balances, tickets owed, the house's result).
	var left, right int64
	for _, c := range []ledger.Conservation{c1, fb.T2} {
		left += c.MoneyIn - c.MoneyOut
		right += c.Balances + c.OpenTickets + c.HouseResult + c.Underpaid - c.Overpaid
	}
	left -= fb.CagePaidCents
	fb.FloorLeft, fb.FloorRight = left, right
	if left != right {
		bad("the floor does not conserve: money in − out − cage cash %s, on the floor %s", cents(left), cents(right))
	}
	return fb, nil
}
