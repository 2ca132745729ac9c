package server

import (
	"strings"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Issue 33, point 4: a ticket T1's T01 printed, paid through T2's cage, showed only in T2's
// log, as "terminalId: T01" — where T2 has a T01 of its own — and T1 never learnt its ticket
// was paid. Both logs show the payment, naming table T1 and its T01; T1's says where, by whom
// and when.
func TestFloorCagePaymentIsInBothLogsNamingTheIssuingTableAndTerminal(t *testing.T) {
	rs := floorRigs(t, 2)
	vn := printedTicket(t, rs[0].terminal("T01"), "a", 2500)
	if _, err := rs[1].terminal("T01").CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "t2-seen"}); err == nil {
		t.Fatal("T2's T01 cashed out an empty account") // T2's own T01 exists too
	}
	paid, err := rs[1].cashier("cashier-1").PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "p"})
	if err != nil {
		t.Fatal(err)
	}
	cagePaid := func(r *rig, terminal string) []*pb.AuditEntry {
		t.Helper()
		log, err := r.super.GetAuditLog(ctx, &pb.GetAuditLogRequest{Kind: "cage-paid", TerminalId: terminal})
		if err != nil {
			t.Fatal(err)
		}
		return log.Entries
	}
	// T2, where it was paid: the terminal is T1's T01, not T2's.
	at2 := cagePaid(rs[1], "")
	if len(at2) != 1 || at2[0].TableId != "T1" || at2[0].TerminalId != "T01" || at2[0].Amount != 2500 || at2[0].FromTableId != "" {
		t.Fatalf("T2's log: %v", at2)
	}
	if got := cagePaid(rs[1], "T01"); len(got) != 0 {
		t.Fatalf("T2's log shows the payment as its own T01's: %v", got)
	}
	if got := cagePaid(rs[1], "T1/T01"); len(got) != 1 {
		t.Fatalf("T2's log by T1/T01: %v", got)
	}
	// T1, which printed it: told by T2, where, by whom and when.
	at1 := cagePaid(rs[0], "T01")
	if len(at1) != 1 || at1[0].TableId != "T1" || at1[0].TerminalId != "T01" || at1[0].FromTableId != "T2" ||
		at1[0].AtUnixNanos != paid.PaidAtUnixNanos || at1[0].Actor != "cashier:cashier-1" ||
		!strings.Contains(at1[0].Detail, "cashier-1") || !strings.Contains(at1[0].Detail, "through table T2") ||
		!strings.Contains(at1[0].Detail, paid.PaymentId) {
		t.Fatalf("T1's log: %v", at1)
	}
	floorBooks(t, rs)
}

// A ticket T1's T01 printed and put in T1's T01 acceptor (held), whose hold lapsed, taken and
// redeemed by T2's T01: T2's log names the lapsed holder T1/T01, not its own T01, and T1's log
// learns its ticket was redeemed at T2, by which terminal, when.
func TestFloorTicketRedeemedAtAnotherTableIsInTheIssuersLog(t *testing.T) {
	rs := floorRigs(t, 2)
	t1, t2 := rs[0].terminal("T01"), rs[1].terminal("T01")
	vn := printedTicket(t, t1, "a", 3000)
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h1", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	rs[1].clock.Add(DefaultTicketHold + time.Second)
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h2", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	if _, err := t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c2", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	entries := func(r *rig, kind string) []*pb.AuditEntry {
		t.Helper()
		log, err := r.super.GetAuditLog(ctx, &pb.GetAuditLogRequest{Kind: kind})
		if err != nil {
			t.Fatal(err)
		}
		return log.Entries
	}
	if l := entries(rs[1], "ticket-hold-lapsed"); len(l) != 1 || l[0].TableId != "T1" || l[0].TerminalId != "T01" {
		t.Fatalf("T2's log of the lapsed hold: %v", l)
	}
	if l := entries(rs[1], "ticket-in"); len(l) != 1 || l[0].TableId != "T2" || l[0].TerminalId != "T01" {
		t.Fatalf("T2's log of the ticket in: %v", l)
	}
	l := entries(rs[0], "ticket-redeemed")
	if len(l) != 1 || l[0].TableId != "T1" || l[0].TerminalId != "T01" || l[0].FromTableId != "T2" || l[0].Actor != "terminal:T2/T01" ||
		!strings.Contains(l[0].Detail, "redeemed at table T2 by its terminal T01") || l[0].AtUnixNanos != rs[1].clock.Now().UnixNano() {
		t.Fatalf("T1's log: %v", l)
	}
}
