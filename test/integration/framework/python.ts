// Python scripts using the official client (Debian's python3-kubernetes), run by Debian's
// /usr/bin/python3 (the only interpreter that package installs into), given a kubeconfig.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kubeconfig } from './kubeconfig.js';
import { run, type ProcessResult } from './process.js';

export const python = process.env.ORCH_TEST_PYTHON ?? '/usr/bin/python3';

/** test/integration/clients in the source tree (the scripts are not compiled, so not under _output). */
function scriptsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return join(dir, 'test', 'integration', 'clients');
}

export interface PythonResult extends ProcessResult {
  /** The JSON document the script printed last on stdout (each script reports what it saw that way). */
  report: any;
}

/**
 * Runs `clients/<script>` with the kubeconfig path as its first argument, then `args`; asserts it
 * exited 0 and printed a JSON report as its last line, showing its output otherwise.
 */
export async function runPython(kubeconfig: Kubeconfig, script: string, args: readonly string[] = [], timeoutMs = 30_000): Promise<PythonResult> {
  const r = await run(python, [join(scriptsDir(), script), kubeconfig.path, ...args], {
    timeoutMs,
    env: { ...process.env, HOME: kubeconfig.dir, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
  });
  assert.equal(r.code, 0, `python client failed:\n${r.describe()}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  let report: unknown;
  try {
    report = JSON.parse(last);
  } catch {
    assert.fail(`python client printed no JSON report:\n${r.describe()}`);
  }
  return { ...r, report };
}
