//go:build !linux

package vfs

import "errors"

func (o osFS) OpenFlusher() (Flusher, error) { return nil, errors.ErrUnsupported }
