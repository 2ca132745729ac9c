package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// `kioskprobe wnd` is the winning number display's real-window check (issue 29): for each
// wheel it starts a table server (its own PKI, ledger and port), the real cmd/wnd binary full
// screen on the X display, deals a round with the dealer's RPCs, and reads the screen back with
// tesseract: the number dealt must be on screen LARGE (in the latest number's box, in glyphs at
// least 150 pixels high), and with a jackpot the meter's amount. On a jackpot that hits at the
// first contribution, terminal T01 bought in by the dealer stakes in the round, and the winning
// jackpot message (001 §2.2.8) must be read with the prize and the seat. The screenshots stay
// in -out.
func wndMain(args []string) error {
	fs := flag.NewFlagSet("wnd", flag.ContinueOnError)
	bin := fs.String("wnd", "", "the wnd binary (go build ./cmd/wnd)")
	tableserver := fs.String("tableserver", "", "the tableserver binary (go build ./cmd/tableserver)")
	out := fs.String("out", "build/wnd-probe", "where the screenshots are kept")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" || *tableserver == "" {
		return errors.New("-wnd and -tableserver are required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	failed := 0
	for _, c := range []wndCase{
		{name: "single-zero-jackpot", args: []string{"-jackpot-seed", "1234567", "-jackpot-ceiling", "99999999"},
			number: "32", amount: "12,345.67"},
		{name: "double-zero", args: []string{"-rules", "star"}, number: "00"},
		// The hidden trigger is drawn in (seed, ceiling]: a ceiling one cent above the seed
		// puts it there, so T01's stake of 5.00 (1 %: 5 cents) hits. The prize is the meter
		// with that stake's 5 cents; the meter shows the seed again.
		// Uncarded: Crown's rules play carded by default (SPEC §10), and this case is about the
		// display's hit message, not the card the stake would otherwise need.
		{name: "jackpot-hit", args: []string{"-jackpot-seed", "1234567", "-jackpot-ceiling", "1234568", "-jackpot-rate", "100", "-carded=false"},
			number: "32", amount: "12,345.67", won: "12,345.72", seat: "T01", stake: 500},
	} {
		start := time.Now()
		if err := c.run(*bin, *tableserver, *out); err != nil {
			fmt.Printf("FAIL wnd %s (%.0f s): %v\n", c.name, time.Since(start).Seconds(), err)
			failed++
			continue
		}
		fmt.Printf("ok   wnd %s (%.0f s): %s read large%s%s\n", c.name, time.Since(start).Seconds(), c.number, map[bool]string{true: ", the meter " + c.amount}[c.amount != ""],
			map[bool]string{true: ", the message " + c.message()}[c.won != ""])
	}
	if failed > 0 {
		return fmt.Errorf("%d of 3 failed (screenshots in %s)", failed, *out)
	}
	return nil
}

// wndCase is one table the display follows: the table server's flags, the number dealt, the
// jackpot meter's amount to read ("" for none), and the winning jackpot message's prize to read
// ("" for none) after seat (a terminal of the PKI) stakes stake cents in the round (0: no
// wager): the only stake, so the hit is won at that seat.
type wndCase struct {
	name, number, amount, won, seat string
	stake                           int64
	args                            []string
}

// message is the winning jackpot message as read: the display's words (wnd/screen.go, "Jackpot
// of %s won at terminal %s") after the currency symbol, which tesseract reads unreliably.
func (c wndCase) message() string { return c.won + " won at terminal " + c.seat }

func (c wndCase) run(bin, tableserver, out string) error {
	dir, err := os.MkdirTemp("", "wnd-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pki := filepath.Join(dir, "pki")
	if b, err := exec.Command(tableserver, "pki", "init", "-dir", pki, "-terminals", "T01").CombinedOutput(); err != nil {
		return fmt.Errorf("pki init: %w: %s", err, b)
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	logs := filepath.Join(out, c.name)
	ts := exec.Command(tableserver, append([]string{"-pki", pki, "-db", filepath.Join(dir, "table.db"), "-listen", addr}, c.args...)...)
	if ts.Stderr, err = os.Create(logs + "-tableserver.log"); err != nil {
		return err
	}
	if err := ts.Start(); err != nil {
		return err
	}
	defer func() { ts.Process.Kill(); ts.Wait() }()
	w := exec.Command(bin, "-server", addr, "-pki", pki, "-id", "wnd-1")
	if w.Stderr, err = os.Create(logs + "-wnd.log"); err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return err
	}
	defer func() { w.Process.Kill(); w.Wait() }()

	tlsCfg, err := client.LoadTLS(pki, "dealer")
	if err != nil {
		return err
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		return err
	}
	defer conn.Close()
	dealer := pb.NewDealerServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for {
		if _, err = dealer.GetStatus(ctx, &pb.GetStatusRequest{}); err == nil {
			break
		}
		if ctx.Err() != nil {
			return fmt.Errorf("the table server did not answer: %w (log %s-tableserver.log)", err, logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, err := dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		return fmt.Errorf("open: %w", err)
	}
	var stake func(roundID string) error
	if c.stake > 0 { // a buy-in is taken at an open table
		t01, err := seatBuyIn(ctx, dealer, pki, addr, c.seat, 100*c.stake)
		if err != nil {
			return err
		}
		defer t01.Close()
		stake = func(roundID string) error { return stakeOn17(ctx, t01, c.seat, roundID, c.stake) }
	}
	if err := deal(ctx, dealer, c.number, stake); err != nil {
		return err
	}
	// Read until the screen shows it: the window and the stream take a moment to come up.
	shot := logs + ".png"
	var last reading
	var large []word
	missing := []string{"anything (the time ran out before the first screenshot)"}
	for ctx.Err() == nil {
		if err := screenshot(shot); err != nil {
			return err
		}
		if large, err = readLarge(shot); err != nil {
			return err
		}
		if last, err = ocr(shot, "eng", 110, c.showsJackpot); err != nil {
			return err
		}
		if missing = c.missing(last, large); len(missing) == 0 {
			return nil
		}
		time.Sleep(time.Second)
	}
	pending := "none"
	if st, err := dealer.GetStatus(context.Background(), &pb.GetStatusRequest{}); err == nil && st.PendingJackpot != nil {
		pending = fmt.Sprintf("%s %d cents", st.PendingJackpot.TerminalId, st.PendingJackpot.Amount)
	}
	return fmt.Errorf("not read: %s (the table's hit waiting for the pit boss: %s); screenshot %s; read:\n%s",
		strings.Join(missing, "; "), pending, shot, last.summary())
}

// missing is what the screen does not show of what it must: the number dealt in the latest
// number's box in glyphs at least 150 pixels high, the meter's amount, the winning jackpot
// message. Nothing when it shows all of it.
func (c wndCase) missing(r reading, large []word) []string {
	big := false
	for _, w := range large {
		// A stray mark beside the glyphs is read as punctuation ("32.", "00°"): the digits are
		// matched.
		digits := strings.TrimFunc(fold(w.Text), func(r rune) bool { return !unicode.IsDigit(r) })
		if digits == c.number && w.H >= 150 {
			big = true
		}
	}
	var out []string
	if !big {
		out = append(out, fmt.Sprintf("%s large (read in its box: %v)", c.number, large))
	}
	return append(out, c.jackpotMissing(r)...)
}

// jackpotMissing is what the page does not read of the meter's amount and, at a hit, the
// winning message on one line: its words, the prize and the seat.
func (c wndCase) jackpotMissing(r reading) []string {
	var out []string
	if _, _, ok := r.find(c.amount); c.amount != "" && !ok {
		out = append(out, fmt.Sprintf("the meter %q", c.amount))
	}
	if _, _, ok := r.find("Jackpot of", c.message()); c.won != "" && !ok {
		out = append(out, fmt.Sprintf("the winning jackpot message %q", c.message()))
	}
	return out
}

// showsJackpot reports whether the page reads all the case's jackpot: enough for the page's
// read (ocr) to stop before its bands.
func (c wndCase) showsJackpot(r reading) bool { return len(c.jackpotMissing(r)) == 0 }

// The latest number's box on the display's 1920×1080 design (wnd/screen.go, the layout's
// "the latest number"), scaled as the display scales it to the screen.
const numberX, numberY, numberW, numberH = 90, 230, 540, 360

// readLarge reads the latest number's box of a screenshot. Tesseract reads no glyph 300 pixels
// high, nor white on red: the box is cut out, shrunk to a quarter, and made black on white
// first. The words' boxes are given back in the screen's pixels.
func readLarge(shot string) ([]word, error) {
	f, err := os.Open(shot)
	if err != nil {
		return nil, err
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shot, err)
	}
	u := min(float64(cfg.Width)/1920, float64(cfg.Height)/1080)
	ox, oy := (float64(cfg.Width)-1920*u)/2, (float64(cfg.Height)-1080*u)/2
	crop := fmt.Sprintf("%dx%d+%d+%d", int(numberW*u), int(numberH*u), int(ox+numberX*u), int(oy+numberY*u))
	small := strings.TrimSuffix(shot, ".png") + "-number.png"
	const shrink = 4
	if b, err := exec.Command("convert", shot, "-crop", crop, "+repage", "-resize", fmt.Sprintf("%d%%", 100/shrink),
		"-colorspace", "gray", "-negate", "-threshold", "50%", small).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("convert: %w: %s", err, b)
	}
	tsv, err := tesseract(small, "eng", "7")
	if err != nil {
		return nil, err
	}
	lines, err := parseTSV(tsv, nil)
	if err != nil {
		return nil, err
	}
	var out []word
	for _, l := range lines {
		for _, w := range l {
			w.X, w.Y, w.W, w.H = w.X*shrink, w.Y*shrink, w.W*shrink, w.H*shrink
			out = append(out, w)
		}
	}
	return out, nil
}

// seatBuyIn connects the seat's terminal and credits it amount cents as a dealer buy-in, which
// it accepts (a buy-in is the player's to confirm on the terminal before it is theirs to stake).
func seatBuyIn(ctx context.Context, d pb.DealerServiceClient, pkiDir, addr, seat string, amount int64) (*client.Client, error) {
	tlsCfg := mustTLS(pkiDir, seat)
	if tlsCfg == nil {
		return nil, fmt.Errorf("no certificate of %s in %s", seat, pkiDir)
	}
	c, err := client.Dial(client.Config{Addr: addr, TLS: tlsCfg, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return nil, err
	}
	go func() { // the terminal's events are not the probe's to read: drained
		for range c.Events() {
		}
	}()
	// The table knows a terminal once it has connected with its certificate.
	for !c.Connected() {
		if ctx.Err() != nil {
			c.Close()
			return nil, fmt.Errorf("%s did not reach the table server: %w", seat, ctx.Err())
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, err := d.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "wnd-probe-buy-in", TerminalId: seat, Amount: amount})
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("the dealer's buy-in for %s: %w", seat, err)
	}
	if _, err := c.ConfirmBuyIn(ctx, "wnd-probe-accept", b.BuyInId, true); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s accepting the buy-in: %w", seat, err)
	}
	return c, nil
}

// stakeOn17 is the seat's slip of amount cents straight up on 17, acknowledged by the table.
func stakeOn17(ctx context.Context, c *client.Client, seat, roundID string, amount int64) error {
	seventeen, err := roulette.ParseBet(roulette.Layout{Wheel: roulette.SingleZero}, roulette.BetSpec{Name: "straight", Numbers: []string{"17"}})
	if err != nil {
		return err
	}
	if _, err := c.UpdateSlip(ctx, roundID, 1, []table.SlipBet{{Bet: seventeen, Amount: amount}}); err != nil {
		return fmt.Errorf("%s's stake on 17: %w", seat, err)
	}
	return nil
}

// deal runs one round to the number at the open table: start, the stake (if any) in the
// wagering period, the ball dropping, the outcome.
func deal(ctx context.Context, d pb.DealerServiceClient, number string, stake func(roundID string) error) error {
	st, err := d.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	if stake != nil {
		if err := stake(st.RoundId); err != nil {
			return err
		}
	}
	if _, err := d.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
		return fmt.Errorf("ball dropping: %w", err)
	}
	if _, err := d.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: number}); err != nil {
		return fmt.Errorf("outcome %s: %w", number, err)
	}
	return nil
}

// freeAddr is a loopback address with a port free now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strings.Replace(l.Addr().String(), "[::1]", "127.0.0.1", 1), nil
}
