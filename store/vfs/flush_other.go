//go:build !linux

package vfs

import "errors"

func (o osFS) Flush() error { return errors.ErrUnsupported }
