package server

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// A rules profile and a layout that contradict each other are refused at start, with an error
// naming the rules, where their layouts are set, and the layouts they play: The Star's rules on
// Crown Rapid's felt (the audit's finding: five-line and 00-2/00-3 refused on a Star table),
// Crown's on The Star's, Victoria's 1999 rules (single zero only, 004 §2.3) on a double zero.
func TestRule003_3_2_ContradictoryRulesAndLayoutRefusedAtStart(t *testing.T) {
	for _, c := range []struct {
		rules   string
		wheel   roulette.Wheel
		layout  roulette.Profile
		wantErr string
	}{
		{table.ProfileStar, roulette.DoubleZero, roulette.CrownRapid, `server: rules profile "star" (003 §3.2) plays the layout star, not crown-rapid`},
		{table.ProfileCrown, roulette.DoubleZero, roulette.Star, `server: rules profile "crown" (001 §10.4.3, 000 §8.4.3) plays the layout crown-rapid, crown-fh or crown-vw, not star`},
		{table.ProfileTouchTable, roulette.DoubleZero, roulette.Star, `plays the layout crown-rapid, crown-fh or crown-vw, not star`},
		{table.ProfileVic1999, roulette.DoubleZero, roulette.CrownRapid, `server: rules profile "vic-1999" (004 §2.3) plays the single-zero wheel, not double-zero`},
	} {
		led, err := ledger.Open(t.TempDir() + "/t.db")
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		cfg.RulesProfile, cfg.Wheel, cfg.LayoutProfile = c.rules, c.wheel, c.layout
		if _, err := NewTable(context.Background(), cfg, led, nil, nil); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s on %v/%v: %v, want %q", c.rules, c.wheel, c.layout, err, c.wantErr)
		}
		led.Close()
	}
}

// The Star's table (003 §3.2, §3.4, §9.1): its rules bring the player card without a separate
// setting, and its double-zero layout takes the five-line and the splits 00-2 and 00-3 over
// gRPC; a slip without a card is refused.
func TestRule003_3_4_StarRulesRequireTheCardAndTakeTheirZeroBets(t *testing.T) {
	r := newRigWith(t, func(c *Config) {
		c.RulesProfile, c.Wheel, c.LayoutProfile, c.PlayerCardRequired = table.ProfileStar, roulette.DoubleZero, roulette.Star, false
	})
	c, round := openRound(t, r, "T1", 10000)
	status, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !status.Config.PlayerCardRequired || status.Config.LayoutProfile != "star" || status.Config.Wheel != pb.Wheel_WHEEL_DOUBLE_ZERO {
		t.Fatalf("a Star table's config: card %v, layout %v %q", status.Config.PlayerCardRequired, status.Config.Wheel, status.Config.LayoutProfile)
	}
	wagers := func(card string) []*pb.Wager {
		return []*pb.Wager{
			{Kind: pb.BetKind_BET_KIND_FIVE_LINE, Numbers: []string{"0", "00", "1", "2", "3"}, Amount: 500, PlayerCard: card},
			{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"00", "2"}, Amount: 200, PlayerCard: card},
			{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"00", "3"}, Amount: 300, PlayerCard: card},
		}
	}
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: wagers("")}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a slip without a player card: %v, want FailedPrecondition", err)
	}
	ack, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: wagers("60420042")})
	if err != nil || ack.Slip.Total != 1000 {
		t.Fatalf("the Star's zero bets with the card: %v %v, want all 10.00 accepted", ack, err)
	}
}
