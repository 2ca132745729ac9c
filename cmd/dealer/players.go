package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// playerLimitsUsage is the player-limits command's syntax.
const playerLimitsUsage = "player-limits seat|card ID clear | MIN MAX UNIT [AGGREGATE_MIN] [BET=MIN:MAX:UNIT …] (cents)"

// playerLimits is the player-limits command: a player's own limits (000 §4.3, 003 §4.6), for a
// seat (its terminal id) or a player card, or "clear" to put the player back on the table's
// limit sign. The table checks them (and refuses a dealer certificate the role table does not
// allow) and records who set them.
//
//	dealer player-limits seat T01 500 100000 500
//	dealer player-limits card PC-0042 1000 250000 500 2000 straight=1000:10000:500
//	dealer player-limits seat T01 clear
func playerLimits(ctx context.Context, d pb.DealerServiceClient, rest []string) (*pb.TableStatus, error) {
	req, err := parsePlayerLimits(rest)
	if err != nil {
		return nil, err
	}
	return d.SetPlayerLimits(ctx, req)
}

// parsePlayerLimits reads the command's arguments into the request; the table checks the limits.
func parsePlayerLimits(rest []string) (*pb.SetPlayerLimitsRequest, error) {
	if len(rest) < 3 {
		return nil, fmt.Errorf("usage: %s", playerLimitsUsage)
	}
	req := &pb.SetPlayerLimitsRequest{}
	switch rest[0] {
	case "seat":
		req.TerminalId = rest[1]
	case "card":
		req.PlayerCard = rest[1]
	default:
		return nil, fmt.Errorf("player-limits: %q: say seat or card; usage: %s", rest[0], playerLimitsUsage)
	}
	args := rest[2:]
	if args[0] == "clear" {
		if len(args) > 1 {
			return nil, fmt.Errorf("player-limits: clear takes nothing after it")
		}
		req.Clear = true
		return req, nil
	}
	var v []int64
	lim := &pb.Limits{}
	for _, a := range args {
		if name, spec, ok := strings.Cut(a, "="); ok {
			parts := strings.Split(spec, ":")
			if len(parts) != 3 {
				return nil, fmt.Errorf("player-limits: %q: a bet's limit is BET=MIN:MAX:UNIT", a)
			}
			var l [3]int64
			for i, p := range parts {
				n, err := strconv.ParseInt(p, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("player-limits: %q: %v", a, err)
				}
				l[i] = n
			}
			if lim.PerBet == nil {
				lim.PerBet = map[string]*pb.Limit{}
			}
			lim.PerBet[name] = &pb.Limit{Min: l[0], Max: l[1], Unit: l[2]}
			continue
		}
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("player-limits: %q is not an amount in cents", a)
		}
		v = append(v, n)
	}
	if len(v) < 3 || len(v) > 4 {
		return nil, fmt.Errorf("usage: %s", playerLimitsUsage)
	}
	lim.Default = &pb.Limit{Min: v[0], Max: v[1], Unit: v[2]}
	if len(v) == 4 {
		lim.AggregateMin = v[3]
	}
	req.Limits = lim
	return req, nil
}
