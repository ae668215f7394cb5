package builtin_test

import (
	"context"
	"fmt"
	"os"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
)

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(dir)
	set, err := builtin.Open(builtin.Options{Root: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer set.Close()
	for _, t := range set.Tools() {
		if t.Descriptor().Name == "read_file" {
			_, err := t.Call(context.Background(), []byte(`{"path":"../etc/passwd"}`))
			fmt.Println(err)
		}
	}
	// Output: builtin: path escapes the workspace: "../etc/passwd" climbs out of it
}
