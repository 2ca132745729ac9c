package main

// The Tournament Director's and the dealer's tournament commands (000 §12, 003 §10):
//
//	dealer -id supervisor tournament configure -id SPRING-1 -name "Spring Cup" -terms-file terms.txt \
//	       -entry 5000 -added 5000 -chips 1000 -rounds 3 -min 100,100,200 -max 500 \
//	       -secret 1 -pass 1 -prizes 60,30,10 -players 2-8 [-order]
//	dealer -id supervisor tournament open T01 T02 T03
//	dealer tournament standings          the standings now: round n of N, minimum, each seat
//	dealer -id supervisor tournament close [REASON]
//	dealer -id supervisor tournament pass SEAT ROUND REASON   grant a pass card for a void play
//	dealer tournament results [ID]       the record to print: terms, every round, places, prizes
//
// -order gives the tournament an order of wagering (003 §10.9): the standings then show whose
// box has the marker and whose turn it is. `dealer status` ends with a line on the tournament
// under way (tournamentStatusLine). The rounds themselves are dealt with the ordinary commands
// (start, drop, outcome N). Every command prints text for people; -json before the action
// prints the table's reply as JSON.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/tablegames/ats/app/money"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// tournamentCommand runs `tournament ACTION [ARGS]`, printing to out.
func tournamentCommand(ctx context.Context, d pb.DealerServiceClient, args []string, out io.Writer) error {
	asJSON := false
	if len(args) > 0 && args[0] == "-json" {
		asJSON, args = true, args[1:]
	}
	if len(args) == 0 {
		return errors.New("tournament: configure|open|standings|close|pass|results")
	}
	var tr *pb.Tournament
	var err error
	action, rest := args[0], args[1:]
	switch action {
	case "configure":
		var terms *pb.TournamentTerms
		if terms, err = parseTerms(rest); err != nil {
			return err
		}
		tr, err = d.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms})
	case "open":
		if len(rest) == 0 {
			return errors.New("tournament open: name the seats (terminal ids) that entered")
		}
		tr, err = d.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: rest})
	case "standings", "results":
		id := ""
		if len(rest) > 0 {
			id = rest[0]
		}
		tr, err = d.GetTournament(ctx, &pb.GetTournamentRequest{Id: id})
	case "close":
		tr, err = d.CloseTournament(ctx, &pb.CloseTournamentRequest{Reason: strings.Join(rest, " ")})
		action = "results"
	case "pass":
		// The Director's decision on a wager void because the seat's terminal was lost: a
		// pass card granted, recorded on that round's play with who and when.
		n, perr := 0, error(nil)
		if len(rest) >= 2 {
			n, perr = strconv.Atoi(rest[1])
		}
		if len(rest) < 3 || perr != nil || n < 1 {
			return errors.New("tournament pass: SEAT ROUND REASON (ROUND: the tournament round of the void play, from 1)")
		}
		tr, err = d.GrantPassCard(ctx, &pb.GrantPassCardRequest{TerminalId: rest[0], Round: int32(n), Reason: strings.Join(rest[2:], " ")})
		action = "results"
	default:
		return fmt.Errorf("tournament: unknown action %q (configure, open, standings, close, pass, results)", action)
	}
	if err != nil {
		return err
	}
	if asJSON {
		b, _ := protojson.MarshalOptions{Multiline: true}.Marshal(tr)
		_, err := fmt.Fprintln(out, string(b))
		return err
	}
	if action == "results" {
		return printResults(out, tr)
	}
	return printStandings(out, tr)
}

// parseTerms reads configure's flags.
func parseTerms(args []string) (*pb.TournamentTerms, error) {
	fs := flag.NewFlagSet("tournament configure", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("id", "", "the tournament's id")
	name := fs.String("name", "", "its name as players read it")
	termsText := fs.String("terms", "", "the terms and conditions (text)")
	termsFile := fs.String("terms-file", "", "the terms and conditions (a file)")
	entry := fs.Int64("entry", 0, "entry fee, cents")
	added := fs.Int64("added", 0, "the operator's addition to the prize pool, cents")
	startChips := fs.Int64("chips", 0, "starting tournament chips, in hundredths as the chip tray counts (100000 = 1,000 chips on the screen)")
	rounds := fs.Int("rounds", 0, "scheduled rounds")
	mins := fs.String("min", "", "minimum wager of round 1,2,… in hundredths of a chip (the last applies after)")
	maxi := fs.Int64("max", 0, "maximum wager a round in hundredths of a chip (0: none)")
	secret := fs.Int("secret", 0, "undisclosed wagers per player")
	pass := fs.Int("pass", 0, "pass cards per player")
	prizes := fs.String("prizes", "", "percent of the pool for 1st,2nd,…")
	players := fs.String("players", "", "MIN-MAX players")
	order := fs.Bool("order", false, "an order of wagering: a marker, each player wagers in turn (003 §10.9)")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("tournament configure: %w", err)
	}
	if fs.NArg() > 0 {
		// A word the flags did not take (and every flag after it) would be dropped silently.
		return nil, fmt.Errorf("tournament configure: %q is not a flag: the terms are given as -flag value", fs.Arg(0))
	}
	t := &pb.TournamentTerms{Id: *id, Name: *name, Terms: *termsText, EntryFee: *entry, AddedPrize: *added,
		StartingChips: *startChips, Rounds: int32(*rounds), Maximum: *maxi, SecretWagers: int32(*secret), PassCards: int32(*pass),
		OrderOfWagering: *order}
	if *termsFile != "" {
		b, err := os.ReadFile(*termsFile)
		if err != nil {
			return nil, fmt.Errorf("tournament configure: %w", err)
		}
		t.Terms = string(b)
	}
	var err error
	if t.Minimums, err = int64List(*mins); err != nil {
		return nil, fmt.Errorf("tournament configure: -min: %w", err)
	}
	if t.Prizes, err = int64List(*prizes); err != nil {
		return nil, fmt.Errorf("tournament configure: -prizes: %w", err)
	}
	if *players != "" {
		lo, hi, ok := strings.Cut(*players, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("tournament configure: -players %q: want MIN-MAX", *players)
		}
		t.MinPlayers, t.MaxPlayers = int32(a), int32(b)
	}
	return t, nil
}

func int64List(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func statusName(s pb.TournamentStatus) string {
	return strings.ToLower(strings.TrimPrefix(s.String(), "TOURNAMENT_STATUS_"))
}

// chips writes a count of tournament chips as the player's screen shows it (the chip tray's
// units, 100 = a 1 chip: 100000 → "1,000"), so the console, the printed results and the kiosk
// say the same count (issue 32 point 16). The flags take the count in those hundredths.
func chips(n int64) string { return money.Chips(n) }

// maxChips writes a round's maximum wager: "none" for the terms' 0 (no maximum beyond the
// player's chips).
func maxChips(n int64) string {
	if n == 0 {
		return "none"
	}
	return chips(n)
}

// chipList writes the minimums of the rounds, "10, 10, 20".
func chipList(ns []int64) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = chips(n)
	}
	return strings.Join(out, ", ")
}

func minimumOf(t *pb.TournamentTerms, round int32) int64 {
	m := t.GetMinimums()
	if len(m) == 0 {
		return 0
	}
	return m[min(max(int(round), 1), len(m))-1]
}

func place(s *pb.TournamentStanding) string {
	if s.Rank == 0 {
		return "-"
	}
	return strconv.Itoa(int(s.Rank))
}

// printStandings prints the tournament as it stands.
func printStandings(out io.Writer, tr *pb.Tournament) error {
	t := tr.GetTerms()
	fmt.Fprintf(out, "Tournament %s  %s  (%s)\n", t.GetId(), t.GetName(), statusName(tr.Status))
	if len(tr.Standings) > 0 {
		fmt.Fprintf(out, "%s  minimum %s  maximum %s  prize pool %s\n", roundName(tr), chips(minimumOf(t, tr.Round)), maxChips(t.GetMaximum()), money.Decimal(tr.PrizePool))
	}
	ordered := t.GetOrderOfWagering()
	if ordered && len(tr.Standings) > 0 {
		fmt.Fprintln(out, orderLine(tr))
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	head := "Place\tSeat\tChips\tState\tThis round\tUndisclosed left\tPasses left"
	if ordered {
		head += "\tOrder"
	}
	fmt.Fprintln(w, head)
	for _, s := range tr.Standings {
		stake := chips(s.RoundStake)
		if s.Secret {
			stake += " (undisclosed)"
		}
		state := s.State
		if s.InPlayoff {
			state += ", playoff"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d", place(s), s.TerminalId, chips(s.Chips), state, stake, s.SecretsLeft, s.PassesLeft)
		if ordered {
			var marks []string
			if s.TerminalId == tr.Marker {
				marks = append(marks, "marker")
			}
			if s.TerminalId == tr.Turn {
				marks = append(marks, "to wager")
			}
			if s.WageredInTurn {
				marks = append(marks, "wagered")
			}
			fmt.Fprintf(w, "\t%s", strings.Join(marks, ", "))
		}
		fmt.Fprintln(w)
	}
	return w.Flush()
}

// orderLine says the order of wagering now: whose box has the marker, whose turn it is.
func orderLine(tr *pb.Tournament) string {
	line := "Order of wagering: marker on " + tr.GetMarker()
	switch {
	case tr.GetTurn() != "":
		line += ", " + tr.GetTurn() + " to wager"
	case tr.GetRoundId() != "":
		line += ", no one to wager"
	}
	return line
}

// roundName is the round under way as people read it: "Round 2 of 3", or in a playoff
// "Playoff round 1 (after 3 rounds)" — a playoff round is numbered within the playoff, never
// "Round 4 of 3".
func roundName(tr *pb.Tournament) string {
	if n := playoffRound(tr.GetTerms(), tr.GetRound()); tr.GetStatus() == pb.TournamentStatus_TOURNAMENT_STATUS_PLAYOFF && n > 0 {
		return fmt.Sprintf("Playoff round %d (after %d rounds)", n, tr.GetTerms().GetRounds())
	}
	return fmt.Sprintf("Round %d of %d", tr.GetRound(), tr.GetTerms().GetRounds())
}

// playoffRound is round n's number within the playoff, which follows the scheduled rounds.
func playoffRound(t *pb.TournamentTerms, n int32) int32 { return n - t.GetRounds() }

// tournamentStatusLine is `dealer status`'s line on the tournament under way ("" when none
// is): its id, round n of N and status, and with an order of wagering the marker and turn.
func tournamentStatusLine(ctx context.Context, d pb.DealerServiceClient) string {
	tr, err := d.GetTournament(ctx, &pb.GetTournamentRequest{})
	if err != nil || tr == nil || tr.GetStatus() == pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED ||
		tr.GetStatus() == pb.TournamentStatus_TOURNAMENT_STATUS_CANCELLED {
		return "" // none on record (NotFound), or the last one is over
	}
	return tournamentLine(tr)
}

// tournamentLine is the status line of tournament tr.
func tournamentLine(tr *pb.Tournament) string {
	name := roundName(tr)
	line := fmt.Sprintf("TOURNAMENT %s: %s, %s", tr.GetTerms().GetId(), strings.ToLower(name[:1])+name[1:], statusName(tr.GetStatus()))
	if tr.GetTerms().GetOrderOfWagering() && len(tr.GetStandings()) > 0 {
		line += "; " + strings.ToLower(orderLine(tr)[:1]) + orderLine(tr)[1:]
	}
	return line
}

// printResults prints the tournament's record for the operator: the terms, every round with
// each player's wager, return and chips, and the final places with their prizes.
func printResults(out io.Writer, tr *pb.Tournament) error {
	t := tr.GetTerms()
	fmt.Fprintf(out, "TOURNAMENT RESULTS  %s  %s\n", t.GetId(), t.GetName())
	fmt.Fprintf(out, "Status: %s", statusName(tr.Status))
	if tr.Note != "" {
		fmt.Fprintf(out, " (%s)", tr.Note)
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "Players: %d  entry %s  added %s  prize pool %s  prizes %v %%\n", len(tr.Standings),
		money.Decimal(t.GetEntryFee()), money.Decimal(t.GetAddedPrize()), money.Decimal(tr.PrizePool), t.GetPrizes())
	fmt.Fprintf(out, "Starting chips %s  rounds %d  minimums %s  maximum %s  undisclosed wagers %d  pass cards %d\n",
		chips(t.GetStartingChips()), t.GetRounds(), chipList(t.GetMinimums()), maxChips(t.GetMaximum()), t.GetSecretWagers(), t.GetPassCards())
	if t.GetOrderOfWagering() {
		fmt.Fprintln(out, "Order of wagering: the marker's player first, then to the left (seat order); the marker moves one to the left each round")
	}
	if t.GetTerms() != "" {
		fmt.Fprintf(out, "Terms and conditions:\n  %s\n", strings.ReplaceAll(strings.TrimSpace(t.GetTerms()), "\n", "\n  "))
	}
	for _, r := range tr.Rounds {
		kind, n := "Round", r.N
		if r.Playoff {
			kind, n = "Playoff round", playoffRound(t, r.N)
		}
		if r.Invalidated != "" {
			// Kept on the record with its wagers, all returned; not counted as played.
			fmt.Fprintf(out, "\n%s %d (%s)  INVALIDATED: %s  every wager returned, not counted\n", kind, n, r.RoundId, r.Invalidated)
		} else {
			fmt.Fprintf(out, "\n%s %d (%s)  outcome %s  minimum %s\n", kind, n, r.RoundId, r.Outcome, chips(minimumOf(t, r.N)))
		}
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "  Seat\tStaked\tReturned\tChips\tWagers\tNote")
		for _, p := range r.Plays {
			note := p.Result
			switch {
			case p.Passed:
				note = "pass card"
			case p.Secret:
				note = strings.TrimSpace("undisclosed " + note)
			}
			if p.Decision != "" {
				note += "; " + p.Decision
			}
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\t%s\n", p.TerminalId, chips(p.Staked), chips(p.Returned), chips(p.Chips), p.Wagers, note)
		}
		w.Flush()
	}
	if tr.Status == pb.TournamentStatus_TOURNAMENT_STATUS_CANCELLED {
		return printRefunds(out, tr)
	}
	fmt.Fprintln(out, "\nFinal places")
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "  Place\tSeat\tChips\tState\tPrize")
	for _, s := range tr.Standings {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\n", place(s), s.TerminalId, chips(s.Chips), s.State, money.Decimal(s.Prize))
	}
	return w.Flush()
}

// printRefunds lists a cancelled tournament's entry fees owed back, seat by seat, and their
// total (003 §10.3.4: "in the event of cancellation all entry fees will be refunded").
func printRefunds(out io.Writer, tr *pb.Tournament) error {
	fmt.Fprintln(out, "\nEntry fees owed back (003 §10.3.4)")
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "  Seat\tRefund")
	var total int64
	for _, s := range tr.Standings {
		fmt.Fprintf(w, "  %s\t%s\n", s.TerminalId, money.Decimal(s.Refund))
		total += s.Refund
	}
	fmt.Fprintf(w, "  Total\t%s\n", money.Decimal(total))
	return w.Flush()
}
