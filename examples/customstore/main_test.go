package main

import (
	"io"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

func TestAuditStoreConforms(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return &auditStore{Store: store.NewMemory(), out: io.Discard}
	})
}
