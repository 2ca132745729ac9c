// Command dealer is the dealer's console of a table (the rules' SGC) on the command line.
//
//	dealer [-addr 127.0.0.1:7443] [-pki pki] [-id dealer] [-tz ZONE] [-json] COMMAND [ARGS]
//
// Commands: status, open [-auto], close, start, spin, drop, outcome N, confirm [N] (enter the
// number the wheel's two sensors agreed on, status's wheelProposal, as the wheel's reading
// confirmed by the dealer; N, if given, must be that number), nospin, correct N [ROUND]
// (the current round, or an earlier ROUND between rounds: 001 §9.4), luckyball fault|working
// [REASON] (the Lucky Ball display out of order or working again: 003 §8.11),
// invalidate [REASON], credit TERMINAL CENTS, closeaccount TERMINAL [dealer|directed-to-leave],
// handpay VALIDATION [ID_TYPE ID_NUMBER NAME] (the patron's identity: required, with a second
// person's approval, at or over the cage's reporting threshold), limits MIN MAX UNIT [AGGREGATE_MIN] [BET=MIN:MAX:UNIT ...] [table-max=CENTS]
// [aggregate-min=CENTS] [warning=DURATION] (every limit the sign shows, amounts in cents; see
// limits.go), period DURATION, jackpot [ROUND]
// (the pit boss confirms the waiting jackpot hit, or the one of ROUND), log [-since TIME]
// [-until TIME] [-kind KIND] [-terminal TERMINAL] [N] (the last N entries of the table's audit
// log that pass the filters, each with who did it and the terminal with its table),
// overpayments [-all] (the wrong settlements a correction found that an account could not put
// right: open ones, or all), resolve ID recovered|paid|written-off [NOTE],
// holds (tickets held by a terminal), release VALIDATION [REASON] (end a ticket hold),
// alarms [N] (e.g. a terminal throttled for guessing ticket numbers, or cut off for calling
// over its rate; with the floor-wide ones of every table, a cashier's lockout), alarms ack ID
// (the supervisor has seen to an alarm: who and when are recorded and listed).
// cards [-since TIME] [-until TIME] [-card CARD] (carded play's report, a supervisor's: the
// player cards that reached a limit, the breaks enforced, the cards barred or lost, floor-wide).
// tournament configure|open|standings|close|pass|results (tournament play: tournament.go).
// player-limits seat|card ID MIN MAX UNIT [AGGREGATE_MIN] [BET=MIN:MAX:UNIT …] | clear (a
// player's own limits, 000 §4.3, 003 §4.6: the seat shows the personal limit marker).
// closing +DURATION|HH:MM|cancel (the sign of the table's closure, at least 20 minutes ahead:
// 001 §12.7; the pit boss's), seats (each seat's rounds abstained and whether it may be asked to
// vacate: 001 §12.8), vacate TERMINAL (the dealer closes the account of a seat that may be
// vacated, paying its balance at the table), dispute [NOTE] (the Dispute Button: a no spin, the
// supervisor alerted, the light red: 000 §10.9.1), lights (red or green, and why: §10.9.2),
// clearfault [NOTE] (the supervisor turns the light green again),
// wager TERMINAL CALL CENTS [NUMBER [SPREAD]] (an oral call bet the dealer places for a seat on
// the current round: tier, orphelins, voisins, zero-game, or neighbours of NUMBER with SPREAD
// either side; CENTS per piece: 002 §3.2B),
// refuse TERMINAL INDEX[,INDEX...]|all REASON (the supervisor refuses a seat's wagers before
// no more bets, by their index in the seat's slip or all of them; the player is told REASON:
// 003 §9.12).
// seats (one line a terminal: connected, balance, slip, and IN SERVICE with the technician and
// since when while a field technician has it out of play; under it the seat's wagers, each with
// the index refuse names).
// status shows the conservation identity, the open overpayments, the holds and the latest
// alarms too; it, and every command answered with the table's status, then says on stderr which
// seats are IN SERVICE. The operator's certificate identity is recorded with every privileged action.
// Round commands act on the current round.
//
// log, alarms, holds, overpayments, resolve, closing, release and handpay print aligned lines
// (text.go): every time in one zone, -tz (the table's local zone; the machine's by default),
// with its abbreviation, every amount grouped in the table's currency ("A$10,040.00"). -json
// prints the table's answer as JSON instead.
//
// -id names the certificate the console acts with, and so its role: the dealer's ("dealer")
// runs the round and the players' accounts; correct, invalidate, handpay and jackpot need the
// supervisor's ("-id supervisor"). status and log say on stderr whom the console acts as; the
// table records that identity on every action.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // -tz names a zone on a machine without the zone database too

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"

	"github.com/tablegames/ats/server/pki"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dealer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:7443", "table server address")
	dir := fs.String("pki", "pki", "PKI directory")
	id := fs.String("id", "dealer", "dealer certificate name in the PKI directory")
	tz := fs.String("tz", "Local", "the time zone every time is printed and read in (the table's: an IANA name such as Australia/Sydney)")
	asJSON := fs.Bool("json", false, "print the table's answers as JSON, not as lines")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: dealer [-addr A] [-pki DIR] [-tz ZONE] [-json] COMMAND [ARGS]")
		return 2
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		fmt.Fprintf(stderr, "dealer: -tz %q: %v\n", *tz, err)
		return 2
	}
	v := view{loc: loc, now: time.Now, json: *asJSON}
	files := pki.Files{Dir: *dir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
		return 1
	}
	pair, err := files.Load(*id)
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
		return 1
	}
	who := *id
	if cert, err := pki.ParseCert(pair.CertPEM); err == nil {
		if role, cn, err := pki.Identity(cert); err == nil {
			who = role + ":" + cn
		}
	}
	tlsCfg, err := pki.ClientTLS(caPEM, pair, "") // gRPC checks the certificate against -addr's host
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
		return 1
	}
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
		return 1
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if c := fs.Arg(0); c == "status" || c == "log" {
		fmt.Fprintln(stderr, "dealer console acting as", who)
	}
	if fs.Arg(0) == "tournament" {
		err := tournamentCommand(ctx, pb.NewDealerServiceClient(conn), fs.Args()[1:], stdout)
		if status.Code(err) == codes.PermissionDenied {
			fmt.Fprintf(stderr, "dealer: %s may not do that: %v\n", who, status.Convert(err).Message())
			return 1
		}
		if err != nil {
			fmt.Fprintln(stderr, "dealer:", err)
			return 1
		}
		return 0
	}
	d := pb.NewDealerServiceClient(conn)
	reply, err := commandIn(ctx, d, fs.Args(), v)
	if status.Code(err) == codes.PermissionDenied {
		fmt.Fprintf(stderr, "dealer: %s may not %s: %v\n", who, fs.Arg(0), status.Convert(err).Message())
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
		return 1
	}
	if st, ok := reply.(*pb.TableStatus); ok && fs.Arg(0) == "seats" {
		for _, l := range seatLines(st, v.now().In(v.loc)) {
			fmt.Fprintln(stdout, l)
		}
		return 0
	}
	if cmd := fs.Arg(0); textCommands[cmd] && !v.json {
		st, err := d.GetStatus(ctx, &pb.GetStatusRequest{}) // the table's currency
		if err != nil {
			fmt.Fprintln(stderr, "dealer:", err)
			return 1
		}
		for _, l := range render(cmd, reply, st.GetConfig().GetCurrency(), v) {
			fmt.Fprintln(stdout, l)
		}
		return 0
	}
	out, _ := protojson.MarshalOptions{Multiline: true, EmitUnpopulated: false}.Marshal(reply)
	fmt.Fprintln(stdout, string(out))
	if st, ok := reply.(*pb.TableStatus); ok {
		for _, l := range inServiceLines(st, v.now().In(v.loc)) {
			fmt.Fprintln(stderr, l)
		}
		if l := tournamentStatusLine(ctx, pb.NewDealerServiceClient(conn)); l != "" {
			fmt.Fprintln(stderr, l)
		}
	}
	return 0
}

func key() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// command is commandIn in the machine's local zone and clock.
func command(ctx context.Context, d pb.DealerServiceClient, args []string) (proto.Message, error) {
	return commandIn(ctx, d, args, view{loc: time.Local, now: time.Now})
}

// commandIn runs one console command; times it reads are in v's zone, by v's clock.
func commandIn(ctx context.Context, d pb.DealerServiceClient, args []string, v view) (proto.Message, error) {
	cmd, rest := args[0], args[1:]
	arg := func(i int) (string, error) {
		if i >= len(rest) {
			return "", fmt.Errorf("%s: missing argument %d", cmd, i+1)
		}
		return rest[i], nil
	}
	cents := func(i int) (int64, error) {
		s, err := arg(i)
		if err != nil {
			return 0, err
		}
		return strconv.ParseInt(s, 10, 64)
	}
	current := func() (string, error) {
		st, err := d.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			return "", err
		}
		return st.RoundId, nil
	}
	switch cmd {
	case "status":
		return d.GetStatus(ctx, &pb.GetStatusRequest{})
	case "log":
		req, err := logRequest(rest, v)
		if err != nil {
			return nil, err
		}
		return d.GetAuditLog(ctx, req)
	case "cards": // carded play's report (issue 31): a supervisor's
		req, err := cardReportRequest(rest, v)
		if err != nil {
			return nil, err
		}
		return d.CardReport(ctx, req)
	case "open":
		return d.OpenTable(ctx, &pb.OpenTableRequest{AutoDealer: len(rest) > 0 && rest[0] == "-auto"})
	case "close":
		return d.CloseTable(ctx, &pb.CloseTableRequest{})
	case "start":
		return d.StartRound(ctx, &pb.StartRoundRequest{})
	case "spin", "drop", "nospin":
		r, err := current()
		if err != nil {
			return nil, err
		}
		switch cmd {
		case "spin":
			return d.SpinStarted(ctx, &pb.RoundRequest{RoundId: r})
		case "drop":
			return d.BallDropping(ctx, &pb.RoundRequest{RoundId: r})
		}
		return d.NoSpin(ctx, &pb.RoundRequest{RoundId: r})
	case "confirm":
		r, err := current()
		if err != nil {
			return nil, err
		}
		n := ""
		if len(rest) > 0 {
			n = rest[0]
		}
		return d.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: r, Number: n, ConfirmWheel: true})
	case "outcome", "correct":
		n, err := arg(0)
		if err != nil {
			return nil, err
		}
		var r string
		if cmd == "correct" && len(rest) > 1 {
			r = rest[1] // an earlier round (001 §9.4), corrected between rounds
		} else if r, err = current(); err != nil {
			return nil, err
		}
		if cmd == "outcome" {
			return d.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: r, Number: n})
		}
		return d.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: r, Number: n})
	case "invalidate":
		r, err := current()
		if err != nil {
			return nil, err
		}
		reason := "invalidated by the pit boss"
		if len(rest) > 0 {
			reason = rest[0]
		}
		return d.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: r, Reason: reason})
	case "credit":
		t, err := arg(0)
		if err != nil {
			return nil, err
		}
		a, err := cents(1)
		if err != nil {
			return nil, err
		}
		return d.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: key(), TerminalId: t, Amount: a})
	case "closeaccount":
		t, err := arg(0)
		if err != nil {
			return nil, err
		}
		reason := "dealer"
		if len(rest) > 1 {
			reason = rest[1]
		}
		return d.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: key(), TerminalId: t, Reason: reason})
	case "jackpot":
		r := ""
		if len(rest) > 0 {
			r = rest[0]
		} else {
			st, err := d.GetStatus(ctx, &pb.GetStatusRequest{})
			if err != nil {
				return nil, err
			}
			if st.PendingJackpot == nil {
				return nil, fmt.Errorf("no jackpot hit is waiting")
			}
			r = st.PendingJackpot.RoundId
		}
		return d.ConfirmJackpot(ctx, &pb.ConfirmJackpotRequest{RoundId: r})
	case "handpay":
		v, err := arg(0)
		if err != nil {
			return nil, err
		}
		req := &pb.HandpayRequest{IdempotencyKey: key(), ValidationNumber: v}
		switch len(rest) {
		case 1:
		case 4:
			req.Patron = &pb.PatronIdentity{IdType: rest[1], IdNumber: rest[2], Name: rest[3]}
		default:
			return nil, fmt.Errorf("handpay VALIDATION [ID_TYPE ID_NUMBER NAME]: the patron's identity is three words (quote a name with spaces)")
		}
		return d.Handpay(ctx, req)
	case "limits":
		req, err := parseLimits(rest)
		if err != nil {
			return nil, err
		}
		return d.SetLimits(ctx, req)
	case "luckyball":
		how, err := arg(0)
		if err != nil {
			return nil, err
		}
		if how != "fault" && how != "working" {
			return nil, fmt.Errorf("luckyball %q: fault [REASON] or working", how)
		}
		reason := ""
		if len(rest) > 1 {
			reason = rest[1]
		}
		return d.LuckyBallDisplay(ctx, &pb.LuckyBallDisplayRequest{Working: how == "working", Reason: reason})
	case "player-limits": // a player's own limits (000 §4.3, 003 §4.6): players.go
		return playerLimits(ctx, d, rest)
	case "overpayments":
		return d.ListOverpayments(ctx, &pb.ListOverpaymentsRequest{OpenOnly: len(rest) == 0 || rest[0] != "-all"})
	case "resolve":
		id, err := arg(0)
		if err != nil {
			return nil, err
		}
		how, err := arg(1)
		if err != nil {
			return nil, err
		}
		note := ""
		if len(rest) > 2 {
			note = rest[2]
		}
		return d.ResolveOverpayment(ctx, &pb.ResolveOverpaymentRequest{IdempotencyKey: key(), Id: id, Resolution: how, Note: note})
	case "holds":
		st, err := d.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			return nil, err
		}
		return &pb.TableStatus{TicketHolds: st.TicketHolds}, nil
	case "release":
		v, err := arg(0)
		if err != nil {
			return nil, err
		}
		reason := "released at the dealer's console"
		if len(rest) > 1 {
			reason = rest[1]
		}
		return d.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: key(), ValidationNumber: v, Reason: reason})
	case "alarms":
		if len(rest) > 0 && rest[0] == "ack" {
			if len(rest) != 2 {
				return nil, fmt.Errorf("alarms ack: ALARM_ID (as the alarm list shows it: T1:42)")
			}
			return d.AckAlarm(ctx, &pb.AckAlarmRequest{AlarmId: rest[1]})
		}
		n := int64(0)
		if len(rest) > 0 {
			var err error
			if n, err = cents(0); err != nil {
				return nil, err
			}
		}
		return d.ListAlarms(ctx, &pb.ListAlarmsRequest{Limit: int32(n)})
	case "closing":
		s, err := arg(0)
		if err != nil {
			return nil, err
		}
		if s == "cancel" {
			return d.ScheduleClose(ctx, &pb.ScheduleCloseRequest{Cancel: true})
		}
		at, err := closingTime(s, v.now().In(v.loc))
		if err != nil {
			return nil, err
		}
		return d.ScheduleClose(ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.UnixNano()})
	case "seats":
		st, err := d.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			return nil, err
		}
		return &pb.TableStatus{Terminals: st.Terminals, ClosingAtUnixNanos: st.ClosingAtUnixNanos}, nil
	case "vacate":
		t, err := arg(0)
		if err != nil {
			return nil, err
		}
		return d.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: key(), TerminalId: t, Reason: "vacated"})
	case "dispute":
		r, err := current()
		if err != nil {
			return nil, err
		}
		note := ""
		if len(rest) > 0 {
			note = rest[0]
		}
		return d.Dispute(ctx, &pb.DisputeRequest{RoundId: r, Note: note})
	case "lights":
		st, err := d.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			return nil, err
		}
		return &pb.TableStatus{RedLight: st.RedLight, Fault: st.Fault}, nil
	case "clearfault":
		note := ""
		if len(rest) > 0 {
			note = rest[0]
		}
		return d.ClearFault(ctx, &pb.ClearFaultRequest{Note: note})
	case "wager":
		w, err := callWager(rest)
		if err != nil {
			return nil, err
		}
		r, err := current()
		if err != nil {
			return nil, err
		}
		return d.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: rest[0], RoundId: r, Wager: w})
	case "refuse":
		req, err := refusal(rest)
		if err != nil {
			return nil, err
		}
		r, err := current()
		if err != nil {
			return nil, err
		}
		req.RoundId = r
		return d.RefuseWager(ctx, req)
	case "period":
		s, err := arg(0)
		if err != nil {
			return nil, err
		}
		p, err := time.ParseDuration(s)
		if err != nil {
			return nil, err
		}
		return d.SetWageringPeriod(ctx, &pb.SetWageringPeriodRequest{WageringPeriodMs: p.Milliseconds()})
	}
	return nil, fmt.Errorf("unknown command %q", cmd)
}

// closingTime reads the time of a closure: "+25m" from now, or "HH:MM" today (tomorrow if that
// has passed) in the console's time zone. The table checks the 20 minutes' notice.
func closingTime(s string, now time.Time) (time.Time, error) {
	if d, ok := strings.CutPrefix(s, "+"); ok {
		p, err := time.ParseDuration(d)
		if err != nil || p <= 0 {
			return time.Time{}, fmt.Errorf("closing %q: +DURATION such as +25m", s)
		}
		return now.Add(p), nil
	}
	hm, err := time.ParseInLocation("15:04", s, now.Location())
	if err != nil {
		return time.Time{}, fmt.Errorf("closing %q: +DURATION, HH:MM or cancel", s)
	}
	at := time.Date(now.Year(), now.Month(), now.Day(), hm.Hour(), hm.Minute(), 0, 0, now.Location())
	if !at.After(now) {
		at = at.AddDate(0, 0, 1)
	}
	return at, nil
}

// refusal reads "TERMINAL INDEX[,INDEX...]|all REASON..." into a supervisor's refusal of a
// seat's wagers (003 §9.12). The indexes are the wagers' places in the seat's slip, from 0, as
// the table's answers list them; "all" refuses every wager of the slip. The selector is never
// optional, so a mistyped index is an error rather than a refusal of everything. The reason is
// the rest of the line: the player's screen shows it.
func refusal(args []string) (*pb.RefuseWagerRequest, error) {
	const usage = "refuse: TERMINAL INDEX[,INDEX...]|all REASON"
	if len(args) < 3 {
		return nil, fmt.Errorf("%s", usage)
	}
	req := &pb.RefuseWagerRequest{TerminalId: args[0], Reason: strings.TrimSpace(strings.Join(args[2:], " "))}
	if sel := args[1]; sel == "all" {
		req.All = true
	} else {
		for _, f := range strings.Split(sel, ",") {
			i, err := strconv.ParseUint(f, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("refuse: index %q: %v (%s)", f, err, usage)
			}
			req.Indexes = append(req.Indexes, uint32(i))
		}
	}
	if req.Reason == "" {
		return nil, fmt.Errorf("refuse: the reason is required (the player is told it): %s", usage)
	}
	return req, nil
}

// callWager reads "TERMINAL CALL CENTS [NUMBER [SPREAD]]" into the wire wager of a call bet; the
// table checks the rest (the bet against its layout, the limits, the balance).
func callWager(args []string) (*pb.Wager, error) {
	if len(args) < 3 {
		return nil, fmt.Errorf("wager: TERMINAL CALL CENTS [NUMBER [SPREAD]]")
	}
	amount, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("wager: amount %q: %v", args[2], err)
	}
	spec := roulette.BetSpec{Name: args[1]}
	if len(args) > 3 {
		spec.Numbers = []string{args[3]}
	}
	if len(args) > 4 {
		n, err := strconv.Atoi(args[4])
		if err != nil {
			return nil, fmt.Errorf("wager: spread %q: %v", args[4], err)
		}
		spec.Spread = &n
	}
	if len(args) > 5 {
		return nil, fmt.Errorf("wager: unexpected %q", args[5])
	}
	return wire.WagerOf(spec, amount), nil
}

// cardReportRequest reads "cards [-since TIME] [-until TIME] [-card CARD]": the player cards
// that reached a limit, the breaks enforced and the bars, floor-wide, in the window; times in
// the console's zone (logTime).
func cardReportRequest(args []string, v view) (*pb.CardReportRequest, error) {
	fs := flag.NewFlagSet("cards", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	since := fs.String("since", "", "from")
	until := fs.String("until", "", "to (exclusive)")
	card := fs.String("card", "", "one card")
	const usage = "cards [-since TIME] [-until TIME] [-card CARD]"
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%v: %s", err, usage)
	}
	if fs.NArg() != 0 {
		return nil, fmt.Errorf("cards: unexpected %q (%s)", fs.Arg(0), usage)
	}
	req := &pb.CardReportRequest{CardId: *card}
	var err error
	if req.FromUnixNanos, req.ToUnixNanos, err = windowOf("cards", *since, *until, v); err != nil {
		return nil, err
	}
	return req, nil
}

// windowOf reads a command's -since and -until in the console's zone (logTime): unix nanos,
// 0 for one not given; until after since.
func windowOf(cmd, since, until string, v view) (from, to int64, err error) {
	for _, f := range []struct {
		text string
		to   *int64
	}{{since, &from}, {until, &to}} {
		if f.text == "" {
			continue
		}
		at, err := v.logTime(f.text)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %v", cmd, err)
		}
		*f.to = at.UnixNano()
	}
	if from != 0 && to != 0 && to <= from {
		return 0, 0, fmt.Errorf("%s: -until is not after -since", cmd)
	}
	return from, to, nil
}

// logRequest reads "log [-since TIME] [-until TIME] [-kind KIND] [-terminal TERMINAL] [N]": the
// last N entries (20) that pass every filter given; times in the console's zone (logTime).
func logRequest(args []string, v view) (*pb.GetAuditLogRequest, error) {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	since := fs.String("since", "", "entries at or after")
	until := fs.String("until", "", "entries before")
	kind := fs.String("kind", "", "entries of this kind")
	terminal := fs.String("terminal", "", "entries naming this terminal (T01, or T1/T01 for another table's)")
	const usage = "log [-since TIME] [-until TIME] [-kind KIND] [-terminal TERMINAL] [N]"
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%v: %s", err, usage)
	}
	req := &pb.GetAuditLogRequest{Limit: 20, Kind: *kind, TerminalId: *terminal}
	switch fs.NArg() {
	case 0:
	case 1:
		n, err := strconv.ParseInt(fs.Arg(0), 10, 32)
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("log: %q: N is 1 to 1000 (%s)", fs.Arg(0), usage)
		}
		req.Limit = int32(n)
	default:
		return nil, fmt.Errorf("log: unexpected %q (%s)", fs.Arg(1), usage)
	}
	var err error
	if req.SinceUnixNanos, req.UntilUnixNanos, err = windowOf("log", *since, *until, v); err != nil {
		return nil, err
	}
	return req, nil
}
