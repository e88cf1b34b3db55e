import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { Response } from 'express';
import { parseRequestInfo } from './request-info.js';
import { parseGoDuration, REQUEST_TIMEOUT_MAXIMUM_MS, requestDeadline, requestSignal, requestTimeoutMs, runWithDeadline, WRITE_TIMEOUT_UPPER_BOUND_MS, type PostTimeout, type RequestDeadline } from './request-timeout.js';

test('durations parse as Go time.ParseDuration', () => {
  assert.equal(parseGoDuration('0'), 0n);
  assert.equal(parseGoDuration('-0'), 0n);
  assert.equal(parseGoDuration('1s'), 1_000_000_000n);
  assert.equal(parseGoDuration('1h2m3.5s'), 3_723_500_000_000n);
  assert.equal(parseGoDuration('250ms'), 250_000_000n);
  assert.equal(parseGoDuration('.5us'), 500n);
  assert.equal(parseGoDuration('1µs'), 1000n);
  assert.equal(parseGoDuration('-1.5h'), -5_400_000_000_000n);
  assert.equal(parseGoDuration('+3ns'), 3n);
  const bad = (s: string, message: string) => assert.throws(() => parseGoDuration(s), { message }, s);
  bad('', 'time: invalid duration ""');
  bad('abc', 'time: invalid duration "abc"');
  bad('1', 'time: missing unit in duration "1"');
  bad('1x', 'time: unknown unit "x" in duration "1x"');
  bad('1sec', 'time: unknown unit "sec" in duration "1sec"');
  bad('.s', 'time: invalid duration ".s"');
  bad('1s ', 'time: unknown unit "s " in duration "1s "');
  bad('3000000h', 'time: invalid duration "3000000h"');
  bad('1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"');
});

test('the timeout parameter shortens the maximum; zero, negative and longer ones do not', () => {
  assert.equal(requestTimeoutMs(undefined), REQUEST_TIMEOUT_MAXIMUM_MS);
  assert.equal(requestTimeoutMs(''), REQUEST_TIMEOUT_MAXIMUM_MS);
  assert.equal(requestTimeoutMs('250ms'), 250);
  assert.equal(requestTimeoutMs('0s'), REQUEST_TIMEOUT_MAXIMUM_MS);
  assert.equal(requestTimeoutMs('-5s'), REQUEST_TIMEOUT_MAXIMUM_MS);
  assert.equal(requestTimeoutMs('2h'), REQUEST_TIMEOUT_MAXIMUM_MS);
  assert.throws(() => requestTimeoutMs('10'), (e: { code?: number; message?: string }) =>
    e.code === 400 && e.message === 'invalid timeout specified in the request URL - time: missing unit in duration "10"');
});

const fakeResponse = () => Object.assign(new EventEmitter(), { locals: {} }) as unknown as Response;
const within = (ms: number): RequestDeadline => requestDeadline(parseRequestInfo('GET', `/api/v1/namespaces/default/configmaps/x?timeout=${ms}ms`));

test('work that finishes in time is awaited, its errors passed on', async () => {
  let done = false;
  await runWithDeadline(within(1000), fakeResponse(), async () => { done = true; }, { timedOut: () => assert.fail(), late: () => assert.fail() });
  assert.equal(done, true);
  await assert.rejects(runWithDeadline(within(1000), fakeResponse(), async () => { throw new Error('boom'); }, { timedOut: () => assert.fail(), late: () => assert.fail() }), /boom/);
});

test('work past its deadline: 504 at once, its late failure reported and never unhandled', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let timedOut = 0;
  const late = new Promise<PostTimeout>((resolve) => {
    void assert.rejects(
      runWithDeadline(within(20), fakeResponse(), async () => { await gate; throw new Error('late failure'); }, { timedOut: () => timedOut++, late: resolve }),
      (e: { code?: number; reason?: string; message?: string }) =>
        e.code === 504 && e.reason === 'Timeout' && e.message === 'Timeout: request did not complete within the allotted timeout',
    ).then(() => release());
  });
  const outcome = await late;
  assert.equal(timedOut, 1);
  assert.match(String(outcome.error), /late failure/);
});

test('a write is held at most 34 s whatever the request timeout, and its 504 is the write handlers\'', () => {
  const write = (method: string, query = '') => requestDeadline(parseRequestInfo(method, `/api/v1/namespaces/default/configmaps${method === 'POST' ? '' : '/x'}${query}`));
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    assert.equal(write(method).ms, WRITE_TIMEOUT_UPPER_BOUND_MS, method);
    assert.equal(write(method, '?timeout=5s').ms, 5000, method);
    const e = write(method).timeout();
    assert.equal(e.code, 504);
    assert.equal(e.status.message, 'Timeout: request did not complete within requested timeout - context deadline exceeded');
    assert.deepEqual(e.headers, {}, 'no Retry-After: the outcome is unknown');
  }
  assert.equal(requestDeadline(parseRequestInfo('DELETE', '/api/v1/namespaces/default/configmaps')).ms, WRITE_TIMEOUT_UPPER_BOUND_MS, 'deletecollection');
  // --request-timeout bounds reads, and writes below 34 s.
  assert.equal(requestDeadline(parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps')).ms, REQUEST_TIMEOUT_MAXIMUM_MS);
  assert.equal(requestDeadline(parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps'), 90_000).ms, 90_000);
  assert.equal(requestDeadline(parseRequestInfo('POST', '/api/v1/namespaces/default/configmaps'), 10_000).ms, 10_000);
});

test('at the deadline the work\'s signal is aborted with the 504, and work that stops on it is reported cancelled', async () => {
  const res = fakeResponse();
  let answered: unknown;
  const late = new Promise<PostTimeout>((resolve) => {
    runWithDeadline(within(20), res, () => new Promise<void>((_, reject) => {
      const signal = requestSignal(res)!;
      signal.addEventListener('abort', () => reject(signal.reason));
    }), { timedOut: () => undefined, late: resolve }).catch((e: unknown) => (answered = e));
  });
  const outcome = await late;
  assert.equal(outcome.cancelled, true);
  assert.equal(outcome.error, undefined);
  assert.equal(requestSignal(res)!.reason, answered, 'the signal carries the 504 the client got');
});
