package postgres

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if url := os.Getenv(killChildEnv); url != "" {
		os.Exit(killChild(url))
	}
	goleak.VerifyTestMain(m)
}
