package server

import (
	"strings"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// The role table: which certificate roles may call each method. It is the one place a method's
// privilege is decided; a method missing from it is refused to everyone (fail closed), and a
// test checks every method the server registers has an entry, so a new RPC is added here in
// the same change.
//
// Dealer: the round and the players' accounts. Supervisor (the pit boss): what undoes or
// overrides the round or pays money outside it — corrections, invalidations, handpays,
// jackpot confirmations, releases of held tickets — and, so one person can run a table, the
// dealer's calls too. Technician: the technician service only. Terminals: their own service.
// Cashier: the cage's service (a supervisor may read its reports, never pay a ticket).
// Display: the winning number display's stream, and nothing else.
var roleTable = map[string][]string{}

var (
	dealerRoles     = []string{pki.RoleDealer, pki.RoleSupervisor}
	supervisorRoles = []string{pki.RoleSupervisor}
	cashierRoles    = []string{pki.RoleCashier}
	cageReportRoles = []string{pki.RoleCashier, pki.RoleSupervisor}
	anyRole         = []string{} // any holder of a valid certificate of the table's CA
)

func init() {
	allow := func(svc, method string, roles []string) { roleTable["/"+svc+"/"+method] = roles }
	// Terminal role: every TerminalService method, AuthenticateTechnician included (the PIN
	// typed on a cabinet's PIN pad, checked here against the technicians' PINs and throttled).
	for _, m := range pb.TerminalService_ServiceDesc.Methods {
		allow(pb.TerminalService_ServiceDesc.ServiceName, m.MethodName, []string{pki.RoleTerminal})
	}
	for _, m := range pb.TerminalService_ServiceDesc.Streams {
		allow(pb.TerminalService_ServiceDesc.ServiceName, m.StreamName, []string{pki.RoleTerminal})
	}
	dealer := pb.DealerService_ServiceDesc.ServiceName
	for _, m := range []string{"OpenTable", "CloseTable", "GetStatus", "SetWageringPeriod", "SetLimits",
		"StartRound", "SpinStarted", "BallDropping", "EnterOutcome", "NoSpin",
		"CreditPlayer", "ClosePlayerAccount", "GetAuditLog", "ListOverpayments", "ListAlarms", "GetTournament",
		"SetPlayerLimits", "Dispute", "PlaceWager",
		// The dealer console's stream of the table (watch.go, issue 28).
		"WatchTable"} {
		allow(dealer, m, dealerRoles)
	}
	for _, m := range []string{"CorrectOutcome", "InvalidateRound", "Handpay", "ConfirmJackpot",
		"ResolveOverpayment", "ReleaseTicketHold",
		// An alarm acknowledged is one someone answers for having seen to (a cashier guessing
		// numbers, a ledger re-sealed): the supervisor the lockout tells the cashier to call.
		"AckAlarm",
		// Tournament play: the Tournament Director's (000 §12.2.3) configuring, opening and
		// closing; the dealer deals its rounds and prints its standings (GetTournament).
		"ConfigureTournament", "OpenTournament", "CloseTournament", "GrantPassCard",
		"ScheduleClose", "ClearFault",
		// 003 §9.12: a casino supervisor may refuse a player's wager before no more bets.
		"RefuseWager",
		// 001 §8.3.5–8.3.6: closing the table's jackpot and transferring its meter (issue 28).
		"CloseJackpot",
		// Issue 31: carded play's report (limits reached, breaks, bars) names players: the
		// supervisor's, not the dealer's.
		"CardReport"} {
		allow(dealer, m, supervisorRoles)
	}
	// The Lucky Ball display's fault is the dealer's to report (003 §8.11).
	allow(dealer, "LuckyBallDisplay", dealerRoles)
	allow(pb.TechnicianService_ServiceDesc.ServiceName, "Authenticate", []string{pki.RoleTechnician})
	// The cage (cage.go): cashiers look up and pay tickets; the reports are a supervisor's to
	// read too (ShiftTotals lets a cashier read only their own shift).
	cage := pb.CageService_ServiceDesc.ServiceName
	allow(cage, "LookupTicket", cashierRoles)
	allow(cage, "PayTicket", cashierRoles)
	allow(cage, "ShiftTotals", cageReportRoles)
	allow(cage, "FloorReport", cageReportRoles)
	// The stop list is a supervisor's (issue 33): neither a cashier nor a dealer stops or
	// releases a ticket. A threshold payment's second person is a supervisor or another
	// cashier (ApprovePayment refuses the paying cashier's own approval at PayTicket).
	allow(cage, "StopTicket", supervisorRoles)
	allow(cage, "ReleaseTicketStop", supervisorRoles)
	allow(cage, "ApprovePayment", cageReportRoles)

	// The winning number display (display.go) is the display role's alone, and the display
	// role may call nothing else: a TV in the pit holds a certificate that moves no money and
	// reads no player's account. The other roles are refused it too, so a display can only be
	// installed with a display certificate: a dealer's or a terminal's put in a TV by mistake
	// fails at once, on the screen, rather than leaving a key that moves money in the pit.
	allow(pb.DisplayService_ServiceDesc.ServiceName, "Watch", []string{pki.RoleDisplay})

	// A cashier's shift (cageshift.go) is the cashier's own.
	allow(cage, "OpenShift", cashierRoles)
	allow(cage, "CloseShift", cashierRoles)
	allow(cage, "CurrentShift", cashierRoles)
	// Carded play (cagecards.go): the cashier who checks the holder's identity document
	// registers a card and reports it lost or barred; a supervisor may look one up.
	allow(cage, "RegisterCard", cashierRoles)
	allow(cage, "ReportCard", cashierRoles)
	allow(cage, "LookupCard", cageReportRoles)
	// Health and reflection (grpcurl's list and describe) tell nothing a certificate holder
	// may not know.
	allow("grpc.health.v1.Health", "Check", anyRole)
	allow("grpc.health.v1.Health", "Watch", anyRole)
	allow("grpc.health.v1.Health", "List", anyRole)
	allow("grpc.reflection.v1.ServerReflection", "ServerReflectionInfo", anyRole)
	allow("grpc.reflection.v1alpha.ServerReflection", "ServerReflectionInfo", anyRole)
}

// rolesFor is who may call a full method name; ok is false for a method the table does not
// know, which nobody may call.
func rolesFor(method string) (roles []string, ok bool) {
	roles, ok = roleTable[method]
	return roles, ok
}

// mayCall reports whether a role may call a method.
func mayCall(role, method string) bool {
	roles, ok := rolesFor(method)
	if !ok {
		return false
	}
	if len(roles) == 0 {
		return true
	}
	for _, r := range roles {
		if r == role {
			return true
		}
	}
	return false
}

// whoMay says who may call a method, for a refusal.
func whoMay(method string) string {
	roles, ok := rolesFor(method)
	if !ok {
		return "no role (the method is not in the role table)"
	}
	return strings.Join(roles, " or ")
}

// MayCall reports whether a certificate role may call a full method name
// ("/ats.table.v1.DealerService/CorrectOutcome"): the role table, for the tools that check
// their own commands against it (cmd/dealer's command table).
func MayCall(role, method string) bool { return mayCall(role, method) }
