package server

import (
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// The winning number display and the jackpot meter display (issue 29; 001 §2.2.4, §2.2.8, 004
// §2.2(d)): a screen every player at the table sees, fed by DisplayService.Watch under its own
// certificate role (display), which may call nothing else (roles.go).
//
// A display is told what the table tells everyone and nothing of any one player's: the
// state is built under the table's lock from the engine's own fields (table.DisplayOf), and
// holds no balance, account, card or PIN. It is pushed, not polled: every event the table
// broadcasts to all terminals (an outcome, a phase, limits, the meter, a closure, a jackpot
// won) wakes each display stream through a one-place channel, so a burst of events while a
// stream is sending is one wake and one state, the latest. A stream sends a state only when it
// differs from the one it sent last.

// JackpotWinShown is how long a display shows the winning jackpot message after the hit:
// long enough to be read from across the pit, short enough that the next hit's is not
// confused with it.
const JackpotWinShown = 2 * time.Minute

// MaxPromotionRunes bounds the operator's promotional text: one line a TV shows whole.
const MaxPromotionRunes = 200

// displayWatch is one display stream's wake-up: one place, so wakes coalesce.
type displayWatch struct{ wake chan struct{} }

// watchDisplay registers a display stream.
func (t *Table) watchDisplay() *displayWatch {
	w := &displayWatch{wake: make(chan struct{}, 1)}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.displays == nil {
		t.displays = map[*displayWatch]struct{}{}
	}
	t.displays[w] = struct{}{}
	return w
}

func (t *Table) unwatchDisplay(w *displayWatch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.displays, w)
}

// wakeDisplays tells every display stream the table changed, never waiting. Called with t.mu
// held.
func (t *Table) wakeDisplays() {
	for w := range t.displays {
		select {
		case w.wake <- struct{}{}:
		default: // already woken: it reads the latest state when it runs
		}
	}
}

// displayHears is the display's part of a broadcast (send, with t.mu held): a jackpot won is
// remembered for the winning message, one voided forgotten; then every display is woken.
func (t *Table) displayHears(ev *event) {
	if j, ok := ev.ev.(table.JackpotWon); ok {
		switch {
		case j.Void:
			if t.jackpotWin != nil && t.jackpotWin.RoundID == j.RoundID {
				t.jackpotWin = nil
			}
		case !j.Confirmed: // the hit; its confirmation later changes nothing a display shows
			t.jackpotWin = &table.JackpotWin{RoundID: j.RoundID, Seat: j.TerminalID, Amount: j.Amount, Until: ev.at.Add(JackpotWinShown)}
		}
	}
	t.wakeDisplays()
}

// Display is the table as a winning number display shows it, now.
func (t *Table) Display() table.Display {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	d := table.Display{TableID: t.config.TableID, Venue: t.config.Venue, Currency: t.config.Currency, Wheel: t.layout.Wheel,
		Phase: t.phase(), Limits: t.limits, ClosingAt: t.closingAt, Promotion: t.promotion, At: now}
	if t.jackpot != nil {
		d.Jackpot, d.JackpotMeter = true, t.jackpot.meter
		if w := t.jackpotWin; w != nil && now.Before(w.Until) {
			win := *w
			d.JackpotWin = &win
		}
	}
	return table.DisplayOf(d, t.history)
}

// SetPromotion sets the operator's promotional text the displays show ("" for none). Text a TV
// cannot show as one line is refused, not cut: control characters, or more than
// MaxPromotionRunes.
func (t *Table) SetPromotion(text string) error {
	text = strings.TrimSpace(text)
	if !utf8.ValidString(text) {
		return fmt.Errorf("promotion: not UTF-8 text")
	}
	if n := utf8.RuneCountInString(text); n > MaxPromotionRunes {
		return fmt.Errorf("promotion: %d characters, at most %d", n, MaxPromotionRunes)
	}
	for _, r := range text {
		if unicode.IsControl(r) {
			return fmt.Errorf("promotion: one line of text without control characters (found %U)", r)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.promotion != text {
		t.promotion = text
		t.log.Info("promotion set", "text", text)
		t.wakeDisplays()
	}
	return nil
}

// LoadPromotion sets the promotional text from a file (tableserver -promotion): its lines,
// trimmed and joined by spaces; a missing file is an error.
func (t *Table) LoadPromotion(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("promotion: %w", err)
	}
	return t.SetPromotion(strings.Join(strings.Fields(string(b)), " "))
}

type displayService struct {
	pb.UnimplementedDisplayServiceServer
	t *Table
}

// Watch streams the display's state: at once, then at each change (see the top of this file),
// and when the winning jackpot message's time is up.
func (s *displayService) Watch(_ *pb.DisplayWatchRequest, stream grpc.ServerStreamingServer[pb.DisplayState]) error {
	w := s.t.watchDisplay()
	defer s.t.unwatchDisplay(w)
	var sent *pb.DisplayState
	expire := time.NewTimer(time.Hour)
	defer expire.Stop()
	for {
		d := s.t.Display()
		msg := wire.DisplayPB(d)
		if sent == nil || !sameDisplay(sent, msg) {
			if err := stream.Send(msg); err != nil {
				return err
			}
			sent = msg
		}
		expire.Stop()
		if d.JackpotWin != nil {
			expire.Reset(max(d.JackpotWin.Until.Sub(d.At), 0))
		}
		select {
		case <-stream.Context().Done():
			return stream.Context().Err()
		case <-w.wake:
		case <-expire.C:
		}
	}
}

// sameDisplay reports whether two states show the same: the time they were taken aside.
func sameDisplay(a, b *pb.DisplayState) bool {
	at := a.ServerTimeUnixNanos
	a.ServerTimeUnixNanos = b.ServerTimeUnixNanos
	same := proto.Equal(a, b)
	a.ServerTimeUnixNanos = at
	return same
}
