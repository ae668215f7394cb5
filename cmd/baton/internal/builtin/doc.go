// Package builtin holds the tools the baton command offers a model: file
// reading, writing and listing confined to one workspace folder through
// os.Root, which refuses paths that climb out with "..", absolute paths
// and symlinks that point outside, and two opt-in tools that reach past
// the workspace and therefore need approval: shell (a command with a
// timeout) and http_get (a capped GET). It imports contract and dispatch
// of baton's packages.
package builtin
