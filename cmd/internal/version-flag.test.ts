import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gitVersion } from '../../pkg/version/version.js';
import { versionRequest } from './version-flag.js';

const main = (binary: string) => resolve(fileURLToPath(import.meta.url), `../../${binary}/main.js`);

test('--version alone or =true prints the version, =false runs as usual, anything else is refused', () => {
  assert.deepEqual(versionRequest(''), { print: `Kubernetes ${gitVersion}\n` });
  assert.deepEqual(versionRequest('true'), versionRequest(''));
  assert.equal(versionRequest(undefined), undefined);
  assert.equal(versionRequest('false'), undefined);
  assert.match((versionRequest('raw') as { error: string }).error, /invalid argument "raw" for "--version" flag/);
});

for (const binary of ['apiserver', 'controller-manager']) {
  test(`${binary} --version prints the version and exits 0 without dialling anything`, () => {
    const r = spawnSync(process.execPath, [main(binary), '--version'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `Kubernetes ${gitVersion}\n`);
    assert.match(gitVersion, /^v1\.\d+\.0\+orch\.\d+\.\d+\.\d+$/);
    const bad = spawnSync(process.execPath, [main(binary), '--version=maybe'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, new RegExp(`invalid argument "maybe" for "--version" flag[^]*Run '${binary} --help' for usage`));
  });
}
