package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/client"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// tableAuth is app.TechnicianAuth by the table server, for `atsctl technician`: the same PINs,
// the same throttle (counted per technician, whichever way the PIN comes) and the same audit as
// the kiosk's PIN pad. It calls with a certificate from a PKI directory, and the certificate's
// role says how:
//   - a terminal's (the cabinet's own, as the kiosk uses): TerminalService.AuthenticateTechnician
//     for the technician named by -id, audited with the terminal as actor;
//   - a technician's (on the technician's laptop): TechnicianService.Authenticate, which checks
//     the PIN of the certificate's own technician, who must be the -id given.
//
// There is no fallback to the terminal's own PIN file when the table cannot be reached: whoever
// pulls the network cable would choose the check, and the file's throttle lives on a disk they
// may write. A cabinet whose table has no technician PINs is configured for its own file
// deliberately (-local-pins, as the kiosk's -local-technician-pins).
type tableAuth struct {
	addr    string
	pkiDir  string
	cert    string            // the certificate's name in pkiDir
	names   *technician.Store // the technician's name, if the terminal's file has one
	timeout time.Duration
}

// errUnreachable is a PIN the table could not be asked about.
var errUnreachable = errors.New("the table server cannot be reached")

func (a tableAuth) Authenticate(ctx context.Context, id, pin string) (app.Technician, error) {
	crt, err := pki.Files{Dir: a.pkiDir}.Cert(a.cert)
	if err != nil {
		return app.Technician{}, fmt.Errorf("certificate %s in %s: %w", a.cert, a.pkiDir, err)
	}
	role, cn, err := pki.Identity(crt)
	if err != nil {
		return app.Technician{}, fmt.Errorf("certificate %s: %w", a.cert, err)
	}
	if role != pki.RoleTerminal && role != pki.RoleTechnician {
		return app.Technician{}, fmt.Errorf("certificate %s is a %s's: use a terminal's or a technician's", a.cert, role)
	}
	if role == pki.RoleTechnician && cn != id {
		return app.Technician{}, fmt.Errorf("certificate %s is technician %s's, not %s's", a.cert, cn, id)
	}
	tlsCfg, err := client.LoadTLS(a.pkiDir, a.cert)
	if err != nil {
		return app.Technician{}, err
	}
	conn, err := grpc.NewClient(a.addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		return app.Technician{}, fmt.Errorf("%w at %s: %w", errUnreachable, a.addr, err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	// Asked once, never retried: a retried wrong PIN would count twice against the throttle.
	var got string
	if role == pki.RoleTerminal {
		var r *pb.TechnicianAuthenticateResponse
		r, err = pb.NewTerminalServiceClient(conn).AuthenticateTechnician(cctx, &pb.AuthenticateTechnicianRequest{TechnicianId: id, Pin: pin})
		got = r.GetTechnicianId()
	} else {
		var r *pb.TechnicianAuthenticateResponse
		r, err = pb.NewTechnicianServiceClient(conn).Authenticate(cctx, &pb.TechnicianAuthenticateRequest{Pin: pin})
		got = r.GetTechnicianId()
	}
	switch status.Code(err) {
	case codes.OK:
		if got != id {
			return app.Technician{}, fmt.Errorf("the table checked the PIN of %q, not %q", got, id)
		}
		return app.Technician{ID: id, Name: a.names.Name(id)}, nil
	case codes.PermissionDenied:
		return app.Technician{}, fmt.Errorf("%w: %s", app.ErrWrongPIN, status.Convert(err).Message())
	case codes.ResourceExhausted:
		return app.Technician{}, fmt.Errorf("%w: %s", app.ErrThrottled, status.Convert(err).Message())
	case codes.Unavailable, codes.DeadlineExceeded:
		return app.Technician{}, fmt.Errorf("%w at %s (%s); the PIN is checked only by the table, so nothing is opened without it",
			errUnreachable, a.addr, status.Convert(err).Message())
	}
	return app.Technician{}, fmt.Errorf("the table did not check the PIN: %s", status.Convert(err).Message())
}
