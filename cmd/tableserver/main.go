// Command tableserver runs the reference table game server of one roulette table on a TCP
// address, with mutual TLS from a PKI directory and the ledger in a SQLite file, or in a floor's
// PostgreSQL database shared with the floor's other tables (tickets redeem anywhere on it).
//
//	tableserver pki init -dir pki -terminals T01,T02 [-force]   the table's CA and certificates
//	tableserver pki issue -dir pki -role terminal -id T03 [-days 90]
//	tableserver pki renew -dir pki -id T03 [-days 90]          same identity and role, new key
//	tableserver pki revoke -dir pki -id T03                    add it to crl.pem
//	tableserver technician set-pin -file pki/technicians -id technician   (PIN on stdin)
//	tableserver supervisor set-pin -file pki/supervisors -id supervisor   (PIN on stdin; card and PIN on a dealer's console)
//	tableserver -listen 127.0.0.1:7443 -db table.db -pki pki [-auto] [-period 30s] [-ledger-key FILE]
//	tableserver -table T2 -db postgres://ats@db/floor -ledger-key floor.key -pki pki   a table of a floor on PostgreSQL
//	tableserver -wheel-port /dev/ttyS1 [-wheel-auto-outcome] …   the table follows its wheel's sensors (server/wheelfollow)
//	tableserver verify -db table.db [-ledger-key FILE]    check the ledger's seal; list the journal anchors
//	tableserver verify -db postgres://… -table T2 -ledger-key FILE    the same for a table of a floor
//	tableserver clear-anchor -db table.db -terminal T01 -by NAME
//	                                                      trust a terminal's new journal (its old one is lost)
//	tableserver reseal -db table.db -by NAME -why TEXT    seal a ledger found without its seal, as it stands,
//	                                                      marked for good (never done at a start)
//
// The server needs ca.pem, server.pem, server-key.pem (and crl.pem, technicians, supervisors when used)
// from the PKI directory; never ca-key.pem, which issue, renew and revoke need and which can be
// kept offline. It reloads crl.pem when the file changes and on SIGHUP. Its collector runs at
// GOGC=1600 under a 2 GiB memory limit (server.TuneGC); GOGC or GOMEMLIMIT in the environment win.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
	"github.com/tablegames/ats/server/precommit"
)

func main() {
	// The table server allocates little per request but serves many; collecting less often
	// keeps the slip round-trip tail down on a 2-core machine (server/gctune.go).
	server.TuneGC()
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stderr, nil)
}

// serve runs the command until ctx ends; ready, if set, is told the address once the table
// serves (for tests).
func serve(ctx context.Context, args []string, stderr io.Writer, ready func(addr string)) int {
	if len(args) > 0 && args[0] == "pki" {
		return runPKI(args[1:], stderr)
	}
	if len(args) > 0 && (args[0] == "technician" || args[0] == "supervisor") {
		return runSetPIN(args[0], args[1:], os.Stdin, stderr)
	}
	if len(args) > 0 && (args[0] == "verify" || args[0] == "clear-anchor" || args[0] == "reseal") {
		return runLedger(args[0], args[1:], os.Stdout, stderr)
	}
	fs := flag.NewFlagSet("tableserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:7443", "address to serve on")
	db := fs.String("db", "table.db", "ledger: a SQLite file, or a floor's PostgreSQL database postgres://USER@HOST/DB (the table's rows in schema table_<-table>)")
	dir := fs.String("pki", "pki", "PKI directory (tableserver pki init); the CA key need not be in it")
	techs := fs.String("technicians", "", "technicians' PIN file (default: PKI/technicians)")
	sups := fs.String("supervisors", "", "supervisors' PIN file: their card and PIN on a dealer's console (default: PKI/supervisors)")
	ledgerKey := fs.String("ledger-key", "", "the ledger's seal key file (default: beside the ledger, DB.key; required with a postgres:// -db)")
	floorKey := fs.String("floor-key", "", "postgres:// -db: the key file the floor's tickets and cage records are sealed under, the same file at every table server of the floor (default: -ledger-key)")
	auto := fs.Bool("auto", false, "open the table with the auto-dealer (random outcomes on a timer)")
	// 001 §5.1.2: without the operator's own period, the table's default (30 s).
	period := fs.Duration("period", server.DefaultConfig().Period, "wagering period (001 §5.1.2: 30 s unless the operator sets it; the dealer's period command changes it)")
	spin := fs.Duration("spin", 4*time.Second, "auto-dealer: time from the deadline to the outcome")
	result := fs.Duration("result", 5*time.Second, "auto-dealer: time the result shows before the next round")
	wheel := fs.String("wheel", "", "single-zero or double-zero (default: the rules profile's: double-zero for star, else single-zero)")
	profile := fs.String("profile", "", "layout profile (the zero bets of a double-zero felt): crown-rapid, crown-fh or crown-vw under crown and touchtable, star under star (default: the rules profile's first)")
	rules := fs.String("rules", "crown", "rules profile: crown, vic-1999 (winners ride; buy-in and cash-out at the dealer), star (its double-zero layout, player card required) or touchtable (buy-in and cash-out at the dealer)")
	lucky := fs.Bool("lucky-ball", false, "offer the Lucky Ball side bet")
	mega := fs.Bool("mega", false, "Lucky Ball Mega Odds version")
	table := fs.String("table", "T1", "table id")
	padRequired := fs.Bool("id-pad-required", false, "players must touch their ID pad to wager")
	oralRacetrack := fs.Bool("oral-racetrack", false, "racetrack wagers are declared to the dealer, who places them (dealer wager); a terminal's own is void (002 §3.2B)")
	cardRequired := fs.Bool("player-card-required", false, "players must have a player card in their ID pad to wager (always under -rules star, 003 §3.4)")
	carded := fs.Bool("carded", false, "carded play and binding pre-commitment (SPEC §10): no registered player card with limits set, no wager; every wager checked against its card's loss and time limits, floor-wide (default: on under -rules crown, off otherwise; -carded=false turns it off under crown)")
	coolingOff := fs.Duration("cooling-off", 24*time.Hour, "-carded: how long after a player raises a limit the higher limit takes effect (lowering is at once)")
	breakAfter := fs.Duration("break-after", 3*time.Hour, "-carded: continuous play after which a break is enforced (a pause as long as -break ends continuous play)")
	breakFor := fs.Duration("break", 15*time.Minute, "-carded: the break enforced after -break-after of continuous play")
	realityCheck := fs.Duration("reality-check", server.DefaultRealityCheck, "-carded: how often the terminal shows the player the reality check (time played, session result) between rounds; 0 for none")
	helpline := fs.String("helpline", "Gambler's Help 1800 858 858", "-carded: the gambling helpline the terminal's Help shows")
	dayPlay := fs.Duration("day-play", 12*time.Hour, "-carded: play in any 24 hours after which a day's break is enforced")
	dayBreak := fs.Duration("day-break", 24*time.Hour, "-carded: the day's break enforced after -day-play of play in 24 hours")
	weekPlay := fs.Duration("week-play", 36*time.Hour, "-carded: the most play in any 7 days")
	limitPeriod := fs.Duration("limit-window", 24*time.Hour, "-carded: a limit period's length, from the card's first wager after the last period ended")
	asian := fs.Bool("asian-racetrack", false, "offer the Asian racetrack (Asian Neighbour, 11 to 1, 002 §3.2) with its default twelve groups of three wheel-neighbours")
	asianGroups := fs.String("asian-groups", "", "the Asian racetrack's own groups, e.g. 32-15-19,4-21-2 (implies -asian-racetrack)")
	jackpotSeed := fs.Int64("jackpot-seed", 0, "jackpot: minimum value in cents (0: no jackpot)")
	jackpotCeiling := fs.Int64("jackpot-ceiling", 0, "jackpot: the meter hits by this many cents")
	jackpotRate := fs.Int64("jackpot-rate", 50, "jackpot: contribution of every valid stake, in basis points")
	notes := fs.String("notes", "", "note acceptors' currency table, CODE=CENTS,… (default: AUD, codes 61,63–67 and AUD5–AUD100)")
	maxBalance := fs.Int64("max-balance", server.DefaultMaxBalance, "a chip account's maximum in cents: money in above it is refused")
	cashCap := fs.Int64("cash-cap", server.DefaultCashCap, "the most of a cash-out ticket the cage pays in cash, in cents (A$1,000.00 is 100000); the rest by transfer or cheque with the patron's ID; 0: no cap")
	threshold := fs.Int64("reporting-threshold", server.DefaultReportingThreshold, "a cash payment at the cage at or over this many cents needs the patron's ID and a second person's approval (AML/CTF threshold transaction)")
	hold := fs.Duration("ticket-hold", server.DefaultTicketHold, "how long a terminal's hold on a ticket stands without a commit or cancel")
	redeemFailures := fs.Int("redeem-failures", 5, "failed ticket validations per terminal within -redeem-window before it is throttled")
	redeemWindow := fs.Duration("redeem-window", time.Minute, "window for -redeem-failures")
	redeemCooldown := fs.Duration("redeem-cooldown", 30*time.Second, "first throttle of a terminal guessing tickets; doubles on each repeat, up to an hour")
	wheelPort := fs.String("wheel-port", "", "the wheel's sensor line (devices/wheel), e.g. /dev/ttyS1: the table follows the wheel (ball launched, ball about to drop, the number both sensors read proposed to the dealer)")
	promotion := fs.String("promotion", "", "the winning number displays' promotional text: a file of one line (read again on SIGHUP: systemctl kill -s HUP ats-tableserver)")
	wheelAuto := fs.Bool("wheel-auto-outcome", false, "with -wheel-port: enter the number both sensors read without the dealer's confirmation, audited as the wheel's")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if *wheelAuto && *wheelPort == "" {
		fmt.Fprintln(stderr, "tableserver: -wheel-auto-outcome needs -wheel-port (the wheel's line)")
		return 2
	}
	cfg := server.DefaultConfig()
	if *notes != "" {
		table, err := parseNotes(*notes)
		if err != nil {
			fmt.Fprintln(stderr, "tableserver:", err)
			return 2
		}
		cfg.Notes = table
	}
	if *threshold <= 0 {
		fmt.Fprintf(stderr, "tableserver: -reporting-threshold %d: cents, more than 0 (A$10,000.00 is 1000000)\n", *threshold)
		return 2
	}
	if *cashCap < 0 {
		fmt.Fprintf(stderr, "tableserver: -cash-cap %d: cents, 0 (no cap) or more (A$1,000.00 is 100000)\n", *cashCap)
		return 2
	}
	cfg.MaxBalance, cfg.TicketHold, cfg.ReportingThreshold, cfg.CashCap = *maxBalance, *hold, *threshold, *cashCap
	cfg.RedeemFailures, cfg.RedeemWindow, cfg.RedeemCooldown = *redeemFailures, *redeemWindow, *redeemCooldown
	var err error
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if cfg.Wheel, cfg.LayoutProfile, err = layout(*rules, *wheel, *profile, set["player-card-required"] && !*cardRequired); err != nil {
		fmt.Fprintln(stderr, "tableserver:", err)
		return 2
	}
	cfg.TableID, cfg.RulesProfile, cfg.Period, cfg.SpinTime, cfg.ResultTime = *table, *rules, *period, *spin, *result
	cfg.LuckyBall, cfg.LuckyMega = *lucky || *mega, *mega
	cfg.IDPadRequired, cfg.PlayerCardRequired = *padRequired, *cardRequired
	if cfg.AsianGroups, err = asianRacetrack(cfg.Wheel, *asian, *asianGroups); err != nil {
		fmt.Fprintln(stderr, "tableserver:", err)
		return 2
	}
	cfg.OralRacetrack = *oralRacetrack
	var why string
	cfg.Carded, why = cardedPlay(*rules, set["carded"], *carded)
	log.Info("carded play", "on", cfg.Carded, "why", why)
	if *coolingOff <= 0 || *limitPeriod <= 0 || *breakAfter <= 0 || *breakFor <= 0 || *dayPlay <= 0 || *dayBreak <= 0 || *weekPlay <= 0 {
		fmt.Fprintln(stderr, "tableserver: -cooling-off, -limit-window, -break-after, -break, -day-play, -day-break and -week-play must be positive")
		return 2
	}
	if *dayPlay > 24*time.Hour || *weekPlay > precommit.Week {
		fmt.Fprintln(stderr, "tableserver: -day-play is play in 24 hours and -week-play in 7 days: neither can be longer than its window")
		return 2
	}
	cfg.Precommit = precommit.Settings{CoolingOff: *coolingOff, Period: *limitPeriod, BreakAfter: *breakAfter, Break: *breakFor,
		DayPlay: *dayPlay, DayBreak: *dayBreak, WeekPlay: *weekPlay}
	if *realityCheck < 0 {
		fmt.Fprintln(stderr, "tableserver: -reality-check must be 0 (none) or positive")
		return 2
	}
	cfg.RealityCheck, cfg.Helpline = *realityCheck, *helpline
	if *realityCheck == 0 {
		cfg.RealityCheck = -1 // the operator's "none", not the server's default
	}
	if *jackpotSeed > 0 {
		cfg.Jackpot = &server.JackpotConfig{Seed: *jackpotSeed, Ceiling: *jackpotCeiling, RateBP: *jackpotRate}
	}

	files := server.Files{PKI: *dir, Ledger: *db, Listen: *listen, Auto: *auto, Technicians: *techs, Supervisors: *sups, LedgerKey: *ledgerKey, FloorKey: *floorKey,
		Promotion: *promotion}
	if *wheelPort != "" {
		w, err := openWheel(*wheelPort, cfg.Wheel, *wheelAuto, log)
		if err != nil {
			fmt.Fprintln(stderr, "tableserver:", err)
			return 1
		}
		defer w.close()
		files.Attach = w.attach
	}
	err = server.ServeFiles(ctx, cfg, files, log, ready)
	if err != nil {
		fmt.Fprintln(stderr, "tableserver:", err)
		return 1
	}
	return 0
}

// layout is the table's wheel and layout profile from -rules, -wheel and -profile: what the
// rules profile plays unless named, and refused at start when it contradicts the rules (The
// Star's rules on Crown Rapid's felt, say) or when a card is waived (-player-card-required=false)
// under rules that require one (003 §3.4, §9.1).
func layout(rulesProfile, wheel, profile string, cardWaived bool) (roulette.Wheel, roulette.Profile, error) {
	rules, err := table.RulesOf(rulesProfile)
	if err != nil {
		return 0, 0, fmt.Errorf("-rules: %w", err)
	}
	w, p := rules.Wheel(), rules.Layout()
	if wheel != "" {
		if w, err = roulette.ParseWheel(wheel); err != nil {
			return 0, 0, fmt.Errorf("-wheel: %w", err)
		}
	}
	if profile != "" {
		if p, err = roulette.ParseProfile(profile); err != nil {
			return 0, 0, fmt.Errorf("-profile: %w", err)
		}
	}
	if err := rules.Check(roulette.Layout{Wheel: w, Profile: p}); err != nil {
		return 0, 0, fmt.Errorf("-rules %s -wheel %v -profile %v: %w", rulesProfile, w, p, err)
	}
	if rules.PlayerCardRequired && cardWaived {
		return 0, 0, fmt.Errorf("-player-card-required=false: rules profile %q requires a player card (003 §3.4, §9.1)", rulesProfile)
	}
	return w, p, nil
}

// cardedPlay is whether the table plays carded (SPEC §10), and why, in words for the start log.
// A profile that plays carded (Crown's: VGCCC, from December 2025) is carded unless the operator
// says -carded=false in so many words; any other profile only when the operator says -carded.
// given tells "-carded not on the command line" apart from "-carded=false" (flag.Visit).
func cardedPlay(rulesProfile string, given, value bool) (bool, string) {
	byProfile := cardedByDefault(rulesProfile)
	switch {
	case given && value && byProfile:
		return true, fmt.Sprintf("-carded, as -rules %s plays (SPEC §10)", rulesProfile)
	case given && value:
		return true, "-carded given by the operator (SPEC §10)"
	case given && byProfile:
		return false, fmt.Sprintf("-carded=false given by the operator: wagers without a player card, although -rules %s plays carded (SPEC §10)", rulesProfile)
	case given:
		return false, "-carded=false given by the operator"
	case byProfile:
		return true, fmt.Sprintf("-rules %s plays carded (SPEC §10): no registered player card with limits set, no wager; -carded=false to play uncarded", rulesProfile)
	default:
		return false, fmt.Sprintf("-rules %s does not play carded; -carded to turn it on", rulesProfile)
	}
}

// cardedByDefault reports whether a rules profile plays carded unless -carded says otherwise
// (SPEC §10: Crown's).
func cardedByDefault(rulesProfile string) bool {
	r, err := table.RulesOf(rulesProfile)
	return err == nil && r.Carded
}

// asianRacetrack is the table's Asian racetrack from the flags: none, the default groups, or the
// groups written N-N-N,N-N-N,… (002 §3.2).
func asianRacetrack(w roulette.Wheel, on bool, groups string) (roulette.AsianGroups, error) {
	if groups == "" {
		if on {
			return roulette.DefaultAsianGroups(w), nil
		}
		return roulette.AsianGroups{}, nil
	}
	var gs [][]string
	for _, g := range strings.Split(groups, ",") {
		gs = append(gs, strings.Split(strings.TrimSpace(g), "-"))
	}
	g, err := roulette.ParseAsianGroups(w, gs)
	if err != nil {
		return g, fmt.Errorf("-asian-groups: %w", err)
	}
	return g, nil
}

// parseNotes reads a currency table: CODE=CENTS pairs separated by commas.
func parseNotes(s string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, pair := range strings.Split(s, ",") {
		code, cents, ok := strings.Cut(strings.TrimSpace(pair), "=")
		v, err := strconv.ParseInt(cents, 10, 64)
		if !ok || code == "" || err != nil || v <= 0 {
			return nil, fmt.Errorf("-notes: %q is not CODE=CENTS", pair)
		}
		out[code] = v
	}
	return out, nil
}

func runPKI(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: tableserver pki init|issue|renew|revoke ...")
		return 2
	}
	fs := flag.NewFlagSet("pki "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "pki", "PKI directory")
	terminals := fs.String("terminals", "T01,T02", "init: terminal ids, comma separated")
	hosts := fs.String("hosts", "", "init: extra server host names or addresses, comma separated")
	dealers := fs.String("dealers", "dealer", "init: dealer ids, comma separated")
	supervisors := fs.String("supervisors", "supervisor", "init: supervisor ids, comma separated")
	technicians := fs.String("technicians", "technician", "init: technician ids, comma separated")
	cashiers := fs.String("cashiers", "cashier-1", "init: the cage's cashier ids, comma separated")
	displays := fs.String("displays", "wnd-1", "init: the winning number displays' ids (cmd/wnd), comma separated")
	force := fs.Bool("force", false, "init: replace an existing CA (locks out every certificate it issued)")
	role := fs.String("role", pki.RoleTerminal, "issue: "+strings.Join(pki.Roles, ", "))
	id := fs.String("id", "", "issue, renew, revoke: the certificate's id")
	days := fs.Int("days", int(pki.DefaultClientValidity/(24*time.Hour)), "init, issue, renew: client certificate lifetime in days")
	serverDays := fs.Int("server-days", int(pki.DefaultServerValidity/(24*time.Hour)), "init: server certificate lifetime in days")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *days <= 0 || *serverDays <= 0 {
		fmt.Fprintln(stderr, "tableserver pki: -days and -server-days must be positive")
		return 2
	}
	validity := time.Duration(*days) * 24 * time.Hour
	list := func(s string) []string {
		if s == "" {
			return []string{}
		}
		return strings.Split(s, ",")
	}
	var err error
	switch args[0] {
	case "init":
		err = pki.InitWith(*dir, pki.InitOptions{Terminals: list(*terminals), Hosts: list(*hosts),
			Dealers: list(*dealers), Supervisors: list(*supervisors), Technicians: list(*technicians),
			Cashiers: list(*cashiers), Displays: list(*displays), Force: *force, ClientValidity: validity, ServerValidity: time.Duration(*serverDays) * 24 * time.Hour})
	case "issue":
		err = pki.IssueFor(*dir, *role, *id, validity)
	case "renew":
		err = pki.Renew(*dir, *id, validity)
	case "revoke":
		if err = pki.Revoke(*dir, *id); err == nil {
			fmt.Fprintf(stderr, "tableserver pki: %s revoked in %s; copy it to the table server's PKI directory (it reloads it within 10 s, or at once on SIGHUP)\n",
				*id, pki.Files{Dir: *dir}.CRL())
		}
	default:
		fmt.Fprintf(stderr, "tableserver pki: unknown command %q\n", args[0])
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "tableserver pki:", err)
		return 1
	}
	return 0
}

// runSetPIN sets a technician's or a supervisor's PIN in their PIN file (who: "technician" or
// "supervisor"; the two files have one format); the PIN is read from stdin (its first line), so
// it is never in the shell's history or the process list.
func runSetPIN(who string, args []string, stdin io.Reader, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "set-pin" {
		fmt.Fprintf(stderr, "usage: tableserver %s set-pin -file FILE -id ID  (the PIN on stdin)\n", who)
		return 2
	}
	fs := flag.NewFlagSet(who+" set-pin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "pki/"+who+"s", "the "+who+"s' PIN file")
	idHelp := "the technician's id (their certificate's)"
	if who == "supervisor" {
		idHelp = "the supervisor's card id (their certificate's id, where they have one)"
	}
	id := fs.String("id", "", idHelp)
	iter := fs.Int("iterations", server.DefaultIterations, "PBKDF2 iterations")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintf(stderr, "tableserver %s: no PIN on stdin\n", who)
		return 1
	}
	if err := server.SetPIN(*file, *id, strings.TrimSpace(line), *iter); err != nil {
		fmt.Fprintf(stderr, "tableserver %s: %v\n", who, err)
		return 1
	}
	return 0
}
