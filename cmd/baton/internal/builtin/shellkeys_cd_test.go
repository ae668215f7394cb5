package builtin

import "testing"

// TestShellKeysNameWhereCdGoes: cd's key names its target, "cd DIR" (a
// space, so that no command's name is the key), "cd *" when the target
// is computed, "cd ~" for a bare cd; pushd likewise.
func TestShellKeysNameWhereCdGoes(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"cd src && make", []string{"cd", "cd src", "make"}},
		{"cd /tmp/evil", []string{"cd", "cd /tmp/evil"}},
		{"cd -P -- ../x", []string{"cd", "cd ../x"}},
		{"cd", []string{"cd", "cd ~"}},
		{"cd ~/go", []string{"cd", "cd ~/go"}},
		{"cd \"$D\"", []string{"cd", "cd *"}},
		{"cd -", []string{"cd", "cd *"}},
		{"cd a b", []string{"cd", "cd *"}},
		{"cd src*", []string{"cd", "cd *"}},
		{"builtin cd src", []string{"builtin", "cd", "cd src"}},
		{"pushd src && make; popd", []string{"make", "popd", "pushd", "pushd src"}},
		{"(cd sub && make) & wait", []string{"cd", "cd sub", "make", "wait"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// TestShellKeysOfRelativePathsAfterCd: a relative command path, sourced
// file or written file names another file once a line changes directory
// (cd, pushd, popd, env -C, sudo -D, find -execdir), so such a line has
// no keys: "cd src" and "./gradlew" approved must not allow
// cd /tmp/evil; ./gradlew, nor two approved "cd .." climb out.
func TestShellKeysOfRelativePathsAfterCd(t *testing.T) {
	innocent := append([]string{"./gradlew build", "cd ..", ". venv/bin/activate", "make > build.log", "sudo ls", "find . -exec ls {} +"}, innocentLines...)
	tests := []struct {
		line string
		want []string
	}{
		{"cd /tmp/evil; ./gradlew", nil},
		{"cd src; ./gradlew", nil},
		{"cd ..; cd ..; ./gradlew build", nil},
		{"./gradlew build; cd ..", nil},
		{"command cd /tmp/evil && ./gradlew", nil},
		{"eval cd /tmp/evil; ./gradlew", nil},
		{"pushd /tmp/evil; ./gradlew", nil},
		{"cd ..; cd ..; . venv/bin/activate", nil},
		{"cd ..; cd ..; make > build.log", nil},
		{"env -C /tmp/evil ./gradlew", nil},
		{"env --chdir=/tmp/evil ./gradlew", nil},
		{"sudo -D /tmp/evil ./gradlew", nil},
		{"find /tmp/evil -execdir ./gradlew \\;", nil},
		{"cd /tmp/evil; /bin/ls > /tmp/out", []string{"/bin/ls", ">/tmp/out", "cd", "cd /tmp/evil"}},
		{"cd src && make > /dev/null", []string{"cd", "cd src", "make"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			if tt.want == nil {
				checkNotCovered(t, innocent, got, err)
			}
		})
	}
}
