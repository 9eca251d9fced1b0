// Why a station's own screen (its history, its schedule) can't open: no
// such station, not for you yet (tune in with a code or an invite first),
// or the server's own message; with the way back.

import { h } from "./dom.js";
import { stationHref } from "../router.js";

/** The notice for `error` on the screen named `what` ("history", "schedule"). */
export function stationProblem(stationID, error, what) {
  const denied = error.status === 401 || error.status === 403;
  const notFound = error.status === 404;
  return h(
    "div",
    { class: "notice notice-error big-notice", role: "alert" },
    h("h2", {}, notFound ? "No station here" : denied ? `This ${what} is for the station's listeners` : `Can't open the ${what}`),
    h("p", {}, notFound ? "Nothing is broadcasting with that id." : denied ? "Tune in first: join with the station's access code or an invite, then come back." : error.message),
    h(
      "p",
      { class: "over-actions" },
      notFound ? null : h("a", { class: "btn btn-primary", href: stationHref(stationID) }, "Go to the station"),
      h("a", { class: notFound ? "btn btn-primary" : "btn btn-secondary", href: "#/" }, "Back to the dial"),
    ),
  );
}
