package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// FuzzUpdateSlip feeds arbitrary wagers through the server's slip path (wire wager, read as
// the gRPC edge reads it → rules engine → limits → balance → ledger): it must never panic, refuse bad input with
// InvalidArgument, and never accept more than the balance or report totals that disagree.
func FuzzUpdateSlip(f *testing.F) {
	f.Add(int32(1), "17", int32(0), int32(0), "", int64(500))
	f.Add(int32(2), "1,4", int32(0), int32(0), "", int64(250))
	f.Add(int32(2), "1,5", int32(0), int32(0), "", int64(100))
	f.Add(int32(7), "", int32(3), int32(0), "", int64(1000))
	f.Add(int32(8), "", int32(4), int32(0), "", int64(1000))
	f.Add(int32(20), "32", int32(0), int32(4), "", int64(100))
	f.Add(int32(18), "", int32(0), int32(0), "", int64(100))
	f.Add(int32(15), "", int32(0), int32(0), "red", int64(100))
	f.Add(int32(1), "00", int32(0), int32(0), "", int64(-5))
	f.Add(int32(99), "x", int32(-1), int32(-1), "purple", int64(1<<62))

	tbl, _ := openFuzzTable(f)
	const funds = 20000
	if _, err := tbl.ReportNoteEscrow("T1", &pb.NoteEscrowRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		f.Fatal(err)
	}
	if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		f.Fatal(err)
	}
	if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "n2", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		f.Fatal(err)
	}
	st, err := tbl.StartRound("dealer:test")
	if err != nil {
		f.Fatal(err)
	}
	version := uint64(0)
	f.Fuzz(func(t *testing.T, kind int32, numbers string, which, spread int32, colour string, amount int64) {
		var nums []string
		if numbers != "" {
			nums = strings.Split(numbers, ",")
		}
		w := &pb.Wager{Kind: pb.BetKind(kind), Numbers: nums, Which: which, Spread: spread, Colour: colour, Amount: amount}
		version++
		res, err := tbl.UpdateSlip("T1", st.RoundId, version, slipWagers([]*pb.Wager{w, {Kind: pb.BetKind_BET_KIND_RED, Amount: 19000}}))
		if err != nil {
			if c := status.Code(err); c != codes.InvalidArgument {
				t.Fatalf("%v: %v", w, err)
			}
			return
		}
		var sum int64
		for _, r := range res.Results {
			if r.Accepted < 0 {
				t.Fatalf("negative acceptance %+v", res)
			}
			sum += r.Accepted
		}
		if sum != res.Total || res.Total > funds || res.Available != funds-res.Total {
			t.Fatalf("%v: slip %+v, available %d", w, res, res.Available)
		}
	})
}

// FuzzParseTechnicians feeds arbitrary PIN files to the parser: it must never panic, and what
// it accepts must have valid ids and hashes of the right size.
func FuzzParseTechnicians(f *testing.F) {
	line, err := PINLine("technician", "482913", 10)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(line + "\n"))
	f.Add([]byte("# comment\n\n" + line + "\n" + line + "\n"))
	f.Add([]byte("technician pbkdf2-sha256 0 AAAA AAAA\n"))
	f.Add([]byte("../x pbkdf2-sha256 10 AAAAAAAAAAA= AAAA\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		techs, err := ParseTechnicians(b)
		if err != nil {
			return
		}
		for id, e := range techs.entries {
			if pki.ValidID(id) != nil || len(e.hash) != 32 || e.iterations < 1 || len(e.salt) < 8 {
				t.Fatalf("accepted %q: %+v", id, e)
			}
		}
	})
}

// FuzzTechnicianAuthenticate feeds arbitrary PINs to the check: never a panic, only the right
// PIN passes, and a wrong one is PermissionDenied or (after several) ResourceExhausted.
func FuzzTechnicianAuthenticate(f *testing.F) {
	line, err := PINLine("tech1", "482913", 10)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("482913")
	f.Add("")
	f.Add("48291３")
	f.Add(strings.Repeat("9", 10000))
	f.Fuzz(func(t *testing.T, pin string) {
		techs, err := ParseTechnicians([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		err = techs.verify("tech1", pin)
		switch {
		case pin == "482913":
			if err != nil {
				t.Fatalf("right PIN refused: %v", err)
			}
		case err == nil:
			t.Fatalf("PIN %q accepted", pin)
		case status.Code(err) != codes.PermissionDenied:
			t.Fatalf("PIN %q: %v", pin, err)
		}
	})
}

// FuzzSlipWagerCount sends slips of any number of wagers: up to MaxSlipWagers they are priced,
// beyond it refused with InvalidArgument, never a panic.
func FuzzSlipWagerCount(f *testing.F) {
	f.Add(uint16(0))
	f.Add(uint16(MaxSlipWagers))
	f.Add(uint16(MaxSlipWagers + 1))
	f.Add(uint16(60000))
	tbl, _ := openFuzzTable(f)
	for i := range 100 { // 10,000.00 in 100.00 notes
		if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: fmt.Sprint("n", i), Amount: 10000, NoteCode: "AUD100"}); err != nil {
			f.Fatal(err)
		}
	}
	st, err := tbl.StartRound("dealer:test")
	if err != nil {
		f.Fatal(err)
	}
	version := uint64(0)
	f.Fuzz(func(t *testing.T, n uint16) {
		ws := make([]*pb.Wager, n)
		for i := range ws {
			ws[i] = &pb.Wager{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"17"}, Amount: 100}
		}
		version++
		svc := &terminalService{t: tbl}
		_, err := svc.UpdateSlip(context.WithValue(context.Background(), identityKey{}, identity{"terminal", "T1"}),
			&pb.UpdateSlipRequest{RoundId: st.RoundId, Version: version, Wagers: ws})
		if int(n) > MaxSlipWagers {
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("%d wagers: %v", n, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%d wagers: %v", n, err)
		}
	})
}

// fuzzTable is a table for the money fuzz targets, open, with T1 funded, and a printed ticket
// of T2's to redeem.
func fuzzTable(f *testing.F) (*Table, *fakeClock, string) {
	tbl, clock := openFuzzTable(f)
	for _, id := range []string{"T1", "T2"} {
		if _, err := reportAndCredit(tbl, id, &pb.CreditNoteRequest{IdempotencyKey: "fund", Amount: 10000, NoteCode: "AUD100"}); err != nil {
			f.Fatal(err)
		}
	}
	co, err := tbl.CashOut("T2", &pb.CashOutRequest{IdempotencyKey: "co"})
	if err != nil {
		f.Fatal(err)
	}
	if _, err := tbl.TicketPrinted("T2", &pb.TicketRequest{IdempotencyKey: "p", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		f.Fatal(err)
	}
	return tbl, clock, co.Ticket.ValidationNumber
}

// moneyCodes are the refusals a money call may give a bad request: never Internal, never a
// panic.
var moneyCodes = map[codes.Code]bool{codes.InvalidArgument: true, codes.FailedPrecondition: true, codes.NotFound: true,
	codes.AlreadyExists: true, codes.ResourceExhausted: true, codes.PermissionDenied: true}

// checkBooks fails the fuzz run when the ledger does not conserve or a balance is negative.
func checkBooks(t *testing.T, tbl *Table) {
	t.Helper()
	c, err := tbl.Conservation()
	if err != nil || !c.Holds() {
		t.Fatalf("books: %v %v", c, err)
	}
	st, err := tbl.Status()
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Terminals {
		if ts.Balance < 0 || ts.Balance > DefaultMaxBalance {
			t.Fatalf("balance of %s: %d", ts.TerminalId, ts.Balance)
		}
	}
}

// FuzzCreditNote: any amount and note code. Only a note of the currency table at its value is
// credited, exactly; anything else is refused with InvalidArgument (or the cap); the books
// always conserve.
func FuzzCreditNote(f *testing.F) {
	f.Add("k", int64(5000), "AUD50")
	f.Add("k", int64(1), "AUD50")
	f.Add("k", int64(9_223_372_036_854_765_806), "66")
	f.Add("", int64(100), "61")
	f.Add("k", int64(-1<<63), "")
	tbl, _, _ := fuzzTable(f)
	f.Fuzz(func(t *testing.T, key string, amount int64, code string) {
		before, _ := tbl.Status()
		res, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: key, Amount: amount, NoteCode: code})
		if err != nil {
			if !moneyCodes[status.Code(err)] {
				t.Fatalf("%q %d %q: %v", key, amount, code, err)
			}
		} else if !res.Replayed && (DefaultNotes()[code] != amount || res.Amount != amount) {
			t.Fatalf("credited %d %q: %v", amount, code, res)
		} else if !res.Replayed {
			after, _ := tbl.Status()
			if after.MoneyIn != before.MoneyIn+amount {
				t.Fatalf("money in %d → %d for a note of %d", before.MoneyIn, after.MoneyIn, amount)
			}
		}
		checkBooks(t, tbl)
	})
}

// FuzzTicketCalls: RedeemTicket, CommitRedeem, CancelRedeem and CashOut with any key and
// validation number, in any order (op picks the call), with time moving. A ticket is paid at
// most once; the books always conserve.
func FuzzTicketCalls(f *testing.F) {
	f.Add(uint8(0), "k1", "", int64(0))
	f.Add(uint8(1), "k2", "", int64(0))
	f.Add(uint8(2), "k3", "", int64(3*60))
	f.Add(uint8(0), "k4", "12345678901234567x", int64(0))
	f.Add(uint8(3), "k5", "000000000000000000", int64(1))
	tbl, clock, real := fuzzTable(f)
	f.Fuzz(func(t *testing.T, op uint8, key, validation string, advance int64) {
		if validation == "" {
			validation = real
		}
		if advance > 0 && advance < 3600 {
			clock.Add(time.Duration(advance) * time.Second)
		}
		terminal := []string{"T1", "T3"}[op/4%2]
		var err error
		switch op % 4 {
		case 0:
			_, err = tbl.RedeemTicket(terminal, &pb.RedeemTicketRequest{IdempotencyKey: key, ValidationNumber: validation})
		case 1:
			_, err = tbl.CommitRedeem(terminal, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: validation})
		case 2:
			_, err = tbl.CancelRedeem(terminal, &pb.TicketRequest{IdempotencyKey: key, ValidationNumber: validation})
		case 3:
			_, err = tbl.CashOut(terminal, &pb.CashOutRequest{IdempotencyKey: key})
		}
		if err != nil && !moneyCodes[status.Code(err)] {
			t.Fatalf("op %d %q %q: %v", op, key, validation, err)
		}
		checkBooks(t, tbl)
		c, _ := tbl.Conservation()
		if c.MoneyIn != 20000 {
			t.Fatalf("money in %d: a ticket is not money in, and no note was added", c.MoneyIn)
		}
	})
}

// FuzzResolveOverpayment: the dealer's resolution with any id and resolution word.
func FuzzResolveOverpayment(f *testing.F) {
	f.Add("k", "P1", "recovered")
	f.Add("k", "", "written-off")
	f.Add("", "x", "paid")
	tbl, _, _ := fuzzTable(f)
	f.Fuzz(func(t *testing.T, key, id, resolution string) {
		_, err := tbl.ResolveOverpayment("supervisor:S1", &pb.ResolveOverpaymentRequest{IdempotencyKey: key, Id: id, Resolution: resolution})
		if err != nil && !moneyCodes[status.Code(err)] {
			t.Fatalf("%q %q: %v", id, resolution, err)
		}
		checkBooks(t, tbl)
	})
}

// FuzzReleaseTicketHold: the dealer's release with any key and validation number.
func FuzzReleaseTicketHold(f *testing.F) {
	f.Add("k", "")
	f.Add("k", "000000000000000000")
	f.Add("", "1")
	tbl, _, real := fuzzTable(f)
	f.Fuzz(func(t *testing.T, key, validation string) {
		if validation == "" {
			validation = real
			tbl.RedeemTicket("T1", &pb.RedeemTicketRequest{IdempotencyKey: key + "/h", ValidationNumber: real})
		}
		_, err := tbl.ReleaseTicketHold("supervisor:S1", &pb.ReleaseTicketHoldRequest{IdempotencyKey: key, ValidationNumber: validation})
		if err != nil && !moneyCodes[status.Code(err)] {
			t.Fatalf("%q %q: %v", key, validation, err)
		}
		checkBooks(t, tbl)
	})
}

// reportAndCredit reports a note in escrow and then credits it, as a terminal's cashier does:
// the table pays only a note it was told of.
func reportAndCredit(tbl *Table, terminal string, req *pb.CreditNoteRequest) (*pb.MoneyResponse, error) {
	tbl.ReportNoteEscrow(terminal, &pb.NoteEscrowRequest{IdempotencyKey: req.IdempotencyKey, Amount: req.Amount, NoteCode: req.NoteCode})
	return tbl.CreditNote(terminal, req)
}

// openFuzzTable is an open table on a ledger of its own, on a fake clock, for a fuzz target.
func openFuzzTable(f testing.TB) (*Table, *fakeClock) {
	led, err := ledger.Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { led.Close() })
	clock := &fakeClock{t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)}
	tbl, err := NewTable(context.Background(), DefaultConfig(), led, clock.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		f.Fatal(err)
	}
	if _, err := tbl.OpenTable("dealer:test", false); err != nil {
		f.Fatal(err)
	}
	return tbl, clock
}

// FuzzRefuseWager: a supervisor's refusal (003 §9.12) from any request. The edge's reading
// (RefusalOf) and the table refuse a bad one with InvalidArgument or FailedPrecondition, never a
// panic; a refusal taken leaves a slip of a newer version whose total is its wagers' and no
// more than before, and what it removed is what the slip lost.
func FuzzRefuseWager(f *testing.F) {
	f.Add("T1", "late bet", []byte{0}, false)
	f.Add("T1", "collusion", []byte{}, true)
	f.Add("T1", "x", []byte{1, 0}, false)
	f.Add("T1", "", []byte{0}, false)
	f.Add("T9", "r", []byte{0}, true)
	f.Add("T1", "bell\a", []byte{5}, false)
	f.Add("", "r", []byte{0, 0}, true)
	tbl, _ := openFuzzTable(f)
	if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		f.Fatal(err)
	}
	st, err := tbl.StartRound("dealer:test")
	if err != nil {
		f.Fatal(err)
	}
	version := uint64(0)
	f.Fuzz(func(t *testing.T, terminal, reason string, idx []byte, all bool) {
		version++
		prev, err := tbl.UpdateSlip("T1", st.RoundId, version, slipWagers([]*pb.Wager{
			{Kind: pb.BetKind_BET_KIND_RED, Amount: 500}, {Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"17"}, Amount: 100}}))
		if err != nil {
			t.Fatal(err)
		}
		version = prev.Version
		req := &pb.RefuseWagerRequest{TerminalId: terminal, RoundId: st.RoundId, Reason: reason, All: all}
		for _, b := range idx {
			req.Indexes = append(req.Indexes, uint32(b))
		}
		term, round, ref, err := RefusalOf(req)
		if err == nil {
			var res *pb.RefuseWagerResponse
			res, err = tbl.RefuseWager("supervisor:S1", term, round, ref)
			if err == nil {
				sl := res.Slip
				var sum int64
				for _, r := range sl.Results {
					sum += r.Accepted
				}
				if sl.Version <= prev.Version || sum != sl.Total || sl.Total+res.Refused != prev.Total {
					t.Fatalf("%v: before %+v, after %+v (refused %d)", req, prev, sl, res.Refused)
				}
				version = sl.Version
				return
			}
		}
		if c := status.Code(err); c != codes.InvalidArgument && c != codes.FailedPrecondition && c != codes.NotFound {
			t.Fatalf("%v: %v", req, err)
		}
	})
}
