import test from "ava";
import { assertSafeUrl, UnsafeUrlError } from "../../src/lib/safeFetch";

test("private, loopback and link-local targets are refused unless allowed", async (t) => {
  for (const url of ["http://127.0.0.1:8080/x", "http://10.1.2.3/x", "http://192.168.0.5/x", "http://172.20.0.1/x", "http://169.254.169.254/latest", "http://[::1]/x", "http://[fe80::1]/x", "http://localhost/x"]) {
    await t.throwsAsync(assertSafeUrl(url, false), { instanceOf: UnsafeUrlError }, url);
    await t.notThrowsAsync(assertSafeUrl(url, true), url);
  }
});

test("public addresses pass; bad URLs and other schemes never do", async (t) => {
  await t.notThrowsAsync(assertSafeUrl("https://93.184.216.34/hook", false));
  await t.throwsAsync(assertSafeUrl("ftp://93.184.216.34/x", true), { instanceOf: UnsafeUrlError });
  await t.throwsAsync(assertSafeUrl("not a url", true), { instanceOf: UnsafeUrlError });
});
