// Command console is the dealer's console (issue 28): a full-screen touch panel the dealer runs
// the table from, following the table live on DealerService.WatchTable with the dealer's
// certificate. cmd/dealer stays, for supervisors and scripts.
//
//	console -server HOST:7443 -pki DIR [-id dealer] [-size 1920x1080] [-lang en|zh_Hans] [-fullscreen]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/tablegames/ats/console"
	"github.com/tablegames/ats/console/model"
	"github.com/tablegames/ats/server/pki"
	"github.com/tablegames/ats/ui/look"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// options are the console's flags.
type options struct {
	server, pki, id, lang string
	size                  fyne.Size
	fullscreen            bool
}

func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.server, "server", "127.0.0.1:7443", "the table server's address")
	fs.StringVar(&o.pki, "pki", "pki", "the PKI directory (ca.pem and the dealer's certificate)")
	fs.StringVar(&o.id, "id", "dealer", "the dealer's certificate name in the PKI directory")
	fs.StringVar(&o.lang, "lang", "", "the console's language: en or zh_Hans (default: the system's)")
	size := fs.String("size", "1920x1080", "the window's size: 1920x1080 or 1280x800")
	fs.BoolVar(&o.fullscreen, "fullscreen", false, "full screen (the console's panel)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	w, h, ok := strings.Cut(*size, "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || wi < 1024 || hi < 600 || wi > 7680 || hi > 4320 {
		return o, fmt.Errorf("-size %q: want WIDTHxHEIGHT, e.g. 1920x1080 or 1280x800", *size)
	}
	o.size = fyne.NewSize(float32(wi), float32(hi))
	switch o.lang {
	case "", "en", "zh_Hans":
	default:
		return o, fmt.Errorf("-lang %q: en or zh_Hans", o.lang)
	}
	return o, nil
}

func run(args []string, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "console:", err)
		return 2
	}
	if err := look.SetLanguage(o.lang); err != nil {
		fmt.Fprintln(stderr, "console: -lang:", err)
		return 2
	}
	files := pki.Files{Dir: o.pki}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		fmt.Fprintln(stderr, "console:", err)
		return 1
	}
	pair, err := files.Load(o.id)
	if err != nil {
		fmt.Fprintln(stderr, "console:", err)
		return 1
	}
	tlsCfg, err := pki.ClientTLS(caPEM, pair, "") // gRPC checks the server's certificate against -server's host
	if err != nil {
		fmt.Fprintln(stderr, "console:", err)
		return 1
	}
	con, err := model.Dial(model.Config{Addr: o.server, TLS: tlsCfg})
	if err != nil {
		fmt.Fprintln(stderr, "console:", err)
		return 1
	}
	defer con.Close()

	a := fyneapp.NewWithID("com.tablegames.ats.console")
	a.Settings().SetTheme(look.Base())
	w := a.NewWindow("ATS dealer console")
	s := console.New(con, time.Now, o.size)
	defer s.Stop()
	w.SetContent(s.Content())
	w.SetPadded(false)
	w.Resize(o.size)
	w.SetFullScreen(o.fullscreen)
	con.OnChange(func() { fyne.Do(func() { s.Show(con.View()) }) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go con.Run(ctx)
	w.ShowAndRun()
	return 0
}
