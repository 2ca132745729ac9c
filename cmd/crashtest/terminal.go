package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/client"
)

// runTerminal is the process the harness kills: the station exactly as the kiosk builds it,
// without a screen, played by a bot that bets every round and cashes out now and then. It says
// on stdout each record it journals ("rec note-escrow"), so the harness can kill it right after
// any step; "drain" on stdin makes it stop betting, cash out and exit once nothing is pending.
func runTerminal(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("terminal", flag.ContinueOnError)
	dir := fs.String("dir", "", "harness directory (journal, pki)")
	addr := fs.String("addr", "", "table server address")
	acc := fs.String("acceptor", "", "note acceptor device")
	prn := fs.String("printer", "", "printer device")
	seed := fs.Uint64("seed", 1, "bot seed")
	idle := fs.Bool("idle", false, "no bot: the terminal only recovers (a planted fault's check, where money moving would race the harness)")
	cashout := fs.Int("cashout", 30, "percent of rounds after which the bot cashes out (-kill floor wants many tickets)")
	verbose := fs.Bool("v", false, "log to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.DiscardHandler)
	if *verbose {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	tlsCfg, err := loadTerminalTLS(*dir)
	if err != nil {
		return err
	}
	var outMu sync.Mutex
	say := func(format string, a ...any) {
		outMu.Lock()
		fmt.Fprintf(stdout, format+"\n", a...)
		outMu.Unlock()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := station.Start(ctx, station.Config{
		ID: terminalID, Journal: journalPath(*dir), Client: client.Config{Addr: *addr, TLS: tlsCfg, Logger: log},
		Acceptor: *acc, Printer: *prn, AcceptorPoll: 20 * time.Millisecond, PrinterPoll: 25 * time.Millisecond,
		PrintRetries: 3, RetryEvery: 100 * time.Millisecond, Log: log,
	})
	if err != nil {
		return err
	}
	defer st.Close()
	st.Journal.Observe(func(r journal.Record) { say("rec %s", r.Kind) })
	say("ready")

	b := &bot{st: st, rng: rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15)), say: say, cashoutPct: *cashout}
	drain := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			if sc.Text() == "drain" {
				close(drain)
				return
			}
		}
	}()
	<-st.Recovered()
	if err := st.Refused(); err != nil {
		// The journal failed its check against the table's anchor: no money. The harness
		// (planted faults) expects exactly this, and kills the process.
		say("refused %v", err)
		<-drain
		return err
	}
	say("recovered")
	for {
		select {
		case <-drain:
			bal, err := b.drain(ctx)
			if err != nil {
				return err
			}
			say("drained %d", bal)
			return nil
		case <-time.After(time.Duration(40+b.rng.IntN(80)) * time.Millisecond):
			if !*idle {
				b.step(ctx)
			}
		}
	}
}

func loadTerminalTLS(dir string) (*tls.Config, error) {
	return client.LoadTLS(pkiDir(dir), terminalID)
}

// bot plays the station as a player would: a few chips on the layout each round, sometimes a
// cash-out between rounds.
type bot struct {
	st         *station.Station
	rng        *rand.Rand
	cashoutPct int // percent of rounds after which it cashes out
	say        func(string, ...any)
	betRound   string
	seenWin    string
	cashing    bool
	mu         sync.Mutex
}

func (b *bot) step(ctx context.Context) {
	v := b.st.Terminal.View()
	if v.LastWin != nil && v.LastWin.RoundID != b.seenWin {
		b.seenWin = v.LastWin.RoundID
		// Between rounds, now and then, take the money.
		if v.Balance > 0 && b.rng.IntN(100) < b.cashoutPct {
			b.cashOut(ctx)
		}
	}
	if v.Phase != table.PhaseWagering || v.Locked || v.RoundID == b.betRound || v.Config.Layout.Wheel == 0 {
		return
	}
	if v.Available < 1000 || b.busy() {
		return
	}
	b.betRound = v.RoundID
	layout := v.Config.Layout
	n := 1 + b.rng.IntN(4)
	for range n {
		var bet roulette.Bet
		switch b.rng.IntN(3) {
		case 0:
			nums := layout.Wheel.Numbers()
			s, err := layout.Inside(roulette.Straight, []roulette.Number{nums[b.rng.IntN(len(nums))]})
			if err != nil {
				continue
			}
			bet = roulette.Bet{Spot: s}
			b.st.Terminal.SelectChip(100)
		case 1:
			s, err := layout.Outside([]roulette.Kind{roulette.Red, roulette.Black, roulette.Even, roulette.Odd}[b.rng.IntN(4)], 0)
			if err != nil {
				continue
			}
			bet = roulette.Bet{Spot: s}
			b.st.Terminal.SelectChip(500)
		default:
			s, err := layout.Outside(roulette.Dozen, 1+b.rng.IntN(3))
			if err != nil {
				continue
			}
			bet = roulette.Bet{Spot: s}
			b.st.Terminal.SelectChip(500)
		}
		b.st.Terminal.Place(bet) // refused touches (limits, lock) are part of play
	}
	b.say("bot bet %s", v.RoundID)
}

func (b *bot) busy() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cashing
}

func (b *bot) cashOut(ctx context.Context) {
	b.mu.Lock()
	if b.cashing {
		b.mu.Unlock()
		return
	}
	b.cashing = true
	b.mu.Unlock()
	go func() {
		defer func() { b.mu.Lock(); b.cashing = false; b.mu.Unlock() }()
		b.say("bot cash-out")
		if err := b.st.Cashier.CashOut(ctx); err != nil {
			b.say("bot cash-out refused: %v", err)
		}
	}()
}

// drain stops betting and cashes out until the account is empty and no money flow is open.
func (b *bot) drain(ctx context.Context) (int64, error) {
	end := time.Now().Add(3 * time.Minute)
	for time.Now().Before(end) {
		time.Sleep(200 * time.Millisecond)
		if b.busy() {
			continue
		}
		pending, err := b.st.Journal.Pending(ctx)
		if err != nil {
			return 0, err
		}
		v := b.st.Terminal.View()
		if len(pending) > 0 || v.SlipTotal > 0 || !v.Connected {
			continue // a credit owed, a ticket in flight, or wagers still to settle
		}
		if v.Balance > 0 {
			if err := b.st.Cashier.CashOut(ctx); err != nil {
				b.say("bot drain cash-out: %v", err)
			}
			continue
		}
		return v.Balance, nil
	}
	pending, _ := b.st.Journal.Pending(ctx)
	return 0, fmt.Errorf("terminal did not drain: %d flows pending, view %+v", len(pending), b.st.Terminal.View())
}
