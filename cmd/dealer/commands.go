package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// The console's commands, one row each: its usage, its help, the least role that may run it
// and what it does. The help (`dealer help`), the console's own role check (run refuses a
// supervisor's command to a dealer's certificate before it reaches the table, saying how to act
// as the supervisor) and the command list of the guides all come from this table; a test checks
// each row's role against the server's role table (server/roles.go, which stays the authority:
// the table refuses what the row would let through).
//
// A row's name is one word, or two for the actions of a command whose actions need different
// roles ("alarms ack", "tournament open").
type consoleCommand struct {
	name string
	args string   // the arguments' usage, "" for none
	help string   // what it does, one line, with the rule it serves
	role string   // pki.RoleDealer or pki.RoleSupervisor
	rpcs []string // the DealerService methods it calls (the role test reads them)
	run  func(c *call, rest []string) (proto.Message, error)
}

// call is what a command runs with: the table, the console's zone and clock, and where a
// command that prints for itself (tournament) prints.
type call struct {
	ctx context.Context
	d   pb.DealerServiceClient
	v   view
	out io.Writer
}

// arg is rest[i], or an error naming the command's usage.
func (c *call) arg(cmd *consoleCommand, rest []string, i int) (string, error) {
	if i >= len(rest) {
		return "", fmt.Errorf("%s: missing argument %d (%s)", cmd.name, i+1, cmd.usage())
	}
	return rest[i], nil
}

// current is the table's current round.
func (c *call) current() (string, error) {
	st, err := c.d.GetStatus(c.ctx, &pb.GetStatusRequest{})
	if err != nil {
		return "", err
	}
	return st.RoundId, nil
}

func (cmd *consoleCommand) usage() string { return strings.TrimSpace(cmd.name + " " + cmd.args) }

// optional is rest[i], or def.
func optional(rest []string, i int, def string) string {
	if i < len(rest) {
		return rest[i]
	}
	return def
}

const (
	dealerRole     = pki.RoleDealer
	supervisorRole = pki.RoleSupervisor
)

// commands is the console's command table, in the order help lists it.
var commands []*consoleCommand

func init() {
	round := func(f func(c *call, round string) (proto.Message, error)) func(c *call, rest []string) (proto.Message, error) {
		return func(c *call, _ []string) (proto.Message, error) {
			r, err := c.current()
			if err != nil {
				return nil, err
			}
			return f(c, r)
		}
	}
	tournament := func(action string) func(c *call, rest []string) (proto.Message, error) {
		return func(c *call, rest []string) (proto.Message, error) {
			args := append([]string{action}, rest...)
			if c.v.json {
				args = append([]string{"-json"}, args...)
			}
			return nil, tournamentCommand(c.ctx, c.d, args, c.out)
		}
	}
	commands = []*consoleCommand{
		{name: "status", help: "the table: phase, round, seats, guests, conservation, overpayments, holds, alarms, jackpot", role: dealerRole, rpcs: []string{"GetStatus"},
			run: func(c *call, _ []string) (proto.Message, error) { return c.d.GetStatus(c.ctx, &pb.GetStatusRequest{}) }},
		{name: "open", args: "[-auto]", help: "open the table; -auto: the table deals its rounds itself", role: dealerRole, rpcs: []string{"OpenTable"},
			run: func(c *call, rest []string) (proto.Message, error) {
				return c.d.OpenTable(c.ctx, &pb.OpenTableRequest{AutoDealer: optional(rest, 0, "") == "-auto"})
			}},
		{name: "close", help: "close the table (with players present only as announced: closing)", role: dealerRole, rpcs: []string{"CloseTable"},
			run: func(c *call, _ []string) (proto.Message, error) {
				return c.d.CloseTable(c.ctx, &pb.CloseTableRequest{})
			}},
		{name: "start", help: "open a wagering period", role: dealerRole, rpcs: []string{"StartRound"},
			run: func(c *call, _ []string) (proto.Message, error) {
				return c.d.StartRound(c.ctx, &pb.StartRoundRequest{})
			}},
		{name: "spin", help: "the ball is spun (Lucky Ball numbers are drawn)", role: dealerRole, rpcs: []string{"SpinStarted"},
			run: round(func(c *call, r string) (proto.Message, error) {
				return c.d.SpinStarted(c.ctx, &pb.RoundRequest{RoundId: r})
			})},
		{name: "drop", help: "the ball is about to drop: no more bets now (001 §5.1.3)", role: dealerRole, rpcs: []string{"BallDropping"},
			run: round(func(c *call, r string) (proto.Message, error) {
				return c.d.BallDropping(c.ctx, &pb.RoundRequest{RoundId: r})
			})},
		{name: "nospin", help: "the spin has no effect; wagers stay for a valid spin (001 §9.1–9.2)", role: dealerRole, rpcs: []string{"NoSpin"},
			run: round(func(c *call, r string) (proto.Message, error) { return c.d.NoSpin(c.ctx, &pb.RoundRequest{RoundId: r}) })},
		{name: "outcome", args: "N", help: "the winning number of the current round", role: dealerRole, rpcs: []string{"EnterOutcome"},
			run: func(c *call, rest []string) (proto.Message, error) {
				n, err := c.arg(find("outcome"), rest, 0)
				if err != nil {
					return nil, err
				}
				r, err := c.current()
				if err != nil {
					return nil, err
				}
				return c.d.EnterOutcome(c.ctx, &pb.EnterOutcomeRequest{RoundId: r, Number: n})
			}},
		{name: "confirm", args: "[N]", help: "enter the number the wheel's two sensors agreed on (status's wheelProposal); N, if given, must be it", role: dealerRole, rpcs: []string{"EnterOutcome"},
			run: func(c *call, rest []string) (proto.Message, error) {
				r, err := c.current()
				if err != nil {
					return nil, err
				}
				return c.d.EnterOutcome(c.ctx, &pb.EnterOutcomeRequest{RoundId: r, Number: optional(rest, 0, ""), ConfirmWheel: true})
			}},
		{name: "correct", args: "N [ROUND]", help: "correct the outcome of the current round, or of an earlier ROUND between rounds (001 §9.4)", role: supervisorRole, rpcs: []string{"CorrectOutcome"},
			run: func(c *call, rest []string) (proto.Message, error) {
				n, err := c.arg(find("correct"), rest, 0)
				if err != nil {
					return nil, err
				}
				r := optional(rest, 1, "")
				if r == "" {
					if r, err = c.current(); err != nil {
						return nil, err
					}
				}
				return c.d.CorrectOutcome(c.ctx, &pb.CorrectOutcomeRequest{RoundId: r, Number: n})
			}},
		{name: "invalidate", args: "[REASON]", help: "invalidate the current round: every wager refunded (001 §12.3–12.4)", role: supervisorRole, rpcs: []string{"InvalidateRound"},
			run: func(c *call, rest []string) (proto.Message, error) {
				r, err := c.current()
				if err != nil {
					return nil, err
				}
				return c.d.InvalidateRound(c.ctx, &pb.InvalidateRoundRequest{RoundId: r, Reason: optional(rest, 0, "invalidated by the pit boss")})
			}},
		{name: "dispute", args: "[NOTE]", help: "the Dispute Button: a no spin, the supervisor alerted, the light red (000 §10.9.1)", role: dealerRole, rpcs: []string{"Dispute"},
			run: func(c *call, rest []string) (proto.Message, error) {
				r, err := c.current()
				if err != nil {
					return nil, err
				}
				return c.d.Dispute(c.ctx, &pb.DisputeRequest{RoundId: r, Note: optional(rest, 0, "")})
			}},
		{name: "lights", help: "the console's light, red or green, and why (000 §10.9.2)", role: dealerRole, rpcs: []string{"GetStatus"},
			run: func(c *call, _ []string) (proto.Message, error) {
				st, err := c.d.GetStatus(c.ctx, &pb.GetStatusRequest{})
				if err != nil {
					return nil, err
				}
				return &pb.TableStatus{RedLight: st.RedLight, Fault: st.Fault}, nil
			}},
		{name: "clearfault", args: "[NOTE]", help: "turn the light green again once the fault is rectified (000 §10.9.2)", role: supervisorRole, rpcs: []string{"ClearFault"},
			run: func(c *call, rest []string) (proto.Message, error) {
				return c.d.ClearFault(c.ctx, &pb.ClearFaultRequest{Note: optional(rest, 0, "")})
			}},
		{name: "luckyball", args: "fault|working [REASON]", help: "the Lucky Ball display out of order, or working again (003 §8.11)", role: dealerRole, rpcs: []string{"LuckyBallDisplay"},
			run: func(c *call, rest []string) (proto.Message, error) {
				how, err := c.arg(find("luckyball"), rest, 0)
				if err != nil {
					return nil, err
				}
				if how != "fault" && how != "working" {
					return nil, fmt.Errorf("luckyball %q: fault [REASON] or working", how)
				}
				return c.d.LuckyBallDisplay(c.ctx, &pb.LuckyBallDisplayRequest{Working: how == "working", Reason: optional(rest, 1, "")})
			}},
		{name: "credit", args: "TERMINAL CENTS", help: "a dealer buy-in: a seat's player confirms it on the screen (004 §6.3(c)); a guest G01–G12 is credited at once, in chips (000 §11.7.3(b))", role: dealerRole, rpcs: []string{"CreditPlayer"},
			run: func(c *call, rest []string) (proto.Message, error) {
				cmd := find("credit")
				t, err := c.arg(cmd, rest, 0)
				if err != nil {
					return nil, err
				}
				s, err := c.arg(cmd, rest, 1)
				if err != nil {
					return nil, err
				}
				a, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return nil, err
				}
				return c.d.CreditPlayer(c.ctx, &pb.CreditPlayerRequest{IdempotencyKey: key(), TerminalId: t, Amount: a})
			}},
		{name: "closeaccount", args: "TERMINAL [dealer|directed-to-leave]", help: "pay a seat's or a guest's balance at the table and close the account (001 §6.5.2, 000 §11.7.6)", role: dealerRole, rpcs: []string{"ClosePlayerAccount"},
			run: func(c *call, rest []string) (proto.Message, error) {
				t, err := c.arg(find("closeaccount"), rest, 0)
				if err != nil {
					return nil, err
				}
				return c.d.ClosePlayerAccount(c.ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: key(), TerminalId: t, Reason: optional(rest, 1, "dealer")})
			}},
		{name: "seats", help: "one line a seat (and guest): connected, balance, slip, IN SERVICE; under it the wagers with the index refuse names", role: dealerRole, rpcs: []string{"GetStatus"},
			run: func(c *call, _ []string) (proto.Message, error) {
				st, err := c.d.GetStatus(c.ctx, &pb.GetStatusRequest{})
				if err != nil {
					return nil, err
				}
				return &pb.TableStatus{Terminals: st.Terminals, ClosingAtUnixNanos: st.ClosingAtUnixNanos}, nil
			}},
		{name: "vacate", args: "TERMINAL", help: "close the account of a seat that may be asked to vacate, paying it at the table (001 §12.8)", role: dealerRole, rpcs: []string{"ClosePlayerAccount"},
			run: func(c *call, rest []string) (proto.Message, error) {
				t, err := c.arg(find("vacate"), rest, 0)
				if err != nil {
					return nil, err
				}
				return c.d.ClosePlayerAccount(c.ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: key(), TerminalId: t, Reason: "vacated"})
			}},
		{name: "wager", args: "TERMINAL BET CENTS [ON [SPREAD]]", help: "a bet the dealer places for a seat or a guest: a call bet (002 §3.2B; neighbours ON SPREAD); under the TouchTable rules, and for a guest, any announced bet (000 §11.4.2(b)): ON is its numbers (17,20), a column or dozen (1-3), a Lucky Ball colour", role: dealerRole, rpcs: []string{"PlaceWager"},
			run: func(c *call, rest []string) (proto.Message, error) {
				w, err := callWager(rest)
				if err != nil {
					return nil, err
				}
				r, err := c.current()
				if err != nil {
					return nil, err
				}
				return c.d.PlaceWager(c.ctx, &pb.PlaceWagerRequest{TerminalId: rest[0], RoundId: r, Wager: w})
			}},
		{name: "refuse", args: "TERMINAL INDEX[,INDEX...]|all REASON", help: "refuse a seat's wagers before no more bets; the player is told REASON (003 §9.12)", role: supervisorRole, rpcs: []string{"RefuseWager"},
			run: func(c *call, rest []string) (proto.Message, error) {
				req, err := refusal(rest)
				if err != nil {
					return nil, err
				}
				if req.RoundId, err = c.current(); err != nil {
					return nil, err
				}
				return c.d.RefuseWager(c.ctx, req)
			}},
		{name: "limits", args: "MIN MAX UNIT [AGGREGATE_MIN] [BET=MIN:MAX:UNIT ...] [table-max=CENTS] [aggregate-min=CENTS] [warning=DURATION]", help: "every limit the sign shows, in cents (limits.go; 001 §4.1)", role: dealerRole, rpcs: []string{"SetLimits"},
			run: func(c *call, rest []string) (proto.Message, error) {
				req, err := parseLimits(rest)
				if err != nil {
					return nil, err
				}
				return c.d.SetLimits(c.ctx, req)
			}},
		{name: "player-limits", args: "seat|card ID MIN MAX UNIT [AGGREGATE_MIN] [BET=MIN:MAX:UNIT ...] | clear", help: "a player's own limits (000 §4.3, 003 §4.6): the seat shows the personal limit marker", role: dealerRole, rpcs: []string{"SetPlayerLimits"},
			run: func(c *call, rest []string) (proto.Message, error) { return playerLimits(c.ctx, c.d, rest) }},
		{name: "period", args: "DURATION", help: "the wagering period of the next rounds", role: dealerRole, rpcs: []string{"SetWageringPeriod"},
			run: func(c *call, rest []string) (proto.Message, error) {
				s, err := c.arg(find("period"), rest, 0)
				if err != nil {
					return nil, err
				}
				p, err := time.ParseDuration(s)
				if err != nil {
					return nil, err
				}
				return c.d.SetWageringPeriod(c.ctx, &pb.SetWageringPeriodRequest{WageringPeriodMs: p.Milliseconds()})
			}},
		{name: "closing", args: "+DURATION|HH:MM|cancel", help: "the sign of the table's closure, at least 20 minutes ahead (001 §12.7)", role: supervisorRole, rpcs: []string{"ScheduleClose"},
			run: func(c *call, rest []string) (proto.Message, error) {
				s, err := c.arg(find("closing"), rest, 0)
				if err != nil {
					return nil, err
				}
				if s == "cancel" {
					return c.d.ScheduleClose(c.ctx, &pb.ScheduleCloseRequest{Cancel: true})
				}
				at, err := closingTime(s, c.v.now().In(c.v.loc))
				if err != nil {
					return nil, err
				}
				return c.d.ScheduleClose(c.ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.UnixNano()})
			}},
		{name: "jackpot", args: "[ROUND]", help: "confirm the waiting jackpot hit, or the one of ROUND: the prize is credited (001 §8.3.9)", role: supervisorRole, rpcs: []string{"ConfirmJackpot"},
			run: func(c *call, rest []string) (proto.Message, error) {
				r := optional(rest, 0, "")
				if r == "" {
					st, err := c.d.GetStatus(c.ctx, &pb.GetStatusRequest{})
					if err != nil {
						return nil, err
					}
					if st.PendingJackpot == nil {
						return nil, fmt.Errorf("no jackpot hit is waiting")
					}
					r = st.PendingJackpot.RoundId
				}
				return c.d.ConfirmJackpot(c.ctx, &pb.ConfirmJackpotRequest{RoundId: r})
			}},
		{name: "jackpot close", args: "TABLE NOTICE", help: "close the table's jackpot with the words of its notice; its meter goes to TABLE's jackpot (001 §8.3.5–8.3.6)", role: supervisorRole, rpcs: []string{"CloseJackpot"},
			run: func(c *call, rest []string) (proto.Message, error) {
				if len(rest) < 2 {
					return nil, fmt.Errorf("usage: %s (the notice is the rest of the line)", find("jackpot close").usage())
				}
				return c.d.CloseJackpot(c.ctx, &pb.CloseJackpotRequest{TransferTo: rest[0], Notice: strings.Join(rest[1:], " ")})
			}},
		{name: "handpay", args: "VALIDATION [ID_TYPE ID_NUMBER NAME [METHOD=CENTS[:REF] …]]", help: "pay a ticket by hand; the patron's identity at or over the reporting threshold; over the cash cap, the parts: cash=100000 transfer=400000:TX-9", role: supervisorRole, rpcs: []string{"Handpay"},
			run: func(c *call, rest []string) (proto.Message, error) {
				v, err := c.arg(find("handpay"), rest, 0)
				if err != nil {
					return nil, err
				}
				req := &pb.HandpayRequest{IdempotencyKey: key(), ValidationNumber: v}
				switch {
				case len(rest) == 1:
				case len(rest) >= 4:
					req.Patron = &pb.PatronIdentity{IdType: rest[1], IdNumber: rest[2], Name: rest[3]}
					if req.Parts, err = handpayParts(rest[4:]); err != nil {
						return nil, err
					}
				default:
					return nil, fmt.Errorf("handpay VALIDATION [ID_TYPE ID_NUMBER NAME]: the patron's identity is three words (quote a name with spaces)")
				}
				return c.d.Handpay(c.ctx, req)
			}},
		{name: "holds", help: "tickets held by a terminal", role: dealerRole, rpcs: []string{"GetStatus"},
			run: func(c *call, _ []string) (proto.Message, error) {
				st, err := c.d.GetStatus(c.ctx, &pb.GetStatusRequest{})
				if err != nil {
					return nil, err
				}
				return &pb.TableStatus{TicketHolds: st.TicketHolds}, nil
			}},
		{name: "release", args: "VALIDATION [REASON]", help: "end a terminal's hold on a ticket", role: supervisorRole, rpcs: []string{"ReleaseTicketHold"},
			run: func(c *call, rest []string) (proto.Message, error) {
				v, err := c.arg(find("release"), rest, 0)
				if err != nil {
					return nil, err
				}
				return c.d.ReleaseTicketHold(c.ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: key(), ValidationNumber: v, Reason: optional(rest, 1, "released at the dealer's console")})
			}},
		{name: "overpayments", args: "[-all]", help: "the wrong settlements a correction found that an account could not put right (003 §8.13–8.15)", role: dealerRole, rpcs: []string{"ListOverpayments"},
			run: func(c *call, rest []string) (proto.Message, error) {
				return c.d.ListOverpayments(c.ctx, &pb.ListOverpaymentsRequest{OpenOnly: optional(rest, 0, "") != "-all"})
			}},
		{name: "resolve", args: "ID recovered|paid|written-off [NOTE]", help: "how an overpayment or underpayment was settled", role: supervisorRole, rpcs: []string{"ResolveOverpayment"},
			run: func(c *call, rest []string) (proto.Message, error) {
				cmd := find("resolve")
				id, err := c.arg(cmd, rest, 0)
				if err != nil {
					return nil, err
				}
				how, err := c.arg(cmd, rest, 1)
				if err != nil {
					return nil, err
				}
				return c.d.ResolveOverpayment(c.ctx, &pb.ResolveOverpaymentRequest{IdempotencyKey: key(), Id: id, Resolution: how, Note: optional(rest, 2, "")})
			}},
		{name: "alarms", args: "[N]", help: "the latest alarms, this table's and the floor-wide ones of every table", role: dealerRole, rpcs: []string{"ListAlarms"},
			run: func(c *call, rest []string) (proto.Message, error) {
				n := int64(0)
				if len(rest) > 0 {
					var err error
					if n, err = strconv.ParseInt(rest[0], 10, 64); err != nil {
						return nil, err
					}
				}
				return c.d.ListAlarms(c.ctx, &pb.ListAlarmsRequest{Limit: int32(n)})
			}},
		{name: "alarms ack", args: "ID", help: "the supervisor has seen to an alarm (as the list shows its id: T1:42)", role: supervisorRole, rpcs: []string{"AckAlarm"},
			run: func(c *call, rest []string) (proto.Message, error) {
				if len(rest) != 1 {
					return nil, fmt.Errorf("alarms ack: ALARM_ID (as the alarm list shows it: T1:42)")
				}
				return c.d.AckAlarm(c.ctx, &pb.AckAlarmRequest{AlarmId: rest[0]})
			}},
		{name: "log", args: "[-since TIME] [-until TIME] [-kind KIND] [-terminal TERMINAL] [N]", help: "the last N entries of the audit log that pass the filters, each with who did it", role: dealerRole, rpcs: []string{"GetAuditLog"},
			run: func(c *call, rest []string) (proto.Message, error) {
				req, err := logRequest(rest, c.v)
				if err != nil {
					return nil, err
				}
				return c.d.GetAuditLog(c.ctx, req)
			}},
		{name: "cards", args: "[-since TIME] [-until TIME] [-card CARD]", help: "carded play's report, floor-wide: the player cards that reached a limit, the breaks enforced, the cards barred or lost (SPEC §10)", role: supervisorRole, rpcs: []string{"CardReport"},
			run: func(c *call, rest []string) (proto.Message, error) {
				req, err := cardReportRequest(rest, c.v)
				if err != nil {
					return nil, err
				}
				return c.d.CardReport(c.ctx, req)
			}},
		{name: "tournament configure", args: "-id ID -name NAME -terms-file FILE -entry CENTS … (tournament.go)", help: "record a tournament's terms (000 §12.2.3)", role: supervisorRole, rpcs: []string{"ConfigureTournament"}, run: tournament("configure")},
		{name: "tournament open", args: "TERMINAL...", help: "seat the entered terminals with the starting chips", role: supervisorRole, rpcs: []string{"OpenTournament"}, run: tournament("open")},
		{name: "tournament standings", args: "[ID]", help: "the standings now", role: dealerRole, rpcs: []string{"GetTournament"}, run: tournament("standings")},
		{name: "tournament results", args: "[ID]", help: "the record to print: terms, every round, places, prizes", role: dealerRole, rpcs: []string{"GetTournament"}, run: tournament("results")},
		{name: "tournament close", args: "[REASON]", help: "end the tournament between rounds", role: supervisorRole, rpcs: []string{"CloseTournament"}, run: tournament("close")},
		{name: "tournament pass", args: "SEAT ROUND REASON", help: "grant a pass card for a play void because the seat's terminal failed (003 §10.5.4)", role: supervisorRole, rpcs: []string{"GrantPassCard"}, run: tournament("pass")},
	}
}

// find is the row named name (nil for none).
func find(name string) *consoleCommand {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// lookup is the row args name — its two first words, else its first — and the arguments after
// the name. "tournament -json ACTION" is the tournament's action printed as JSON.
func lookup(args []string) (cmd *consoleCommand, rest []string, asJSON bool, err error) {
	if len(args) == 0 {
		return nil, nil, false, fmt.Errorf("no command (dealer help lists them)")
	}
	if len(args) > 2 && args[0] == "tournament" && args[1] == "-json" {
		args, asJSON = append([]string{args[0]}, args[2:]...), true
	}
	if len(args) > 1 {
		if c := find(args[0] + " " + args[1]); c != nil {
			return c, args[2:], asJSON, nil
		}
	}
	if c := find(args[0]); c != nil {
		return c, args[1:], asJSON, nil
	}
	return nil, nil, false, fmt.Errorf("unknown command %q (dealer help lists them)", strings.Join(args[:min(2, len(args))], " "))
}

// helpLines is the console's command list, two lines a command: its usage, and under it what
// it does, with "(supervisor)" for a supervisor's.
func helpLines() []string {
	var out []string
	for _, c := range commands {
		h := c.help
		if c.role == supervisorRole {
			h += " (supervisor)"
		}
		out = append(out, "  "+c.usage(), "      "+h)
	}
	return out
}

// mayRun refuses, before the table is asked, a supervisor's command to a console acting as a
// dealer, saying how to act as the supervisor; the table's role table decides the rest.
func mayRun(cmd *consoleCommand, role string) error {
	if cmd.role == supervisorRole && role != supervisorRole {
		return fmt.Errorf("%s is a supervisor's: run it with the supervisor's certificate (-id SUPERVISOR) or the supervisor's card and PIN on this console (-card CARD, the PIN on stdin)", cmd.name)
	}
	return nil
}

// handpayParts reads a hand payment's parts (issue 31, the cash cap), each METHOD=CENTS or
// METHOD=CENTS:REFERENCE: cash=100000 transfer=400000:TX-9. The table checks the methods, the
// references, the sum and the cap; this only reads the words.
func handpayParts(words []string) ([]*pb.PaymentPart, error) {
	var parts []*pb.PaymentPart
	for _, w := range words {
		method, amount, ok := strings.Cut(w, "=")
		amount, ref, _ := strings.Cut(amount, ":")
		cents, err := strconv.ParseInt(amount, 10, 64)
		if !ok || method == "" || err != nil {
			return nil, fmt.Errorf("handpay: part %q: METHOD=CENTS or METHOD=CENTS:REFERENCE, e.g. cash=100000 transfer=400000:TX-9", w)
		}
		parts = append(parts, &pb.PaymentPart{Method: method, Amount: cents, Reference: ref})
	}
	return parts, nil
}
