package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

func mac(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

// Attack: a credit-owed record of 10,000.00 forged into a terminal's journal, asked for by its
// start-up recovery (CreditNote with the forged flow's key). The table has no record of that
// note in escrow: nothing is paid. A note that was reported is paid only its reported amount.
func TestAttackForgedCreditOwed10000NotPaid(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	// 10,000.00 is no note at all: refused by the currency table before anything else.
	_, err := t1.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "note:0F:forged00000000", Amount: 1_000_000, NoteCode: "0F"})
	if code(err) != codes.InvalidArgument {
		t.Fatalf("forged credit of 10,000.00: %v", err)
	}
	// A real denomination the table was never told of in escrow: the claim is refused.
	_, err = t1.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "note:67:forged00000000", Amount: 10000, NoteCode: "67"})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "note claim refused") {
		t.Fatalf("forged claim of a 100.00 note: %v", err)
	}
	if _, err := t1.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: "note:65:real", Amount: 2000, NoteCode: "65"}); err != nil {
		t.Fatal(err)
	}
	if _, err := t1.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "note:65:real", Amount: 5000, NoteCode: "66"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a reported note claimed for more: %v", err)
	}
	if _, err := t1.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: "note:65:real", Amount: 5000, NoteCode: "66"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a reported note reported again for more: %v", err)
	}
	// Another terminal cannot claim T1's note.
	if _, err := r.terminal("T2").CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "note:65:real", Amount: 2000, NoteCode: "65"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("another terminal's note: %v", err)
	}
	res, err := t1.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "note:65:real", Amount: 2000, NoteCode: "65"})
	if err != nil || res.Balance != 2000 {
		t.Fatalf("the real note: %v %v", res, err)
	}
	st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || st.MoneyIn != 2000 || st.Balances != 2000 {
		t.Fatalf("money in %d, balances %d: want 2000 each (%v)", st.GetMoneyIn(), st.GetBalances(), err)
	}
}

// The anchor: the newest head an acknowledged money call carried, never moved back, survives a
// restart; a head naming the anchored record with another MAC moves nothing; a malformed head
// is refused.
func TestJournalAnchorFromAcknowledgedCalls(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	anchor := func() *pb.JournalHead {
		t.Helper()
		a, err := t1.GetJournalAnchor(ctx, &pb.GetJournalAnchorRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return a.Head
	}
	if h := anchor(); h.GetSeq() != 0 {
		t.Fatalf("anchor before any call: %v", h)
	}
	note := func(key string, amount int64, head *pb.JournalHead) error {
		if _, err := t1.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: key, Amount: amount, NoteCode: "AUD5", JournalHead: head}); err != nil {
			return err
		}
		_, err := t1.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: key, Amount: amount, NoteCode: "AUD5", JournalHead: head})
		return err
	}
	if err := note("n1", 500, &pb.JournalHead{Seq: 7, Mac: mac(7)}); err != nil {
		t.Fatal(err)
	}
	if h := anchor(); h.Seq != 7 || !bytes.Equal(h.Mac, mac(7)) {
		t.Fatalf("anchor after a call at head 7: %v", h)
	}
	if err := note("n2", 500, &pb.JournalHead{Seq: 5, Mac: mac(5)}); err != nil {
		t.Fatal(err)
	}
	if h := anchor(); h.Seq != 7 {
		t.Fatalf("an older head moved the anchor back: %v", h)
	}
	// Another journal speaking for T1: refused before anything moves.
	_, err := t1.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: "n3", Amount: 500, JournalHead: &pb.JournalHead{Seq: 7, Mac: mac(9)}})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "replaced or rewritten") {
		t.Fatalf("a conflicting head: %v", err)
	}
	for _, h := range []*pb.JournalHead{{Seq: -1}, {Seq: 3, Mac: []byte{1}}, {Seq: 0, Mac: mac(1)}} {
		if _, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "c", JournalHead: h}); code(err) != codes.InvalidArgument {
			t.Fatalf("malformed head %v: %v", h, err)
		}
	}
	res, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "c", JournalHead: &pb.JournalHead{Seq: 9, Mac: mac(9)}})
	if err != nil || res.Ticket.Amount != 1000 {
		t.Fatalf("cash-out: %v %v", res, err)
	}
	r.shutdown()
	r.start()
	t1 = r.terminal("T1")
	if h := anchor(); h.Seq != 9 || !bytes.Equal(h.Mac, mac(9)) {
		t.Fatalf("anchor after a restart: %v", h)
	}
	// A supervisor clears it (a terminal whose journal is lost for good), recorded with who.
	if err := r.table.ClearJournalAnchor("T1", "supervisor S1"); err != nil {
		t.Fatal(err)
	}
	if h := anchor(); h.GetSeq() != 0 {
		t.Fatalf("anchor after clearing: %v", h)
	}
	// Read from the ledger as it is stored (either store): the audit log.
	evs, err := r.led.Events(ctx, "journal-anchor-cleared", 10)
	var detail string
	for _, e := range evs {
		if e.Terminal == "T1" {
			detail = e.Detail
		}
	}
	if err != nil || detail != "by supervisor S1" {
		t.Fatalf("the clearing recorded: %q %v", detail, err)
	}
}

// FuzzNoteClaim feeds arbitrary note reports, credits and journal heads through the table (the
// requests this change added or changed): never a panic; a malformed report or head is
// InvalidArgument; a credit is paid only for a note reported with that key and amount, once;
// and the anchor only moves forward.
func FuzzNoteClaim(f *testing.F) {
	f.Add("note:65:1", int64(2000), "65", "note:65:1", int64(2000), int64(3), []byte("0123456789abcdef0123456789abcdef"))
	f.Add("note:65:1", int64(2000), "65", "note:65:1", int64(1_000_000), int64(0), []byte{})
	f.Add("", int64(-1), strings.Repeat("x", 40), "other", int64(5), int64(-2), []byte{1})
	f.Add("k", int64(1<<62), "", "k", int64(1<<62), int64(1<<62), []byte("0123456789abcdef0123456789abcdeX"))
	r := newRigWith(f, nil, WithCallRate(1e9, 1e9)) // one terminal as fast as the fuzzer goes
	term := r.terminal("T1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		f.Fatal(err)
	}
	n := 0
	f.Fuzz(func(t *testing.T, key string, amount int64, code string, claimKey string, claimAmount int64, seq int64, macBytes []byte) {
		if !utf8.ValidString(key) || !utf8.ValidString(code) || !utf8.ValidString(claimKey) { // each alone: two halves can join
			t.Skip("a proto3 string is UTF-8: the client cannot send this")
		}
		n++
		key, claimKey = fmt.Sprint(n, key), fmt.Sprint(n, claimKey) // each run its own notes
		head := &pb.JournalHead{Seq: seq, Mac: macBytes}
		before, err := term.GetJournalAnchor(ctx, &pb.GetJournalAnchorRequest{})
		if err != nil {
			t.Fatal(err)
		}
		_, rerr := term.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: key, Amount: amount, NoteCode: code, JournalHead: head})
		if rerr != nil && status.Code(rerr) != codes.InvalidArgument && status.Code(rerr) != codes.FailedPrecondition {
			t.Fatalf("report %q %d: %v", key, amount, rerr)
		}
		res, cerr := term.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: claimKey, Amount: claimAmount, NoteCode: code})
		paid := cerr == nil && !res.Replayed
		if paid && (rerr != nil || claimKey != key || claimAmount != amount) {
			t.Fatalf("paid %d for %q; reported %q %d (%v)", claimAmount, claimKey, key, amount, rerr)
		}
		after, err := term.GetJournalAnchor(ctx, &pb.GetJournalAnchorRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if after.Head.GetSeq() < before.Head.GetSeq() {
			t.Fatalf("anchor moved back: %v → %v", before.Head, after.Head)
		}
		if rerr == nil && seq > 0 && len(macBytes) == 32 && seq > before.Head.GetSeq() && after.Head.GetSeq() != seq {
			t.Fatalf("an acknowledged head %d not anchored: %v", seq, after.Head)
		}
	})
}
