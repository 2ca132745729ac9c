package server

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server/ledger"
)

// floorRigs is n tables (T1, T2, …) served as in production, each its own server with its
// own ledger schema, all on one PostgreSQL database and one floor key.
func floorRigs(t *testing.T, n int, config ...func(*Config)) []*rig {
	t.Helper()
	dsn, key := pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key")
	var rs []*rig
	for i := range n {
		id := fmt.Sprintf("T%d", i+1)
		r := newPGRig(t, dsn, key, func(c *Config) {
			c.TableID = id
			for _, f := range config {
				f(c)
			}
		})
		if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// floorConserved checks the money identity of the floor as a whole: what came in at every
// table less what went out is every table's balances, the floor's open tickets and the
// house's result. (Each table's own identity counts the tickets it printed as its liability;
// a ticket it printed and another table took in moves money between the tables' books,
// which the per-table meters of the cage work record.)
func floorConserved(t *testing.T, rs []*rig) {
	t.Helper()
	var sum ledger.Conservation
	for _, r := range rs {
		c, err := r.led.Conserve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sum.MoneyIn += c.MoneyIn
		sum.MoneyOut += c.MoneyOut
		sum.Balances += c.Balances
		sum.OpenTickets += c.OpenTickets
		sum.HouseResult += c.HouseResult
		sum.Overpaid += c.Overpaid
		sum.Underpaid += c.Underpaid
	}
	if !sum.Holds() {
		t.Fatalf("the floor's money does not conserve: %v", sum)
	}
}

// A ticket printed at T1 (after a round played there) is taken in by a terminal of T2,
// through the table's real RedeemTicket and CommitRedeem over gRPC: the other table sees it,
// credits it once, and T1 cannot pay it again.
func TestFloorTicketPrintedAtOneTableRedeemedAtAnother(t *testing.T) {
	rs := floorRigs(t, 2)
	a, b := rs[0].terminal("A01"), rs[1].terminal("B01")
	if _, err := creditNotes(ctx, a, "n", 10000); err != nil {
		t.Fatal(err)
	}
	rs[0].playStraight(a, "17", 2500, "17") // won 87,500: 100,000 − 2,500 + 90,000 back
	vn := printedTicketOf(t, a, "a")
	floorConserved(t, rs)

	rd, err := b.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: vn})
	if err != nil || rd.Amount != 97500 {
		t.Fatalf("T2 redeeming T1's ticket: %v %v", rd, err)
	}
	if _, err := a.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("T1 took a ticket T2 holds: %v", err)
	}
	cm, err := b.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c", ValidationNumber: vn})
	if err != nil || cm.Balance != 97500 {
		t.Fatalf("commit at T2: %v %v", cm, err)
	}
	for i, term := range []pb.TerminalServiceClient{a, b} {
		if _, err := term.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "again", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
			t.Fatalf("T%d redeemed a redeemed ticket: %v", i+1, err)
		}
	}
	floorConserved(t, rs)
	for _, r := range rs {
		if _, err := r.led.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// printedTicketOf cashes a terminal's whole balance out to a ticket it confirms printed.
func printedTicketOf(t *testing.T, term pb.TerminalServiceClient, key string) string {
	t.Helper()
	co, err := term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key + "/printed", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber
}

// Exactly once on the floor: 50 terminals, half at T1 and half at T2, race RedeemTicket and
// CommitRedeem on one ticket. (The row lock that makes this so is proved by the ledger's
// TestFloorTicketRedeemedOnceUnderRace, which holds the window open: here, through the
// servers, the window between reading the ticket and writing it is rarely hit.) It is credited once, to one terminal; the floor conserves and
// both ledgers verify.
func TestFloorTicketRaceAcrossTablesPaysOnce(t *testing.T) {
	rs := floorRigs(t, 2)
	issuer := rs[0].terminal("A00")
	if _, err := creditNotes(ctx, issuer, "n", 5000); err != nil {
		t.Fatal(err)
	}
	vn := printedTicketOf(t, issuer, "a")
	terms := make([]pb.TerminalServiceClient, 50)
	for i := range terms {
		terms[i] = rs[i%len(rs)].terminal(fmt.Sprintf("%c%02d", "AB"[i%len(rs)], i+1))
	}
	start := make(chan struct{})
	credited := make([]int64, len(terms))
	var wg sync.WaitGroup
	for i, term := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if _, err := term.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r", ValidationNumber: vn}); err != nil {
				if code(err) != codes.FailedPrecondition {
					t.Errorf("redeem: %v", err)
				}
				return
			}
			cm, err := term.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c", ValidationNumber: vn})
			if err != nil {
				if code(err) != codes.FailedPrecondition {
					t.Errorf("commit: %v", err)
				}
				return
			}
			credited[i] = cm.Amount
		}()
	}
	close(start)
	wg.Wait()
	var paid, total int64
	for _, c := range credited {
		if c != 0 {
			paid++
			total += c
		}
	}
	if paid != 1 || total != 5000 {
		t.Fatalf("the ticket was credited %d times, %d in all: %v", paid, total, credited)
	}
	floorConserved(t, rs)
	for _, r := range rs {
		if _, err := r.led.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFloorClosedJackpotsMeterReachesTheOtherJackpotOnce_001_8_3_6: on a floor, T1's supervisor
// closes T1's jackpot to T2's; T2 credits the whole meter to its own as its next round starts,
// once — not again at the round after, nor after a restart of T2 — and what left T1's meter
// is what reached T2's, to the cent. Both ledgers verify.
func TestFloorClosedJackpotsMeterReachesTheOtherJackpotOnce_001_8_3_6(t *testing.T) {
	rs := floorRigs(t, 2, func(c *Config) { c.Jackpot = &JackpotConfig{Seed: 100000, Ceiling: 10_000_000, RateBP: 100} })
	a := rs[0].terminal("A01")
	if _, err := creditNotes(ctx, a, "n", 10000); err != nil {
		t.Fatal(err)
	}
	rs[0].playStraight(a, "17", 1000, "2") // T1's meter: 1000.10
	st, err := rs[0].super.CloseJackpot(ctx, &pb.CloseJackpotRequest{Notice: "T1's jackpot closes; its meter goes to T2's", TransferTo: "T2"})
	if err != nil || st.JackpotClosure.GetTransferred() != 100010 {
		t.Fatalf("closing T1's jackpot: %v %v", st.GetJackpotClosure(), err)
	}
	meter := func(r *rig) int64 {
		t.Helper()
		return r.status().JackpotMeter
	}
	if m := meter(rs[1]); m != 100000 {
		t.Fatalf("T2's meter before its next round: %d", m)
	}
	round := func(r *rig) {
		t.Helper()
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		r.clock.Add(21 * time.Second)
		r.table.Advance(r.clock.Now())
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "2"}); err != nil {
			t.Fatal(err)
		}
	}
	round(rs[1])
	if m := meter(rs[1]); m != 100000+100010 {
		t.Fatalf("T2's meter after the transfer: %d, want %d", m, 100000+100010)
	}
	round(rs[1])
	rs[1].shutdown()
	rs[1].start()
	round(rs[1])
	if m := meter(rs[1]); m != 100000+100010 {
		t.Fatalf("T2's meter after two more rounds and a restart: %d (credited twice?)", m)
	}
	if got := rs[1].auditOf("jackpot-transfer-received"); len(got) != 1 {
		t.Fatalf("T2's record of the transfer: %q", got)
	}
	floorConserved(t, rs)
	for _, r := range rs {
		if _, err := r.led.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
