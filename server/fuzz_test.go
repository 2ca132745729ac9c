package server

import (
	"context"
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
	const funds = 20000
	if _, err := tbl.OpenTable("dealer:test", false); err != nil {
		f.Fatal(err)
	}
	if _, err := tbl.CreditNote("T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: funds}); err != nil {
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
	if _, err := tbl.CreditNote("T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 1_000_000}); err != nil {
		f.Fatal(err)
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
