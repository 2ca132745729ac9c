// Command wnd is the winning number display and jackpot meter display of a table (issue 29): a
// full-screen window on a TV at the table, following the table server with a display
// certificate (`tableserver pki init -displays wnd-1`, or `pki issue -role display -id wnd-2`),
// which may call nothing but the display's stream. It takes no input. When the table is lost it
// says so on screen and reconnects.
//
//	wnd -server table1.casino.lan:7443 -pki /etc/ats/pki -id wnd-1
//
// The language is the system locale's (English, or simplified Chinese under a zh locale), or
// -lang's.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/ui/look"
	"github.com/tablegames/ats/wnd"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("wnd", flag.ContinueOnError)
	addr := fs.String("server", "127.0.0.1:7443", "the table server's address (its certificate must name the host: tableserver pki init -hosts)")
	dir := fs.String("pki", "pki", "the PKI directory with ca.pem and the display's ID.pem, ID-key.pem")
	id := fs.String("id", "wnd-1", "the display's certificate id (role display)")
	windowed := fs.Bool("windowed", false, "a window of -size instead of full screen (for a desk, or a test)")
	size := fs.String("size", "1920x1080", "-windowed: the window's size, WIDTHxHEIGHT")
	language := fs.String("lang", "", "en or zh_Hans (default: the system locale's)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	w, h, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wnd: -size:", err)
		return 2
	}
	if *language != "" && *language != "en" && *language != "zh_Hans" {
		fmt.Fprintf(os.Stderr, "wnd: -lang %q: en or zh_Hans\n", *language)
		return 2
	}
	if err := wnd.SetLanguage(*language); err != nil {
		fmt.Fprintln(os.Stderr, "wnd:", err)
		return 1
	}
	tlsCfg, err := client.LoadTLS(*dir, *id)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wnd: the display's certificate: %v (issue one with: tableserver pki issue -role display -id %s)\n", err, *id)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a := fyneapp.NewWithID("com.tablegames.ats.wnd")
	if wnd.Chinese() {
		a.Settings().SetTheme(look.ChineseTheme{Theme: theme.DefaultTheme()})
	}
	win := a.NewWindow("WND")
	screen := wnd.New()
	win.SetContent(screen.Content())
	win.SetPadded(false)
	if *windowed {
		win.Resize(fyne.NewSize(float32(w), float32(h)))
	} else {
		win.SetFullScreen(true)
	}
	go func() {
		<-ctx.Done()
		fyne.Do(a.Quit)
	}()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var st wnd.State
	show := func() { st.Now = time.Now(); screen.Show(st) }
	go client.WatchDisplay(ctx, client.DisplayConfig{Addr: *addr, TLS: tlsCfg, Logger: log}, func(u client.DisplayUpdate) {
		fyne.Do(func() {
			st.Up = u.Up
			if u.Up {
				st.Display, st.Ever = u.State, true
			}
			show()
		})
	})
	// The closure sign counts its minutes down between the table's changes.
	go func() {
		t := time.NewTicker(15 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				fyne.Do(func() {
					if !st.Display.ClosingAt.IsZero() {
						show()
					}
				})
			}
		}
	}()
	win.ShowAndRun()
	return 0
}

// parseSize reads WIDTHxHEIGHT.
func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(s, "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 320 || h < 200 {
		return 0, 0, fmt.Errorf("%q is not WIDTHxHEIGHT (at least 320x200)", s)
	}
	return w, h, nil
}
