package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"

	"github.com/tablegames/ats/app/roulette"
)

// limitsUsage is the limits command's syntax, as its errors repeat it. Amounts are cents.
const limitsUsage = "limits MIN MAX UNIT [AGGREGATE_MIN] [BET=MIN:MAX:UNIT ...] [table-max=CENTS] [aggregate-min=CENTS] [warning=DURATION]"

// parseLimits reads the limits command's arguments: the default limit of an individual wager
// (MIN MAX UNIT, cents; MAX 0 for no maximum, UNIT 0 for one-cent steps), the aggregate
// minimum (004 §4.3(c), 001 §4.3.3) positionally or as aggregate-min=, each bet kind's own
// limit as BET=MIN:MAX:UNIT with the bet named as in atsctl ("straight" … "lucky-ball"), the
// table maximum, and the warning time before the end of the wagering period (000 §10.6.2).
// Everything the limit sign shows (001 §4.1–4.2, 003 §2.5.4) is set in one command, and
// nothing is dropped: an argument it does not understand is an error, never ignored. The
// limits are validated as the server will (wire.LimitsOf) before anything is sent.
func parseLimits(args []string) (*pb.SetLimitsRequest, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("limits: "+format+" (usage: "+limitsUsage+")", a...)
	}
	var pos []int64
	l := &pb.Limits{}
	req := &pb.SetLimitsRequest{Limits: l}
	seen := map[string]bool{}
	for _, a := range args {
		key, val, isOption := strings.Cut(a, "=")
		if !isOption {
			if len(seen) > 0 {
				return nil, fail("%q: MIN MAX UNIT [AGGREGATE_MIN] come before the BET=… options", a)
			}
			n, err := cents(a)
			if err != nil {
				return nil, fail("%v", err)
			}
			pos = append(pos, n)
			continue
		}
		if seen[key] {
			return nil, fail("%s given twice", key)
		}
		seen[key] = true
		switch key {
		case "table-max":
			n, err := cents(val)
			if err != nil {
				return nil, fail("table-max: %v", err)
			}
			l.TableMax = n
		case "aggregate-min":
			n, err := cents(val)
			if err != nil {
				return nil, fail("aggregate-min: %v", err)
			}
			l.AggregateMin = n
		case "warning":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return nil, fail("warning %q: a positive duration such as 5s", val)
			}
			if d%time.Millisecond != 0 {
				return nil, fail("warning %q: whole milliseconds", val)
			}
			req.WarningMs = d.Milliseconds()
		default:
			if _, err := roulette.ParseKind(key); err != nil {
				return nil, fail("%q: %v; a bet is one of %s", a, err, betNames())
			}
			lim, err := limitOf(val)
			if err != nil {
				return nil, fail("%s: %v", key, err)
			}
			if l.PerBet == nil {
				l.PerBet = map[string]*pb.Limit{}
			}
			l.PerBet[key] = lim
		}
	}
	switch len(pos) {
	case 3, 4:
	default:
		return nil, fail("want MIN MAX UNIT and an optional AGGREGATE_MIN, got %d numbers", len(pos))
	}
	l.Default = &pb.Limit{Min: pos[0], Max: pos[1], Unit: pos[2]}
	if len(pos) == 4 {
		if seen["aggregate-min"] {
			return nil, fail("the aggregate minimum given twice (AGGREGATE_MIN and aggregate-min=)")
		}
		l.AggregateMin = pos[3]
	}
	if _, err := wire.LimitsOf(l); err != nil {
		return nil, fail("%v", err)
	}
	return req, nil
}

// limitOf reads MIN:MAX:UNIT.
func limitOf(s string) (*pb.Limit, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: want MIN:MAX:UNIT in cents", s)
	}
	var v [3]int64
	for i, p := range parts {
		n, err := cents(p)
		if err != nil {
			return nil, err
		}
		v[i] = n
	}
	return &pb.Limit{Min: v[0], Max: v[1], Unit: v[2]}, nil
}

// cents reads a non-negative amount in cents.
func cents(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q: too large", s)
		}
		return 0, fmt.Errorf("%q is not a whole number of cents", s)
	}
	if n < 0 {
		return 0, fmt.Errorf("%q: must not be negative", s)
	}
	if n > roulette.MaxStake {
		return 0, fmt.Errorf("%q: above the largest stake %d", s, roulette.MaxStake)
	}
	return n, nil
}

// betNames lists the bet kinds a per-bet limit may name.
func betNames() string {
	var names []string
	for k := roulette.Straight; int(k) < roulette.NumKinds; k++ {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

// limitsArgs writes a request back as the command's arguments (the fuzz target's round trip).
func limitsArgs(req *pb.SetLimitsRequest) []string {
	l := req.GetLimits()
	d := l.GetDefault()
	out := []string{strconv.FormatInt(d.GetMin(), 10), strconv.FormatInt(d.GetMax(), 10), strconv.FormatInt(d.GetUnit(), 10)}
	for k := roulette.Straight; int(k) < roulette.NumKinds; k++ {
		if x, ok := l.GetPerBet()[k.String()]; ok {
			out = append(out, fmt.Sprintf("%s=%d:%d:%d", k, x.Min, x.Max, x.Unit))
		}
	}
	if l.GetTableMax() != 0 {
		out = append(out, fmt.Sprintf("table-max=%d", l.TableMax))
	}
	if l.GetAggregateMin() != 0 {
		out = append(out, fmt.Sprintf("aggregate-min=%d", l.AggregateMin))
	}
	if req.GetWarningMs() != 0 {
		out = append(out, fmt.Sprintf("warning=%dms", req.WarningMs))
	}
	return out
}
