package store_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(killChildEnv); dir != "" {
		os.Exit(killChild(dir))
	}
	if dir := os.Getenv(openChildEnv); dir != "" {
		os.Exit(openChild(dir))
	}
	if arg := os.Getenv(contendChildEnv); arg != "" {
		os.Exit(contendChild(arg))
	}
	goleak.VerifyTestMain(m)
}
