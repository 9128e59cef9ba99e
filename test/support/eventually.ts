/**
 * Reads until `done` holds, then answers the value; after `timeoutMs` it fails with what it was
 * waiting for and the last value read. For outcomes that arrive asynchronously (workflows, relays).
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until a workflow with the handle's id exists (its start may come from a relay, a moment later). */
export async function workflowExists(handle: { describe(): Promise<unknown> }, what: string, timeoutMs?: number): Promise<void> {
  await eventually(
    () =>
      handle.describe().then(
        () => true,
        () => false,
      ),
    Boolean,
    what,
    timeoutMs,
  );
}
