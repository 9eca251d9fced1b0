// The one frequency field, used where someone types a station's code: the
// dial's "Know a frequency?" and the join screen. Its length fits the
// longest code the server hands out ("107.999"); what is typed is read by
// parseFrequency in ui/frequency.js.

import { h } from "./dom.js";

/**
 * @param {{id: string, describedBy: string, required?: boolean}} options
 * @returns {HTMLInputElement}
 */
export function createFrequencyInput({ id, describedBy, required = false }) {
  const attributes = {
    id,
    class: "input input-freq",
    type: "text",
    inputmode: "decimal",
    autocomplete: "off",
    placeholder: "107.3",
    maxlength: "9", // "107.999", or "98,35 FM" before it is tidied
    "aria-describedby": describedBy,
  };
  if (required) attributes.required = true;
  return h("input", attributes);
}
