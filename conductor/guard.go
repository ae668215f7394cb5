package conductor

import "fmt"

// guard runs fn, turning a panic into an error.
func guard(fn func() error) error {
	_, err := guarded("", func() (struct{}, error) { return struct{}{}, fn() })
	return err
}

// guarded runs fn, a call into the host's code (a hook, the approver, the
// retriever), turning a panic into an error, so that a host's bug fails
// the one call rather than the process. The error says what panicked:
// "conductor: approver panicked: ..." for what "conductor: approver", or
// only "panicked: ..." for an empty what, as a hook's, which hookError
// names.
func guarded[T any](what string, fn func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, panicked(what, p)
		}
	}()
	return fn()
}

// panicked is the error of a call that panicked with p.
func panicked(what string, p any) error {
	if what == "" {
		return fmt.Errorf("panicked: %v", p)
	}
	return fmt.Errorf("%s panicked: %v", what, p)
}
