// Hostile input at the HTTP layer, spoken over a raw TLS socket so the request line and headers are
// exactly what the test writes: odd methods, oversized heads, Upgrade requests, malformed request
// lines and versions, and warning texts no header can carry as they are. Every answer is a 4xx as
// upstream (kube-apiserver on Go's net/http) gives it, the connection is either reusable or closed
// cleanly (never hanging: every wait has a deadline), and the server keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seededRandom } from '../../pkg/util/seeded-random.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { RawConnection, type RawResponse } from './framework/raw-http.js';

const collection = '/api/v1/namespaces/default/configmaps';
const item = `${collection}/some-config`;
const timeoutMs = 10_000;
/** Comfortably past the 1 MiB (+ 4 KiB) head limit, like upstream's. */
const overLimit = (1 << 20) + 16 * 1024;
const genericMethodNotAllowed = 'the server does not allow this method on the requested resource';

function assertGenericStatus(r: RawResponse | undefined, code: number, reason: string, message: string, what: string): void {
  assert.ok(r, `${what}: an answer`);
  assert.equal(r.code, code, `${what}: ${r.statusLine} ${r.text}`);
  assert.match(r.header('content-type') ?? '', /^application\/json/, what);
  const s = JSON.parse(r.text);
  assert.deepEqual(s, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: {}, code }, what);
}

/** Go's plain-text refusal: the status line, echoed as a text/plain body, and the connection closed. */
function assertPlain(r: RawResponse | undefined, statusLine: string, what: string): void {
  assert.ok(r, `${what}: an answer`);
  assert.equal(r.statusLine, statusLine, `${what}: ${r.text}`);
  assert.equal(r.header('content-type'), 'text/plain; charset=utf-8', what);
  assert.equal(r.header('connection'), 'close', what);
  assert.equal(r.text, statusLine.slice('HTTP/1.1 '.length), what);
}

describe('hostile input at the HTTP layer', () => {
  let t: TestServer;
  let port: number;
  let ca: string;
  const conns: RawConnection[] = [];

  before(async () => {
    t = await startTestServer();
    port = t.server.port;
    ca = t.server.cert.cert;
    const created = await t.client.post(collection, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'some-config' }, data: { a: 'b' } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    for (const c of conns) c.destroy();
    await t?.stop();
  });

  const open = async () => {
    const c = await RawConnection.open(port, ca);
    conns.push(c);
    return c;
  };

  /** One request on a new connection; the connection stays open for the caller to inspect. */
  const send = async (raw: string | Buffer, head = false) => {
    const c = await open();
    c.write(raw);
    return { c, r: await c.response({ timeoutMs, head }) };
  };

  const assertLive = async () => {
    const { r } = await send('GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(r?.code, 200, 'a normal request on a new connection is still answered');
    const list = await t.client.get(collection);
    assert.equal(list.status, 200, list.text);
  };

  /** The same connection serves the next request. */
  const assertReusable = async (c: RawConnection, what: string) => {
    c.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
    const next = await c.response({ timeoutMs });
    assert.equal(next?.code, 200, `${what}: the connection serves the next request`);
  };

  /** The connection serves a further request or is closed; either way promptly. */
  const assertWorksOrClosed = async (c: RawConnection, request: string, what: string) => {
    c.write(request);
    const next = await c.response({ timeoutMs });
    if (next) assert.ok(next.code < 500, `${what}: ${next.statusLine}`);
    else assert.ok(c.closed, `${what}: closed`);
  };

  test('HEAD, OPTIONS, PROPFIND and other methods without a route on API paths get 405 MethodNotAllowed; the connection stays usable', async () => {
    for (const path of [collection, item, '/apis/apps/v1/namespaces/default/statefulsets', '/api/v1/namespaces']) {
      for (const method of ['OPTIONS', 'PROPFIND', 'M-SEARCH', 'TRACE', 'HEAD']) {
        const what = `${method} ${path}`;
        const { c, r } = await send(`${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, method === 'HEAD');
        if (method === 'HEAD') {
          assert.equal(r?.code, 405, what);
          assert.match(r.header('content-type') ?? '', /^application\/json/, what);
          assert.equal(r.body.length, 0, `${what}: no body`);
        } else {
          assertGenericStatus(r, 405, 'MethodNotAllowed', genericMethodNotAllowed, what);
        }
        await assertReusable(c, what);
      }
    }
    // Registered methods on the wrong kind of path are the same 405.
    const { r } = await send(`POST ${item} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    assertGenericStatus(r, 405, 'MethodNotAllowed', genericMethodNotAllowed, 'POST on an item');
    await assertLive();
  });

  test('methods Node does not know (FOO) and CONNECT are answered like any other request, and the connection closed', async () => {
    for (const method of ['FOO', 'BREW', 'X-CUSTOM_1', 'CONNECT']) {
      for (const path of [collection, item]) {
        const what = `${method} ${path}`;
        const { c, r } = await send(`${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n`);
        assertGenericStatus(r, 405, 'MethodNotAllowed', genericMethodNotAllowed, what);
        assert.equal(r?.header('connection'), 'close', what);
        await c.closedWithin(timeoutMs);
        assert.equal(c.error, undefined, `${what}: closed cleanly, not reset`);
      }
      // As upstream, the path decides first: no such resource is 404, whatever the method.
      const { r } = await send(`${method} /api/v1/namespaces/default/nothings HTTP/1.1\r\nHost: x\r\n\r\n`);
      assertGenericStatus(r, 404, 'NotFound', 'the server could not find the requested resource', `${method} on an unknown resource`);
    }
    // CONNECT in authority form addresses no path: 404, as upstream.
    const { r: authority } = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    assertGenericStatus(authority, 404, 'NotFound', 'the server could not find the requested resource', 'CONNECT host:port');
    // Answers stay in order behind a pipelined request.
    const c = await open();
    c.write(`GET /version HTTP/1.1\r\nHost: x\r\n\r\nFOO ${collection} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal((await c.response({ timeoutMs }))?.code, 200, 'the pipelined GET first');
    assertGenericStatus(await c.response({ timeoutMs }), 405, 'MethodNotAllowed', genericMethodNotAllowed, 'then the FOO');
    await c.closedWithin(timeoutMs);
    await assertLive();
  });

  test('oversized request heads get 431 as Go writes it, delivered before a clean close', async () => {
    const big = 'a'.repeat(overLimit);
    const cases: [string, string][] = [
      ['a huge query string', `GET ${collection}?labelSelector=${big} HTTP/1.1\r\nHost: x\r\n\r\n`],
      ['a huge header value', `GET ${collection} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`],
      ['a huge request line', `GET /${big} HTTP/1.1\r\nHost: x\r\n\r\n`],
      ['a flood of small headers', `GET ${collection} HTTP/1.1\r\nHost: x\r\n${'a:b\r\n'.repeat(Math.ceil(overLimit / 5))}\r\n`],
      ['many headers of some size', `GET ${collection} HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-H-${i}: ${'v'.repeat(600)}\r\n`).join('')}\r\n`],
      ['a huge head with an unknown method', `FOO ${collection} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`],
    ];
    for (const [what, request] of cases) {
      const { c, r } = await send(request);
      assertPlain(r, 'HTTP/1.1 431 Request Header Fields Too Large', what);
      await c.closedWithin(timeoutMs);
      assert.equal(c.error, undefined, `${what}: the answer arrives and the connection closes without a reset`);
    }
    // The second request of a keep-alive connection is refused the same way.
    const c = await open();
    c.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal((await c.response({ timeoutMs }))?.code, 200);
    c.write(`GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    assertPlain(await c.response({ timeoutMs }), 'HTTP/1.1 431 Request Header Fields Too Large', 'second request');
    await c.closedWithin(timeoutMs);
    assert.equal(c.error, undefined);
    await assertLive();
  });

  test('heads up to upstream\'s 1 MiB limit are served', async () => {
    const { c, r } = await send(`GET ${collection}?limit=5&x=${'a'.repeat(1 << 20)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal(r?.code, 200, r?.text.slice(0, 300));
    assert.equal(JSON.parse(r.text).kind, 'ConfigMapList');
    await assertReusable(c, '1 MiB query');
    const { r: headers } = await send(`GET ${collection} HTTP/1.1\r\nHost: x\r\n${'a:b\r\n'.repeat(190_000)}Connection: close\r\n\r\n`);
    assert.equal(headers?.code, 200, '190,000 tiny headers (under 1 MiB on the wire)');
  });

  test('Upgrade requests (h2c, websocket) are served as ordinary requests and never leave the connection hanging', async () => {
    const upgrades: [string, string][] = [
      ['h2c', 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n'],
      ['websocket', 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'],
      ['websocket, keep-alive', 'Connection: keep-alive, Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n'],
    ];
    const paths: [string, (r: RawResponse) => void][] = [
      [collection, (r) => assert.equal(JSON.parse(r.text).kind, 'ConfigMapList')],
      [item, (r) => assert.equal(JSON.parse(r.text).metadata.name, 'some-config')],
      ['/version', (r) => assert.equal(typeof JSON.parse(r.text).gitVersion, 'string')],
      ['/api', (r) => assert.equal(JSON.parse(r.text).kind, 'APIVersions')],
      ['/healthz', (r) => assert.equal(r.text, 'ok')],
    ];
    for (const [kind, headers] of upgrades) {
      for (const [path, check] of paths) {
        for (const then of ['oversized', 'normal', 'pipelined']) {
          const what = `${kind} ${path}, then a ${then} request`;
          const c = await open();
          const follow = then === 'oversized'
            ? `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(overLimit)}\r\n\r\n`
            : 'GET /version HTTP/1.1\r\nHost: x\r\n\r\n';
          const request = `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
          c.write(then === 'pipelined' ? request + follow : request);
          const r = await c.response({ timeoutMs });
          assert.equal(r?.code, 200, `${what}: ${r?.statusLine} ${r?.text}`);
          check(r);
          if (then !== 'pipelined') await assertWorksOrClosed(c, follow, what);
          else {
            const next = await c.response({ timeoutMs });
            if (next) assert.equal(next.code, 200, what);
            else assert.ok(c.closed, what);
          }
        }
      }
    }
    await assertLive();
  });

  test('malformed request lines, versions and Host headers get Go\'s plain-text 400 or 505', async () => {
    const cases: [string, string, string][] = [
      ['two Host headers', `GET ${collection} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, 'HTTP/1.1 400 Bad Request: too many Host headers'],
      ['two Host headers, differently cased', `GET ${collection} HTTP/1.1\r\nHost: a\r\nhOST: a\r\n\r\n`, 'HTTP/1.1 400 Bad Request: too many Host headers'],
      ['no Host header on HTTP/1.1', `GET ${collection} HTTP/1.1\r\nAccept: */*\r\n\r\n`, 'HTTP/1.1 400 Bad Request: missing required Host header'],
      ['a malformed Host header', `GET ${collection} HTTP/1.1\r\nHost: a b\r\n\r\n`, 'HTTP/1.1 400 Bad Request: malformed Host header'],
      ['no HTTP version', `GET ${collection}\r\nHost: x\r\n\r\n`, 'HTTP/1.1 400 Bad Request'],
      ['HTTP/2.0', `GET ${collection} HTTP/2.0\r\nHost: x\r\n\r\n`, 'HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version'],
      ['HTTP/3.0', `GET ${collection} HTTP/3.0\r\nHost: x\r\n\r\n`, 'HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version'],
      ['a garbage version', `GET ${collection} HTTP/1.x\r\nHost: x\r\n\r\n`, 'HTTP/1.1 400 Bad Request'],
      ['another protocol', `GET ${collection} SPDY/3\r\nHost: x\r\n\r\n`, 'HTTP/1.1 400 Bad Request'],
      ['a request line of one word', 'GET\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
      ['a relative target', 'GET api/v1 HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
      ['binary garbage', '\u0000\u0001\u0002\u00ff\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
      ['a control character in a header value', `GET ${collection} HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n`, 'HTTP/1.1 400 Bad Request: invalid header value'],
      ['a space in a header name', `GET ${collection} HTTP/1.1\r\nHost: x\r\nX A: b\r\n\r\n`, 'HTTP/1.1 400 Bad Request'],
      ['an unknown method with HTTP/2.0', `FOO ${collection} HTTP/2.0\r\nHost: x\r\n\r\n`, 'HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version'],
      ['an unknown method without a version', `FOO ${collection}\r\nHost: x\r\n\r\n`, 'HTTP/1.1 400 Bad Request'],
      ['an unknown method with two Host headers', `FOO ${collection} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, 'HTTP/1.1 400 Bad Request: too many Host headers'],
    ];
    for (const [what, request, statusLine] of cases) {
      const { c, r } = await send(request);
      assertPlain(r, statusLine, what);
      await c.closedWithin(timeoutMs);
    }
    // HTTP/1.0 needs no Host, as in Go.
    const { r } = await send(`GET ${collection} HTTP/1.0\r\n\r\n`);
    assert.equal(r?.code, 200);
    await assertLive();
  });

  test('paths no route can start with are 404 Status, not 500; absolute-form targets are served by their path', async () => {
    for (const target of ['//[', '/\\x', '//api/v1/namespaces', '/\\\\', '*']) {
      const { r } = await send(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assertGenericStatus(r, 404, 'NotFound', 'the server could not find the requested resource', target);
    }
    const { r: options } = await send('OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(options?.code, 200, 'OPTIONS * is answered by Go itself');
    assert.equal(options.header('content-length'), '0');
    const { r: absolute } = await send(`GET https://example.com${item} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(absolute?.code, 200, absolute?.text);
    assert.equal(JSON.parse(absolute.text).metadata.name, 'some-config');
    const { r: badParam } = await send('GET /healthz/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.ok(badParam && badParam.code >= 400 && badParam.code < 500, badParam?.statusLine);
    await assertLive();
  });

  test('warnings with characters beyond Latin-1 or control characters never fail a request; long ones are truncated as upstream', async () => {
    const post = async (body: string) => {
      const bytes = Buffer.from(body, 'utf8');
      const { r } = await send(Buffer.concat([
        Buffer.from(`POST ${collection} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`, 'latin1'),
        bytes,
      ]));
      assert.ok(r);
      // Header bytes are UTF-8, as Go writes them.
      return { r, warnings: r.all('warning').map((w) => Buffer.from(w, 'latin1').toString('utf8')) };
    };
    const { r, warnings } = await post('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w1"},"ünïcödé":1,"emoji🚀":2,"ctl\\u0001\\n":3,"back\\\\slash\\"quote":4}');
    assert.equal(r.code, 201, r.text);
    assert.ok(warnings.includes('299 - "unknown field \\"ünïcödé\\""'), JSON.stringify(warnings));
    assert.ok(warnings.includes('299 - "unknown field \\"emoji🚀\\""'), JSON.stringify(warnings));
    for (const w of warnings) assert.doesNotMatch(w, /[\u0000-\u001f\u007f]/, 'no control character reaches a header');

    // 30 warnings of 316 characters pass the 4096 total: from then on each is cut to 256 characters,
    // and once the cut ones fill 4096 again the rest are dropped.
    const fields = Array.from({ length: 30 }, (_, i) => `"${String(i).padStart(2, '0')}${'x'.repeat(298)}":1`).join(',');
    const long = await post(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w2"},${fields}}`);
    assert.equal(long.r.code, 201, long.r.text);
    assert.equal(long.warnings.length, 16, JSON.stringify(long.warnings.map((w) => w.slice(0, 40))));
    for (const [i, w] of long.warnings.entries()) {
      const text = w.slice('299 - "'.length, -1).replace(/\\(["\\])/g, '$1');
      assert.equal([...text].length, 256, `warning ${i} is cut to 256 characters`);
      assert.ok(text.startsWith(`unknown field "${String(i).padStart(2, '0')}xxx`), text.slice(0, 40));
    }
    await assertLive();
  });

  test('seeded random hostile request heads never get a 5xx (but Go\'s 505 for HTTP/2 and up), never hang, and the server stays up', async () => {
    const r = seededRandom(20261124);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const methods = ['GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'FOO', 'PROPFIND', 'CONNECT', 'M-SEARCH', 'TRACE', 'get', 'BREW', 'PRI', 'G@T', ''];
    const paths = [
      collection, item, '/api', '/api/v1', '/apis', '/apis/apps/v1/namespaces/default/statefulsets', '/version', '/healthz', '/livez/ping',
      '/openapi/v2', '/openapi/v3', '//x', '//[', '/\\x', '/%00', '/%ff%fe%', '/api/v1/namespaces/%2e%2e/configmaps', `${collection}?labelSelector=%ZZ`,
      `${collection}?limit=-1&continue=%%%`, `${collection}/${'%C3%A9'.repeat(50)}`, '/api/v1/namespaces/\u00e9/configmaps', '*', 'https://h/api/v1',
      'example.com:443', `/${'a'.repeat(5000)}`, '/api/v1/namespaces/default/configmaps/x/status/../../..', '/api/v1/%2F%2F', '/?#', '/a#b?c',
    ];
    const versions = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/3.0', 'HTTP/0.9', '', 'HTTP/1.x', 'http/1.1', 'HTTP/1.1 junk', 'HTTP/11'];
    const extras: (() => string)[] = [
      () => '',
      () => 'Connection: close\r\n',
      () => 'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n',
      () => 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n',
      () => 'Upgrade: websocket\r\n',
      () => 'Connection: upgrade\r\n',
      () => 'Host: second\r\n',
      () => `X-Flood: ${'f'.repeat(Math.floor(r() * 70_000))}\r\n`,
      () => Array.from({ length: Math.floor(r() * 3000) }, (_, i) => `X-${i}: ${i}\r\n`).join(''),
      () => 'X-Ctl: a\u0000b\r\n',
      () => 'X Bad: 1\r\n',
      () => ' folded: line\r\n',
      () => 'Accept: application/json;as=Table;g=meta.orch.io;v=v1\r\n',
      () => 'Accept: \u00ff\u00fe\r\n',
      () => 'Expect: 100-continue\r\n',
      () => 'Expect: teapot\r\n',
      () => 'Content-Length: 0\r\nTransfer-Encoding: chunked\r\n',
      () => 'Content-Length: 1\r\nContent-Length: 2\r\n',
      () => 'Transfer-Encoding: gzip\r\n',
    ];
    const failures: string[] = [];
    for (let i = 0; i < 300; i++) {
      const method = pick(methods);
      const path = pick(paths);
      const version = pick(versions);
      const host = pick(['Host: x\r\n', 'Host: x\r\n', 'Host: x\r\n', '', 'Host: a b\r\n', 'Host: x\r\nHost: y\r\n']);
      let headers = host;
      for (let n = Math.floor(r() * 3); n > 0; n--) headers += pick(extras)();
      let body = '';
      if (['POST', 'PUT', 'PATCH'].includes(method) && r() < 0.7 && !headers.includes('Content-Length') && !headers.includes('Transfer-Encoding')) {
        body = pick(['{}', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz"}}', 'null', '\u0000\u00ff', '[', '']);
        headers += `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\r\n`;
      } else if (headers.includes('Transfer-Encoding: chunked')) {
        body = '0\r\n\r\n';
      }
      const requestLine = version ? `${method} ${path} ${version}` : `${method} ${path}`;
      const request = `${requestLine}\r\n${headers}\r\n${body}`;
      const what = `#${i} ${JSON.stringify(`${requestLine.slice(0, 120)} | ${headers.slice(0, 200)}`)}`;
      const c = await open();
      try {
        c.write(request);
        const first = await c.response({ timeoutMs, head: method === 'HEAD' });
        if (!first) {
          failures.push(`${what}: closed without an answer (${c.error ?? 'clean close'})`);
          continue;
        }
        // 505 is Go's answer to another HTTP major version, and only to that.
        const otherVersion = /^HTTP\/[02-9]\.\d$/.test(version);
        if (first.code >= 500 && !(first.code === 505 && otherVersion)) failures.push(`${what}: ${first.statusLine} ${first.text.slice(0, 200)}`);
        if (otherVersion && first.code !== 505 && first.code !== 400 && first.code !== 431) failures.push(`${what}: ${first.statusLine} for ${version}`);
        // Whatever came before, the connection now serves a request or is closed; it does not hang.
        c.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
        const next = await c.response({ timeoutMs });
        if (next && next.code >= 500) failures.push(`${what} then GET /version: ${next.statusLine}`);
      } catch (e) {
        failures.push(`${what}: ${(e as Error).message}`);
      } finally {
        c.destroy();
      }
    }
    assert.deepEqual(failures, []);
    await assertLive();
  });
});
