//go:build !linux

package store_test

import "os"

func datasync(f *os.File) error { return f.Sync() }
