package wire

import pb "github.com/tablegames/ats/proto/ats/table/v1"

// Bet names as the rules engine and the audit JSON write them ("straight" … "neighbours"), so
// both ends of the wire map pb.BetKind the same way. Hand-written: buf generates the other files.
var betNames = map[pb.BetKind]string{
	pb.BetKind_BET_KIND_STRAIGHT: "straight", pb.BetKind_BET_KIND_SPLIT: "split", pb.BetKind_BET_KIND_STREET: "street",
	pb.BetKind_BET_KIND_CORNER: "corner", pb.BetKind_BET_KIND_FIVE_LINE: "five-line", pb.BetKind_BET_KIND_SIX_LINE: "six-line",
	pb.BetKind_BET_KIND_COLUMN: "column", pb.BetKind_BET_KIND_DOZEN: "dozen", pb.BetKind_BET_KIND_LOW: "low",
	pb.BetKind_BET_KIND_HIGH: "high", pb.BetKind_BET_KIND_EVEN: "even", pb.BetKind_BET_KIND_ODD: "odd",
	pb.BetKind_BET_KIND_RED: "red", pb.BetKind_BET_KIND_BLACK: "black", pb.BetKind_BET_KIND_LUCKY_BALL: "lucky-ball",
	pb.BetKind_BET_KIND_TIER: "tier", pb.BetKind_BET_KIND_ORPHELINS: "orphelins", pb.BetKind_BET_KIND_VOISINS: "voisins",
	pb.BetKind_BET_KIND_ZERO_GAME: "zero-game", pb.BetKind_BET_KIND_NEIGHBOURS: "neighbours",
	pb.BetKind_BET_KIND_ASIAN_NEIGHBOUR: "asian-neighbour",
}

var betKinds = func() map[string]pb.BetKind {
	m := make(map[string]pb.BetKind, len(betNames))
	for k, n := range betNames {
		m[n] = k
	}
	return m
}()

// BetName returns the rules engine's name of a bet kind, and false for an unknown kind.
func BetName(k pb.BetKind) (string, bool) {
	n, ok := betNames[k]
	return n, ok
}

// BetKindOf returns the bet kind of a rules engine name, and false for an unknown name.
func BetKindOf(name string) (pb.BetKind, bool) {
	k, ok := betKinds[name]
	return k, ok
}
