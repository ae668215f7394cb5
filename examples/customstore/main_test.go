package main

import (
	"io"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

func TestAuditBackendConforms(t *testing.T) {
	storetest.RunBackend(t, func(t *testing.T) store.Backend { return newAuditBackend(io.Discard) })
}
