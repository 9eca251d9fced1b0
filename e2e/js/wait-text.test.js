import { tryAgainText, waitText } from "/js/ui/wait-text.js";
import { equal, suite } from "./assert.js";

const test = suite("wait text");

test("seconds under a minute", () => {
  equal(waitText(1), "1 second");
  equal(waitText(2), "2 seconds");
  equal(waitText(59), "59 seconds");
  equal(waitText(0.2), "1 second");
});

test("minutes, rounded up, up to an hour and a half", () => {
  equal(waitText(60), "1 minute");
  equal(waitText(61), "2 minutes");
  equal(waitText(900), "15 minutes");
  equal(waitText(5400), "90 minutes");
});

test("hours beyond that, rounded up", () => {
  equal(waitText(5401), "2 hours");
  equal(waitText(7200), "2 hours");
  equal(waitText(86400), "24 hours");
});

test("nothing usable waits at least a second", () => {
  equal(waitText(0), "1 second");
  equal(waitText(-5), "1 second");
  equal(waitText(NaN), "1 second");
  equal(waitText(undefined), "1 second");
});

test("the sentence", () => {
  equal(tryAgainText(900), "Try again in 15 minutes.");
  equal(tryAgainText(1), "Try again in 1 second.");
  equal(tryAgainText("120"), "Try again in 2 minutes.");
});

test("no Retry-After: try again in a moment", () => {
  for (const none of [null, undefined, 0, -3, NaN, "soon"]) equal(tryAgainText(none), "Try again in a moment.", String(none));
});
