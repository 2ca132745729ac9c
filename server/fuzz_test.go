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
	if _, err := tbl.OpenTable(false); err != nil {
		f.Fatal(err)
	}
	if _, err := tbl.ReportNoteEscrow("T1", &pb.NoteEscrowRequest{IdempotencyKey: "n", Amount: funds}); err != nil {
		f.Fatal(err)
	}
	if _, err := tbl.CreditNote("T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: funds}); err != nil {
		f.Fatal(err)
	}
	st, err := tbl.StartRound()
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
