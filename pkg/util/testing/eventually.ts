// Tests wait for asynchronous effects (background fetches, retries) by polling with a deadline,
// never by sleeping a fixed time.

/** Polls `check` until it returns true or the deadline passes (tests never sleep a fixed time). */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
