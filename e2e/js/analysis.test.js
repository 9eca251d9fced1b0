import { analysisText } from "/js/views/analysis-status.js";
import { equal, suite } from "./assert.js";

const test = suite("analysis");

test("the library line says how far the measuring has come, and nothing for an empty library", () => {
  equal(analysisText({ analyzed: 0, total: 0, running: false }), "");
  equal(analysisText({ analyzed: 120, total: 500, running: true }), "Measuring loudness and tempo: 120 of 500 songs (24%).");
  equal(analysisText({ analyzed: 120, total: 500, running: false }), "120 of 500 songs measured for loudness and tempo.");
  equal(analysisText({ analyzed: 500, total: 500, running: false }), "Every one of the 500 songs is measured for loudness and tempo.");
  equal(analysisText({ analyzed: 1, total: 1, running: false }), "Every song is measured for loudness and tempo.");
  equal(analysisText({ analyzed: 0, total: 1, running: true }), "Measuring loudness and tempo: 0 of 1 song (0%).");
});
