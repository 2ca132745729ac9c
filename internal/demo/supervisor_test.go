package demo

import "testing"

// The demo table's supervisor card takes its documented PIN, under the supervisors' throttle.
func TestDemoSupervisorPIN(t *testing.T) {
	pins, err := demoSupervisorPINs()
	if err != nil {
		t.Fatal(err)
	}
	if err := pins.Verify(Supervisor, SupervisorPIN); err != nil {
		t.Fatalf("%s's PIN: %v", Supervisor, err)
	}
	if err := pins.Verify(Supervisor, "000000"); err == nil {
		t.Fatal("a wrong PIN passed")
	}
}
