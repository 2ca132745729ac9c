package calibration

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// DefaultRules is where the rule that carries the matrix across reboots is written: udev sets
// LIBINPUT_CALIBRATION_MATRIX on the touch device when it appears, and libinput reads it.
const DefaultRules = "/etc/udev/rules.d/99-ats-touch-calibration.rules"

// DefaultMatch picks the touch device in the rule: any touchscreen event node. A cabinet with
// two touch devices names its own (e.g. ATTRS{name}=="ILITEK ILITEK-TP").
const DefaultMatch = `KERNEL=="event*", ENV{ID_INPUT_TOUCHSCREEN}=="1"`

// Persist says how a fit is kept and applied on this machine.
type Persist struct {
	// Rules is the udev rule file written; "" is DefaultRules. Tests give a temporary file.
	Rules string
	// Match is the rule's device match; "" is DefaultMatch.
	Match string
	// Device is the xinput name of the touch device, for applying the matrix to the running X
	// session at once; "" applies nothing live (the rule takes effect at the next boot).
	Device string
	// Command is the xinput command and leading arguments; nil is {"xinput"}. Tests give a
	// fake that records its arguments.
	Command []string
}

// Rule is the udev rule line that sets m on the touch device.
func (p Persist) Rule(m Matrix) string {
	match := p.Match
	if match == "" {
		match = DefaultMatch
	}
	return fmt.Sprintf(`ACTION=="add|change", %s, ENV{LIBINPUT_CALIBRATION_MATRIX}="%s"`, match, m)
}

// Save writes the rule file (atomically: a reboot half-way through finds the old rule or the
// new one, never half of one), then applies the matrix live where the device exists. who and at
// go in the file's comment, so the rule itself says where it came from.
func (p Persist) Save(ctx context.Context, m Matrix, who string, at time.Time) error {
	path := p.Rules
	if path == "" {
		path = DefaultRules
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Touch calibration of this ATS, written by the terminal's technician mode.\n")
	fmt.Fprintf(&b, "# Calibrated by %s at %s. Do not edit: calibrate again instead.\n", who, at.UTC().Format(time.RFC3339))
	fmt.Fprintln(&b, p.Rule(m))
	if err := writeAtomic(path, b.Bytes()); err != nil {
		return fmt.Errorf("calibration: saving the udev rule: %w", err)
	}
	return p.Apply(ctx, m)
}

// Apply sets m on the running X session's touch device (xinput set-prop … "libinput
// Calibration Matrix" a b c d e f 0 0 1): libinput takes the full 3×3 matrix. Without a device
// configured it does nothing.
func (p Persist) Apply(ctx context.Context, m Matrix) error {
	if p.Device == "" {
		return nil
	}
	cmd := p.Command
	if len(cmd) == 0 {
		cmd = []string{"xinput"}
	}
	args := append(append([]string{}, cmd[1:]...), "set-prop", p.Device, "libinput Calibration Matrix")
	args = append(args, strings.Fields(m.String())...)
	args = append(args, "0", "0", "1")
	out, err := exec.CommandContext(ctx, cmd[0], args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("calibration: applying the matrix with %s: %w: %s", cmd[0], err, bytes.TrimSpace(out))
	}
	return nil
}

// Load reads the matrix back from the rule file; ok is false if there is none.
func (p Persist) Load() (m Matrix, ok bool, err error) {
	path := p.Rules
	if path == "" {
		path = DefaultRules
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return Matrix{}, false, nil
	}
	if err != nil {
		return Matrix{}, false, err
	}
	const key = `ENV{LIBINPUT_CALIBRATION_MATRIX}="`
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.Index(line, key); i >= 0 && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			v, _, _ := strings.Cut(line[i+len(key):], `"`)
			m, err := Parse(v)
			return m, err == nil, err
		}
	}
	return Matrix{}, false, fmt.Errorf("calibration: %s has no calibration matrix", path)
}

// writeAtomic writes data to path through a temporary file in the same directory, synced and
// renamed over it.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".calibration-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
