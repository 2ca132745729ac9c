// Command dealer is the dealer's console of a table (the rules' SGC) on the command line, for
// supervisors and scripts (the dealer's touch console is its own binary).
//
//	dealer [-addr 127.0.0.1:7443] [-pki pki] [-id dealer] [-card CARD] [-tz ZONE] [-json] COMMAND [ARGS]
//	dealer help                      every command: its usage, what it does, whose it is
//
// The commands are one table (commands.go): each row's usage, help, role and action, so `dealer
// help`, the console's role check and the guides' command list come from one place. Round
// commands act on the current round.
//
// status shows the conservation identity, the open overpayments, the holds and the latest
// alarms too; it, and every command answered with the table's status, then says on stderr which
// seats are IN SERVICE. log, alarms, holds, overpayments, resolve, closing, release and handpay
// print aligned lines (text.go): every time in one zone, -tz (the table's local zone; the
// machine's by default), with its abbreviation, every amount grouped in the table's currency
// ("A$10,040.00"). -json prints the table's answer as JSON instead.
//
// -id names the certificate the console acts with, and so its role: the dealer's ("dealer")
// runs the round and the players' accounts; a supervisor's command (marked so in help) needs the
// supervisor's certificate ("-id supervisor") — or, on the dealer's certificate, the
// supervisor's card (-card S1) with its PIN on stdin: the table checks the PIN (five wrong lock
// the card out) and records the command as the supervisor's (server/supervisor.go). A
// supervisor's command is refused here, before the table is asked, to a console acting as a
// dealer. status and log say on stderr whom the console acts as; the table records that
// identity on every action.
package main

import (
	"bufio"
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
	"google.golang.org/grpc/metadata"
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

// stdin is where -card reads the supervisor's PIN (a test sets it).
var stdin io.Reader = os.Stdin

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dealer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:7443", "table server address")
	dir := fs.String("pki", "pki", "PKI directory")
	id := fs.String("id", "dealer", "dealer certificate name in the PKI directory")
	card := fs.String("card", "", "a supervisor's card: the command is the supervisor's, on this dealer's certificate (the PIN is read from stdin)")
	tz := fs.String("tz", "Local", "the time zone every time is printed and read in (the table's: an IANA name such as Australia/Sydney)")
	asJSON := fs.Bool("json", false, "print the table's answers as JSON, not as lines")
	const usage = "usage: dealer [-addr A] [-pki DIR] [-id CERT] [-card CARD] [-tz ZONE] [-json] COMMAND [ARGS] (dealer help lists the commands)"
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if fs.Arg(0) == "help" {
		fmt.Fprintln(stdout, usage)
		for _, l := range helpLines() {
			fmt.Fprintln(stdout, l)
		}
		return 0
	}
	cmd, _, _, err := lookup(fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
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
	who, role := *id, ""
	if cert, err := pki.ParseCert(pair.CertPEM); err == nil {
		if r, cn, err := pki.Identity(cert); err == nil {
			who, role = r+":"+cn, r
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if *card != "" {
		// The supervisor's card and PIN on this console (server/supervisor.go): the table checks
		// the PIN and records the command as the supervisor's.
		pin, _ := bufio.NewReader(stdin).ReadString('\n') // a read error leaves no PIN
		if pin = strings.TrimSpace(pin); pin == "" {
			fmt.Fprintln(stderr, "dealer: -card: no PIN on stdin (type it, or pipe it in: it is never an argument)")
			return 1
		}
		ctx = metadata.AppendToOutgoingContext(ctx, wire.SupervisorCardHeader, *card, wire.SupervisorPINHeader, pin)
		who, role = "supervisor:"+*card+" at "+who+"'s console", pki.RoleSupervisor
	}
	if err := mayRun(cmd, role); err != nil {
		fmt.Fprintf(stderr, "dealer: %s: %v\n", who, err)
		return 1
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
	if c := fs.Arg(0); c == "status" || c == "log" {
		fmt.Fprintln(stderr, "dealer console acting as", who)
	}
	d := pb.NewDealerServiceClient(conn)
	reply, err := runCommand(&call{ctx: ctx, d: d, v: v, out: stdout}, fs.Args())
	if status.Code(err) == codes.PermissionDenied {
		fmt.Fprintf(stderr, "dealer: %s may not %s: %v\n", who, cmd.name, status.Convert(err).Message())
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "dealer:", err)
		return 1
	}
	if reply == nil {
		return 0 // printed by the command itself (tournament)
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

// commandIn runs one console command; times it reads are in v's zone, by v's clock. A command
// that prints for itself (tournament) prints nowhere here; run gives it stdout.
func commandIn(ctx context.Context, d pb.DealerServiceClient, args []string, v view) (proto.Message, error) {
	return runCommand(&call{ctx: ctx, d: d, v: v, out: io.Discard}, args)
}

// runCommand runs the row args name (commands.go).
func runCommand(c *call, args []string) (proto.Message, error) {
	cmd, rest, asJSON, err := lookup(args)
	if err != nil {
		return nil, err
	}
	if asJSON {
		c.v.json = true
	}
	return cmd.run(c, rest)
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

// callWager reads "TERMINAL BET CENTS [ON [SPREAD]]" into the wire wager of the bet the dealer
// places: a call bet (tier, orphelins, voisins, zero-game; neighbours of the number ON with
// SPREAD either side), or — where the table takes announced bets, and for a guest — any bet:
// ON is the numbers an inside bet covers, comma separated ("17", "17,20", "1,2,4,5"), a
// column's or dozen's number (1 to 3), or the Lucky Ball's colour. The table checks the rest
// (the bet against its layout, its rules, the limits, the balance).
func callWager(args []string) (*pb.Wager, error) {
	const usage = "wager: TERMINAL BET CENTS [ON [SPREAD]]"
	if len(args) < 3 {
		return nil, fmt.Errorf("%s", usage)
	}
	amount, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("wager: amount %q: %v", args[2], err)
	}
	spec := roulette.BetSpec{Name: args[1]}
	if len(args) > 3 {
		switch on := args[3]; spec.Name {
		case "column", "dozen":
			n, err := strconv.Atoi(on)
			if err != nil {
				return nil, fmt.Errorf("wager: %s %q: 1 to 3", spec.Name, on)
			}
			spec.Which = &n
		case "lucky-ball":
			spec.Colour = on
		default:
			spec.Numbers = strings.Split(on, ",")
		}
	}
	if len(args) > 4 {
		n, err := strconv.Atoi(args[4])
		if err != nil {
			return nil, fmt.Errorf("wager: spread %q: %v", args[4], err)
		}
		spec.Spread = &n
	}
	if len(args) > 5 {
		return nil, fmt.Errorf("wager: unexpected %q (%s)", args[5], usage)
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
