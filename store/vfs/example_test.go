package vfs_test

import (
	"fmt"

	"github.com/batonrt/baton/store/vfs"
)

func ExampleMem() {
	fs := vfs.NewMem()
	f, _ := fs.Create("a")
	_, _ = f.Write([]byte("synced"))
	_ = f.Sync()
	_, _ = f.Write([]byte(" and not"))
	_ = f.Close()
	_ = fs.SyncDir(".")
	fs.Restart(vfs.KeepNone)
	b, _ := fs.ReadFile("a")
	fmt.Printf("%s\n", b)
	// Output: synced
}

func ExampleFaulty() {
	fs := vfs.NewFaulty(vfs.NewMem())
	fs.Inject(1, false)
	_, err := fs.Create("a")
	fmt.Println(err)
	_, err = fs.Create("a")
	fmt.Println(err)
	// Output:
	// vfs: injected fault at create (op 1): no space left on device
	// <nil>
}
