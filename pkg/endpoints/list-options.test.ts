import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../runtime/errors.js';
import { checkListSendsNoInitialEvents, watchSendsInitialEvents } from './list-options.js';
import { Query } from './query.js';

const q = (s: string) => new Query(new URLSearchParams(s));

/** The causes of the 422 `query` gets, as `field: message`; [] when it is accepted. */
function refusal(check: (q: Query, metaGroup: string) => unknown, query: string): string[] {
  try {
    check(q(query), 'meta.orch.io');
    return [];
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 422);
    assert.equal(e.status.details?.kind, 'ListOptions');
    assert.equal(e.status.details?.group, 'meta.orch.io');
    return (e.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  }
}

test('a watch from resourceVersion unset or "0" that says nothing is a watch-list, as upstream defaults it; one from N is not', () => {
  assert.equal(watchSendsInitialEvents(q(''), 'm'), true);
  assert.equal(watchSendsInitialEvents(q('resourceVersion='), 'm'), true);
  assert.equal(watchSendsInitialEvents(q('resourceVersion=0'), 'm'), true);
  assert.equal(watchSendsInitialEvents(q('resourceVersion=12'), 'm'), undefined);
  assert.equal(watchSendsInitialEvents(q('sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=12'), 'm'), true);
  // Any query boolean: only 0 and false (any case) are false, the empty value is true.
  assert.equal(watchSendsInitialEvents(q('sendInitialEvents=False&resourceVersionMatch=NotOlderThan'), 'm'), false);
  assert.equal(watchSendsInitialEvents(q('sendInitialEvents=0&resourceVersionMatch=NotOlderThan&resourceVersion=0'), 'm'), false);
  assert.equal(watchSendsInitialEvents(q('sendInitialEvents=&resourceVersionMatch=NotOlderThan'), 'm'), true);
});

test('the watch refusals of ValidateListOptions with WatchList on, every rule broken named', () => {
  const requires = 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan';
  const unless = 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided';
  assert.deepEqual(refusal(watchSendsInitialEvents, 'sendInitialEvents=true'), [requires]);
  assert.deepEqual(refusal(watchSendsInitialEvents, 'sendInitialEvents=false&resourceVersion=3'), [requires]);
  assert.deepEqual(refusal(watchSendsInitialEvents, 'sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=3'),
    [requires, 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"']);
  assert.deepEqual(refusal(watchSendsInitialEvents, 'resourceVersionMatch=NotOlderThan'), [unless]);
  assert.deepEqual(refusal(watchSendsInitialEvents, 'resourceVersionMatch=Exact&resourceVersion=3&continue=x'),
    [unless, 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']);
  // An empty resourceVersionMatch is an unset one.
  assert.deepEqual(refusal(watchSendsInitialEvents, 'resourceVersionMatch=&resourceVersion=3'), []);
  assert.deepEqual(refusal(watchSendsInitialEvents, 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=false'), []);
});

test('a list may not ask for initial events, whatever it asks', () => {
  for (const v of ['true', 'false', '']) assert.deepEqual(refusal(checkListSendsNoInitialEvents, `sendInitialEvents=${v}`), ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']);
  assert.deepEqual(refusal(checkListSendsNoInitialEvents, 'resourceVersion=0&resourceVersionMatch=NotOlderThan'), []);
});
