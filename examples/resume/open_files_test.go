package main

import (
	"os"
	"runtime"
	"testing"
)

// openFiles counts the process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// The program closes the store it resumes from: a copy of it that did
// not would keep the session's log open, and on Windows could not remove
// its folder.
func TestMainLeavesNoFileOpen(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts open files in /proc/self/fd; run on Linux")
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	stdout := os.Stdout
	os.Stdout = null
	defer func() { os.Stdout = stdout }()
	before := openFiles(t)
	main()
	if after := openFiles(t); after != before {
		t.Errorf("%d files open after main, %d before", after, before)
	}
}
