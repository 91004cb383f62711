// Package foreach runs one command per line of one or more file lists: the
// semantics of llvm-foreach, the DPC++ tool the device-link stage uses to
// compile every split module for a target.
//
// A Spec pairs each list with a placeholder (--in-file-list / --in-replace).
// Job j runs the command with every placeholder replaced by line j of its
// list. With an output placeholder (--out-replace) each job also gets a fresh
// output file, and the outputs are listed, in list order, in an output file
// list (--out-file-list). An argument holding the --out-increment text gets
// the suffix _j for j > 0.
//
// Jobs take tokens from a Pool, so a caller that runs many things at once
// (the build graph) can pass one shared pool and the fan-out here borrows
// from its global -j instead of owning a private limit. Run takes one token
// per running child and holds none while it only waits; a caller must not
// hold every token of the pool while it waits for Run.
//
// # Better than the reference
//
//   - Waiting blocks on the children's exit; nothing polls, so the process
//     uses no CPU while children run (the reference busy-waits).
//   - Each child's standard output and error are captured (in unnamed
//     temporary files, not memory) and printed whole when it ends, so the
//     output of parallel children never interleaves mid-line.
//   - A failing child's command line is printed, shell-quoted, with its exit
//     status.
//   - With Deterministic, outputs are named <dir>/<stem>_<index>.<ext>, the
//     same on every run (a build cache needs stable names); otherwise they
//     get unique random names like the reference's <stem>-XXXXXX.<ext>.
//   - Cancelling the context (SIGINT/SIGTERM in the tool) stops every child
//     (SIGTERM to its process group, SIGKILL after a grace period) and removes
//     the outputs of jobs that had not finished.
//   - A failed job's output is removed, and the output file list is written
//     (atomically) only when every job succeeded (a list of that name from an
//     earlier run is removed otherwise), so no list names a broken or missing
//     file. The reference writes both regardless.
//   - Every occurrence of every placeholder in every argument is replaced,
//     all in one pass over the original argument, so a list item that
//     happens to contain another placeholder's text is not substituted
//     again. The reference replaces only the first occurrence per argument
//     and pairs occurrences with lists by the order it found them, which is
//     wrong unless each placeholder occurs exactly once, in list order; where
//     it is right, the results are the same.
//   - A placeholder that occurs in no argument, or an empty one, is an
//     error rather than silently ignored.
//   - The exit code is the last non-zero child exit code in list order (the
//     reference takes the last one it happens to observe, which depends on
//     timing when jobs run in parallel); a child killed by a signal counts
//     as 128+signal.
//   - Children read no standard input (parallel children cannot share it).
package foreach
