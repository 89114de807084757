// Which addresses web_fetch may connect to: ipaddr.js's special-purpose ranges, IPv6 forms that carry
// an IPv4 address judged by it, and the user's `webFetch` setting as the only way past them.
import assert from "node:assert/strict";
import {
  addressRefusal,
  classifyAddress,
  normalizeHost,
  privateAccess,
} from "../../../../src/tools/web-fetch/addresses";
import { checkUrl } from "../../../../src/tools/web-fetch/urls";

const none = privateAccess(undefined);

describe("web_fetch addresses", () => {
  it("passes public unicast addresses, IPv4 and IPv6, also when IPv6 carries a public IPv4", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ])
      assert.deepEqual(classifyAddress(address), { kind: "public" }, address);
  });

  it("needs the setting for loopback, private, link-local, unique-local and other special-purpose ranges", () => {
    const table: [string, string][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.255.254", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "linkLocal"],
      ["100.64.0.1", "carrierGradeNat"],
      ["192.0.2.1", "reserved"],
      ["240.0.0.1", "reserved"],
      ["::1", "loopback"],
      ["fe80::1", "linkLocal"],
      ["fc00::1", "uniqueLocal"],
      ["fd12:3456::1", "uniqueLocal"],
      ["2001:db8::1", "reserved"],
      ["fec0::1", "deprecatedSiteLocal"],
      ["2002:7f00:1::", "6to4"],
      ["2001::1", "teredo"],
      // IPv6 that carries an IPv4 address is that address.
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:a9fe:a9fe", "linkLocal"],
      ["::ffff:10.0.0.1", "private"],
      ["64:ff9b::7f00:1", "loopback"],
      ["64:ff9b:1::1", "rfc6052"],
      ["::7f00:1", "ipv4Compatible"],
    ];
    for (const [address, range] of table)
      assert.deepEqual(classifyAddress(address), { kind: "special", range }, address);
  });

  it("never connects to unspecified, broadcast or multicast addresses, whatever the setting", () => {
    const all = privateAccess({ allowPrivate: true, allowHosts: ["0.0.0.0/0", "::/0", "zero"] });
    for (const address of ["0.0.0.0", "0.1.2.3", "255.255.255.255", "224.0.0.1", "::", "ff02::1", "::ffff:0.0.0.0"]) {
      assert.equal(classifyAddress(address).kind, "never", address);
      assert.match(addressRefusal("zero", address, all)!, /names no server/, address);
    }
  });

  it("refuses by default and says which setting would allow it", () => {
    assert.equal(
      addressRefusal("169.254.169.254", "169.254.169.254", none),
      "169.254.169.254 is a link-local address (the cloud metadata service lives there); web_fetch reaches such addresses only when the app setting webFetch.allowPrivate or webFetch.allowHosts allows it",
    );
    assert.match(addressRefusal("localhost", "127.0.0.1", none)!, /^localhost \(127\.0\.0\.1\) is a loopback address/);
    assert.match(
      addressRefusal("[::ffff:7f00:1]", "::ffff:7f00:1", none)!,
      /^::ffff:7f00:1 \(127\.0\.0\.1\) is a loopback/,
    );
    assert.equal(addressRefusal("example.com", "93.184.215.14", none), undefined);
  });

  it("reads every spelling of 127.0.0.1 the URL parser knows as 127.0.0.1 before judging it", () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://2130706433/",
      "http://0x7f000001/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
      "http://0177.0.0.01/",
      "http://127.1/",
      "http://127.0.1/",
      "http://%31%32%37.0.0.1/",
    ]) {
      const host = checkUrl(url).hostname;
      assert.equal(host, "127.0.0.1", url);
      assert.ok(addressRefusal(host, normalizeHost(host), none), url);
    }
    const mapped = checkUrl("http://[::ffff:127.0.0.1]:8080/").hostname;
    assert.equal(mapped, "[::ffff:7f00:1]");
    assert.ok(addressRefusal(mapped, normalizeHost(mapped), none));
  });

  it("allows everything private with allowPrivate, the metadata address included", () => {
    const all = privateAccess({ allowPrivate: true });
    for (const address of ["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "fd00::1", "::ffff:192.168.0.1"])
      assert.equal(addressRefusal("h", address, all), undefined, address);
  });

  it("allows a listed host name whatever it resolves to, and listed addresses and ranges in either IP form", () => {
    const access = privateAccess({
      allowHosts: ["Intranet.Example.", "10.0.0.0/8", "::1", "::ffff:192.168.0.0/112", "172.16.5.4"],
    });
    assert.deepEqual([...access.hosts], ["intranet.example"]);
    const allowed: [string, string][] = [
      ["intranet.example", "192.168.77.1"],
      ["INTRANET.example.", "127.0.0.1"],
      ["db", "10.200.0.1"],
      ["db", "::ffff:10.200.0.1"],
      ["[::1]", "::1"],
      ["nas", "192.168.3.4"],
      ["172.16.5.4", "172.16.5.4"],
    ];
    for (const [host, address] of allowed) assert.equal(addressRefusal(host, address, access), undefined, host);
    const refused: [string, string][] = [
      ["127.0.0.1", "127.0.0.1"],
      ["other.example", "172.20.0.9"],
      ["db", "169.254.169.254"],
      ["nas", "172.16.5.5"],
      ["nas", "::ffff:172.16.9.9"],
    ];
    for (const [host, address] of refused) assert.ok(addressRefusal(host, address, access), `${host} ${address}`);
  });
});
