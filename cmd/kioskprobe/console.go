package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// The dealer's console dealt by touch (issue 28): `kioskprobe console` starts a table server
// (tableserver, a PKI of its own, the touchtable rules: buy-in and cash-out at the dealer), a
// player's terminal (a real client.Client that accepts the dealer's buy-in and stakes 17) and the
// console binary in a real window on $DISPLAY, and deals whole rounds by tapping the console's
// words as the journeys do: open the table, credit a buy-in on seat T01's amount pad, start the
// round, no more bets, the outcome on the number grid with its confirmation, and the
// supervisor's correction. It checks each step on the screen and, at the end, the table's
// ledger conserved and T01's balance as the rules make it.
//
// The console runs on the dealer's certificate, as on a table: the supervisor's correction is
// made with the supervisor's card (S1) and PIN typed on the panel, which the table server checks
// against its supervisors' PIN file.

// supervisorPIN is supervisor S1's PIN in the probe's table.
const supervisorPIN = "4321"

type consoleOptions struct {
	console, tableserver string
	journeyOptions
}

func consoleMain(args []string) error {
	var o consoleOptions
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.StringVar(&o.console, "console", "build/console", "the console binary (go build ./cmd/console)")
	fs.StringVar(&o.tableserver, "tableserver", "build/tableserver", "the table server binary (go build ./cmd/tableserver)")
	fs.StringVar(&o.out, "out", "build/console-journey", "where the screenshots are kept")
	fs.StringVar(&o.translations, "translations", "assets/translations", "the translation files")
	fs.IntVar(&o.band, "band", 110, "height of the bands read as uniform blocks (pixels)")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Second, "how long a step may wait for its words")
	rounds := fs.Int("rounds", 2, "rounds dealt")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rounds < 1 {
		return fmt.Errorf("-rounds %d: at least one round is dealt (the supervisor corrects the last)", *rounds)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	tr, err := loadTranslation(o.translations, "en")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "console-journey")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pkiDir := filepath.Join(dir, "pki")
	if out, err := exec.Command(o.tableserver, "pki", "init", "-dir", pkiDir, "-terminals", "T01",
		"-dealers", "dealer").CombinedOutput(); err != nil {
		return fmt.Errorf("pki init: %v: %s", err, out)
	}
	// The supervisor's card S1 (typed "1" on the panel: the console prefixes the S) and its PIN,
	// in the PIN file the table server reads at start (PKI/supervisors).
	setPIN := exec.Command(o.tableserver, "supervisor", "set-pin", "-file", filepath.Join(pkiDir, "supervisors"), "-id", "S1", "-iterations", "1000")
	setPIN.Stdin = strings.NewReader(supervisorPIN + "\n")
	if out, err := setPIN.CombinedOutput(); err != nil {
		return fmt.Errorf("supervisor set-pin: %v: %s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	srv := exec.Command(o.tableserver, "-pki", pkiDir, "-db", filepath.Join(dir, "table.db"), "-listen", addr, "-rules", "touchtable")
	srvLog, err := os.Create(filepath.Join(o.out, "tableserver.log"))
	if err != nil {
		return err
	}
	defer srvLog.Close()
	srv.Stdout, srv.Stderr = srvLog, srvLog
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	player, err := startPlayer(ctx, pkiDir, addr)
	if err != nil {
		return err
	}
	defer player.Close()

	x, err := xgb.NewConn()
	if err != nil {
		return fmt.Errorf("connect to $DISPLAY: %w", err)
	}
	defer x.Close()
	if err := xtest.Init(x); err != nil {
		return fmt.Errorf("the X server has no XTEST extension: %w", err)
	}
	scr := xproto.Setup(x).DefaultScreen(x)
	size := fmt.Sprintf("%dx%d", scr.WidthInPixels, scr.HeightInPixels)
	cmd := exec.Command(o.console, "-server", addr, "-pki", pkiDir, "-id", "dealer", "-size", size, "-lang", "en")
	conLog, err := os.Create(filepath.Join(o.out, "console-"+size+".log"))
	if err != nil {
		return err
	}
	defer conLog.Close()
	cmd.Stdout, cmd.Stderr = conLog, conLog
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the console: %w", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	k := &kioskRun{o: o.journeyOptions, tr: tr, lang: "en", size: size, cmd: cmd, x: x, root: scr.Root,
		title: "ATS dealer console", prefix: filepath.Join(o.out, "console-"+size)}
	if err := k.waitWindow(); err != nil {
		return err
	}
	T := tr.T
	type act struct {
		name string
		do   func() error
		want []string // one line's words
	}
	// The console's right-hand panel starts where its width leaves it (console.Screen: 860 px
	// wide from 1600 px, else 600): a digit or a number is tapped there, never in a seat's
	// balance on the left.
	right := int(scr.WidthInPixels) - 600
	if scr.WidthInPixels >= 1600 {
		right = int(scr.WidthInPixels) - 860
	}
	// Nor in the header's last outcomes ("Last 17", top right from round 2 on): the header is
	// two lines of text, under a tenth of the screen's height.
	below := int(scr.HeightInPixels) / 10
	taps := func(words ...string) func() error {
		return func() error {
			for _, w := range words {
				var err error
				switch {
				case w == "T01":
					err = k.tapWord(w, 0, right, 0)
				case strings.Trim(w, "0123456789") == "":
					err = k.tapWord(w, right, 1<<30, below)
				default:
					err = k.tapWords(w)
				}
				if err != nil {
					return err
				}
			}
			return nil
		}
	}
	steps := []act{
		{"the table, closed", nil, []string{T("Open the table")}},
		{"open the table", taps(T("Open the table")), []string{T("Close the table")}},
		{"T01's amount pad", taps("T01"), []string{T("Credit buy-in")}},
		{"type 50, credit it", taps("5", "0", T("Credit buy-in")), []string{"credited", "T01"}},
		{"the player accepts: T01 holds 50.00", nil, []string{T("Seat"), "T01", "50.00"}},
		{"back to the round", taps(T("Back")), []string{T("Start the round")}},
	}
	for r := range *rounds {
		steps = append(steps,
			act{fmt.Sprintf("round %d: start", r+1), taps(T("Start the round")), []string{T("Place your bets")}},
			act{"T01 stakes 5.00 on 17", nil, []string{T("Stake"), "5.00"}},
			act{"no more bets", taps(T("No more bets")), []string{T("No more bets")}},
			act{"the outcome's grid", taps(T("Enter the outcome")), []string{T("The winning number")}},
			act{"17, its confirmation", taps("17"), []string{T("Enter this outcome?")}},
			act{"confirmed", taps(T("Confirm")), []string{"Outcome", "17", "entered"}},
		)
	}
	steps = append(steps,
		act{"the supervisor's card", taps(T("Supervisor"), "1", T("Next")), []string{T("Supervisor's PIN")}},
		act{"the supervisor's PIN", taps(append(strings.Split(supervisorPIN, ""), T("Next"))...), []string{T("Correct the outcome")}},
		act{"the true outcome: 18", taps(T("Correct the outcome"), "18", T("Confirm")), []string{"corrected", "18"}},
	)
	for i, s := range steps {
		k.stepNum = i + 1
		if s.do != nil {
			if err := s.do(); err != nil {
				return fmt.Errorf("step %d %q: %w (console log %s)", i+1, s.name, err, conLog.Name())
			}
		}
		if err := k.expect(step{name: s.name, want: func(translation) [][]string { return [][]string{s.want} }}); err != nil {
			return fmt.Errorf("step %d %q: %w", i+1, s.name, err)
		}
		fmt.Printf("ok   %s %s\n", size, s.name)
	}
	// The ledger: conserved, and T01's balance as the rules make it: 50.00 bought in, 17 won
	// (35 to 1) each round, and the last round corrected to 18 (its stake lost).
	st, err := player.status(ctx)
	if err != nil {
		return err
	}
	want := int64(5000 + (*rounds-1)*500*35 - 500)
	var got int64 = -1
	for _, t := range st.Terminals {
		if t.TerminalId == "T01" {
			got = t.Balance
		}
	}
	if !st.Conserved || got != want {
		return fmt.Errorf("the ledger: conserved %v, T01's balance %d, want %d", st.Conserved, got, want)
	}
	fmt.Printf("ok   %s the ledger conserved; T01 holds %d cents\n", size, got)
	return nil
}

// tapWord taps the lowest word read as exactly w (folded) whose centre is between x0 and x1
// and below y0: a digit of a pad, a number of the grid, a seat's name, where the same
// characters appear in other words of the screen.
func (k *kioskRun) tapWord(w string, x0, x1, y0 int) error {
	deadline := time.Now().Add(k.o.timeout)
	for {
		var hit *word
		match := func(r reading) *word {
			var h *word
			for _, l := range r.lines {
				for i := range l {
					c := l[i].centre()
					if fold(l[i].Text) == fold(w) && c.X >= x0 && c.X < x1 && c.Y >= y0 && (h == nil || c.Y > h.centre().Y) {
						h = &l[i]
					}
				}
			}
			return h
		}
		if err := k.look(func(r reading) bool { return match(r) != nil }); err != nil {
			return err
		}
		if hit = match(k.last); hit != nil {
			return k.tap(hit.centre())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing to tap: no word reads %q between x %d and %d; screenshot %s; read:\n%s", w, x0, x1, k.shot, k.last.summary())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// player is terminal T01 played by the probe: it accepts every dealer buy-in and stakes 5.00
// on 17 in each wagering period; and a dealer's connection to read the table's status.
type player struct {
	c      *client.Client
	dealer *grpc.ClientConn
}

func startPlayer(ctx context.Context, pkiDir, addr string) (*player, error) {
	var tlsCfg, dealerCfg = mustTLS(pkiDir, "T01"), mustTLS(pkiDir, "dealer")
	if tlsCfg == nil || dealerCfg == nil {
		return nil, errors.New("the probe's certificates are not in " + pkiDir)
	}
	var c *client.Client
	var err error
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if c, err = client.Dial(client.Config{Addr: addr, TLS: tlsCfg, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, err
		}
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(dealerCfg)))
	if err != nil {
		c.Close()
		return nil, err
	}
	seventeen, err := roulette.ParseBet(roulette.Layout{Wheel: roulette.SingleZero}, roulette.BetSpec{Name: "straight", Numbers: []string{"17"}})
	if err != nil {
		return nil, err
	}
	go func() {
		for ev := range c.Events() {
			switch e := ev.(type) {
			case table.BuyInOffered:
				if _, err := c.ConfirmBuyIn(ctx, "accept-"+e.ID, e.ID, true); err != nil {
					fmt.Println("T01: confirming the buy-in:", err)
				}
			case table.PhaseChanged:
				if e.Phase == table.PhaseWagering {
					if _, err := c.UpdateSlip(ctx, e.RoundID, 1, []table.SlipBet{{Bet: seventeen, Amount: 500}}); err != nil {
						fmt.Println("T01: the stake on 17:", err)
					}
				}
			}
		}
	}()
	// The table server opens its ledger before it listens (seconds on a loaded machine): the
	// console starts once the player's terminal is connected, so its first screen is the table's.
	for deadline := time.Now().Add(90 * time.Second); !c.Connected(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.Close()
			conn.Close()
			return nil, errors.New("T01 did not reach the table server within 90 s")
		}
	}
	return &player{c: c, dealer: conn}, nil
}

func mustTLS(dir, id string) *tls.Config {
	files := pki.Files{Dir: dir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		return nil
	}
	pair, err := files.Load(id)
	if err != nil {
		return nil
	}
	cfg, err := pki.ClientTLS(caPEM, pair, "")
	if err != nil {
		return nil
	}
	return cfg
}

func (p *player) status(ctx context.Context) (*pb.TableStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return pb.NewDealerServiceClient(p.dealer).GetStatus(ctx, &pb.GetStatusRequest{})
}

func (p *player) Close() {
	p.c.Close()
	p.dealer.Close()
}
