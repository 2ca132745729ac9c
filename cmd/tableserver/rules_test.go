package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// `tableserver -rules star` alone is The Star's table (003 §3.2, §3.4, §9.1): the command, its
// flags and a real table over mutual TLS and gRPC. The table is the double-zero one with the
// Star's layout, so the five-line and the splits 00-2 and 00-3 are taken, and it requires the
// player card: a slip without one is refused.
func TestRule003_3_4_RulesStarAloneIsTheStarsTable(t *testing.T) {
	dir := t.TempDir()
	if err := pki.Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	addr := startServer(t, dir, "-rules", "star")
	dealer, term := pb.NewDealerServiceClient(dial(t, addr, dir, "dealer")), pb.NewTerminalServiceClient(dial(t, addr, dir, "T01"))
	st, err := dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if c := st.Config; c.RulesProfile != "star" || c.Wheel != pb.Wheel_WHEEL_DOUBLE_ZERO || c.LayoutProfile != "star" || !c.PlayerCardRequired {
		t.Fatalf("-rules star: rules %q, wheel %v, layout %q, card required %v; want star, double zero, star, true",
			c.RulesProfile, c.Wheel, c.LayoutProfile, c.PlayerCardRequired)
	}
	if _, err := dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	// A note in: reported in escrow, then credited once stacked (001 §6.2.2).
	if _, err := term.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: "n1", Amount: 5000, NoteCode: "AUD50"}); err != nil {
		t.Fatal(err)
	}
	if _, err := term.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "n1", Amount: 5000, NoteCode: "AUD50"}); err != nil {
		t.Fatal(err)
	}
	round, err := dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	wagers := func(card string) []*pb.Wager {
		return []*pb.Wager{
			{Kind: pb.BetKind_BET_KIND_FIVE_LINE, Numbers: []string{"0", "00", "1", "2", "3"}, Amount: 500, PlayerCard: card},
			{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"00", "2"}, Amount: 200, PlayerCard: card},
			{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"00", "3"}, Amount: 300, PlayerCard: card},
		}
	}
	_, err = term.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round.RoundId, Version: 1, Wagers: wagers("")})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "card") {
		t.Fatalf("a slip without a player card: %v, want FailedPrecondition naming the card", err)
	}
	ack, err := term.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round.RoundId, Version: 2, Wagers: wagers("60420042")})
	if err != nil || ack.Slip.Total != 1000 {
		t.Fatalf("five-line, 00-2 and 00-3 with the card: %v %v, want all 10.00 accepted", ack, err)
	}
}

// A rules profile and a layout that contradict each other are refused at start, before anything
// is opened, with one line naming both and the layouts the rules play; so is a card waived under
// rules that require one.
func TestRulesAndLayoutThatContradictAreRefusedAtStart(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-rules", "star", "-profile", "crown-rapid"}, `-rules star -wheel double-zero -profile crown-rapid: rules profile "star" (003 §3.2) plays the layout star, not crown-rapid`},
		{[]string{"-rules", "crown", "-wheel", "double-zero", "-profile", "star"}, `rules profile "crown" (001 §10.4.3, 000 §8.4.3) plays the layout crown-rapid, crown-fh or crown-vw, not star`},
		{[]string{"-rules", "vic-1999", "-wheel", "double-zero"}, `rules profile "vic-1999" (004 §2.3) plays the single-zero wheel, not double-zero`},
		{[]string{"-rules", "star", "-player-card-required=false"}, `-player-card-required=false: rules profile "star" requires a player card`},
		{[]string{"-rules", "stars"}, `-rules: rules profile "stars": want crown, vic-1999, star or touchtable`},
		{[]string{"-profile", "crown-xy"}, `-profile: unknown profile "crown-xy" (crown-rapid, star, crown-fh, crown-vw)`},
	} {
		var stderr bytes.Buffer
		dir := t.TempDir()
		args := append(c.args, "-listen", "127.0.0.1:0", "-pki", dir, "-db", filepath.Join(dir, "table.db"))
		if code := serve(context.Background(), args, &stderr, func(string) { t.Errorf("%v: the table served", c.args) }); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", c.args, code, stderr.String())
		}
		if strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, stderr.String(), c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "table.db")); err == nil {
			t.Errorf("%v: a ledger was made", c.args)
		}
	}
	// The layouts that agree are taken: Crown Roulette's F/H and V/W under crown and touchtable,
	// The Star's single-zero wheel; the rules' defaults when nothing is named.
	for _, c := range []struct{ rules, wheel, profile, wantWheel, wantProfile string }{
		{"crown", "double-zero", "crown-fh", "double-zero", "crown-fh"},
		{"touchtable", "double-zero", "crown-vw", "double-zero", "crown-vw"},
		{"star", "single-zero", "", "single-zero", "star"},
		{"star", "", "", "double-zero", "star"},
		{"crown", "", "", "single-zero", "crown-rapid"},
	} {
		w, p, err := layout(c.rules, c.wheel, c.profile, false)
		if err != nil || w.String() != c.wantWheel || p.String() != c.wantProfile {
			t.Errorf("-rules %s -wheel %q -profile %q: %v/%v, %v; want %s/%s", c.rules, c.wheel, c.profile, w, p, err, c.wantWheel, c.wantProfile)
		}
	}
}
