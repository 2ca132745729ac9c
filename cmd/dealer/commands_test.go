package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// Every row of the command table has its usage, its help, a role, the methods it calls and an
// action; no two rows share a name; and `dealer help` lists every command, marking the
// supervisor's.
func TestEveryCommandHasHelpAndHelpListsEveryCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"help"}, &out, &errOut); code != 0 {
		t.Fatalf("dealer help: %d %s", code, errOut.String())
	}
	help := strings.Split(out.String(), "\n")
	seen := map[string]bool{}
	for _, c := range commands {
		if c.name == "" || strings.TrimSpace(c.help) == "" || c.run == nil || len(c.rpcs) == 0 ||
			(c.role != pki.RoleDealer && c.role != pki.RoleSupervisor) {
			t.Errorf("row %q is incomplete: %+v", c.name, c)
		}
		if seen[c.name] {
			t.Errorf("two rows named %q", c.name)
		}
		seen[c.name] = true
		listed := false
		for i, l := range help {
			if strings.TrimSpace(l) == c.usage() && i+1 < len(help) && strings.TrimSpace(help[i+1]) != "" && strings.HasPrefix(strings.TrimSpace(help[i+1]), c.help) {
				listed = true
				if (c.role == pki.RoleSupervisor) != strings.HasSuffix(help[i+1], "(supervisor)") {
					t.Errorf("help does not say whose %q is: %q", c.name, help[i+1])
				}
			}
		}
		if !listed {
			t.Errorf("help does not list %q", c.usage())
		}
	}
	for _, want := range []string{"jackpot close", "alarms ack", "tournament open", "credit", "wager"} {
		if !seen[want] {
			t.Errorf("no command %q", want)
		}
	}
	if code := run([]string{"frobnicate"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Errorf("an unknown command: %d %s", code, errOut.String())
	}
}

// Each row's role is the one the table's role table gives the methods it calls: a dealer's
// command calls only what a dealer may, a supervisor's calls what only a supervisor may. (The
// table stays the authority; this keeps the console's help and its own refusal honest.)
func TestCommandRolesAgreeWithTheTablesRoleTable(t *testing.T) {
	methods := map[string]bool{}
	for _, m := range pb.DealerService_ServiceDesc.Methods {
		methods[m.MethodName] = true
	}
	for _, c := range commands {
		for _, m := range c.rpcs {
			if !methods[m] {
				t.Errorf("%s: no DealerService method %s", c.name, m)
				continue
			}
			full := "/" + pb.DealerService_ServiceDesc.ServiceName + "/" + m
			dealer, super := server.MayCall(pki.RoleDealer, full), server.MayCall(pki.RoleSupervisor, full)
			switch c.role {
			case pki.RoleDealer:
				if !dealer {
					t.Errorf("%s is listed as a dealer's but calls %s, which a dealer may not", c.name, m)
				}
			case pki.RoleSupervisor:
				if dealer || !super {
					t.Errorf("%s is listed as a supervisor's but %s is dealer %v, supervisor %v", c.name, m, dealer, super)
				}
			}
		}
	}
}

// The supervisor at the dealer's console on the command line: a supervisor's command on the
// dealer's certificate is refused before the table is asked; with -card and the PIN on stdin it
// is the supervisor's — here closing the table's jackpot, recorded as supervisor:S1 — and a
// wrong PIN is refused by the table.
func TestSupervisorCardOnTheDealersCommandLine(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Jackpot = &server.JackpotConfig{Seed: 100000, Ceiling: 200000, RateBP: 100}
	line, err := server.PINLine("S1", "482913", 1000)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := server.ParseSupervisors([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	dir, addr, tbl := pkiTable(t, cfg, time.Now, server.WithSupervisors(pins))
	console := func(pin string, args ...string) (int, string, string) {
		t.Helper()
		stdin = strings.NewReader(pin + "\n")
		defer func() { stdin = os.Stdin }()
		var out, errOut bytes.Buffer
		code := run(append([]string{"-addr", addr, "-pki", dir}, args...), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if code, _, errOut := console("", "jackpot", "close", "T2", "closing", "tonight"); code != 1 || !strings.Contains(errOut, "jackpot close is a supervisor's") || !strings.Contains(errOut, "-card") {
		t.Fatalf("a supervisor's command as the dealer: %d %s", code, errOut)
	}
	if code, _, errOut := console("", "-card", "S1", "jackpot", "close", "T2", "closing"); code != 1 || !strings.Contains(errOut, "no PIN on stdin") {
		t.Fatalf("-card without a PIN: %d %s", code, errOut)
	}
	if code, _, errOut := console("000000", "-card", "S1", "jackpot", "close", "T2", "closing", "tonight"); code != 1 || !strings.Contains(errOut, "wrong PIN") {
		t.Fatalf("a wrong PIN: %d %s", code, errOut)
	}
	if st, _ := tbl.Status(); st.JackpotClosure != nil {
		t.Fatalf("closed with a wrong PIN: %v", st.JackpotClosure)
	}
	code, out, errOut := console("482913", "-card", "S1", "jackpot", "close", "T2", "The", "jackpot", "closes", "at", "21:00")
	if code != 0 {
		t.Fatalf("the supervisor's card: %d %s", code, errOut)
	}
	st, err := tbl.Status()
	if err != nil {
		t.Fatal(err)
	}
	if c := st.JackpotClosure; c == nil || c.ClosedBy != "supervisor:S1" || c.Notice != "The jackpot closes at 21:00" || c.TransferTo != "T2" {
		t.Fatalf("the closure: %v\n%s", c, out)
	}
}

// A guest player from the command line (000 §11.7.3(b), §11.4.2(b)): credit G01 in chips, the
// dealer places the bets the guest announces (a split, a dozen), seats lists the guest, and
// closeaccount pays the guest out; G13 is refused.
func TestGuestFromTheCommandLine(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	d := lt.dealer(pki.RoleDealer, "D1")
	ctx := context.Background()
	for _, args := range [][]string{{"open"}, {"credit", "G01", "10000"}, {"start"}, {"wager", "G01", "split", "500", "17,20"}, {"wager", "G01", "dozen", "500", "2"}} {
		if _, err := command(ctx, d, args); err != nil {
			t.Fatalf("dealer %v: %v", args, err)
		}
	}
	if _, err := command(ctx, d, []string{"credit", "G13", "10000"}); err == nil || !strings.Contains(err.Error(), "G01 to G12") {
		t.Fatalf("credit G13: %v", err)
	}
	reply, err := command(ctx, d, []string{"seats"})
	if err != nil {
		t.Fatal(err)
	}
	st := reply.(*pb.TableStatus)
	if len(st.Terminals) != 1 || !st.Terminals[0].Guest || st.Terminals[0].SlipTotal != 1000 {
		t.Fatalf("seats: %v", st.Terminals)
	}
	if l := seatLines(st, time.Now()); len(l) != 3 || !strings.HasPrefix(l[0], "G01      guest ") {
		t.Fatalf("seats as lines:\n%s", strings.Join(l, "\n"))
	}
	// Leaving before no more bets, as a seat's player may: the wagers are void, the whole
	// balance paid in chips.
	reply, err = command(ctx, d, []string{"closeaccount", "G01"})
	if err != nil || reply.(*pb.ClosePlayerAccountResponse).Amount != 10000 {
		t.Fatalf("closeaccount G01: %v %v", reply, err)
	}
	if c, err := lt.Table.Conservation(); err != nil || !c.Holds() {
		t.Fatalf("conservation: %v %v", c, err)
	}
}
