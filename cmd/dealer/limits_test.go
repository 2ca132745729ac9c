package main

import (
	"context"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/testwait"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// Every `limits` example in the guides (docs/guides: the dealer console's table and its commands,
// the walkthrough's list) parses as written: a reader pastes them.
func TestTheGuidesLimitsExamplesParse(t *testing.T) {
	examples := guideLimitsExamples(t, "../../docs/guides/dealer-console.md", "../../docs/guides/running-a-table.md")
	if len(examples) < 3 {
		t.Fatalf("found only %d limits examples in the guides: %q", len(examples), examples)
	}
	for _, ex := range examples {
		if _, err := parseLimits(strings.Fields(ex)); err != nil {
			t.Errorf("guide example %q: %v", ex, err)
		}
	}
}

// guideLimitsExamples returns the arguments of each `limits` command written in files: what
// follows "limits " up to the end of the command (a comment, a code span's end, or the "|" between
// commands), where the first argument is a number (not the syntax line's MIN).
func guideLimitsExamples(t *testing.T, files ...string) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			for rest := line; ; {
				i := strings.Index(rest, "limits ")
				if i < 0 {
					break
				}
				rest = rest[i+len("limits "):]
				args := rest
				if j := strings.IndexAny(args, "#`|"); j >= 0 {
					args = args[:j]
				}
				if f := strings.Fields(args); len(f) > 0 && f[0][0] >= '0' && f[0][0] <= '9' {
					out = append(out, strings.Join(f, " "))
				}
			}
		}
	}
	return out
}

// The limits command's parser: every limit on the sign (001 §4.1–4.2, 003 §2.5.4), the
// aggregate minimum (004 §4.3(c)) and the warning time (000 §10.6.2); bad input a clear error.
func TestParseLimits(t *testing.T) {
	ok := []struct {
		args []string
		want *pb.SetLimitsRequest
	}{
		{[]string{"100", "50000", "100"}, &pb.SetLimitsRequest{Limits: &pb.Limits{Default: &pb.Limit{Min: 100, Max: 50000, Unit: 100}}}},
		{[]string{"100", "50000", "100", "500"}, &pb.SetLimitsRequest{Limits: &pb.Limits{Default: &pb.Limit{Min: 100, Max: 50000, Unit: 100}, AggregateMin: 500}}},
		{[]string{"100", "0", "0", "straight=100:2500:100", "red=500:100000:500", "lucky-ball=100:1000:100",
			"table-max=200000", "aggregate-min=1000", "warning=7s"},
			&pb.SetLimitsRequest{WarningMs: 7000, Limits: &pb.Limits{Default: &pb.Limit{Min: 100}, TableMax: 200000, AggregateMin: 1000,
				PerBet: map[string]*pb.Limit{"straight": {Min: 100, Max: 2500, Unit: 100}, "red": {Min: 500, Max: 100000, Unit: 500},
					"lucky-ball": {Min: 100, Max: 1000, Unit: 100}}}}},
	}
	for _, c := range ok {
		got, err := parseLimits(c.args)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if !proto.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.args, got, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{nil, "got 0 numbers"},
		{[]string{"100", "500"}, "got 2 numbers"},
		{[]string{"100", "500", "100", "500", "9"}, "got 5 numbers"},
		{[]string{"1.50", "500", "100"}, "not a whole number of cents"},
		{[]string{"-1", "500", "100"}, "must not be negative"},
		{[]string{"100", "50", "100"}, "below the minimum"},
		{[]string{"100", "500", "100", "sideways=1:2:1"}, `unknown bet "sideways"`},
		{[]string{"100", "500", "100", "straight=100:2500"}, "MIN:MAX:UNIT"},
		{[]string{"100", "500", "100", "straight=100:50:1"}, "straight: maximum 50 is below the minimum 100"},
		{[]string{"100", "500", "100", "straight=1:2:1", "straight=1:2:1"}, "straight given twice"},
		{[]string{"100", "500", "100", "500", "aggregate-min=5"}, "given twice"},
		{[]string{"100", "500", "100", "warning=soon"}, "a positive duration"},
		{[]string{"100", "500", "100", "warning=-5s"}, "a positive duration"},
		{[]string{"100", "500", "100", "table-max=x"}, "table-max"},
		{[]string{"100", "straight=1:2:1", "500", "100"}, "come before"},
		{[]string{"100", "500", "100", "99999999999999999999"}, "too large"},
	} {
		_, err := parseLimits(c.args)
		if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "usage: limits") {
			t.Errorf("%v: %v, want %q and the usage", c.args, err, c.err)
		}
	}
}

// FuzzParseLimits: any argument list is parsed or refused with an error, never a panic; what is
// accepted is limits the server accepts, and writes back to arguments that parse the same.
func FuzzParseLimits(f *testing.F) {
	f.Add("100 50000 100 500")
	f.Add("100 0 0 straight=100:2500:100 red=500:100000:500 table-max=200000 warning=7s")
	f.Add("100 500 100 lucky-ball=1:1:0 aggregate-min=1")
	f.Add("1 1 1 straight=9223372036854775807:0:0")
	f.Add("100 500 100 warning=1ns")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		req, err := parseLimits(args)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "limits: ") {
				t.Fatalf("%q: an error without the command's name: %v", line, err)
			}
			return
		}
		if _, err := wire.LimitsOf(req.Limits); err != nil {
			t.Fatalf("%q: accepted limits the server refuses: %v", line, err)
		}
		if req.WarningMs < 0 {
			t.Fatalf("%q: warning %d", line, req.WarningMs)
		}
		again, err := parseLimits(limitsArgs(req))
		if err != nil || !proto.Equal(again, req) {
			t.Fatalf("%q: written back as %v, parsed %v %v", line, limitsArgs(req), again, err)
		}
	})
}

// 001 §4.1–4.2, 003 §2.5.4, 000 §10.6.2: the dealer's console sets every limit — per bet kind,
// table maximum, aggregate minimum — and the warning time; the table validates and audits them
// and the terminal (the kiosk's client and app.Terminal over mutual TLS) shows them. Before, the
// per-bet limits, the table maximum and the warning were dropped without a word.
func TestRule001_4_1_DealerConsoleSetsEveryLimit(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	conn := lt.conn(pki.RoleDealer, "D4")
	d := pb.NewDealerServiceClient(conn)
	ctx := context.Background()

	termTLS, _ := lt.PKI.ClientTLS(pki.RoleTerminal, "T01")
	cli, err := client.Dial(client.Config{Addr: lt.Addr, TLS: termTLS, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	term := app.New(app.Config{Link: cli, Log: slog.New(slog.DiscardHandler)})
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go term.Run(tctx)
	defer term.Close()
	if !testwait.For(10*time.Second, func() bool { return term.View().Connected && term.View().Config.Layout.Wheel != 0 }) {
		t.Fatal("the terminal never had the table's snapshot")
	}

	// Lower or equal minimums only, so everything is in force at once (a higher minimum waits
	// 20 minutes: 001 §4.1 fn).
	if _, err := command(ctx, d, []string{"limits", "100", "50000", "100", "straight=100:1000:100", "red=100:20000:500",
		"table-max=100000", "aggregate-min=200", "warning=8s"}); err != nil {
		t.Fatal(err)
	}
	want := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100}, TableMax: 100000, AggregateMin: 200,
		PerKind: map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 1000, Unit: 100}, roulette.Red: {Min: 100, Max: 20000, Unit: 500}}}
	if !testwait.For(10*time.Second, func() bool {
		v := term.View()
		return reflect.DeepEqual(v.Limits, want) && v.Config.Warning == 8*time.Second
	}) {
		v := term.View()
		t.Fatalf("the terminal shows limits %+v, warning %v; want %+v, 8s", v.Limits, v.Config.Warning, want)
	}
	// The terminal applies them at the touch: 15.00 straight is clamped to the 10.00 maximum.
	st, err := d.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := wire.LimitsOf(st.Limits); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the table's limits: %+v %v", got, err)
	}
	if st.Config.WarningMs != 8000 {
		t.Fatalf("the table's warning: %d ms", st.Config.WarningMs)
	}
	// Audited, with who did it.
	log, err := d.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	audited := false
	for _, e := range log.Entries {
		if e.Kind == "limits" && strings.Contains(e.Actor, "D4") && strings.Contains(e.Detail, "straight min 1.00 max 10.00 unit 1.00") &&
			strings.Contains(e.Detail, "warning 8s") {
			audited = true
		}
	}
	if !audited {
		t.Fatalf("no audit entry of the limits by D4: %v", log.Entries)
	}
	// The server refuses what the console would: a warning as long as the period, bad limits.
	if _, err := d.SetLimits(ctx, &pb.SetLimitsRequest{Limits: st.Limits, WarningMs: 30000}); err == nil || !strings.Contains(err.Error(), "shorter than the wagering period") {
		t.Fatalf("a warning as long as the period: %v", err)
	}
	if _, err := d.SetLimits(ctx, &pb.SetLimitsRequest{Limits: &pb.Limits{Default: &pb.Limit{Min: 100, Max: 50, Unit: 1}}}); err == nil {
		t.Fatal("a maximum below the minimum accepted")
	}
	if _, err := command(ctx, d, []string{"limits", "100", "50000", "100", "straight=100:50:100"}); err == nil {
		t.Fatal("the console sent a maximum below the minimum")
	}
}

// 001 §9.4 at the console: `correct N ROUND` corrects an earlier round, and the reply shows it
// (the round corrected in the history); the current round is `correct N`.
func TestRule001_9_4_ConsoleCorrectsAnEarlierRound(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	conn := lt.conn(pki.RoleSupervisor, "S2")
	d := pb.NewDealerServiceClient(conn)
	ctx := context.Background()
	var rounds []string
	for _, args := range [][]string{{"open"}, {"start"}, {"drop"}, {"outcome", "1"}, {"start"}, {"drop"}, {"outcome", "7"}} {
		reply, err := command(ctx, d, args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if args[0] == "start" {
			rounds = append(rounds, reply.(*pb.TableStatus).RoundId)
		}
	}
	reply, err := command(ctx, d, []string{"correct", "2", rounds[0]})
	if err != nil {
		t.Fatal(err)
	}
	var h0, h1 *pb.Outcome
	for _, h := range reply.(*pb.TableStatus).History {
		switch h.RoundId {
		case rounds[0]:
			h0 = h
		case rounds[1]:
			h1 = h
		}
	}
	if h0 == nil || !h0.Corrected || h0.Number != "2" || h1 == nil || h1.Corrected || h1.Number != "7" {
		t.Fatalf("the console shows %v and %v", h0, h1)
	}
	// The current round by default.
	if reply, err = command(ctx, d, []string{"correct", "8"}); err != nil {
		t.Fatal(err)
	}
	if h := reply.(*pb.TableStatus).History[0]; h.RoundId != rounds[1] || !h.Corrected || h.Number != "8" {
		t.Fatalf("the current round's correction shows %v", h)
	}
	if _, err := command(ctx, d, []string{"correct", "9", "R999999"}); err == nil || !strings.Contains(err.Error(), "no round R999999") {
		t.Fatalf("an unknown round: %v", err)
	}
}
