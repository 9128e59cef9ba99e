import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { bundleWorkflowCode } from "@temporalio/worker";
import { PROJECT_ROOT } from "../../src/config";

/**
 * The workflow bundle as it was at `commit`, for recording histories of runs started before a
 * change: a worker given this code runs exactly what a worker of that commit ran.
 */
export async function bundleWorkflowsAt(commit: string): Promise<string> {
  // Inside the project, so the old code resolves the project's node_modules.
  mkdirSync(path.join(PROJECT_ROOT, ".data"), { recursive: true });
  const tree = mkdtempSync(path.join(PROJECT_ROOT, ".data", "old-workflows-"));
  execFileSync("sh", ["-c", `git archive ${commit} workflows activities src | tar -x -C ${tree}`], { cwd: PROJECT_ROOT });
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(tree, "workflows") }).finally(() => rmSync(tree, { recursive: true, force: true }));
  return code;
}

/** Runs `main(commit)` for a recorder script invoked as `<script> <commit>`, and exits with its outcome. */
export function runRecorder(script: string, main: (commit: string) => Promise<void>): void {
  const commit = process.argv[2];
  if (!commit) {
    console.error(`usage: ${script} <commit>`);
    process.exit(2);
  }
  main(commit).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
