package server

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/ledger"
)

// floorBooks checks every table's identity — with the tickets that crossed tables as tickets
// in and out — and the floor's (ledger.Sum), and returns them by table id.
func floorBooks(t *testing.T, rs []*rig) map[string]ledger.Conservation {
	t.Helper()
	out := map[string]ledger.Conservation{}
	var all []ledger.Conservation
	for i, r := range rs {
		c, err := r.table.Conservation()
		if err != nil || !c.Holds() {
			t.Fatalf("T%d: %v %v", i+1, c, err)
		}
		out[fmt.Sprintf("T%d", i+1)] = c
		all = append(all, c)
	}
	floor, err := ledger.Sum(all...)
	if err != nil || !floor.Holds() {
		t.Fatalf("the floor: %v %v", floor, err)
	}
	return out
}

// On a floor: T1's ticket redeemed at a terminal of T2 (its T01, an id T1 has too), another
// of T1's paid at the cage through T2's server; T1's T01 cannot commit a ticket T2's T01
// holds. Each table's books and the floor's conserve: T1's tickets left it as tickets out, T2
// took one in.
func TestFloorTicketsCrossTables(t *testing.T) {
	rs := floorRigs(t, 2)
	t1, t2 := rs[0].terminal("T01"), rs[1].terminal("T01")
	a := printedTicket(t, t1, "a", 5000)
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r-a", ValidationNumber: a}); err != nil {
		t.Fatal(err)
	}
	// T1's T01 is not T2's T01.
	if _, err := t1.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "forged", ValidationNumber: a}); code(err) != codes.NotFound {
		t.Fatalf("T1's T01 committed a ticket T2's T01 holds: %v", err)
	}
	if res, err := t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c-a", ValidationNumber: a}); err != nil || res.Balance != 5000 {
		t.Fatalf("T2's commit: %v %v", res, err)
	}
	b := printedTicket(t, t1, "b", 2000)
	// T2's T01 is not the T01 that printed it: it cannot report it printed or failed, nor can
	// T2's pit boss hand-pay T1's unprintable ticket.
	if _, err := t2.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: "pf", ValidationNumber: b}); code(err) != codes.NotFound {
		t.Fatalf("T2's T01 reported T1's ticket unprinted: %v", err)
	}
	if _, err := creditNotes(ctx, t1, "u", 1000); err != nil {
		t.Fatal(err)
	}
	co, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "u/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := t1.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: "u/pf", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	if _, err := rs[1].super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "hp", ValidationNumber: co.Ticket.ValidationNumber}); code(err) != codes.NotFound {
		t.Fatalf("T2's pit boss hand-paid T1's ticket: %v", err)
	}
	if _, err := rs[0].super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "hp", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatalf("T1's pit boss: %v", err)
	}
	paid, err := rs[1].cashier("cashier-1").PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: b, IdempotencyKey: "p-b"})
	if err != nil || paid.Amount != 2000 || paid.Ticket.IssuerTableId != "T1" {
		t.Fatalf("the cage: %v %v", paid, err)
	}
	// Neither can be had again, anywhere.
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r-a2", ValidationNumber: a}); code(err) != codes.FailedPrecondition {
		t.Fatalf("redeemed twice: %v", err)
	}
	v := refusal(t, func() error {
		_, err := rs[0].cashier("cashier-2").PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: a, IdempotencyKey: "p-a"})
		return err
	}(), codes.FailedPrecondition)
	if v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_ALREADY_PAID || v.RedeemedWhere != "T2" || v.RedeemedBy != "T01" {
		t.Fatalf("the cage paying a ticket T2 redeemed: %v", v)
	}
	cs := floorBooks(t, rs)
	if c := cs["T1"]; c.MoneyIn != 8000 || c.MoneyOut != 1000 || c.TicketsOut != 7000 || c.OpenTickets != 0 || c.TicketsIn != 0 {
		t.Fatalf("T1: %v", c)
	}
	if c := cs["T2"]; c.MoneyIn != 0 || c.TicketsIn != 5000 || c.Balances != 5000 {
		t.Fatalf("T2: %v", c)
	}
	// The floor report, from either server, is the floor's: the tickets of both tables, and
	// both tables' notes (T2's T01 puts a 10.00 note in; T1's T01 put in 80.00).
	if _, err := creditNotes(ctx, t2, "n2", 1000); err != nil {
		t.Fatal(err)
	}
	floorBooks(t, rs) // the books of both tables still conserve
	rep, err := rs[0].cashier("cashier-1").FloorReport(ctx, &pb.FloorReportRequest{})
	if err != nil || len(rep.Tables) != 2 || rep.Tables[0].TableId != "T1" || rep.Tables[0].RedeemedTable.Amount != 5000 ||
		rep.Tables[0].RedeemedCage.Amount != 2000 || rep.Tables[1].RedeemedByTable.Amount != 5000 {
		t.Fatalf("floor report: %v %v", rep, err)
	}
	var notes []string
	for _, n := range rep.Notes {
		notes = append(notes, fmt.Sprintf("%s/%s %d %d %d", n.TableId, n.TerminalId, n.Stacked.Amount, n.Credited.Amount, n.Difference))
	}
	if got := fmt.Sprint(notes); got != "[T1/T01 8000 8000 0 T2/T01 1000 1000 0]" {
		t.Fatalf("the floor's notes: %s", got)
	}
}

// 200 attempts at once on one ticket of T1 — terminals of T1 and of T2 holding and committing
// it, cashiers paying it through either server — pay it exactly once; every table's books and
// the floor's conserve.
func TestFloorTicketPaidOnceUnder200Attempts(t *testing.T) {
	rs := floorRigs(t, 2)
	vn := printedTicket(t, rs[0].terminal("T00"), "a", 9000)
	type attempt func(i int) (int64, error)
	var who []attempt
	for ti, r := range rs {
		for n := range 20 { // 20 terminals a table, 4 attempts each: 160
			term := r.terminal(fmt.Sprintf("T%02d", n+1))
			who = append(who, func(i int) (int64, error) {
				if _, err := term.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: fmt.Sprintf("r%d", i), ValidationNumber: vn}); err != nil {
					return 0, err
				}
				res, err := term.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: fmt.Sprintf("c%d", i), ValidationNumber: vn})
				if err != nil || res.Replayed {
					return 0, err
				}
				return res.Amount, nil
			})
		}
		for n := range 2 { // 2 cashiers a server, 10 attempts each: 40
			cage := r.cashier(fmt.Sprintf("cashier-T%d-%d", ti+1, n))
			who = append(who, func(i int) (int64, error) {
				res, err := cage.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: fmt.Sprintf("p%d", i)})
				if err != nil {
					return 0, err
				}
				return res.Amount, nil
			})
		}
	}
	var total, attempts, wins atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for k, try := range who {
		n := 4
		if k%22 >= 20 { // the cashiers
			n = 10
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range n {
				attempts.Add(1)
				got, err := try(i)
				if err != nil && status.Code(err) != codes.FailedPrecondition {
					t.Errorf("attempt: %v", err)
				}
				if got > 0 {
					total.Add(got)
					wins.Add(1)
				}
			}
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	if attempts.Load() != 200 {
		t.Fatalf("%d attempts", attempts.Load())
	}
	if total.Load() != 9000 || wins.Load() != 1 {
		t.Fatalf("paid %d in %d payments for a ticket of 9000", total.Load(), wins.Load())
	}
	cs := floorBooks(t, rs)
	// Redeemed by one of T1's own terminals, the money is in a T1 balance; anywhere else it
	// left T1 as tickets out.
	if c := cs["T1"]; c.OpenTickets != 0 || c.Balances+c.TicketsOut != 9000 {
		t.Fatalf("T1: %v", c)
	}
	t.Logf("200 attempts over two tables and the cage in %v: one payment; T1 %v; T2 %v", time.Since(began).Round(time.Millisecond), cs["T1"], cs["T2"])
}
