// Delegation runs an agent that hands two tasks to two delegates at once,
// a researcher and a writer, each a child agent with its own system
// prompt and tools. The children run in parallel as calls of the parent;
// their events reach the parent's subscribers under the delegate call's
// id, and their records form chains the parent's session links, so the
// session is one DAG. The example prints what each child did, the
// answer, the DAG, and then replays the whole DAG.
package main
