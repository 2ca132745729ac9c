package technician

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/tablegames/ats/app/calibration"
)

// SettingsFile is the settings file's name in the terminal's state directory.
const SettingsFile = "terminal-settings.json"

// Calibrated is the touch calibration in force, and who made it when.
type Calibrated struct {
	Matrix     calibration.Matrix `json:"matrix"`
	At         time.Time          `json:"at"`
	Technician string             `json:"technician"`
	HeldOut    float64            `json:"held_out_px"` // the check target's error when it was made
}

// Values are the terminal's settings a technician may change on the terminal. Money-related
// settings (limits, denominations, the table's profile) are the table server's and are not here.
type Values struct {
	Design   string `json:"design,omitempty"`   // A, L or U; "" the kiosk's -design
	Language string `json:"language,omitempty"` // en or zh_Hans; "" the system's
	Seat     int    `json:"seat,omitempty"`     // the seat's pad on the ID pad line; 0 the kiosk's -seat
	// Volume is the sound level in percent (0 silent); nil the kiosk's default. The player can
	// only mute it (the kiosk's Sound button), never raise it.
	Volume      *int        `json:"volume,omitempty"`
	Calibration *Calibrated `json:"calibration,omitempty"`
}

// The settings a technician may change, and what each may be.
var settable = map[string][]string{
	"design":   {"A", "L", "U"},
	"language": {"en", "zh_Hans"},
	"seat":     {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"},
	"volume":   {"0", "20", "40", "60", "80", "100"},
}

// Choices are the values setting key may take, in order; nil for a key not settable here.
func Choices(key string) []string { return settable[key] }

// Settings is the settings file.
type Settings struct {
	path string
	mu   sync.Mutex
}

// OpenSettings returns the settings kept in dir.
func OpenSettings(dir string) *Settings {
	return &Settings{path: filepath.Join(dir, SettingsFile)}
}

// Load reads the settings; a missing file is no settings.
func (s *Settings) Load() (Values, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load()
}

func (s *Settings) load() (Values, error) {
	var v Values
	b, err := os.ReadFile(s.path)
	if os.IsNotExist(err) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("settings file %s: %w", s.path, err)
	}
	return v, nil
}

// Get is setting key as a string ("" unset).
func (v Values) Get(key string) string {
	switch key {
	case "design":
		return v.Design
	case "language":
		return v.Language
	case "seat":
		if v.Seat > 0 {
			return strconv.Itoa(v.Seat)
		}
	case "volume":
		if v.Volume != nil {
			return strconv.Itoa(*v.Volume)
		}
	}
	return ""
}

// Over is v with each setting it leaves unset taken from running: the settings in force.
func (v Values) Over(running Values) Values {
	if v.Design == "" {
		v.Design = running.Design
	}
	if v.Language == "" {
		v.Language = running.Language
	}
	if v.Seat == 0 {
		v.Seat = running.Seat
	}
	return v
}

// check validates key = value and returns the values with it set.
func (v Values) with(key, value string) (Values, error) {
	ok := false
	for _, c := range settable[key] {
		ok = ok || c == value
	}
	if !ok {
		if settable[key] == nil {
			return v, fmt.Errorf("%q is not a setting a technician changes here (money settings are the table server's)", key)
		}
		return v, fmt.Errorf("%s: %q is not one of %v", key, value, settable[key])
	}
	switch key {
	case "design":
		v.Design = value
	case "language":
		v.Language = value
	case "seat":
		v.Seat, _ = strconv.Atoi(value)
	case "volume":
		n, _ := strconv.Atoi(value) // one of the choices: a number
		v.Volume = &n
	}
	return v, nil
}

// update applies fn to the settings and saves them.
func (s *Settings) update(fn func(Values) (Values, error)) (old, now Values, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, err = s.load(); err != nil {
		return
	}
	if now, err = fn(old); err != nil {
		return
	}
	b, err := json.MarshalIndent(now, "", "  ")
	if err != nil {
		return
	}
	err = writeFile(s.path, append(b, '\n'), 0o600)
	return
}

// SaveCalibration keeps c as the calibration in force (atsctl technician calibrate; the kiosk's
// goes through Desk.SaveCalibration).
func SaveCalibration(s *Settings, c Calibrated) error {
	_, _, err := s.update(func(v Values) (Values, error) {
		v.Calibration = &c
		return v, nil
	})
	return err
}
