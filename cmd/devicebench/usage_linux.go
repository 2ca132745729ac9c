package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// usage is this process's CPU time (user and system) and each thread's context switches.
func usage() (time.Duration, map[string]int64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, nil, err
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil {
		return 0, nil, err
	}
	sw := make(map[string]int64, len(tasks))
	for _, t := range tasks {
		f, err := os.Open(t)
		if err != nil {
			continue // the thread ended
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				sw[t] += n
			}
		}
		f.Close()
	}
	return cpu, sw, nil
}
