package wire

// The supervisor's credentials on a dealer's console (issue 28): gRPC metadata a DealerService
// call made with a dealer's certificate may carry, so the call is the supervisor's — checked,
// authorised and recorded as theirs by the table (server/supervisor.go). They are a contract
// of the wire: the console, the command line and the server name them from here.
const (
	SupervisorCardHeader = "ats-supervisor-card" // the supervisor's card id
	SupervisorPINHeader  = "ats-supervisor-pin"  // the PIN typed with it
)
