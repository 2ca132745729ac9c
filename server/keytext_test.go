package server

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// A hostile terminal's idempotency keys: "k\x00a" was sealed on SQLite under the same name
// as "k" (quote() ends text at a NUL), so two money calls made the ledger fail its own
// verification — a table that would not start again (found by FuzzReleaseTicketHold). Every
// key the ledger cannot keep is refused as bad input, and the ledger still verifies.
func TestIdempotencyKeysTheLedgerCannotKeepAreRefused(t *testing.T) {
	tbl, _ := openFuzzTable(t)
	if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "k", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"k\x00", "k\x00a", "\x00", "k\n", "k\xea", string(make([]byte, maxKeyBytes+1))} {
		_, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: key, Amount: 10000, NoteCode: "AUD100"})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("note key %q: %v, want InvalidArgument", key, err)
		}
		_, err = tbl.CashOut("T1", &pb.CashOutRequest{IdempotencyKey: key})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("cash-out key %q: %v, want InvalidArgument", key, err)
		}
	}
	if _, err := tbl.CashOut("T1", &pb.CashOutRequest{IdempotencyKey: "a key of 30 printable bytes ok"}); err != nil {
		t.Fatalf("a good key refused: %v", err)
	}
	if _, err := tbl.led.Verify(context.Background()); err != nil {
		t.Fatalf("the ledger fails its seal: %v", err)
	}
}
