// The estimator against the fixture the Swift estimator is tested with
// (Tests/Fixtures/clock-estimator.json), so the two copies can't drift.
import { ClockEstimator, probeOffset, probeRoundTrip, ServerClock, SlewedClock } from "/js/playback/clock.js";
import { assert, close, deepEqual, equal, suite } from "./assert.js";

const test = suite("clock");

const fixture = await (await fetch("/fixtures/clock-estimator.json")).json();

const same = (sample, probe) =>
  sample.sent === probe.sent && sample.received === probe.received && sample.serverReceived === probe.serverReceived && sample.serverSent === probe.serverSent;
const indexOf = (probes, sample) => probes.findIndex((p) => same(sample, p));

test("the fixture has cases", () => {
  assert(fixture.estimator.length >= 5 && fixture.slewedClock.length >= 1, "cases are missing");
});

for (const c of fixture.estimator) {
  test(`fixture: ${c.name}`, () => {
    const config = c.estimator || {};
    const estimator = new ClockEstimator({ capacity: config.capacity ?? 64, maxAge: config.maxAge ?? 60_000, maxSkew: config.maxSkew ?? 100e-6 });
    c.probes.forEach((probe, index) => {
      const { sent, serverReceived, serverSent, received } = probe;
      const sample = { sent, serverReceived, serverSent, received };
      close(probeRoundTrip(sample), probe.expect.roundTrip, `probe ${index} round trip`);
      if (probe.expect.offset === null) assert(!Number.isFinite(probeOffset(sample)), `probe ${index} offset should not be finite`);
      else close(probeOffset(sample), probe.expect.offset, `probe ${index} offset`);
      equal(estimator.add(sample), probe.expect.accepted, `probe ${index} kept`);
    });
    deepEqual(estimator.samples.map((s) => indexOf(c.probes, s)), c.expect.window, "window");
    deepEqual(estimator.selected().map((s) => indexOf(c.probes, s)), c.expect.selected, "selected");
    const estimate = estimator.estimate;
    if (c.expect.estimate === null) {
      equal(estimate, null, "estimate");
    } else {
      close(estimate.offset, c.expect.estimate.offset, "offset");
      close(estimate.bestRoundTrip, c.expect.estimate.bestRoundTrip, "best round trip");
      equal(estimate.sampleCount, c.expect.estimate.sampleCount, "sample count");
    }
  });
}

for (const c of fixture.slewedClock) {
  test(`fixture: slewed clock: ${c.name}`, () => {
    const clock = new SlewedClock();
    c.updates.forEach((u, index) => {
      clock.update(u.target, u.at, u.playing);
      close(clock.applied, u.expectApplied, `update ${index}`);
    });
  });
}

test("the page clock uses a one-way hint only until a probe is answered", () => {
  const clock = new ServerClock();
  clock.localNow = () => 1_000; // a fixed local instant for the hint
  clock.hint(6_000);
  equal(clock.offset, 5_000);
  // A server that stamps one serverTime: both stamps are taken as that.
  clock.addProbe({ sent: 0, received: 10, serverTime: 1_005 });
  equal(clock.offset, 1_000);
  equal(clock.synced, true);
  clock.hint(clock.localNow() + 99_999);
  equal(clock.offset, 1_000);
});

test("the page clock ignores a probe with a negative round trip", () => {
  const clock = new ServerClock();
  clock.addProbe({ sent: 10, received: 5, serverReceived: 0, serverSent: 0 });
  equal(clock.synced, false);
  equal(clock.estimate, null);
});
