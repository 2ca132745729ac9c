package server

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server/pki"
)

// A supervisor at the dealer's console (issue 28). The console holds a dealer's certificate;
// the pit boss who walks up to it to correct an outcome or close a jackpot has no certificate
// of their own there, only their card and PIN. A DealerService call made with a dealer's
// certificate may carry them as gRPC metadata:
//
//	ats-supervisor-card: S1        the supervisor's card id (their certificate's id elsewhere)
//	ats-supervisor-pin:  482913
//
// The edge checks the PIN against the supervisors' PIN file (PINs, SupervisorPolicy: five wrong
// in a row lock that card out, with an alarm on the table) and then authorises and records the
// call as the supervisor's: the role table's supervisor entry decides, and the actor of
// everything the call writes (audit log, journal, an overpayment's resolver) is
// "supervisor:S1", not the console's dealer. The authentication itself is audited with the
// console named, so the record says where the supervisor stood.
//
// Only DealerService: a supervisor's PIN never reaches the cage's service or a terminal's, and
// only a dealer's certificate carries it (a terminal, a cashier or a technician sending these
// headers is refused, not quietly served as themselves). Without the headers a dealer's
// certificate gets what it always got.
const (
	SupervisorCardHeader = wire.SupervisorCardHeader
	SupervisorPINHeader  = wire.SupervisorPINHeader
)

// AlarmSupervisorLockout is the alarm raised when a supervisor's card is locked out for wrong
// PINs at a dealer's console.
const AlarmSupervisorLockout = "supervisor-pin-lockout"

// WithSupervisors gives the edge the supervisors' PINs (ParsePINs with SupervisorPolicy); a
// table without them refuses every supervisor credential.
func WithSupervisors(p *PINs) Option { return func(o *grpcOptions) { o.supervisors = p } }

// ParseSupervisors reads a supervisors' PIN file.
func ParseSupervisors(b []byte) (*PINs, error) { return ParsePINs(b, SupervisorPolicy) }

// LoadSupervisors reads a supervisors' PIN file; a missing file is no supervisors (every PIN
// refused).
func LoadSupervisors(path string) (*PINs, error) { return LoadPINs(path, SupervisorPolicy) }

// supervisorCreds reads the supervisor's card and PIN from a call's metadata: asked is false
// when the call carries neither.
func supervisorCreds(ctx context.Context) (card, pin string, asked bool, err error) {
	md, _ := metadata.FromIncomingContext(ctx)
	cards, pins := md.Get(SupervisorCardHeader), md.Get(SupervisorPINHeader)
	if len(cards) == 0 && len(pins) == 0 {
		return "", "", false, nil
	}
	if len(cards) != 1 || len(pins) != 1 {
		return "", "", true, status.Errorf(codes.InvalidArgument, "supervisor credentials are one %s and one %s", SupervisorCardHeader, SupervisorPINHeader)
	}
	if err := pki.ValidID(cards[0]); err != nil {
		return "", "", true, status.Errorf(codes.InvalidArgument, "supervisor card: %v", err)
	}
	return cards[0], pins[0], true, nil
}

// asSupervisor checks the supervisor credentials a caller sent with method and answers the
// identity the call runs as: the supervisor's card. It refuses them from anyone but a dealer's
// certificate and on any service but the dealer's; it audits every attempt and raises an alarm
// when a card is locked out.
func (e *edge) asSupervisor(console identity, method, card, pin string) (identity, error) {
	if console.role != pki.RoleDealer || !strings.HasPrefix(method, "/"+pb.DealerService_ServiceDesc.ServiceName+"/") {
		return identity{}, status.Errorf(codes.PermissionDenied, "supervisor credentials are taken only on the dealer's service from a dealer's console, not from %s %q on %s", console.role, console.id, method)
	}
	if e.supervisors == nil {
		return identity{}, status.Error(codes.FailedPrecondition, "this table has no supervisor PINs (tableserver -supervisors FILE)")
	}
	at := fmt.Sprintf("at %s %s's console", console.role, console.id)
	lockedNow, err := e.supervisors.check(card, pin)
	if err != nil {
		why := status.Convert(err).Message()
		e.log.Warn("supervisor PIN refused", "card", card, "console", console.id, "why", why)
		if aerr := e.t.audit(console.role+":"+console.id, "supervisor-pin-refused", "", why+" "+at); aerr != nil {
			return identity{}, aerr
		}
		if lockedNow {
			e.log.Warn("alarm: supervisor card locked out", "card", card, "console", console.id)
			e.t.alarm(AlarmSupervisorLockout, "", fmt.Sprintf("card %s: %d wrong PINs in a row %s: %s", card, e.supervisors.policy.MaxFailures, at, why))
		}
		return identity{}, err
	}
	who := identity{pki.RoleSupervisor, card}
	if !mayCall(who.role, method) {
		return identity{}, status.Errorf(codes.PermissionDenied, "supervisor %q may not call %s (%s may)", card, method, whoMay(method))
	}
	if aerr := e.t.audit(who.role+":"+who.id, "supervisor-authenticated", "", at+": "+method); aerr != nil {
		return identity{}, aerr
	}
	return who, nil
}
