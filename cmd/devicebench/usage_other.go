//go:build !linux

package main

import (
	"errors"
	"time"
)

// usage reads /proc: the idle measurement is Linux's, the cabinet's system.
func usage() (time.Duration, map[string]int64, error) {
	return 0, nil, errors.New("devicebench: -idle reads /proc and needs Linux")
}
