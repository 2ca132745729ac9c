package server

import (
	"context"
	"fmt"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// noteCodes are the default currency table's named notes, largest first.
var noteCodes = []struct {
	code  string
	cents int64
}{{"AUD100", 10000}, {"AUD50", 5000}, {"AUD20", 2000}, {"AUD10", 1000}, {"AUD5", 500}, {"61", 100}}

// creditNotes credits cents as real notes of the default currency table (the server refuses
// any other amount), the largest first. The first note's key is key, the next key/2, key/3…,
// so a test that calls it twice with the same key replays them all.
func creditNotes(ctx context.Context, term pb.TerminalServiceClient, key string, cents int64) (*pb.MoneyResponse, error) {
	if cents <= 0 || cents%100 != 0 {
		return nil, fmt.Errorf("creditNotes: %d is no sum of notes", cents)
	}
	var last *pb.MoneyResponse
	n := 0
	for _, note := range noteCodes {
		for cents >= note.cents {
			k := key
			if n++; n > 1 {
				k = fmt.Sprintf("%s/%d", key, n)
			}
			// Reported in escrow first, as the cashier does: the table pays only a note it was told of.
			if _, err := term.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: k, Amount: note.cents, NoteCode: note.code}); err != nil {
				return nil, err
			}
			res, err := term.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: k, Amount: note.cents, NoteCode: note.code})
			if err != nil {
				return nil, err
			}
			cents -= note.cents
			last = res
		}
	}
	return last, nil
}

// buyIn funds a terminal with a dealer buy-in the player accepts: any amount up to the table's
// maximum balance in two calls, for tests that need large balances quickly.
func (r *rig) buyIn(term pb.TerminalServiceClient, terminal, key string, cents int64) error {
	r.t.Helper()
	ctx := context.Background()
	// The dealer credits only a terminal the table knows: one that has called it.
	if _, err := term.ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil {
		return err
	}
	b, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: key + "/offer/" + terminal, TerminalId: terminal, Amount: cents})
	if err != nil {
		return err
	}
	_, err = term.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: key, BuyInId: b.BuyInId, Accept: true})
	return err
}
