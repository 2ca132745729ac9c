package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tablegames/ats/app/roulette"
)

func init() {
	register("settle", command{
		summary: "settle a slip read as JSON on stdin with the rules engine (the audit contract)",
		run:     runSettle,
	})
}

// The settle contract: one JSON object in, one out. Field names are fixed; unknown fields are
// refused so a misspelt limit is an error rather than silently no limit.
type settleInput struct {
	Wheel     string          `json:"wheel"`
	Profile   string          `json:"profile"`
	Outcome   string          `json:"outcome"`
	Limits    *limitsInput    `json:"limits"`
	Balance   *int64          `json:"balance"`
	LuckyBall *luckyBallInput `json:"lucky_ball"`
	// AsianGroups are the groups of the table's Asian racetrack (002 §3.2), each its three
	// numbers; absent, the default twelve groups of three wheel-neighbours
	// (roulette.DefaultAsianGroups); [] is a table without one.
	AsianGroups *[][]string       `json:"asian_groups"`
	Wagers      []json.RawMessage `json:"wagers"`
}

type limitInput struct {
	Min  int64 `json:"min"`
	Max  int64 `json:"max"`
	Unit int64 `json:"unit"`
}

type limitsInput struct {
	limitInput
	AggregateMin int64 `json:"aggregate_min"`
	// TableMax is the most a slip may have on the layout (0 or absent: none), as the table
	// server applies it: a wager is reduced to the room left under it (above-table-maximum).
	TableMax int64                 `json:"table_max"`
	PerBet   map[string]limitInput `json:"per_bet"`
}

type luckyBallInput struct {
	Version string            `json:"version"`
	Numbers map[string]string `json:"numbers"`
	Super   string            `json:"super"`
	Mega    string            `json:"mega"`
	// Void: the display showing the numbers malfunctioned (003 §8.11): every Lucky Ball wager
	// is void and returned whole (result "void"); the main game settles as usual.
	Void bool `json:"void"`
}

type wagerInput struct {
	Bet     string   `json:"bet"`
	Numbers []string `json:"numbers"`
	Which   *int     `json:"which"`
	Spread  *int     `json:"spread"`
	Colour  string   `json:"colour"`
	Amount  *int64   `json:"amount"`
}

type wagerOutput struct {
	Index    int    `json:"index"`
	Accepted int64  `json:"accepted"`
	Reason   string `json:"reason"`
	Result   string `json:"result"`
	Returned int64  `json:"returned"`
}

type settleOutput struct {
	Recognised    bool          `json:"recognised"`
	Wagers        []wagerOutput `json:"wagers"`
	TotalAccepted int64         `json:"total_accepted"`
	TotalReturned int64         `json:"total_returned"`
}

// slipWager is a decoded wager: its pieces (one for an ordinary bet) and the attempted amount.
type slipWager struct {
	pieces []roulette.Piece // Units 1 for an ordinary bet
	call   bool
	amount int64 // per piece for a call bet
}

func runSettle(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "atsctl settle: takes no arguments; reads the slip as JSON on stdin")
		return 2
	}
	out, err := settle(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "atsctl settle: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		return 2
	}
	enc := json.NewEncoder(stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "atsctl settle: %v\n", err)
		return 1
	}
	return 0
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

func settle(r io.Reader) (*settleOutput, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	var in settleInput
	if err := decodeStrict(data, &in); err != nil {
		return nil, fmt.Errorf("invalid input: %w", err)
	}
	if in.Wagers == nil {
		return nil, errors.New(`invalid input: "wagers" is required`)
	}
	wheel, err := roulette.ParseWheel(in.Wheel)
	if err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}
	profile, err := roulette.ParseProfile(in.Profile)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	layout := roulette.Layout{Wheel: wheel, Profile: profile, Asian: roulette.DefaultAsianGroups(wheel)}
	if in.AsianGroups != nil {
		if layout.Asian, err = roulette.ParseAsianGroups(wheel, *in.AsianGroups); err != nil {
			return nil, fmt.Errorf("asian_groups: %w", err)
		}
	}
	outcome, err := roulette.ParseNumber(in.Outcome)
	if err != nil {
		return nil, fmt.Errorf("outcome: %w", err)
	}
	if !wheel.Has(outcome) {
		return nil, fmt.Errorf("outcome: %v is not on a %v wheel", outcome, wheel)
	}
	limits, err := toLimits(in.Limits)
	if err != nil {
		return nil, err
	}
	available := roulette.Unlimited
	if in.Balance != nil {
		if *in.Balance < 0 {
			return nil, fmt.Errorf("balance %d: must not be negative", *in.Balance)
		}
		available = *in.Balance
	}
	var draw *roulette.LuckyBallDraw
	if in.LuckyBall != nil {
		d, err := toDraw(in.LuckyBall, wheel)
		if err != nil {
			return nil, err
		}
		draw = &d
	}

	wagers := make([]slipWager, len(in.Wagers))
	for i, raw := range in.Wagers {
		w, err := toWager(raw, layout, draw != nil)
		if err != nil {
			return nil, fmt.Errorf("wager %d: %w", i, err)
		}
		wagers[i] = w
	}

	// The slip is priced as the table prices it, spot by spot in its order (SPEC §3.7): each
	// wager's accepted amount is what it added to the layout.
	slip := make([]roulette.Placement, len(wagers))
	for i, w := range wagers {
		slip[i] = roulette.Placement{Pieces: w.pieces, Call: w.call, Amount: w.amount}
	}
	prices, total := limits.PriceSlip(slip, available)
	out := &settleOutput{Wagers: make([]wagerOutput, len(wagers)), TotalAccepted: total}
	accepted := make([]int64, len(wagers)) // per piece for call bets
	for i, p := range prices {
		accepted[i] = p.PerPiece
		out.Wagers[i] = wagerOutput{Index: i, Accepted: p.Total, Reason: p.Why.String()}
	}

	out.Recognised = limits.Recognised(out.TotalAccepted)
	round := roulette.Round{Outcome: outcome, Draw: draw}
	for i, w := range wagers {
		o := &out.Wagers[i]
		if !out.Recognised {
			o.Result, o.Returned = "not-recognised", o.Accepted
			out.TotalReturned += o.Returned
			continue
		}
		if draw != nil && draw.Void && len(w.pieces) > 0 && w.pieces[0].Spot.Kind == roulette.LuckyBall {
			o.Result, o.Returned = "void", o.Accepted
			out.TotalReturned += o.Returned
			continue
		}
		o.Result = "lost"
		for _, p := range w.pieces {
			ret := round.Returned(roulette.Wager{Spot: p.Spot, Amount: p.Units * accepted[i]})
			if ret > 0 {
				o.Result = "won"
			}
			o.Returned += ret
		}
		out.TotalReturned += o.Returned
	}
	return out, nil
}

func toLimits(in *limitsInput) (roulette.Limits, error) {
	if in == nil {
		return roulette.Limits{}, nil
	}
	l := roulette.Limits{
		Default:      roulette.Limit{Min: in.Min, Max: in.Max, Unit: in.Unit},
		AggregateMin: in.AggregateMin,
		TableMax:     in.TableMax,
	}
	for name, pl := range in.PerBet {
		k, err := roulette.ParseKind(name)
		if err != nil {
			return l, fmt.Errorf("limits: per_bet: %w", err)
		}
		if l.PerKind == nil {
			l.PerKind = map[roulette.Kind]roulette.Limit{}
		}
		l.PerKind[k] = roulette.Limit{Min: pl.Min, Max: pl.Max, Unit: pl.Unit}
	}
	if err := l.Validate(); err != nil {
		return l, err
	}
	return l, nil
}

func toDraw(in *luckyBallInput, wheel roulette.Wheel) (roulette.LuckyBallDraw, error) {
	var d roulette.LuckyBallDraw
	v, err := roulette.ParseLuckyBallVersion(in.Version)
	if err != nil {
		return d, fmt.Errorf("lucky_ball: %w", err)
	}
	d.Version = v
	if len(in.Numbers) != 4 {
		return d, fmt.Errorf("lucky_ball: numbers must name red, green, blue and yellow (got %d)", len(in.Numbers))
	}
	for name, s := range in.Numbers {
		c, err := roulette.ParseBallColour(name)
		if err != nil {
			return d, fmt.Errorf("lucky_ball: numbers: %w", err)
		}
		n, err := roulette.ParseNumber(s)
		if err != nil {
			return d, fmt.Errorf("lucky_ball: %s: %w", name, err)
		}
		d.Numbers[c] = n
	}
	if in.Super != "" {
		c, err := roulette.ParseBallColour(in.Super)
		if err != nil {
			return d, fmt.Errorf("lucky_ball: super: %w", err)
		}
		d.Super, d.HasSuper = c, true
	}
	if in.Mega != "" {
		c, err := roulette.ParseBallColour(in.Mega)
		if err != nil {
			return d, fmt.Errorf("lucky_ball: mega: %w", err)
		}
		d.Mega, d.HasMega = c, true
	}
	if err := d.Validate(wheel); err != nil {
		return d, err
	}
	d.Void = in.Void
	return d, nil
}

func toWager(raw json.RawMessage, layout roulette.Layout, hasDraw bool) (slipWager, error) {
	var in wagerInput
	if err := decodeStrict(raw, &in); err != nil {
		return slipWager{}, err
	}
	if in.Amount == nil {
		return slipWager{}, errors.New(`"amount" is required`)
	}
	amount := *in.Amount
	if amount <= 0 {
		return slipWager{}, fmt.Errorf("amount %d: must be positive", amount)
	}
	bet, err := roulette.ParseBet(layout, roulette.BetSpec{
		Name: in.Bet, Numbers: in.Numbers, Which: in.Which, Spread: in.Spread, Colour: in.Colour,
	})
	if err != nil {
		return slipWager{}, err
	}
	if bet.Spot.Kind == roulette.LuckyBall && !hasDraw {
		return slipWager{}, errors.New(`lucky-ball wager, but the input has no "lucky_ball" draw`)
	}
	pieces, err := bet.Pieces(layout)
	if err != nil {
		return slipWager{}, err
	}
	if amount > roulette.MaxStake/roulette.Units(pieces) {
		return slipWager{}, fmt.Errorf("amount %d: above the largest stake %d", amount, roulette.MaxStake)
	}
	return slipWager{pieces: pieces, call: bet.IsCall(), amount: amount}, nil
}
