import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT, temporalCliPath } from "../config";

/** The newest CLI tag whose go.mod has no replace directive, so `go install` works. */
export const TEMPORAL_CLI_VERSION = "v1.5.1";
export const TOOLS_DIR = path.join(PROJECT_ROOT, ".tools");

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && executable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then `temporal` on PATH, then the project's tool cache;
 * failing those, builds it from source with Go into the cache. Undefined means: no binary and no Go,
 * so the caller falls back to @temporalio/testing's download.
 */
export function findOrBuildTemporalCli(): string | undefined {
  const explicit = temporalCliPath();
  if (explicit) {
    if (!executable(explicit)) throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not an executable file`);
    return explicit;
  }
  const found = onPath("temporal") ?? (executable(path.join(TOOLS_DIR, "temporal")) ? path.join(TOOLS_DIR, "temporal") : undefined);
  if (found) return found;

  const go = onPath("go") ?? (executable("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined);
  if (!go) return undefined;
  mkdirSync(TOOLS_DIR, { recursive: true });
  console.log(
    `Building the Temporal CLI ${TEMPORAL_CLI_VERSION} from source into ${TOOLS_DIR}.\n` +
      "This happens once: it downloads a few hundred MB of Go modules and compiles for several minutes.",
  );
  const build = spawnSync(go, ["install", `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    stdio: "inherit",
    env: { ...process.env, GOBIN: TOOLS_DIR, CGO_ENABLED: "0" },
  });
  if (build.status !== 0) throw new Error(`go install of the Temporal CLI failed (exit ${build.status})`);
  return path.join(TOOLS_DIR, "temporal");
}
