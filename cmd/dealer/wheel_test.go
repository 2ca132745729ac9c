package main

import (
	"context"
	"strings"
	"testing"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// `dealer confirm`: the dealer's one action enters the wheel's proposal; a number other than
// the proposal's is refused, and with no proposal standing the console says to enter it by hand.
func TestRule9_2ConfirmEntersTheWheelsProposal(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	d := pb.NewDealerServiceClient(lt.conn(pki.RoleDealer, "D1"))
	ctx := context.Background()
	run := statusCommand(t, ctx, d)
	for _, c := range []string{"open", "start", "drop"} {
		if _, err := run(c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	if _, err := run("confirm"); err == nil || !strings.Contains(err.Error(), "enter the number by hand") {
		t.Fatalf("confirm with no proposal: %v", err)
	}
	st, err := lt.Table.Status()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lt.Table.ProposeOutcome("wheel", st.RoundId, 17, 4); err != nil {
		t.Fatal(err)
	}
	if _, err := run("confirm", "18"); err == nil || !strings.Contains(err.Error(), "the wheel proposed 17") {
		t.Fatalf("confirm 18 when the wheel proposed 17: %v", err)
	}
	st, err = run("confirm", "17")
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase != pb.Phase_PHASE_RESULT || st.History[0].Number != "17" {
		t.Fatalf("after confirm: %v, history %v", st.Phase, st.History)
	}
}
