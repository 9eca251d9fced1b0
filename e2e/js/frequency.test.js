import { frequencyDecimals, frequencyMHz, formatFrequency, isFrequency, parseFrequency } from "/js/ui/frequency.js";
import { assert, equal } from "./assert.js";
import { suite } from "./assert.js";

const test = suite("frequency");

// Every code the server hands out (FrequencyBand.fm in
// Sources/WavelengthCore/FrequencyDial.swift): the FM band's odd tenths,
// then every hundredth and thousandth that doesn't end in 0.
function serverCodes() {
  const codes = [];
  for (let tenths = 875; tenths <= 1079; tenths += 2) codes.push(`${Math.floor(tenths / 10)}.${tenths % 10}`);
  for (let hundredths = 8750; hundredths <= 10799; hundredths += 1) {
    if (hundredths % 10 === 0) continue;
    codes.push(`${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`);
  }
  for (let thousandths = 87500; thousandths <= 107999; thousandths += 1) {
    if (thousandths % 10 === 0) continue;
    codes.push(`${Math.floor(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, "0")}`);
  }
  return codes;
}

test("the server's codes include fine steps like 98.35 and 98.357", () => {
  const codes = serverCodes();
  assert(codes.includes("107.3") && codes.includes("98.35") && codes.includes("87.55"), "the list is the server's");
  assert(codes.includes("98.357") && codes.includes("107.999"), "thousandths too");
  equal(codes.length, 20398);
});

test("every code the server hands out is accepted as is", () => {
  for (const code of serverCodes()) {
    equal(isFrequency(code), true, code);
    equal(parseFrequency(code), code, code);
  }
});

test("98.35 is a frequency (join.js used to refuse it)", () => {
  equal(parseFrequency("98.35"), "98.35");
});

test("shapes the server refuses are refused", () => {
  // FrequencyDial.isWellFormed: 2–3 ASCII digits, a dot, 1–3 ASCII digits.
  for (const bad of ["", "98", "98.", ".5", "9.5", "1000.1", "98.3555", "98.3a", "a98.3", "98..3", "98.3.5", "٩٨.٣", "98 .3", "-98.3", "+98.3"]) {
    equal(isFrequency(bad), false, bad);
    equal(parseFrequency(bad), null, bad);
  }
});

test("only strings are codes", () => {
  for (const bad of [null, undefined, 98.3, {}, ["98.3"]]) {
    equal(isFrequency(bad), false, String(bad));
    equal(parseFrequency(bad), null, String(bad));
  }
});

test("typing is forgiven: spaces, a decimal comma, a trailing FM", () => {
  equal(parseFrequency("  98.35 "), "98.35");
  equal(parseFrequency("98,35"), "98.35");
  equal(parseFrequency("107.3 FM"), "107.3");
  equal(parseFrequency("107.3fm"), "107.3");
});

test("a code is kept exactly: the server finds stations by the string", () => {
  equal(parseFrequency("98.30"), "98.30");
  equal(parseFrequency("098.3"), "098.3");
});

test("format, MHz and decimals", () => {
  equal(formatFrequency("107.3"), "107.3 FM");
  equal(formatFrequency("98.35"), "98.35 FM");
  equal(formatFrequency(null), "");
  equal(formatFrequency("nope"), "");
  equal(frequencyMHz("98.35"), 98.35);
  assert(Number.isNaN(frequencyMHz("98")), "98 has no place on the band");
  equal(frequencyDecimals("98.35"), 2);
  equal(frequencyDecimals("107.3"), 1);
  equal(frequencyDecimals(null), 1);
});
