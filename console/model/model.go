// Package model is the dealer's console without its screen (issue 28): one connection to the
// table server with the dealer's certificate, the table watched on DealerService.WatchTable
// and followed across a lost server (it says so, and reconnects with the terminals' backoff),
// the table as the console shows it (View, plain Go values), and the dealer's and the
// supervisor's actions, each answered with the server's refusal in words. It never imports
// Fyne: the screen (package console) draws a View and calls these methods.
package model

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/internal/backoff"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The metadata a supervisor's credentials ride on, on a call made with the dealer's
// certificate: the table server checks the PIN (throttled) and records the call as the
// supervisor's (issue 28's contract with the server).
const (
	SupervisorCardKey = "ats-supervisor-card"
	SupervisorPINKey  = "ats-supervisor-pin"
)

// Config is how the console reaches its table.
type Config struct {
	Addr string
	TLS  *tls.Config // the dealer's certificate, the table's CA
	// Backoff is the wait between attempts to reach a lost server (the zero Policy: 0.5 s
	// rising to 5 s, full jitter).
	Backoff backoff.Policy
	// CallTimeout bounds one action (default 5 s): a console is never stuck on a call.
	CallTimeout time.Duration
	Logger      *slog.Logger
}

// Console is the console's link to its table and the table as last told.
type Console struct {
	cfg  Config
	conn *grpc.ClientConn
	dc   pb.DealerServiceClient
	log  *slog.Logger

	mu       sync.Mutex
	st       *pb.TableStatus
	up       bool
	lost     string // why the server is not reachable, "" when it is
	onChange []func()
}

// Dial makes the console's connection (lazily: nothing is sent until Run or an action).
func Dial(cfg Config) (*Console, error) {
	if cfg.TLS == nil {
		return nil, errors.New("console: a TLS configuration (the dealer's certificate) is required")
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	conn, err := grpc.NewClient(cfg.Addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg.TLS)))
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	return &Console{cfg: cfg, conn: conn, dc: pb.NewDealerServiceClient(conn), log: cfg.Logger, lost: "connecting to the table server"}, nil
}

// Close ends the connection.
func (c *Console) Close() error { return c.conn.Close() }

// OnChange has f called (on the model's goroutine) after every change of the View.
func (c *Console) OnChange(f func()) {
	c.mu.Lock()
	c.onChange = append(c.onChange, f)
	c.mu.Unlock()
}

func (c *Console) changed() {
	c.mu.Lock()
	fs := append([]func(){}, c.onChange...)
	c.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Run follows the table until ctx ends: the stream, and after a lost server a new one after
// the backoff's wait, for ever.
func (c *Console) Run(ctx context.Context) {
	for n := 0; ctx.Err() == nil; {
		got, err := c.watchOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if got {
			n = 0 // it was up: the next wait starts small again
		}
		c.setLost(lostWords(err))
		if err := backoff.SleepOn(ctx, c.cfg.Backoff.Clock, c.cfg.Backoff.Delay(n)); err != nil {
			return
		}
		n++
	}
}

// watchOnce reads one WatchTable stream until it ends; got says a status arrived.
func (c *Console) watchOnce(ctx context.Context) (got bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.dc.WatchTable(ctx, &pb.WatchTableRequest{})
	if err != nil {
		return false, err
	}
	for {
		st, err := stream.Recv()
		if err != nil {
			return got, err
		}
		got = true
		c.mu.Lock()
		c.st, c.up, c.lost = st, true, ""
		c.mu.Unlock()
		c.changed()
	}
}

func (c *Console) setLost(why string) {
	c.mu.Lock()
	c.up, c.lost = false, why
	c.mu.Unlock()
	c.changed()
}

// lostWords is why the stream ended, for the dealer.
func lostWords(err error) string {
	switch status.Code(err) {
	case codes.PermissionDenied, codes.Unauthenticated:
		return "the table server refused this console: " + status.Convert(err).Message()
	}
	return "the table server cannot be reached: reconnecting"
}

// Refusal is a refused action in the dealer's words: what the server said, and what kind of
// refusal it was when that helps (not the dealer's to do, the server gone).
func Refusal(err error) string {
	if err == nil {
		return ""
	}
	s, ok := status.FromError(err)
	if !ok {
		return err.Error()
	}
	switch s.Code() {
	case codes.PermissionDenied:
		return "Refused: not allowed: " + s.Message()
	case codes.Unavailable, codes.DeadlineExceeded:
		return "The table server did not answer: try again"
	case codes.ResourceExhausted:
		return "Refused: too many attempts: " + s.Message()
	}
	return "Refused: " + s.Message()
}

// CashCapWords is the split a payment refused over the cash cap must take (issue 31), as the
// table words it ("A$5,000.00 is over the A$1,000.00 cash cap: pay A$1,000.00 in cash and
// A$4,000.00 by electronic transfer or cheque, with the patron's ID recorded"); "" for any other
// answer.
func CashCapWords(err error) string {
	for _, d := range status.Convert(err).Details() {
		if v, ok := d.(*pb.CageTicket); ok && v.Refusal == pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP {
			return v.Message
		}
	}
	return ""
}

// ---- the view ----------------------------------------------------------------------------

// View is the table as the console shows it.
type View struct {
	Up   bool   // the stream is live
	Lost string // why not, when not

	TableID  string
	Currency string
	Wheel    roulette.Wheel // SingleZero before the first status
	// Profile is the double-zero felt's zero combinations (TableConfig.layout_profile), which
	// decide the inside bets with 0 and 00 a guest may announce; BadProfile is a profile this
	// console does not know, "" for none (then it places no inside bet rather than guess).
	Profile    roulette.Profile
	BadProfile string
	Phase      pb.Phase
	RoundID    string
	Deadline   time.Time // of the wagering period; zero for none
	Auto       bool
	Frozen     bool
	RedLight   bool
	Fault      string
	Proposal   string // the wheel's agreed number waiting for the dealer's confirmation, "" for none
	WheelNote  string // why the wheel proposes nothing (its fault), "" for none
	Jackpot    int64  // meter, cents; 0 without a jackpot
	JackpotOn  bool
	Pending    string // a jackpot hit waiting for the pit boss, in words
	ClosingAt  time.Time
	Conserved  bool
	TableMax   int64
	Limits     *pb.Limits // the table's limit sign as in force (what Set limits changes part of)
	History    []string   // the latest outcomes, newest first
	Alarms     []string   // the newest alarms, newest first, in words
	Seats      []Seat
}

// Seat is one terminal's line on the console.
type Seat struct {
	ID         string
	Guest      bool // a guest player's account (TerminalStatus.guest): no Player Display, chips at the dealer
	Connected  bool
	Open       bool  // the account is open
	Balance    int64 // cents
	Stake      int64 // this round's slip, cents
	Awaiting   int64 // a buy-in waiting for the player's confirmation, cents
	InService  string
	Calling    bool // the player called the dealer in the last minute
	CashOut    bool // the player asked to be paid at the dealer
	Abstained  int
	Vacatable  bool
	Limits     string // the player's own limits in words, "" for none
	Rank       int    // tournament standing, 0 when not in one
	Chips      int64
	SlipWagers int // wagers on this round's slip (disclosed)
}

// View is the table as last told.
func (c *Console) View() View {
	c.mu.Lock()
	st, up, lost := c.st, c.up, c.lost
	c.mu.Unlock()
	v := ViewOf(st)
	v.Up, v.Lost = up, lost
	return v
}

// ViewOf is a status as the console shows it (nil: nothing known yet).
func ViewOf(st *pb.TableStatus) View {
	v := View{Wheel: roulette.SingleZero}
	if st == nil {
		return v
	}
	if cfg := st.Config; cfg != nil {
		v.TableID, v.Currency = cfg.TableId, cfg.Currency
		if cfg.Wheel == pb.Wheel_WHEEL_DOUBLE_ZERO {
			v.Wheel = roulette.DoubleZero
		}
		v.JackpotOn = cfg.Jackpot
		p, err := roulette.ParseProfile(cfg.LayoutProfile)
		if err != nil {
			v.BadProfile = cfg.LayoutProfile
		}
		v.Profile = p
	}
	v.Phase, v.RoundID, v.Auto, v.Frozen = st.Phase, st.RoundId, st.AutoDealer, st.Frozen
	if st.DeadlineUnixNanos != 0 {
		v.Deadline = time.Unix(0, st.DeadlineUnixNanos)
	}
	v.RedLight, v.Fault = st.RedLight, st.Fault
	if p := st.WheelProposal; p != nil && p.RoundId == st.RoundId {
		v.Proposal = p.Number
	}
	v.WheelNote = st.WheelFault
	v.Jackpot = st.JackpotMeter
	if j := st.PendingJackpot; j != nil {
		v.Pending = fmt.Sprintf("%s %s", j.TerminalId, money.InCurrency(v.Currency, j.Amount))
	}
	if st.ClosingAtUnixNanos != 0 {
		v.ClosingAt = time.Unix(0, st.ClosingAtUnixNanos)
	}
	v.Conserved = st.Conserved
	if st.Limits != nil {
		v.TableMax, v.Limits = st.Limits.TableMax, st.Limits
	}
	for _, o := range st.History {
		v.History = append(v.History, o.Number)
	}
	for _, a := range st.Alarms {
		if a.AckedBy == "" {
			v.Alarms = append(v.Alarms, strings.TrimSpace(a.TerminalId+" "+a.Detail))
		}
	}
	for _, t := range st.Terminals {
		s := Seat{ID: t.TerminalId, Guest: t.Guest, Connected: t.Connected, Open: t.AccountOpen,
			Balance: t.Balance, Stake: t.SlipTotal, Awaiting: t.BuyinAwaiting, Calling: t.CallUnixNanos != 0,
			CashOut: t.CashOutRequested, Abstained: int(t.Abstained), Vacatable: t.Vacatable,
			Rank: int(t.TournamentRank), Chips: t.TournamentChips, SlipWagers: len(t.GetSlip().GetWagers())}
		if in := t.InService; in != nil {
			s.InService = strings.TrimSpace(in.TechnicianId + " " + in.Reason)
		}
		if l := t.PlayerLimits; l != nil {
			s.Limits = fmt.Sprintf("%s–%s", money.Grouped(l.GetDefault().GetMin()), money.Grouped(l.GetDefault().GetMax()))
		}
		v.Seats = append(v.Seats, s)
	}
	sort.SliceStable(v.Seats, func(i, j int) bool { return v.Seats[i].Guest != v.Seats[j].Guest && !v.Seats[i].Guest })
	return v
}

// Seat is a seat of the view by id.
func (v View) Seat(id string) (Seat, bool) {
	for _, s := range v.Seats {
		if s.ID == id {
			return s, true
		}
	}
	return Seat{}, false
}

// maxGuests is how many guest accounts a table has, G01 to G12 (000 §11.3.1: up to 12 guest
// players), as the table server numbers them.
const maxGuests = 12

// GuestID reports whether id names one of the table's guest accounts (G01 … G12).
func GuestID(id string) bool {
	for i := 1; i <= maxGuests; i++ {
		if id == fmt.Sprintf("G%02d", i) {
			return true
		}
	}
	return false
}

// NextGuest is the first guest account the table does not have yet: where the dealer buys in
// a new guest player, from the console alone (false: all twelve are in use). A guest's account
// exists from its first buy-in, so until then it is on no seat of the table's status.
func (v View) NextGuest() (string, bool) {
	for i := 1; i <= maxGuests; i++ {
		id := fmt.Sprintf("G%02d", i)
		if _, ok := v.Seat(id); !ok {
			return id, true
		}
	}
	return "", false
}

// Numbers is the outcomes the table's wheel can have, as the number grid draws them.
func (v View) Numbers() []roulette.Number { return v.Wheel.Numbers() }
