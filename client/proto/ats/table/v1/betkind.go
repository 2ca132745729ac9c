package tablev1

// Bet names as the rules engine and the audit JSON write them ("straight" … "neighbours"), so
// both ends of the wire map BetKind the same way. Hand-written: buf generates the other files.
var betNames = map[BetKind]string{
	BetKind_BET_KIND_STRAIGHT: "straight", BetKind_BET_KIND_SPLIT: "split", BetKind_BET_KIND_STREET: "street",
	BetKind_BET_KIND_CORNER: "corner", BetKind_BET_KIND_FIVE_LINE: "five-line", BetKind_BET_KIND_SIX_LINE: "six-line",
	BetKind_BET_KIND_COLUMN: "column", BetKind_BET_KIND_DOZEN: "dozen", BetKind_BET_KIND_LOW: "low",
	BetKind_BET_KIND_HIGH: "high", BetKind_BET_KIND_EVEN: "even", BetKind_BET_KIND_ODD: "odd",
	BetKind_BET_KIND_RED: "red", BetKind_BET_KIND_BLACK: "black", BetKind_BET_KIND_LUCKY_BALL: "lucky-ball",
	BetKind_BET_KIND_TIER: "tier", BetKind_BET_KIND_ORPHELINS: "orphelins", BetKind_BET_KIND_VOISINS: "voisins",
	BetKind_BET_KIND_ZERO_GAME: "zero-game", BetKind_BET_KIND_NEIGHBOURS: "neighbours",
}

var betKinds = func() map[string]BetKind {
	m := make(map[string]BetKind, len(betNames))
	for k, n := range betNames {
		m[n] = k
	}
	return m
}()

// BetName returns the rules engine's name of a bet kind, and false for an unknown kind.
func BetName(k BetKind) (string, bool) {
	n, ok := betNames[k]
	return n, ok
}

// BetKindOf returns the bet kind of a rules engine name, and false for an unknown name.
func BetKindOf(name string) (BetKind, bool) {
	k, ok := betKinds[name]
	return k, ok
}
