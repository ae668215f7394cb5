//go:build !linux

package vfs

import "errors"

func (o osFS) OpenFlusher(string) (Flusher, error) { return nil, errors.ErrUnsupported }
