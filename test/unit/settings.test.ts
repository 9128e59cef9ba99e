import test from "ava";
import { loadSettings, publicBaseUrl } from "../../src/config";

test("without variables: links on localhost:3000, 40 MB uploads, week-long file URLs, payouts of 500, local storage", (t) => {
  const settings = loadSettings({});
  t.like(settings, {
    frontendUrl: undefined,
    secretKeyBase: undefined,
    inboxHmacKey: undefined,
    payoutBatchSize: 500,
    maxUploadBytes: 40 * 1024 * 1024,
    fileUrlTtlSeconds: 7 * 86_400,
    storage: { service: "local" },
  });
  t.is(publicBaseUrl(settings), "http://localhost:3000");
});

test("FRONTEND_URL loses its trailing slashes; sizes and counts that are not positive fall back to the defaults", (t) => {
  const settings = loadSettings({
    FRONTEND_URL: "https://chat.example.com//",
    MAXIMUM_FILE_UPLOAD_SIZE: "2.7",
    SCHEDULING_PAYOUT_BATCH_SIZE: "25",
    FILE_URL_EXPIRES_IN: "600",
  });
  t.is(publicBaseUrl(settings), "https://chat.example.com");
  t.like(settings, { maxUploadBytes: 2 * 1024 * 1024, payoutBatchSize: 25, fileUrlTtlSeconds: 600 });

  const fallback = loadSettings({ MAXIMUM_FILE_UPLOAD_SIZE: "0.5", SCHEDULING_PAYOUT_BATCH_SIZE: "1.5", FILE_URL_EXPIRES_IN: "-1" });
  t.like(fallback, { maxUploadBytes: 40 * 1024 * 1024, payoutBatchSize: 500, fileUrlTtlSeconds: 7 * 86_400 });
});

test("a misconfigured storage stops loading the settings, so a process fails at start rather than at its first upload", (t) => {
  t.throws(() => loadSettings({ ACTIVE_STORAGE_SERVICE: "amazon" }), { message: /S3_BUCKET_NAME is required/ });
});

test("without FRONTEND_URL, links point at the port the service listens on (PORT)", (t) => {
  t.is(publicBaseUrl(loadSettings({ PORT: "3999" })), "http://localhost:3999");
  t.is(publicBaseUrl(loadSettings({ PORT: "3999", FRONTEND_URL: "https://chat.example.com" })), "https://chat.example.com");
});
