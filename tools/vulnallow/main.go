// Command vulnallow judges a govulncheck run: it reads govulncheck's JSON stream (-format json)
// on stdin and fails on every vulnerability the code reaches (a finding traced down to a
// function it calls) unless the allow file names its OSV id with a reason. govulncheck itself
// has no way to accept a finding, so a known one that cannot be fixed here — the standard
// library of the Go installed on the build machines — would otherwise keep the check red and
// hide a new one. It prints every reached finding, allowed or not, and the allowed ids nothing
// reached any more (lines to delete).
//
//	govulncheck -db file://… -format json ./... | vulnallow packaging/govulncheck.allow
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// message is the part of govulncheck's JSON protocol (v1.0.0) read here.
type message struct {
	Config *struct {
		ScannerVersion string `json:"scanner_version"`
		DB             string `json:"db"`
		GoVersion      string `json:"go_version"`
	} `json:"config"`
	OSV *struct {
		ID      string `json:"id"`
		Summary string `json:"summary"`
	} `json:"osv"`
	Finding *struct {
		OSV          string `json:"osv"`
		FixedVersion string `json:"fixed_version"`
		Trace        []struct {
			Module   string `json:"module"`
			Version  string `json:"version"`
			Package  string `json:"package"`
			Function string `json:"function"`
		} `json:"trace"`
	} `json:"finding"`
}

// reached is one vulnerability the code calls into.
type reached struct{ id, where, fixed, summary string }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: govulncheck -format json … | vulnallow ALLOWFILE")
		os.Exit(2)
	}
	allow, err := readAllow(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "vulnallow:", err)
		os.Exit(2)
	}
	found, err := judge(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vulnallow:", err)
		os.Exit(2)
	}
	failed := 0
	used := map[string]bool{}
	for _, f := range found {
		if why, ok := allow[f.id]; ok {
			used[f.id] = true
			fmt.Printf("allowed  %s  %s, fixed in %s: %s\n           (%s)\n", f.id, f.where, f.fixed, f.summary, why)
			continue
		}
		failed++
		fmt.Printf("FOUND    %s  %s, fixed in %s: %s\n", f.id, f.where, f.fixed, f.summary)
	}
	var stale []string
	for id := range allow {
		if !used[id] {
			stale = append(stale, id)
		}
	}
	sort.Strings(stale)
	for _, id := range stale {
		fmt.Printf("stale    %s is allowed in %s but no longer found: delete its line\n", id, os.Args[1])
	}
	fmt.Printf("govulncheck: %d vulnerabilities reached, %d allowed with a reason, %d not\n", len(found), len(found)-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// judge reads the JSON stream and returns the reached vulnerabilities, one per id, by id.
func judge(r io.Reader) ([]reached, error) {
	dec := json.NewDecoder(r)
	summaries := map[string]string{}
	byID := map[string]reached{}
	configured := false
	for {
		var m message
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading govulncheck's output: %w", err)
		}
		switch {
		case m.Config != nil:
			configured = true
			fmt.Printf("govulncheck %s, %s, database %s\n", m.Config.ScannerVersion, m.Config.GoVersion, m.Config.DB)
		case m.OSV != nil:
			summaries[m.OSV.ID] = m.OSV.Summary
		case m.Finding != nil:
			f := m.Finding
			if len(f.Trace) == 0 || f.Trace[0].Function == "" {
				continue // a vulnerable module or package the code does not call into
			}
			t := f.Trace[0]
			byID[f.OSV] = reached{id: f.OSV, where: t.Module + "@" + t.Version + " " + t.Package + "." + t.Function, fixed: f.FixedVersion}
		}
	}
	if !configured {
		return nil, errors.New("no govulncheck output (no config message): did it run?")
	}
	out := make([]reached, 0, len(byID))
	for _, f := range byID {
		f.summary = summaries[f.id]
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, nil
}

// readAllow reads the allow file: one OSV id a line and, after it, the reason it is allowed
// (required); # begins a comment.
func readAllow(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	allow := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, why, _ := strings.Cut(line, " ")
		if why = strings.TrimSpace(why); !strings.HasPrefix(id, "GO-") || why == "" {
			return nil, fmt.Errorf("%s:%d: want an OSV id (GO-…) and the reason it is allowed: %q", path, n, line)
		}
		allow[id] = why
	}
	return allow, sc.Err()
}
