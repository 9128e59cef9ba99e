import test from "ava";
import { SchedulingError } from "../../src/scheduling/errors";
import { iinChecksumValid, iinMetadata, normalizeIdentifier } from "../../src/scheduling/iin";
import { normalizePhone } from "../../src/scheduling/phone";

test("IIN checksum: 940720300129 is valid, a wrong check digit is not", (t) => {
  t.true(iinChecksumValid("940720300129"));
  t.false(iinChecksumValid("940720300128"));
  t.false(iinChecksumValid("123456789012"));
});

test("IIN checksum falls back to the second weights when the first sum gives 10", (t) => {
  // A single 1 in the 10th position: weight 10 gives 10, so the second weights apply, where it weighs 1.
  t.true(iinChecksumValid("000000000101"));
  t.false(iinChecksumValid("000000000100"));
});

test("IIN-like identifiers are normalised to their digits and must pass the checksum; others pass untouched", (t) => {
  t.is(normalizeIdentifier("940 720 300 129"), "940720300129");
  t.is(normalizeIdentifier(" passport-77 "), "passport-77");
  const error = t.throws(() => normalizeIdentifier("940720300128"), { instanceOf: SchedulingError });
  t.deepEqual(error?.body, { error: "IIN checksum is invalid", code: "INVALID_IIN" });
});

test("birth date and gender come from YYMMDD and the century digit", (t) => {
  t.deepEqual(iinMetadata("940720300129"), { birth_date: "1994-07-20", gender: "male" });
  t.deepEqual(iinMetadata("050101600000"), { birth_date: "2005-01-01", gender: "female" });
  t.is(iinMetadata("940720000129"), undefined, "century digit 0 is foreign");
  t.is(iinMetadata("940230300129"), undefined, "February 30th is not a date");
});

test("phone numbers are normalised Kazakhstan-first", (t) => {
  t.is(normalizePhone("+49 30 1234567"), "+49301234567");
  t.is(normalizePhone("7012345678"), "+77012345678");
  t.is(normalizePhone("8 (701) 234-56-78"), "+77012345678");
  t.is(normalizePhone("77012345678"), "+77012345678");
  t.is(normalizePhone("12345"), undefined);
});
