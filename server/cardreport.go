package server

// The carded play report (issue 31): for a supervisor, over a window, every player card that
// reached a limit, every break enforced and every bar or loss reported at the cage, floor-wide,
// with each card's refusals counted. It is read from what the tables journalled (events of kind
// "precommit", written by server/precommit in the transaction that decided them), so the report
// says nothing the journal does not.

import (
	"context"
	"sort"
	"strings"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// maxCardReportEvents bounds what one report reads of each table's journal.
const maxCardReportEvents = 100_000

// cardEventWhat classifies a precommit journal entry's words ("card C42: …"): the card, what
// the report calls it ("" for none of the report's entries), and whether it was a refusal.
func cardEventWhat(detail string) (card, what string, refusal bool) {
	rest, ok := strings.CutPrefix(detail, "card ")
	if !ok {
		return "", "", false
	}
	card, rest, ok = strings.Cut(rest, ": ")
	if !ok {
		return "", "", false
	}
	refusal = strings.HasPrefix(rest, "refused (")
	switch {
	case strings.Contains(rest, "; loss limit reached: barred until"):
		what = "loss limit reached"
		if strings.Contains(rest, " correction ") || strings.Contains(rest, " invalidated: ") {
			what = "limit reached on a correction"
		}
	case strings.HasPrefix(rest, "refused (time)"):
		what = "time limit reached"
	case strings.HasPrefix(rest, "refused (break)") && strings.Contains(rest, "without a break"):
		what = "break" // the refusal that started it; those during it are refusals only
	case strings.HasPrefix(rest, "refused (day break)"):
		what = "day's break"
	case strings.HasPrefix(rest, "refused (week)"):
		what = "weekly cap"
	case strings.HasPrefix(rest, "barred by "):
		what = "barred at the cage"
	case strings.HasPrefix(rest, "lost by "):
		what = "reported lost"
	}
	return card, what, refusal
}

// CardReport is the carded play report over the request's window.
func (t *Table) CardReport(req *pb.CardReportRequest) (*pb.CardReportResponse, error) {
	from, to, err := reportWindow(req.FromUnixNanos, req.ToUnixNanos)
	if err != nil {
		return nil, err
	}
	if req.CardId != "" {
		if _, err := cardID(req.CardId); err != nil {
			return nil, err
		}
	}
	evs, err := t.led.FloorEvents(context.Background(), "precommit", from, to, maxCardReportEvents)
	if err != nil {
		return nil, ledgerErr(err)
	}
	res := &pb.CardReportResponse{FromUnixNanos: req.FromUnixNanos, ToUnixNanos: req.ToUnixNanos}
	if res.ToUnixNanos == 0 {
		res.ToUnixNanos = t.now().UnixNano()
	}
	cards := map[string]*pb.CardReportCard{}
	for _, e := range evs {
		card, what, refusal := cardEventWhat(e.Detail)
		if card == "" || req.CardId != "" && card != req.CardId || what == "" && !refusal {
			continue
		}
		c := cards[card]
		if c == nil {
			c = &pb.CardReportCard{CardId: card}
			cards[card] = c
		}
		if refusal {
			c.Refusals++
		}
		switch what {
		case "":
			continue
		case "loss limit reached", "time limit reached", "limit reached on a correction":
			c.LimitsReached++
		case "break", "day's break", "weekly cap":
			c.Breaks++
		default:
			c.Bars++
		}
		res.Entries = append(res.Entries, &pb.CardReportEntry{TableId: e.Table, AtUnixNanos: e.At.UnixNano(), CardId: card,
			What: what, Detail: e.Detail, Actor: e.Actor})
	}
	for _, c := range cards {
		res.Cards = append(res.Cards, c)
	}
	sort.Slice(res.Cards, func(i, j int) bool { return res.Cards[i].CardId < res.Cards[j].CardId })
	return res, nil
}

func (s *dealerService) CardReport(_ context.Context, req *pb.CardReportRequest) (*pb.CardReportResponse, error) {
	return s.t.CardReport(req)
}
