package conductor_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(askChildEnv); dir != "" {
		os.Exit(askChild(dir))
	}
	if dir := os.Getenv(killTreeChildEnv); dir != "" {
		os.Exit(killTreeChild(dir))
	}
	goleak.VerifyTestMain(m)
}
