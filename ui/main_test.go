package ui

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests in English whatever the machine's locale: they read the screen's
// English texts (a test of the Chinese screen sets it, and restoreLanguage puts English back).
// Under LANG=zh_CN.UTF-8 two dozen of them read Chinese texts and failed. TestChineseLocale's
// child process (ATS_ZH_CHILD) is the exception: it checks the locale it was started in.
func TestMain(m *testing.M) {
	if os.Getenv("ATS_ZH_CHILD") == "1" {
		os.Exit(m.Run())
	}
	if err := SetLanguage("en"); err != nil {
		fmt.Fprintln(os.Stderr, "ui tests: English:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
